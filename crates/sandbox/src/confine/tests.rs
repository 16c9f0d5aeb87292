use super::*;

#[test]
fn a_confinement_reads_back_from_its_arguments() {
    let confinement = Confinement {
        paths: Paths {
            read: vec!["/usr".into(), "/grader".into()],
            write: vec!["/scratch".into()],
        },
        program: "/usr/bin/swipl".into(),
    };
    let mut args = confinement.to_args();
    args.extend(["-q".into(), "--".into(), "x".into()]);
    let (back, rest) = Confinement::parse(args).unwrap();
    assert_eq!(back, confinement);
    assert_eq!(rest, ["-q", "--", "x"]);
}

#[test]
fn malformed_arguments_are_named() {
    let parse = |args: &[&str]| Confinement::parse(args.iter().map(OsString::from));
    assert_eq!(
        parse(&["--bogus", "x"]).unwrap_err(),
        "unexpected argument \"--bogus\""
    );
    assert_eq!(parse(&["--read"]).unwrap_err(), "--read needs a path");
    assert_eq!(
        parse(&["--read", "/usr"]).unwrap_err(),
        "no `--` before the program"
    );
    assert_eq!(parse(&["--"]).unwrap_err(), "no program after `--`");
}

#[test]
fn other_arguments_are_left_to_the_caller() {
    assert!(confine_main(&[]).is_none());
    assert!(confine_main(&["score".into(), CONFINE_ARG.into()]).is_none());
    let e = confine_main(&[CONFINE_ARG.into(), "--read".into()]).unwrap();
    assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
}
