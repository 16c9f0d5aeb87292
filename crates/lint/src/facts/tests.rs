use super::*;

#[test]
fn facts_are_read_and_other_lines_skipped() {
    let facts = Facts::parse(
        "hello from the submission\n\
         term\ta.pl\t2\t4\tclause\tfoo\t2\t1\n\
         comment\ta.pl\t1\t1\t% a\\tb \\\\ c\n\
         call\ta.pl\tbar\t1\tfoo\t2\n\
         undefined\ta.pl\tbar\t1\t3\tfoo\t2\n\
         mode\ta.pl\t1\t1\tfoo\t2\n\
         ground\ta.pl\t5\tanswer\t3\t5\n\
         unresolved\ta.pl\t7\tfoo\t2\n",
    );
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
