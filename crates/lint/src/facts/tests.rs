use super::*;

#[test]
fn facts_are_read_and_other_lines_and_short_facts_skipped() {
    let facts = Facts::parse(
        r#"hello from the submission
{"type":"fact","fields":["term","a.pl","2","4","clause","foo","2","1"]}
{"type":"fact","fields":["comment","a.pl","1","1","% a\tb \\ c"]}
{"type":"fact","fields":["call","a.pl","bar","1","foo","2"]}
{"type":"fact","fields":["undefined","a.pl","bar","1","3","foo","2"]}
{"type":"fact","fields":["mode","a.pl","1","1","foo","2"]}
{"type":"fact","fields":["ground","a.pl","5","answer","3","5"]}
{"type":"fact","fields":["unresolved","a.pl","7","foo","2"]}
{"type":"fact","fields":["term","a.pl","2"]}
{"type":"done"}
"#,
    );
    assert_eq!(facts.terms.len(), 1);
    assert_eq!(facts.terms[0].indicator(), "foo/2");
    assert_eq!((facts.terms[0].start, facts.terms[0].end), (2, 4));
    assert_eq!(facts.comments[0].text, "% a\tb \\ c");
    assert_eq!(facts.calls[0].by, "foo/2");
    let undefined = &facts.undefined[0];
    assert_eq!(
        (&*undefined.called, undefined.line, &*undefined.by),
        ("bar/1", 3, "foo/2")
    );
    assert_eq!(facts.modes[0].predicate, "foo/2");
    assert_eq!(
        (&*facts.ground[0].predicate, facts.ground[0].cards),
        ("answer/3", 5)
    );
    assert_eq!(
        (facts.unresolved[0].line, &*facts.unresolved[0].by),
        (7, "foo/2")
    );
}
