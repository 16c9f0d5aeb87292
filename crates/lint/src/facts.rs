//! What the lint child (prolog/lint_child.pl) says about a submission: its frames, one JSON
//! object a line on its frame pipe (child_lib.pl's frame writer, read by crib-child), each
//! `fact` a list of fields, its kind first.

use serde::Deserialize;

/// One frame of the lint child.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum Frame {
    /// One fact: its kind (`term`, `comment`, ...), then its fields, as text.
    Fact {
        /// The kind and the fields.
        fields: Vec<String>,
    },
    /// The last frame: everything was said.
    Done,
}

/// A compiler warning or error while loading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Warning {
    pub file: String,
    pub line: u32,
    pub kind: String,
    pub text: String,
}

/// A clause or a directive as the reader read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Term {
    pub file: String,
    pub start: u32,
    pub end: u32,
    pub clause: bool,
    pub name: String,
    pub arity: u32,
    pub depth: u32,
}

impl Term {
    /// `name/arity`.
    pub fn indicator(&self) -> String {
        format!("{}/{}", self.name, self.arity)
    }
}

/// A comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Comment {
    pub file: String,
    pub start: u32,
    pub end: u32,
    pub text: String,
}

/// A PlDoc comment and a predicate its mode lines document, as PlDoc reads them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Mode {
    pub file: String,
    pub start: u32,
    pub end: u32,
    /// `name/arity`.
    pub predicate: String,
}

/// A PlDoc comment whose first line would be a mode line of `name` but for blanks
/// between the name and its `(`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BadMode {
    pub file: String,
    pub start: u32,
    pub end: u32,
    pub name: String,
    pub text: String,
}

/// A ground fact holding `card(Rank, Suit)` terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GroundFact {
    pub file: String,
    pub line: u32,
    /// `name/arity`.
    pub predicate: String,
    /// How many `card(Rank, Suit)` terms it holds.
    pub cards: u32,
}

/// A call to a predicate defined nowhere.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Undefined {
    pub file: String,
    /// `name/arity` of what is called.
    pub called: String,
    /// The line of the call.
    pub line: u32,
    /// `name/arity` of the caller (`<directive>/0` for a directive).
    pub by: String,
}

/// A goal that is a variable bound in its clause: what it calls cannot be known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unresolved {
    pub file: String,
    pub line: u32,
    /// `name/arity` of the clause's predicate (`<directive>/0` for a directive).
    pub by: String,
}

/// A construct an idiom rule looks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Idiom {
    pub file: String,
    pub line: u32,
    pub rule: String,
    pub text: String,
}

/// A call from a predicate (or a directive, `by` = `<directive>/0`) of the files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Call {
    pub file: String,
    pub called: String,
    pub by: String,
}

/// Everything the child said.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Facts {
    pub warnings: Vec<Warning>,
    /// (file, line, text).
    pub syntax: Vec<(String, u32, String)>,
    /// (file, line, text) of each term that did not read.
    pub unread: Vec<(String, u32, String)>,
    pub terms: Vec<Term>,
    pub comments: Vec<Comment>,
    pub modes: Vec<Mode>,
    pub bad_modes: Vec<BadMode>,
    pub ground: Vec<GroundFact>,
    pub idioms: Vec<Idiom>,
    /// (file, name/arity, kind).
    pub declared: Vec<(String, String, String)>,
    pub calls: Vec<Call>,
    pub unresolved: Vec<Unresolved>,
    pub undefined: Vec<Undefined>,
    /// name/arity of the files' predicates that a library defines too.
    pub library: Vec<String>,
    /// name/arity of the files' predicates that hide a system predicate (not a hook).
    pub system: Vec<String>,
}

impl Facts {
    /// Reads the child's frames, one a line as its pipe carries them; lines that are not a
    /// `fact` frame are skipped.
    #[cfg(test)]
    pub fn parse(frames: &str) -> Facts {
        let mut facts = Facts::default();
        for line in frames.lines() {
            if let Ok(Frame::Fact { fields }) = serde_json::from_str(line) {
                facts.add(&fields);
            }
        }
        facts
    }

    /// Adds one fact, its kind then its fields; a fact of no known kind, or with another
    /// number of fields than its kind has, is skipped.
    pub fn add(&mut self, fields: &[String]) {
        let facts = self;
        let f = |i: usize| fields.get(i).cloned().unwrap_or_default();
        let n = |i: usize| {
            fields
                .get(i)
                .and_then(|s| s.parse::<u32>().ok())
                .unwrap_or(0)
        };
        let pi = |i: usize| format!("{}/{}", f(i), n(i + 1));
        let kind = fields.first().map_or("", String::as_str);
        match (kind, fields.len()) {
            ("warning", 5) => facts.warnings.push(Warning {
                file: f(1),
                line: n(2),
                kind: f(3),
                text: f(4),
            }),
            ("syntax", 4) => facts.syntax.push((f(1), n(2), f(3))),
            ("unread", 4) => facts.unread.push((f(1), n(2), f(3))),
            ("term", 8) => facts.terms.push(Term {
                file: f(1),
                start: n(2),
                end: n(3),
                clause: f(4) == "clause",
                name: f(5),
                arity: n(6),
                depth: n(7),
            }),
            ("comment", 5) => facts.comments.push(Comment {
                file: f(1),
                start: n(2),
                end: n(3),
                text: f(4),
            }),
            ("mode", 6) => facts.modes.push(Mode {
                file: f(1),
                start: n(2),
                end: n(3),
                predicate: pi(4),
            }),
            ("badmode", 6) => facts.bad_modes.push(BadMode {
                file: f(1),
                start: n(2),
                end: n(3),
                name: f(4),
                text: f(5),
            }),
            ("ground", 6) => facts.ground.push(GroundFact {
                file: f(1),
                line: n(2),
                predicate: pi(3),
                cards: n(5),
            }),
            ("idiom", 5) => facts.idioms.push(Idiom {
                file: f(1),
                line: n(2),
                rule: f(3),
                text: f(4),
            }),
            ("declared", 5) => facts.declared.push((f(1), pi(2), f(4))),
            ("call", 6) => facts.calls.push(Call {
                file: f(1),
                called: pi(2),
                by: pi(4),
            }),
            ("unresolved", 5) => facts.unresolved.push(Unresolved {
                file: f(1),
                line: n(2),
                by: pi(3),
            }),
            ("undefined", 7) => facts.undefined.push(Undefined {
                file: f(1),
                called: pi(2),
                line: n(4),
                by: pi(5),
            }),
            ("library", 3) => facts.library.push(pi(1)),
            ("system", 3) => facts.system.push(pi(1)),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests;
