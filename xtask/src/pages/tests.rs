use super::{feedback_problems, missing_sections, problems};

const GOOD: &str = r##"<body data-ready="yes"><figure class="plot"><svg><rect fill="#FFFFFF"/><rect height="9" fill="#0072B2"/></svg></figure></body>"##;

#[test]
fn a_good_page_passes() {
    assert_eq!(
        problems(GOOD, "[1:2:ERROR:dbus/bus.cc(405)] Failed to connect"),
        Ok(())
    );
}

#[test]
fn console_errors_unfinished_scripts_and_empty_plots_fail() {
    let log = "[1:1:INFO:CONSOLE(3)] \"Uncaught TypeError: x is null\", source: file:///r.html (3)";
    assert!(problems(GOOD, log)
        .unwrap_err()
        .contains("Uncaught TypeError"));
    let unfinished = GOOD.replace(" data-ready=\"yes\"", "");
    assert!(problems(&unfinished, "")
        .unwrap_err()
        .contains("did not run"));
    let empty = GOOD.replace(r##"<rect height="9" fill="#0072B2"/>"##, "");
    assert!(problems(&empty, "")
        .unwrap_err()
        .contains("plot 1 is empty"));
    assert!(problems("<body data-ready=\"yes\"></body>", "")
        .unwrap_err()
        .contains("no plot"));
}

#[test]
fn a_missing_section_is_named() {
    let dom = r#"<h2 id="glance"></h2><h2 id="similar">"#;
    assert_eq!(missing_sections(dom, &["glance", "similar"]), Ok(()));
    assert_eq!(
        missing_sections(dom, &["glance", "quality", "similar", "tests"]),
        Err("no section with id quality, tests".to_string())
    );
}

#[test]
fn a_feedback_page_needs_its_viewport_and_parts() {
    let good = r#"<meta name="viewport" content="width=device-width, initial-scale=1"><h2>Marks</h2><h2>hand_value/3</h2><h2>select_hand/3</h2><h2>Code quality</h2>"#;
    assert_eq!(feedback_problems(good, ""), Ok(()));
    let no_viewport = good.replace("viewport", "x");
    assert!(feedback_problems(&no_viewport, "")
        .unwrap_err()
        .contains("no viewport"));
    let no_marks = good.replace("<h2>Marks</h2>", "");
    assert!(feedback_problems(&no_marks, "")
        .unwrap_err()
        .contains("Marks"));
}
