//! File names written as text that tells every name apart, for results and messages, and
//! the names of the unit enums as JSON has them.

use std::ffi::OsStr;
use std::fmt;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// Returns `name` as text that tells every name apart and can be turned back into it:
/// valid UTF-8 is kept, a backslash is doubled, and every other byte is written `\xNN`.
///
/// # Example
/// ```
/// use std::ffi::OsStr;
/// use std::os::unix::ffi::OsStrExt;
/// assert_eq!(crib_results::escape_name(OsStr::new("alice.pl")), "alice.pl");
/// assert_eq!(crib_results::escape_name(OsStr::from_bytes(b"a\xff\\b")), "a\\xff\\\\b");
/// ```
pub fn escape_name(name: &OsStr) -> String {
    let mut out = String::new();
    for chunk in name.as_bytes().utf8_chunks() {
        for c in chunk.valid().chars() {
            if c == '\\' {
                out.push_str("\\\\");
            } else {
                out.push(c);
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// Returns `path` written as [`escape_name`] writes each name.
pub fn escape_path(path: &Path) -> String {
    escape_name(path.as_os_str())
}

/// Writes `value`'s name as in JSON: the Display of the unit enums, so that their words on
/// the command line, in tables and in JSON are one.
pub(crate) fn write_json_name(
    value: &impl serde::Serialize,
    f: &mut fmt::Formatter<'_>,
) -> fmt::Result {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(name)) => f.write_str(&name),
        _ => Err(fmt::Error),
    }
}
