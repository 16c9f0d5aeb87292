use super::*;

#[test]
fn facts_are_read_and_other_lines_and_mistyped_facts_skipped() {
    let facts = Facts::parse(
        r#"hello from the submission
{"type":"term","file":"a.pl","start":2,"end":4,"clause":true,"name":"foo","arity":2,"depth":1}
{"type":"comment","file":"a.pl","start":1,"end":1,"text":"% a\tb \\ c"}
{"type":"call","file":"a.pl","called":"bar/1","by":"foo/2"}
{"type":"undefined","file":"a.pl","called":"bar/1","line":3,"by":"foo/2"}
{"type":"mode","file":"a.pl","start":1,"end":1,"predicate":"foo/2"}
{"type":"ground","file":"a.pl","line":5,"predicate":"answer/3","cards":5}
{"type":"unresolved","file":"a.pl","line":7,"by":"foo/2"}
{"type":"syntax","file":"a.pl","line":9,"text":"operator expected"}
{"type":"declared","file":"a.pl","predicate":"foo/2","kind":"dynamic"}
{"type":"library","predicate":"last/2"}
{"type":"term","file":"a.pl","start":"2"}
{"type":"term","file":"a.pl","start":-1,"end":4,"clause":true,"name":"foo","arity":2,"depth":1}
{"type":"nonsense","file":"a.pl"}
{"type":"done"}
"#,
    );
    assert_eq!(facts.terms.len(), 1);
    assert_eq!(facts.terms[0].indicator(), "foo/2");
    assert_eq!((facts.terms[0].start, facts.terms[0].end), (2, 4));
    assert!(facts.terms[0].clause);
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
    assert_eq!(
        (facts.syntax[0].line, &*facts.syntax[0].text),
        (9, "operator expected")
    );
    assert_eq!(&*facts.declared[0].kind, "dynamic");
    assert_eq!(facts.library, ["last/2"]);
}
