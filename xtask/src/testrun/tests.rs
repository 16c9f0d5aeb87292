use super::*;

#[test]
fn package_names_come_from_either_form_of_id() {
    let dir = Path::new("/w/crates/grade");
    assert_eq!(
        package_name("path+file:///w/crates/grade#crib-grade@0.1.0", dir),
        "crib-grade"
    );
    assert_eq!(
        package_name("path+file:///w/xtask#0.1.0", Path::new("/w/xtask")),
        "xtask"
    );
}
