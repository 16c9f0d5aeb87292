//! Which crib, and which SWI-Prolog, graded a submission.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The programs that produced a result: a regrade under another crib or another SWI-Prolog
/// can then be told from the original run. Results written before crib recorded it have
/// none.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Producer {
    /// crib's version (the workspace's `version`), such as `0.1.0`.
    pub crib: String,
    /// The commit crib was built from (`git describe`-like: 12 hex digits, `-dirty` when the
    /// tree had changes), or `unknown` when it was built outside a git checkout.
    pub commit: String,
    /// What `swipl --version` printed, such as `SWI-Prolog version 9.0.4 for x86_64-linux`.
    pub swipl: String,
}

impl Producer {
    /// Returns SWI-Prolog's version number from [`Producer::swipl`] (`9.0.4`), or the whole
    /// text when it names none.
    pub fn swipl_version(&self) -> &str {
        swipl_version_number(&self.swipl).unwrap_or(&self.swipl)
    }
}

impl fmt::Display for Producer {
    /// `crib 0.1.0 (commit 964dcb0a1b2c), SWI-Prolog 9.0.4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "crib {} (commit {}), SWI-Prolog {}",
            self.crib,
            self.commit,
            self.swipl_version()
        )
    }
}

/// Returns the version number in what `swipl --version` prints (`SWI-Prolog version 9.0.4
/// for x86_64-linux` gives `9.0.4`), if it names one.
///
/// ```
/// use crib_results::swipl_version_number;
/// assert_eq!(swipl_version_number("SWI-Prolog version 9.0.4 for x86_64-linux"), Some("9.0.4"));
/// assert_eq!(swipl_version_number("not a Prolog"), None);
/// ```
pub fn swipl_version_number(text: &str) -> Option<&str> {
    let mut words = text.split_whitespace();
    words.find(|w| *w == "version")?;
    let number = words.next()?;
    let parts: Vec<&str> = number.split('.').collect();
    (parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit())))
    .then_some(number)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_producer_reads_as_one_line() {
        let p = Producer {
            crib: "0.1.0".into(),
            commit: "964dcb0a1b2c".into(),
            swipl: "SWI-Prolog version 9.2.9 for x86_64-linux\n".into(),
        };
        assert_eq!(
            p.to_string(),
            "crib 0.1.0 (commit 964dcb0a1b2c), SWI-Prolog 9.2.9"
        );
        let odd = Producer {
            swipl: "swipl from the future".into(),
            ..p
        };
        assert_eq!(odd.swipl_version(), "swipl from the future");
        assert_eq!(swipl_version_number("SWI-Prolog version 9.3 for x"), None);
    }
}
