use super::*;

#[test]
fn bubblewrap_statuses_above_128_are_the_program_s_signal() {
    let bwrap = Isolation {
        bwrap: true,
        ..Isolation::default()
    };
    let bare = Isolation::default();
    // 137 from bubblewrap: the program was killed by SIGKILL.
    let killed = ExitStatus::from_raw(137 << 8);
    assert_eq!(bwrap.program_status(killed).signal(), Some(9));
    assert_eq!(bare.program_status(killed).code(), Some(137));
    // Plain exits and real signals are left alone in both modes.
    for raw in [0, 3 << 8, 128 << 8, 9] {
        let status = ExitStatus::from_raw(raw);
        assert_eq!(bwrap.program_status(status), status);
        assert_eq!(bare.program_status(status), status);
    }
}
