//! The code-quality findings on one submission ([`Lint`]): what `crib lint --json` prints and
//! what a result's `quality` section holds. crib-lint finds them; this is the data.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One thing a marker may want to look at.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Finding {
    /// The rule's stable code, e.g. `D101`.
    pub rule: String,
    /// The file, relative to the submission.
    pub file: String,
    /// The line, 1-based.
    pub line: u32,
    /// The column, 1-based, where it makes sense.
    #[serde(default)]
    pub column: Option<u32>,
    /// The predicate concerned, as `name/arity`, where there is one.
    #[serde(default)]
    pub predicate: Option<String>,
    /// One line saying what is wrong, with no final period.
    pub message: String,
}

impl Finding {
    /// Returns the `E002` finding for a submission the lint could not check, on line 1 of
    /// `file` (empty when there is none): "the file could not be checked: {why}".
    pub fn not_checked(file: String, why: &str) -> Finding {
        Finding {
            rule: "E002".into(),
            file,
            line: 1,
            column: None,
            predicate: None,
            message: format!("the file could not be checked: {why}"),
        }
    }
}

impl std::fmt::Display for Finding {
    /// One line: `file:line: RULE [name/arity] message` (no `[...]` when the finding
    /// concerns no predicate), as `crib lint`, the grade table and Gradescope show it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.rule)?;
        if let Some(p) = &self.predicate {
            write!(f, " [{p}]")?;
        }
        write!(f, " {}", self.message)
    }
}

/// Counts over one submission's findings and code.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// How many findings there are.
    pub findings: usize,
    /// How many findings each rule has, by rule code (rules with none are absent).
    pub by_rule: BTreeMap<String, usize>,
}

impl Summary {
    /// Returns the counts of `findings`.
    pub fn of(findings: &[Finding]) -> Summary {
        let mut by_rule = BTreeMap::new();
        for finding in findings {
            *by_rule.entry(finding.rule.clone()).or_insert(0) += 1;
        }
        Summary {
            findings: findings.len(),
            by_rule,
        }
    }

    /// Returns a one-line summary for a table cell: `"none"`, or the count then each rule
    /// with its count, e.g. `"7: D102x3 L401x4"`.
    pub fn line(&self) -> String {
        if self.findings == 0 {
            return "none".into();
        }
        let rules: Vec<String> = self
            .by_rule
            .iter()
            .map(|(rule, n)| format!("{rule}x{n}"))
            .collect();
        format!("{}: {}", self.findings, rules.join(" "))
    }
}

/// The findings on one submission.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lint {
    /// The submission's name.
    pub name: String,
    /// The findings, by file, line, column then rule.
    pub findings: Vec<Finding>,
    /// Their counts.
    pub summary: Summary,
}

impl Lint {
    /// Returns the lint of submission `name` with `findings`, sorted, and their summary.
    pub fn new(name: impl Into<String>, mut findings: Vec<Finding>) -> Lint {
        findings.sort_by(|a, b| {
            (&a.file, a.line, a.column, &a.rule).cmp(&(&b.file, b.line, b.column, &b.rule))
        });
        let summary = Summary::of(&findings);
        Lint {
            name: name.into(),
            findings,
            summary,
        }
    }
}

#[cfg(test)]
mod tests;
