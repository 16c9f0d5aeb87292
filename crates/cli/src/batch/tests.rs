use super::*;

/// Answers a line with the number of its cards; three cards are an error.
struct Count;

#[derive(Serialize)]
struct CountRow {
    line: Option<usize>,
    cards: usize,
}

impl Answerer for Count {
    const HEADER: &'static [&'static str] = &["line", "cards"];

    fn answer(&self, item: Item<'_>, sink: &mut Sink) -> Result<()> {
        if item.cards.len() == 3 {
            bail!("three cards");
        }
        let row = CountRow {
            line: item.line,
            cards: item.cards.len(),
        };
        match sink.format {
            Format::Csv => sink.csv(&row),
            Format::Json => sink.json(&serde_json::json!({"line": row.line, "cards": row.cards})),
            Format::Text => Ok(writeln!(sink.out, "{}", row.cards)?),
        }
    }
}

fn run_batch(input: &str, format: Format, keep_going: bool) -> (String, BatchSummary, Vec<String>) {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    let summary = batch(
        reader(std::io::Cursor::new(input.to_string())),
        &mut out,
        format,
        keep_going,
        &Count,
        |line, e| errors.push(format!("{line}: {e}")),
    )
    .unwrap();
    (String::from_utf8(out).unwrap(), summary, errors)
}

#[test]
fn a_bad_line_stops_the_batch_after_the_lines_before_it() {
    let input = "AS\n# a comment\n\nAS 2S\nAS 1S\nAS 2S 3S\nAS\n";
    let (out, summary, errors) = run_batch(input, Format::Text, false);
    assert_eq!(out, "1\n2\n");
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0].starts_with("5: invalid card \"1S\""),
        "{errors:?}"
    );
    assert_eq!(summary.bad, 1);
}

#[test]
fn keep_going_reports_every_bad_line_and_answers_the_rest() {
    let input = "AS\nAS 1S\nAS 2S 3S\r\nKD\n";
    let (out, summary, errors) = run_batch(input, Format::Text, true);
    assert_eq!(out, "1\n1\n");
    assert_eq!(
        errors,
        [
            "2: invalid card \"1S\": rank must be one of A 2-10 T J Q K",
            "3: three cards"
        ]
    );
    assert_eq!(summary, BatchSummary { hands: 4, bad: 2 });
}

#[test]
fn a_line_that_is_not_utf8_is_a_bad_line() {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    let summary = batch(
        reader(&b"AS\n\xff\xfe\nKD\n"[..]),
        &mut out,
        Format::Text,
        true,
        &Count,
        |l, e| errors.push(format!("{l}: {e}")),
    )
    .unwrap();
    assert_eq!(summary.bad, 1);
    assert!(errors[0].starts_with("2: not UTF-8"), "{errors:?}");
    assert_eq!(out, b"1\n1\n");
}
