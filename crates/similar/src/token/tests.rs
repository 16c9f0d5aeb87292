use super::*;

fn kinds(src: &str) -> Vec<(Kind, String)> {
    tokenize(src)
        .into_iter()
        .map(|t| (t.kind, t.text))
        .collect()
}

#[test]
fn clauses_split_at_the_end_token_only() {
    let src = "a(X) :- X = 'it''s. ok', Y = \"s\", Z is 1.5e3 + 0'a + 0x1F. % c\n/* x.\n */ b.";
    let cs = clauses(tokenize(src));
    assert_eq!(cs.len(), 2);
    assert_eq!(cs[1][0].line, 3);
    let first: Vec<String> = cs[0].iter().map(|t| t.text.clone()).collect();
    assert!(first.contains(&"it''s. ok".to_string()), "{first:?}");
    assert!(first.contains(&"1.5e3".to_string()) && first.contains(&"0'a".to_string()));
    assert!(first.contains(&"0x1F".to_string()));
}

#[test]
fn symbols_and_variables() {
    assert_eq!(
        kinds("X =.. [_A|T], \\+ a :- !"),
        vec![
            (Kind::Var, "X".into()),
            (Kind::Atom, "=..".into()),
            (Kind::Punct, "[".into()),
            (Kind::Var, "_A".into()),
            (Kind::Punct, "|".into()),
            (Kind::Var, "T".into()),
            (Kind::Punct, "]".into()),
            (Kind::Punct, ",".into()),
            (Kind::Atom, "\\+".into()),
            (Kind::Atom, "a".into()),
            (Kind::Atom, ":-".into()),
            (Kind::Atom, "!".into()),
        ]
    );
}
