use super::parse;

#[test]
fn reads_rows_after_comments_and_header() {
    let counts = parse("# note\npoints\tcount\n0\t5\n29\t4\n").unwrap();
    assert_eq!((counts[0], counts[1], counts[29]), (5, 0, 4));
}

#[test]
fn rejects_a_missing_header_and_bad_rows() {
    assert!(parse("0\t5\n").is_err());
    assert!(parse("points\tcount\n30\t1\n").is_err());
    assert!(parse("points\tcount\n3 1\n").is_err());
}
