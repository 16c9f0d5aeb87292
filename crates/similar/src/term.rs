//! Reading a clause's tokens as a term, with SWI-Prolog's default operators, so that the
//! names of predicates can be told from data: `card(R, S)` is a goal in `card(R, S) :- ...`
//! or `findall(X, card(X, _), Xs)`, and data in `member(card(R, S), Hand)`.
//!
//! The reader is lenient (an operator may stand where its priority would not allow it), as
//! its only use is to find goal and head positions; a clause it cannot read at all is
//! `None` and its names are left as they are.

use crate::token::{Kind, Token};

/// A term, each name by the index of its token in the clause.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Term {
    /// A variable.
    Var,
    /// A number or a string.
    Atomic,
    /// An atom, by its token.
    Atom(usize),
    /// A compound term (operators included): its name's token and its arguments.
    Compound(usize, Vec<Term>),
    /// A list or `[]`: nothing in it is ever a goal.
    List,
    /// `{G}`.
    Curly(Box<Term>),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Fix {
    Xfx,
    Xfy,
    Yfx,
}

/// The infix operators: priority and type.
fn infix(name: &str) -> Option<(u32, Fix)> {
    use Fix::*;
    Some(match name {
        ":-" | "-->" => (1200, Xfx),
        ";" | "|" => (1100, Xfy),
        "->" | "*->" => (1050, Xfy),
        "," => (1000, Xfy),
        ":=" => (990, Xfx),
        "=" | "\\=" | "==" | "\\==" | "@<" | "@>" | "@=<" | "@>=" | "=.." | "is" | "=:="
        | "=\\=" | "<" | ">" | "=<" | ">=" | ">:<" | ":<" | "as" | "#=" | "#\\=" | "#<" | "#>"
        | "#=<" | "#>=" | "in" | "ins" => (700, Xfx),
        ":" => (200, Xfy),
        "+" | "-" | "/\\" | "\\/" | "xor" | ".." => (500, Yfx),
        "*" | "/" | "//" | "rem" | "mod" | "div" | "<<" | ">>" | "divmod" | "rdiv" => (400, Yfx),
        "**" => (200, Xfx),
        "^" => (200, Xfy),
        // A dict's functional notation, `Dict.put(New)`.
        "." => (100, Yfx),
        _ => return None,
    })
}

/// The prefix operators: priority and whether the argument may have the same priority (fy).
fn prefix(name: &str) -> Option<(u32, bool)> {
    Some(match name {
        ":-" | "?-" => (1200, false),
        "dynamic" | "discontiguous" | "initialization" | "meta_predicate"
        | "module_transparent" | "multifile" | "public" | "thread_local" | "table" => (1150, false),
        "\\+" => (900, true),
        "?" => (500, false),
        "-" | "+" | "\\" => (200, true),
        "$" => (1, false),
        _ => return None,
    })
}

/// Reads `tokens` (one clause, without its end) as a term; `None` if it is not one.
pub fn read(tokens: &[Token]) -> Option<Term> {
    let mut reader = Reader { tokens, at: 0 };
    let (term, _) = reader.term(1200)?;
    (reader.at == tokens.len()).then_some(term)
}

struct Reader<'a> {
    tokens: &'a [Token],
    at: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn is_punct(&self, text: &str) -> bool {
        self.peek()
            .is_some_and(|t| t.kind == Kind::Punct && t.text == text)
    }

    fn expect(&mut self, text: &str) -> Option<()> {
        self.is_punct(text).then(|| self.at += 1)
    }

    /// Whether the next token ends a term rather than starting one.
    fn at_delimiter(&self) -> bool {
        match self.peek() {
            None => true,
            Some(t) => {
                (t.kind == Kind::Punct && t.text != "(" && t.text != "[" && t.text != "{")
                    || (t.kind == Kind::Atom && infix(&t.text).is_some() && !self.opens_call())
            }
        }
    }

    /// Whether the next token is a name followed at once by `(`.
    fn opens_call(&self) -> bool {
        self.tokens
            .get(self.at + 1)
            .is_some_and(|n| n.kind == Kind::Punct && n.text == "(" && !n.spaced)
    }

    /// A term of priority at most `max`, and its priority.
    fn term(&mut self, max: u32) -> Option<(Term, u32)> {
        let (mut left, mut left_p) = self.primary(max)?;
        while let Some(t) = self.peek() {
            let name = match t.kind {
                Kind::Atom => t.text.as_str(),
                Kind::Punct if t.text == "," || t.text == "|" => t.text.as_str(),
                _ => break,
            };
            let Some((p, fix)) = infix(name) else { break };
            let (left_max, right_max) = match fix {
                Fix::Xfx => (p - 1, p - 1),
                Fix::Xfy => (p - 1, p),
                Fix::Yfx => (p, p - 1),
            };
            if p > max || left_p > left_max {
                break;
            }
            let op = self.at;
            self.at += 1;
            let (right, _) = self.term(right_max)?;
            left = Term::Compound(op, vec![left, right]);
            left_p = p;
        }
        Some((left, left_p))
    }

    /// Terms of priority at most 999 separated by commas: arguments, list elements.
    fn sequence(&mut self) -> Option<Vec<Term>> {
        let mut terms = vec![self.term(999)?.0];
        while self.expect(",").is_some() {
            terms.push(self.term(999)?.0);
        }
        Some(terms)
    }

    fn primary(&mut self, max: u32) -> Option<(Term, u32)> {
        let tokens = self.tokens;
        let t = tokens.get(self.at)?;
        let here = self.at;
        self.at += 1;
        if matches!(t.kind, Kind::Var | Kind::Atom) && self.is_punct("{") && !self.peek()?.spaced {
            // A dict, `Tag{Key: Value, ...}`: data.
            self.at += 1;
            if self.expect("}").is_none() {
                self.sequence()?;
                self.expect("}")?;
            }
            return Some((Term::Atomic, 0));
        }
        match t.kind {
            Kind::Var => Some((Term::Var, 0)),
            Kind::Number | Kind::Str => Some((Term::Atomic, 0)),
            Kind::End => None,
            Kind::Punct => match t.text.as_str() {
                "(" => {
                    let (inner, _) = self.term(1200)?;
                    self.expect(")")?;
                    Some((inner, 0))
                }
                "[" => {
                    if self.expect("]").is_some() {
                        return Some((Term::Atom(here), 0));
                    }
                    self.sequence()?;
                    if self.expect("|").is_some() {
                        self.term(999)?;
                    }
                    self.expect("]")?;
                    Some((Term::List, 0))
                }
                "{" => {
                    if self.expect("}").is_some() {
                        return Some((Term::Atom(here), 0));
                    }
                    let (inner, _) = self.term(1200)?;
                    self.expect("}")?;
                    Some((Term::Curly(Box::new(inner)), 0))
                }
                _ => None,
            },
            Kind::Atom => {
                if self.is_punct("(") && !self.peek().is_some_and(|n| n.spaced) {
                    self.at += 1;
                    let args = self.sequence()?;
                    self.expect(")")?;
                    return Some((Term::Compound(here, args), 0));
                }
                if let Some((p, fy)) = prefix(&t.text) {
                    // A negative number is one token for the reader: `- 1` is -(1), `-1` is -1.
                    if t.text == "-" || t.text == "+" {
                        if let Some(n) = self.peek() {
                            if n.kind == Kind::Number && !n.spaced {
                                self.at += 1;
                                return Some((Term::Atomic, 0));
                            }
                        }
                    }
                    if !self.at_delimiter() {
                        let p = p.min(max);
                        let arg_max = if fy { p } else { p.saturating_sub(1) };
                        let (arg, _) = self.term(arg_max)?;
                        return Some((Term::Compound(here, vec![arg]), p));
                    }
                }
                Some((Term::Atom(here), 0))
            }
        }
    }
}

#[cfg(test)]
mod tests;
