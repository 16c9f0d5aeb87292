//! What the lint child (prolog/lint_child.pl) says about a submission: its frames, one JSON
//! object a line on its frame pipe (child_lib.pl's frame writer, read by crib-child), each
//! a fact whose `type` is its kind, with its fields named.

use serde::{Deserialize, Serialize};

/// One frame of the lint child: a fact, or the last frame.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub(crate) enum Frame {
    Warning(Warning),
    Syntax(Located),
    Unread(Located),
    Term(ReadTerm),
    Comment(Comment),
    Mode(Mode),
    #[serde(rename = "badmode")]
    BadMode(BadMode),
    Ground(GroundFact),
    Idiom(Idiom),
    Declared(Declared),
    Call(Call),
    Unresolved(Unresolved),
    Undefined(Undefined),
    /// A predicate of the files that a library defines too (`name/arity`).
    Library {
        predicate: String,
    },
    /// A predicate of the files that hides a system predicate that is not a hook.
    System {
        predicate: String,
    },
    /// The last frame: everything was said.
    Done,
}

/// A line of a file and a text: a syntax error, or a term that did not read.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub(crate) struct Located {
    pub file: String,
    pub line: u32,
    pub text: String,
}

/// A predicate the files declare (`kind`: `export`, `dynamic`, `discontiguous`,
/// `multifile`, ... or `hook`, one the system calls).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub(crate) struct Declared {
    pub file: String,
    /// `name/arity`.
    pub predicate: String,
    pub kind: String,
}

/// A compiler warning or error while loading.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub(crate) struct Warning {
    pub file: String,
    pub line: u32,
    pub kind: String,
    pub text: String,
}

/// A clause or a directive as the reader read it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub(crate) struct ReadTerm {
    pub file: String,
    pub start: u32,
    pub end: u32,
    pub clause: bool,
    pub name: String,
    pub arity: u32,
    pub depth: u32,
}

impl ReadTerm {
    /// `name/arity`.
    pub fn indicator(&self) -> String {
        format!("{}/{}", self.name, self.arity)
    }
}

/// A comment.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub(crate) struct Comment {
    pub file: String,
    pub start: u32,
    pub end: u32,
    pub text: String,
}

/// A PlDoc comment and a predicate its mode lines document, as PlDoc reads them.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub(crate) struct Mode {
    pub file: String,
    pub start: u32,
    pub end: u32,
    /// `name/arity`.
    pub predicate: String,
}

/// A PlDoc comment whose first line would be a mode line of `name` but for blanks
/// between the name and its `(`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub(crate) struct BadMode {
    pub file: String,
    pub start: u32,
    pub end: u32,
    pub name: String,
    pub text: String,
}

/// A ground fact holding `card(Rank, Suit)` terms.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub(crate) struct GroundFact {
    pub file: String,
    pub line: u32,
    /// `name/arity`.
    pub predicate: String,
    /// How many `card(Rank, Suit)` terms it holds.
    pub cards: u32,
}

/// A call to a predicate defined nowhere.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
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
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub(crate) struct Unresolved {
    pub file: String,
    pub line: u32,
    /// `name/arity` of the clause's predicate (`<directive>/0` for a directive).
    pub by: String,
}

/// A construct an idiom rule looks for.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub(crate) struct Idiom {
    pub file: String,
    pub line: u32,
    pub rule: String,
    pub text: String,
}

/// A call from a predicate (or a directive, `by` = `<directive>/0`) of the files.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
pub(crate) struct Call {
    pub file: String,
    pub called: String,
    pub by: String,
}

/// Everything the child said.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Facts {
    pub warnings: Vec<Warning>,
    pub syntax: Vec<Located>,
    pub unread: Vec<Located>,
    pub terms: Vec<ReadTerm>,
    pub comments: Vec<Comment>,
    pub modes: Vec<Mode>,
    pub bad_modes: Vec<BadMode>,
    pub ground: Vec<GroundFact>,
    pub idioms: Vec<Idiom>,
    pub declared: Vec<Declared>,
    pub calls: Vec<Call>,
    pub unresolved: Vec<Unresolved>,
    pub undefined: Vec<Undefined>,
    /// [`Frame::Library`]'s and [`Frame::System`]'s predicates.
    pub library: Vec<String>,
    pub system: Vec<String>,
}

impl Facts {
    /// Adds the fact a frame carries (nothing for `done`).
    pub fn add(&mut self, frame: Frame) {
        match frame {
            Frame::Warning(w) => self.warnings.push(w),
            Frame::Syntax(l) => self.syntax.push(l),
            Frame::Unread(l) => self.unread.push(l),
            Frame::Term(t) => self.terms.push(t),
            Frame::Comment(c) => self.comments.push(c),
            Frame::Mode(m) => self.modes.push(m),
            Frame::BadMode(b) => self.bad_modes.push(b),
            Frame::Ground(g) => self.ground.push(g),
            Frame::Idiom(i) => self.idioms.push(i),
            Frame::Declared(d) => self.declared.push(d),
            Frame::Call(c) => self.calls.push(c),
            Frame::Unresolved(u) => self.unresolved.push(u),
            Frame::Undefined(u) => self.undefined.push(u),
            Frame::Library { predicate } => self.library.push(predicate),
            Frame::System { predicate } => self.system.push(predicate),
            Frame::Done => {}
        }
    }
}
