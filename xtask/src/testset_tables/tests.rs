use super::*;

#[test]
fn splice_replaces_only_between_the_markers() {
    let readme = format!(
        "intro\n{}\nold\n{}\nmiddle\n{}\nold b\n{}\nend\n",
        begin("a"),
        end("a"),
        begin("b"),
        end("b")
    );
    let generated = format!(
        "{}\nnew a\n{}\n\n{}\nnew b\n{}\n",
        begin("a"),
        end("a"),
        begin("b"),
        end("b")
    );
    let out = splice(&readme, &generated).unwrap();
    assert_eq!(
        out,
        format!(
            "intro\n{}\nnew a\n{}\nmiddle\n{}\nnew b\n{}\nend\n",
            begin("a"),
            end("a"),
            begin("b"),
            end("b")
        )
    );
    assert_eq!(splice(&out, &generated).unwrap(), out);
    let lacking = format!("{}\nx\n{}\n", begin("a"), end("a"));
    assert!(splice(&lacking, &generated).is_err());
    assert!(splice(&readme, &generated[..generated.find(&begin("b")).unwrap()]).is_err());
}
