use super::*;

#[test]
fn writes_the_pages_and_completions_with_the_batch_options() {
    let dir = tempfile::tempdir().unwrap();
    let (man, completions) = write_man_pages_and_completions(dir.path()).unwrap();
    let page = std::fs::read_to_string(man.join("crib-score.1")).unwrap();
    assert!(page.contains("keep\\-going"), "{page}");
    assert!(man.join("crib-lint.1").exists() && man.join("crib-similar.1").exists());
    let bash = std::fs::read_to_string(completions.join("crib.bash")).unwrap();
    assert!(bash.contains("--keep-going") && bash.contains("select"));
    assert!(completions.join("_crib").exists() && completions.join("crib.fish").exists());
}
