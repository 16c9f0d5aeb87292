use super::*;

#[test]
fn reads_estimates_from_criterion() {
    let json = r#"{"mean":{"confidence_interval":{"confidence_level":0.95,"lower_bound":1.0,"upper_bound":3.0},"point_estimate":2.5,"standard_error":0.1},"median":{"confidence_interval":{"confidence_level":0.95,"lower_bound":1.0,"upper_bound":3.0},"point_estimate":1.25e1,"standard_error":0.1}}"#;
    assert_eq!(estimate_nanos(json), Some(2.5), "no slope: the mean");
    let null = json.replace(r#""median":"#, r#""slope":null,"median":"#);
    assert_eq!(estimate_nanos(&null), Some(2.5), "a null slope: the mean");
    let slope = json.replace(
        r#""median":"#,
        r#""slope":{"point_estimate":1.25e1},"median":"#,
    );
    assert_eq!(estimate_nanos(&slope), Some(12.5), "the slope when fitted");
}

#[test]
fn counts_full_marks_in_the_grade_table() {
    let table = "submission  hand_value  select_hand  marks/70  problems\n\
                 s1               78/78       100.0%     70.00  -\n\
                 s2               70/78       100.0%     61.00  -\n";
    assert_eq!(full_marks(table), Some(1));
    assert_eq!(full_marks("no table"), None);
}

#[test]
fn reads_a_row_of_bench_pl() {
    let out = "measure                                      target      measured\n\
               hand_value/3, per call                       2.000 us    1.436 us\n\
               select_hand/3, 6 cards, per call             2.000 ms    0.950 ms\n";
    let us = prolog_row(out, "hand_value/3, per call").unwrap();
    assert!((us - 1.436e-6).abs() < 1e-12);
    let ms = prolog_row(out, "select_hand/3, 6 cards, per call").unwrap();
    assert!((ms - 0.95e-3).abs() < 1e-12);
    assert_eq!(prolog_row(out, "missing"), None);
}

#[test]
fn durations_read_at_a_glance() {
    assert_eq!(human(Duration::from_nanos(3)), "3.000 ns");
    assert_eq!(human(Duration::from_nanos(1_996)), "1.996 us");
    assert_eq!(human(Duration::from_micros(15_600)), "15.60 ms");
    assert_eq!(human(Duration::from_secs(125)), "125.0 s");
}

#[test]
fn the_page_says_it_is_generated() {
    let head = header("2026-11-30");
    assert!(head.starts_with("# Performance\n\n"));
    assert!(head.contains("`cargo xtask bench`") && head.contains("2026-11-30"));
    assert!(head.contains("do not edit it by hand"));
}

#[test]
fn reads_the_limit_a_target_states() {
    assert_eq!(limit("<= 20 ms on 2 cores"), Some(0.020));
    assert_eq!(limit("<= 2 min"), Some(120.0));
    assert_eq!(limit("<= 400 s (Gradescope: 600 s)"), Some(400.0));
    assert_eq!(limit("<= 0.60x on 2 cores"), Some(0.60));
    assert_eq!(limit("none stated"), None);
}

#[test]
fn a_row_shows_the_figure_and_whether_it_meets_the_target() {
    let seconds = row("m", "<= 3 us", Ok(2e-6), "how");
    assert_eq!(seconds, "| m | <= 3 us | 2.000 us | yes | how |\n");
    let ratio = ratio_row("r", "<= 1.10x", Ok(1.2));
    assert_eq!(
        ratio,
        format!("| r | <= 1.10x | 1.20x | no | {FLOOR_HOW} |\n")
    );
    let none = row("e", "none stated", Err("why".into()), "how");
    assert_eq!(none, "| e | none stated | why |  | how |\n");
}
