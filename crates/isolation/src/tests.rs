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

#[test]
fn layers_have_names_and_round_trip() {
    for (layer, name) in [
        (Layer::Bwrap, "bwrap"),
        (Layer::Seccomp, "seccomp"),
        (Layer::Landlock(4), "landlock-v4"),
    ] {
        assert_eq!(layer.to_string(), name);
        assert_eq!(name.parse::<Layer>(), Ok(layer));
    }
    assert!("landlock-vx".parse::<Layer>().is_err());
    assert!("rlimits".parse::<Layer>().is_err());
}

#[test]
fn isolation_is_a_list_of_layers_in_json() {
    let i = Isolation::from_layers(&[Layer::Seccomp, Layer::Landlock(6)]);
    let json = serde_json::to_string(&i).unwrap();
    assert_eq!(json, r#"["seccomp","landlock-v6"]"#);
    assert_eq!(serde_json::from_str::<Isolation>(&json).unwrap(), i);
    assert_eq!(i.name(), "seccomp+landlock-v6");
    assert!(i.network() && i.files());
    // An old result (a single name) is not an isolation: --resume grades it again.
    assert!(serde_json::from_str::<Isolation>(r#""bwrap""#).is_err());
    let none = Isolation::default();
    assert_eq!(none.name(), "rlimits only");
    assert!(!none.network() && !none.files());
    assert_eq!(none.warnings().len(), 3, "{:?}", none.warnings());
    let bwrap = Isolation::from_layers(&[Layer::Bwrap, Layer::Seccomp]);
    assert!(bwrap.network() && bwrap.files());
    assert!(bwrap.warnings().is_empty(), "{:?}", bwrap.warnings());
}
