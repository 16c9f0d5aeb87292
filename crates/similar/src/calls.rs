//! Where a clause names a predicate: its head, the goals of its body, and the goals and
//! closures inside control constructs and the meta-arguments of library predicates
//! (findall/3, forall/2, aggregate_all/3, maplist/N, foldl/N, call/N, \+, ->, ; ...).
//! Everything else, the arguments of an ordinary goal above all, is data: `card(R, S)` in
//! `member(card(R, S), Hand)` names no predicate even in a file that defines card/2.

use crate::term::Term;
use crate::token::{Kind, Token};

/// A predicate named in a clause: the token of its name and its arity (a closure's arity
/// counts the arguments it will be called with).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Named {
    /// The name's token, an index into the clause's tokens.
    pub token: usize,
    /// The arity.
    pub arity: usize,
    /// Whether this is the clause's head (a definition) rather than a call.
    pub head: bool,
}

impl Named {
    fn new(token: usize, arity: usize, head: bool) -> Named {
        Named { token, arity, head }
    }
}

/// Returns the predicates `clause` (read from `tokens`) defines and calls.
pub fn named(clause: &Term, tokens: &[Token]) -> Vec<Named> {
    let mut out = Vec::new();
    let text = |i: usize| tokens[i].text.as_str();
    match clause {
        Term::Compound(op, args) if args.len() == 2 && text(*op) == ":-" => {
            head(&args[0], 0, tokens, &mut out);
            goal(&args[1], 0, tokens, &mut out);
        }
        Term::Compound(op, args) if args.len() == 2 && text(*op) == "-->" => {
            // A grammar rule's head and non-terminals take two more arguments.
            let h = match &args[0] {
                // A pushback, `H, PB --> B`.
                Term::Compound(c, hs) if hs.len() == 2 && text(*c) == "," => &hs[0],
                h => h,
            };
            head(h, 2, tokens, &mut out);
            grammar(&args[1], tokens, &mut out);
        }
        Term::Compound(op, args) if args.len() == 1 && matches!(text(*op), ":-" | "?-") => {
            goal(&args[0], 0, tokens, &mut out);
        }
        _ => head(clause, 0, tokens, &mut out),
    }
    out
}

fn head(t: &Term, extra: usize, tokens: &[Token], out: &mut Vec<Named>) {
    match t {
        Term::Atom(i) => out.push(Named::new(*i, extra, true)),
        Term::Compound(i, args) if tokens[*i].text == ":" && args.len() == 2 => {
            head(&args[1], extra, tokens, out);
        }
        Term::Compound(i, args) => out.push(Named::new(*i, args.len() + extra, true)),
        _ => {}
    }
}

/// In [`meta`]: the goal is a closure called with all the other arguments.
const OTHERS: usize = usize::MAX;

/// The arguments of a library predicate that are goals, as (argument, extra arguments the
/// goal is called with).
fn meta(name: &str, arity: usize) -> &'static [(usize, usize)] {
    match (name, arity) {
        ("," | ";" | "->" | "*->" | "|", 2) => &[(0, 0), (1, 0)],
        ("\\+" | "call" | "once" | "ignore" | "not" | "time" | "forall", 1) => &[(0, 0)],
        ("forall", 2) => &[(0, 0), (1, 0)],
        ("findall" | "bagof" | "setof" | "aggregate_all" | "aggregate", 3) => &[(1, 0)],
        ("findall" | "aggregate_all" | "aggregate", 4) => &[(1, 0)],
        ("catch", 3) => &[(0, 0), (2, 0)],
        ("call_cleanup", 2) => &[(0, 0), (1, 0)],
        ("setup_call_cleanup", 3) => &[(0, 0), (1, 0), (2, 0)],
        ("^", 2) => &[(1, 0)],
        ("with_output_to" | "limit" | "offset" | "order_by" | "distinct" | "call_nth", 2) => {
            &[(1, 0)]
        }
        ("include" | "exclude", 3) | ("partition", 4) => &[(0, 1)],
        ("partition", 6) => &[(0, 2)],
        ("predsort", 3) => &[(0, 3)],
        ("max_member" | "min_member", 3) => &[(0, 2)],
        ("foldl", 4..=7) | ("maplist", 2..=7) | ("call", 2..=8) => &[(0, OTHERS)],
        _ => &[],
    }
}

/// `t` called with `extra` more arguments.
fn goal(t: &Term, extra: usize, tokens: &[Token], out: &mut Vec<Named>) {
    match t {
        Term::Atom(i) => out.push(Named::new(*i, extra, false)),
        Term::Compound(i, args) => {
            let name = tokens[*i].text.as_str();
            if name == ":" && args.len() == 2 {
                // Module-qualified: the goal is the second argument.
                return goal(&args[1], extra, tokens, out);
            }
            let arity = args.len() + extra;
            out.push(Named::new(*i, arity, false));
            // Only a complete call is a control construct or a library meta-predicate.
            if extra == 0 {
                for &(arg, more) in meta(name, arity) {
                    let more = if more == OTHERS { arity - 1 } else { more };
                    let inner = if matches!(name, "bagof" | "setof" | "aggregate") {
                        strip_carets(&args[arg], tokens)
                    } else {
                        &args[arg]
                    };
                    goal(inner, more, tokens, out);
                }
            }
        }
        Term::Var | Term::Atomic | Term::List | Term::Curly(_) => {}
    }
}

/// `V^G` is G for bagof/3, setof/3 and aggregate/3.
fn strip_carets<'a>(t: &'a Term, tokens: &[Token]) -> &'a Term {
    match t {
        Term::Compound(i, args) if args.len() == 2 && tokens[*i].text == "^" => {
            strip_carets(&args[1], tokens)
        }
        t => t,
    }
}

/// The body of a grammar rule: non-terminals take two more arguments; `{G}` holds goals;
/// lists and strings are terminals.
fn grammar(t: &Term, tokens: &[Token], out: &mut Vec<Named>) {
    match t {
        Term::Curly(g) => goal(g, 0, tokens, out),
        Term::Compound(i, args)
            if matches!(tokens[*i].text.as_str(), "," | ";" | "|" | "->") && args.len() == 2 =>
        {
            grammar(&args[0], tokens, out);
            grammar(&args[1], tokens, out);
        }
        Term::Compound(i, args) if tokens[*i].text == "\\+" && args.len() == 1 => {
            grammar(&args[0], tokens, out);
        }
        Term::Compound(i, args) if tokens[*i].text == "call" => {
            if let Some(first) = args.first() {
                goal(first, args.len() - 1 + 2, tokens, out);
            }
        }
        Term::Atom(i) if tokens[*i].text == "!" || tokens[*i].kind == Kind::Punct => {}
        Term::Atom(i) => out.push(Named::new(*i, 2, false)),
        Term::Compound(i, args) => out.push(Named::new(*i, args.len() + 2, false)),
        Term::Var | Term::Atomic | Term::List => {}
    }
}

#[cfg(test)]
mod tests;
