//! Blind marking: a stable pseudonym per submission, keyed by a secret the staff keep, and
//! results and sources with every trace of the student's name replaced by it.
//!
//! A submission's pseudonym is `anon-` and the first 10 hex digits (40 bits) of
//! HMAC-SHA-256, under the [`Key`], of its name (`smithjane-1001`, the file stem or folder
//! graded): the same key gives the same pseudonym on every run, for the report, the
//! marking sheet and `crib similar`, and without the key a pseudonym tells nothing of the
//! name. [`Pseudonyms::anonymize`] rewrites a result: its name and path become the
//! pseudonym, its LMS record keeps only the times (for lateness), and every string in it
//! (what it printed, file names in findings and diagnostics) has the student's name, its
//! parts, LMS id, email and SIS ids replaced, as whole words in any case.
//! [`Pseudonyms::anonymize_sources`] does the same to the source files shown on the page.
//!
//! What cannot be caught: a name written in the source in a form the results do not hold
//! (initials, a nickname), or parts shorter than three characters.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use crib_results::SubmissionResult;
use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::quality::{SourceFile, Sources, SubmissionSource};

/// The key's length, bytes.
pub const KEY_BYTES: usize = 32;

/// The prefix of every pseudonym.
pub const PSEUDONYM_PREFIX: &str = "anon-";

/// Why blind marking cannot go ahead.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AnonymousError {
    /// The key file cannot be read or created.
    #[error("cannot {action} the key file {}", path.display())]
    Io {
        /// `read` or `create`.
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The key file does not hold a key.
    #[error("{}: not a crib key ({} hex digits on one line)", path.display(), KEY_BYTES * 2)]
    NotAKey {
        /// The file.
        path: PathBuf,
    },
    /// Others than its owner may read the key file.
    #[error("{}: others than its owner may read it (mode {mode:o}); chmod 600 it", path.display())]
    Exposed {
        /// The file.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// No random bytes for a new key.
    #[error("no random bytes for a new key: {0}")]
    Random(String),
    /// Two submissions got one pseudonym (one chance in about 10^12 per pair).
    #[error("submissions {0:?} and {1:?} have the same pseudonym under this key; make a new key")]
    Collision(String, String),
    /// A result could not be rewritten.
    #[error("cannot anonymize the result of {name:?}: {message}")]
    Rewrite {
        /// The submission.
        name: String,
        /// What serde_json says.
        message: String,
    },
}

/// The staff's secret key, 32 random bytes kept as hex in an owner-only file.
#[derive(Clone, PartialEq, Eq)]
pub struct Key([u8; KEY_BYTES]);

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Key(..)")
    }
}

impl Key {
    /// Returns the key in `path`.
    ///
    /// # Errors
    /// [`AnonymousError::Io`] if it cannot be read, [`AnonymousError::Exposed`] if its group
    /// or others may read or write it, [`AnonymousError::NotAKey`] if it is not 64 hex
    /// digits.
    pub fn read(path: &Path) -> Result<Key, AnonymousError> {
        let io = |source| AnonymousError::Io {
            action: "read",
            path: path.to_path_buf(),
            source,
        };
        let meta = std::fs::metadata(path).map_err(io)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = meta.permissions().mode() & 0o777;
            if mode & 0o077 != 0 {
                return Err(AnonymousError::Exposed {
                    path: path.to_path_buf(),
                    mode,
                });
            }
        }
        #[cfg(not(unix))]
        let _ = meta;
        let text = std::fs::read_to_string(path).map_err(io)?;
        Key::from_hex(text.trim()).ok_or_else(|| AnonymousError::NotAKey {
            path: path.to_path_buf(),
        })
    }

    /// Returns the key in `path`, first creating it (owner-only, mode 0600, new random
    /// bytes) if there is no file there; the flag says whether it was created.
    ///
    /// # Errors
    /// As [`Key::read`]; [`AnonymousError::Io`] if it cannot be created,
    /// [`AnonymousError::Random`] if the system gives no random bytes.
    pub fn read_or_create(path: &Path) -> Result<(Key, bool), AnonymousError> {
        if path.exists() {
            return Key::read(path).map(|k| (k, false));
        }
        let mut bytes = [0u8; KEY_BYTES];
        getrandom::fill(&mut bytes).map_err(|e| AnonymousError::Random(e.to_string()))?;
        let key = Key(bytes);
        let io = |source| AnonymousError::Io {
            action: "create",
            path: path.to_path_buf(),
            source,
        };
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let mut file = options.open(path).map_err(io)?;
        writeln!(file, "{}", hex(&key.0)).map_err(io)?;
        file.sync_all().map_err(io)?;
        Ok((key, true))
    }

    fn from_hex(text: &str) -> Option<Key> {
        if text.len() != KEY_BYTES * 2 || !text.is_ascii() {
            return None;
        }
        let mut bytes = [0u8; KEY_BYTES];
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
        }
        Some(Key(bytes))
    }

    /// Returns the pseudonym of the submission named `name` under this key:
    /// [`PSEUDONYM_PREFIX`] then 10 hex digits of HMAC-SHA-256(key, name).
    pub fn pseudonym(&self, name: &str) -> String {
        let mut mac =
            Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC takes a key of any length");
        mac.update(b"crib pseudonym v1\0");
        mac.update(name.as_bytes());
        let digest = mac.finalize().into_bytes();
        format!("{PSEUDONYM_PREFIX}{}", hex(&digest[..5]))
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The pseudonyms of a class's submissions under one key, both ways.
#[derive(Debug, Clone, Default)]
pub struct Pseudonyms {
    /// Pseudonym by submission name.
    pub by_name: BTreeMap<String, String>,
    /// Submission name by pseudonym.
    pub by_pseudonym: BTreeMap<String, String>,
}

impl Pseudonyms {
    /// Returns the pseudonyms of `reports` under `key`.
    ///
    /// # Errors
    /// [`AnonymousError::Collision`] if two submissions get one pseudonym.
    pub fn new(key: &Key, reports: &[SubmissionResult]) -> Result<Pseudonyms, AnonymousError> {
        let mut p = Pseudonyms::default();
        for name in reports.iter().map(|r| r.name.as_str()) {
            let pseudonym = key.pseudonym(name);
            if let Some(other) = p.by_pseudonym.get(&pseudonym).filter(|o| *o != name) {
                return Err(AnonymousError::Collision(other.clone(), name.to_string()));
            }
            p.by_pseudonym.insert(pseudonym.clone(), name.to_string());
            p.by_name.insert(name.to_string(), pseudonym);
        }
        Ok(p)
    }

    /// Returns `name`'s pseudonym, or `name` itself if it has none.
    pub fn of(&self, name: &str) -> String {
        self.by_name
            .get(name)
            .cloned()
            .unwrap_or_else(|| name.to_string())
    }

    /// Returns `reports` anonymized: each named by its pseudonym, its path the pseudonym,
    /// its LMS record reduced to the pseudonym as the student and the submission time and
    /// late flag, and every string in it scrubbed of the student's name, its parts, ids,
    /// email and path ([`Scrubber`]).
    ///
    /// # Errors
    /// [`AnonymousError::Rewrite`] if a scrubbed result no longer reads back.
    pub fn anonymize(
        &self,
        reports: &[SubmissionResult],
    ) -> Result<Vec<SubmissionResult>, AnonymousError> {
        reports
            .iter()
            .map(|r| {
                let pseudonym = self.of(&r.name);
                let scrubber = Scrubber::of(r, &pseudonym);
                let rewrite = |e: serde_json::Error| AnonymousError::Rewrite {
                    name: pseudonym.clone(),
                    message: e.to_string(),
                };
                let value = serde_json::to_value(r).map_err(rewrite)?;
                let mut scrubbed = value.clone();
                scrubber.value(&mut scrubbed, false);
                // A name that is one of the format's own words (a submission called
                // `no_solution`) breaks its enums: then leave lone snake_case words be.
                let mut out: SubmissionResult = match serde_json::from_value(scrubbed) {
                    Ok(out) => out,
                    Err(_) => {
                        let mut scrubbed = value;
                        scrubber.value(&mut scrubbed, true);
                        serde_json::from_value(scrubbed).map_err(rewrite)?
                    }
                };
                out.name = pseudonym.clone();
                out.path = pseudonym.clone();
                if let Some(record) = &mut out.lms {
                    record.students = vec![crib_results::Student {
                        id: pseudonym.clone(),
                        ..Default::default()
                    }];
                    record.submission_id = None;
                    record.entries.clear();
                }
                if let Some(q) = &mut out.quality {
                    q.name = pseudonym.clone();
                }
                Ok(out)
            })
            .collect()
    }

    /// Returns `sources` (found for the real `reports`) keyed by pseudonym, each file's
    /// name and text scrubbed as [`Pseudonyms::anonymize`] scrubs its result.
    pub fn anonymize_sources(&self, sources: &Sources, reports: &[SubmissionResult]) -> Sources {
        let mut by_name = BTreeMap::new();
        for (name, source) in &sources.by_name {
            let pseudonym = self.of(name);
            let scrubber = match reports.iter().find(|r| &r.name == name) {
                Some(r) => Scrubber::of(r, &pseudonym),
                None => Scrubber::new([name.as_str()], &pseudonym),
            };
            let source = match source {
                SubmissionSource::Found(files) => SubmissionSource::Found(
                    files
                        .iter()
                        .map(|f| SourceFile {
                            file: scrubber.text(&f.file),
                            text: scrubber.text(&f.text),
                            truncated: f.truncated,
                        })
                        .collect(),
                ),
                SubmissionSource::Missing(why) => SubmissionSource::Missing(scrubber.text(why)),
            };
            by_name.insert(pseudonym, source);
        }
        Sources { by_name }
    }
}

/// Replaces a student's identifying words in text: whole words, in any case, with the
/// pseudonym.
#[derive(Debug, Clone)]
pub struct Scrubber {
    pattern: Option<regex::Regex>,
    pseudonym: String,
}

impl Scrubber {
    /// Returns a scrubber of `report`'s identifying words: its name and path (and their
    /// parts), and its LMS students' ids, names (and their parts), emails and SIS ids.
    pub fn of(report: &SubmissionResult, pseudonym: &str) -> Scrubber {
        let mut words: Vec<&str> = vec![report.name.as_str(), report.path.as_str()];
        words.extend(Path::new(&report.path).file_stem().and_then(|s| s.to_str()));
        for s in report.lms.iter().flat_map(|r| &r.students) {
            words.push(&s.id);
            let fields = [&s.name, &s.sis_id, &s.sis_login].into_iter().flatten();
            words.extend(fields.map(String::as_str));
            if let Some(email) = &s.email {
                // The address and its local part; the domain's words are no one's.
                words.push(email);
                words.extend(email.split('@').next());
            }
        }
        Scrubber::new(words, pseudonym)
    }

    /// Returns a scrubber of `words`, each whole and each of its parts (split at anything
    /// but letters, digits and `_`, so that `broken_nob` stays one word and the result
    /// format's own words such as `nob` are never taken) of three characters or more.
    pub fn new<'a>(words: impl IntoIterator<Item = &'a str>, pseudonym: &str) -> Scrubber {
        let mut all: Vec<String> = Vec::new();
        for word in words.into_iter().map(str::trim) {
            let parts = word.split(|c: char| !c.is_alphanumeric() && c != '_');
            let long = std::iter::once(word)
                .chain(parts)
                .filter(|w| w.chars().count() >= 3);
            all.extend(long.map(str::to_string));
        }
        all.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
        all.dedup();
        // Each word not preceded or followed by a letter, digit or `_`.
        let alternatives: Vec<String> = all.iter().map(|w| regex::escape(w)).collect();
        let pattern = regex::RegexBuilder::new(&format!(
            r"(^|[^\p{{Alphabetic}}\p{{Nd}}_])({})($|[^\p{{Alphabetic}}\p{{Nd}}_])",
            alternatives.join("|")
        ))
        .case_insensitive(true)
        .size_limit(1 << 24)
        .build();
        Scrubber {
            pattern: pattern.ok().filter(|_| !all.is_empty()),
            pseudonym: pseudonym.to_string(),
        }
    }

    /// Returns `text` with every identifying word replaced by the pseudonym.
    pub fn text(&self, text: &str) -> String {
        let Some(pattern) = &self.pattern else {
            return text.to_string();
        };
        // Matches consume the character on each side; run until nothing changes so that
        // neighbouring words separated by one character are both caught.
        let mut out = text.to_string();
        for _ in 0..4 {
            let next = pattern
                .replace_all(&out, |c: &regex::Captures<'_>| {
                    format!("{}{}{}", &c[1], self.pseudonym, &c[3])
                })
                .into_owned();
            if next == out {
                break;
            }
            out = next;
        }
        out
    }

    /// Scrubs every string in `value` (not object keys); with `keep_tokens`, not the
    /// strings that are one lowercase snake_case word (as enum values are).
    pub fn value(&self, value: &mut serde_json::Value, keep_tokens: bool) {
        match value {
            serde_json::Value::String(s) => {
                let token = !s.is_empty()
                    && s.bytes()
                        .all(|b| b.is_ascii_lowercase() || b == b'_' || b.is_ascii_digit());
                if !(keep_tokens && token) {
                    *s = self.text(s);
                }
            }
            serde_json::Value::Array(items) => {
                items.iter_mut().for_each(|v| self.value(v, keep_tokens))
            }
            serde_json::Value::Object(fields) => {
                fields.values_mut().for_each(|v| self.value(v, keep_tokens))
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;
