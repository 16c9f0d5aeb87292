//! The deep check in words: under a submission's row in the terminal, and as a Gradescope
//! test with no score.

use std::fmt::Write as _;

use crib_core::{cards_text, PAIRS};

use super::{DeepHandValue, DeepReport, DeepSelectHand, Diagnosis, KindCount, SelectExample};

/// Returns `n` with thousands separated by commas: `12,994,800`.
///
/// # Example
/// ```
/// assert_eq!(crib_results::thousands(12_994_800), "12,994,800");
/// assert_eq!(crib_results::thousands(800), "800");
/// ```
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Returns a share (in 0..=1) as a percentage with one decimal that says `100%` or `0%` only
/// when exact: `<0.1%` for a share too small to show, `99.9%` for one just short of all.
///
/// # Example
/// ```
/// assert_eq!(crib_results::percent(0.0), "0%");
/// assert_eq!(crib_results::percent(1.0), "100%");
/// assert_eq!(crib_results::percent(0.0001), "<0.1%");
/// assert_eq!(crib_results::percent(0.2094), "20.9%");
/// assert_eq!(crib_results::percent(0.99999), "99.9%");
/// ```
pub fn percent(share: f64) -> String {
    let p = share * 100.0;
    if share >= 1.0 {
        "100%".into()
    } else if share <= 0.0 || share.is_nan() {
        "0%".into()
    } else if p >= 99.95 {
        "99.9%".into()
    } else if p < 0.05 {
        "<0.1%".into()
    } else {
        format!("{p:.1}%")
    }
}

/// Returns the failing kinds with the pairs (or deals: `unit`) each stands for, as the
/// terminal, Gradescope and the class report write them: `1,234 pairs wrong_answer, 56 pairs
/// exception`.
///
/// # Example
/// ```
/// use crib_results::{kinds_text, FailureKind, KindCount};
/// let kinds = [KindCount { kind: FailureKind::Timeout, items: 2, pairs: 1200 }];
/// assert_eq!(kinds_text(&kinds, "deals"), "1,200 deals timeout");
/// ```
pub fn kinds_text(kinds: &[KindCount], unit: &str) -> String {
    kinds
        .iter()
        .map(|k| format!("{} {unit} {}", thousands(k.pairs), k.kind))
        .collect::<Vec<_>>()
        .join(", ")
}

impl DeepHandValue {
    /// Returns the share of the pairs answered that were wrong (any failure), or `None` when
    /// none was answered.
    pub fn wrong_share(&self) -> Option<f64> {
        (self.pairs_checked > 0).then(|| self.failing_pairs as f64 / self.pairs_checked as f64)
    }

    /// Returns whether the check stopped before every class in it was answered.
    pub fn is_partial(&self) -> bool {
        self.classes_checked < self.classes
    }

    /// Returns whether the check covered fewer than all 12,994,800 pairs by request.
    pub fn is_sampled(&self) -> bool {
        self.pairs < PAIRS
    }

    /// Returns the headline after the predicate's name: `19,236 of 398,364 pairs wrong
    /// (4.8%), 960 of 20,000 classes: 19,236 pairs wrong_answer; 5.2 s`.
    pub fn headline(&self) -> String {
        let mut head = format!(
            "{} of {} pairs wrong ({}), {} of {} classes",
            thousands(self.failing_pairs),
            thousands(self.pairs_checked),
            percent(self.wrong_share().unwrap_or(0.0)),
            thousands(self.failing_classes as u64),
            thousands(self.classes_checked as u64),
        );
        if !self.kinds.is_empty() {
            let _ = write!(head, ": {}", kinds_text(&self.kinds, "pairs"));
        }
        let _ = write!(head, "; {:.1} s", self.elapsed_ms as f64 / 1000.0);
        head
    }

    /// Returns what a partial check covered and why it stopped, after `partial: `.
    pub fn partial_text(&self) -> String {
        format!(
            "checked {} of {} classes ({} of {} pairs, a seeded random sample){}",
            thousands(self.classes_checked as u64),
            thousands(self.classes as u64),
            thousands(self.pairs_checked),
            thousands(self.pairs),
            stopped_text(&self.stopped)
        )
    }

    /// Returns the check in lines of text, without indentation.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = vec![format!("deep hand_value/3: {}", self.headline())];
        if self.is_partial() {
            lines.push(format!("partial: {}", self.partial_text()));
        }
        if self.probes.differed > 0 {
            lines.push(format!(
                "answers depend on the suits' names or the cards' order: {} of {} classes asked \
                 twice were answered differently (counts are estimates), e.g. {}",
                self.probes.differed,
                self.probes.asked,
                self.probes.example.as_deref().unwrap_or("")
            ));
        }
        if self.failing_pairs == 0 {
            return lines;
        }
        lines.push(format!("diagnosis: {}", self.diagnosis.summary));
        for f in self.diagnosis.findings.iter().skip(1) {
            lines.push(format!("also: {}", f.text));
        }
        if let Some(errors) = self.diagnosis.errors_text() {
            lines.push(format!("errors: {errors}"));
        }
        for c in &self.counterexamples {
            lines.push(format!(
                "{}: {} + {}: expected {}, got {} [{}]",
                c.kind,
                cards_text(&c.hand),
                c.start,
                c.expected,
                c.got,
                c.breakdown
            ));
        }
        lines
    }
}

impl Diagnosis {
    /// Returns the shapes of the errors, joined by `; `, or `None` when there is none.
    pub fn errors_text(&self) -> Option<String> {
        let errors: Vec<&str> = self.errors.iter().map(|e| e.text.as_str()).collect();
        (!errors.is_empty()).then(|| errors.join("; "))
    }
}

impl DeepSelectHand {
    /// Returns the share of the deals answered whose keep was not optimal (any failure), or
    /// `None` when none was answered.
    pub fn not_optimal_share(&self) -> Option<f64> {
        (self.checked > 0)
            .then(|| self.checked.saturating_sub(self.optimal) as f64 / self.checked as f64)
    }

    /// Returns the headline after the predicate's name: `5 of 50 deals not optimal (10.0%):
    /// 5 deals wrong_answer; worst loss 2.913 points of expected value, mean 0.090; 3.8 s`.
    pub fn headline(&self) -> String {
        let not = self.checked.saturating_sub(self.optimal);
        let mut head = format!(
            "{} of {} deals not optimal ({})",
            thousands(not as u64),
            thousands(self.checked as u64),
            percent(self.not_optimal_share().unwrap_or(0.0)),
        );
        if !self.kinds.is_empty() {
            let _ = write!(head, ": {}", kinds_text(&self.kinds, "deals"));
        }
        let _ = write!(
            head,
            "; worst loss {:.3} points of expected value, mean {:.3}; {:.1} s",
            self.worst_regret,
            self.mean_regret,
            self.elapsed_ms as f64 / 1000.0
        );
        head
    }

    /// Returns what a partial check covered and why it stopped, after `partial: `.
    pub fn partial_text(&self) -> String {
        let why = stopped_text(&self.stopped);
        format!("checked {} of {} deals{why}", self.checked, self.deals)
    }

    /// Returns the example deals with what each is: simplest, worst, first failure.
    pub fn examples(&self) -> [(&'static str, Option<&SelectExample>); 3] {
        [
            ("simplest", self.simplest.as_ref()),
            ("worst", self.worst.as_ref()),
            ("first failure", self.first_failure.as_ref()),
        ]
    }

    /// Returns the check in lines of text, without indentation.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = vec![format!("deep select_hand/3: {}", self.headline())];
        if self.checked < self.deals {
            lines.push(format!("partial: {}", self.partial_text()));
        }
        for (what, e) in self.examples() {
            let Some(e) = e else { continue };
            let got_value = e
                .got_value
                .map(|v| format!(" (expected value {v:.3})"))
                .unwrap_or_default();
            lines.push(format!(
                "{what}: dealt {}: got {}{got_value}; best keeps {} ({:.3})",
                cards_text(&e.dealt),
                e.got,
                cards_text(&e.best),
                e.best_value
            ));
        }
        lines
    }
}

/// Returns why a check stopped early as `: why`, or nothing.
fn stopped_text(stopped: &Option<String>) -> String {
    stopped
        .as_ref()
        .map(|w| format!(": {w}"))
        .unwrap_or_default()
}

impl DeepReport {
    /// Returns the deep check in lines of text, without indentation.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        match &self.hand_value {
            Some(hv) => lines.extend(hv.lines()),
            None => lines.push("deep hand_value/3: not checked (not defined)".into()),
        }
        if let Some(sh) = &self.select_hand {
            lines.extend(sh.lines());
        }
        lines
    }

    /// Returns the deep check as a Gradescope test worth nothing, with the course's
    /// visibility, passed when it found nothing wrong.
    pub fn gradescope_test(&self) -> serde_json::Value {
        let hand_clean = self
            .hand_value
            .as_ref()
            .is_some_and(|h| h.failing_pairs == 0);
        let clean = hand_clean
            && self
                .select_hand
                .as_ref()
                .is_none_or(|s| s.optimal == s.checked);
        let mut output = String::from(
            "Not marked: hand_value/3 checked on every (hand, start) pair up to relabelling \
             suits, select_hand/3 on seeded deals.\n",
        );
        for line in self.lines() {
            output.push_str(&line);
            output.push('\n');
        }
        serde_json::json!({
            "name": "deep check (not marked)",
            "number": "3.1",
            "score": 0.0,
            "max_score": 0.0,
            "status": if clean { "passed" } else { "failed" },
            "output": output,
            "visibility": self.visibility,
        })
    }
}
