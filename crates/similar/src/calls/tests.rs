use super::*;
use crate::term::read;
use crate::token::{clauses, tokenize};

/// The predicates the one clause in `src` names, as `name/arity` (`head` marked `:`).
fn names(src: &str) -> Vec<String> {
    let clause = clauses(tokenize(src)).remove(0);
    let term = read(&clause).expect("a term");
    named(&term, &clause)
        .into_iter()
        .map(|n| {
            format!(
                "{}{}/{}",
                if n.head { ":" } else { "" },
                clause[n.token].text,
                n.arity
            )
        })
        .collect()
}

#[test]
fn data_is_never_a_call() {
    assert_eq!(
        names("value(card(R, S), V) :- member(card(R, S), [card(1, x)]), card(R, V)."),
        [":value/2", ",/2", "member/2", "card/2"]
    );
}

#[test]
fn goals_inside_control_and_meta_arguments_are_calls() {
    assert_eq!(
        names("p(L) :- findall(X-Y, (q(X), \\+ r(X, Y)), L), forall(member(X, L), s(X))."),
        [
            ":p/1",
            ",/2",
            "findall/3",
            ",/2",
            "q/1",
            "\\+/1",
            "r/2",
            "forall/2",
            "member/2",
            "s/1"
        ]
    );
    assert_eq!(
        names("p(L, N) :- maplist(q(1), L), foldl(add, L, 0, N), aggregate_all(count, t(_), _), call(u, N), ( v -> w ; lists:x(N) )."),
        [
            ":p/2", ",/2", "maplist/2", "q/2", ",/2", "foldl/4", "add/3", ",/2",
            "aggregate_all/3", "t/1", ",/2", "call/2", "u/1", ";/2", "->/2", "v/0", "w/0", "x/1"
        ]
    );
    assert_eq!(
        names("p(S) :- setof(X, Y^q(X, Y), S)."),
        [":p/1", "setof/3", "q/2"]
    );
}

#[test]
fn grammar_rules_and_directives() {
    assert_eq!(
        names("greeting(N) --> [hello], name(N), {atom(N)}, !."),
        [":greeting/3", "name/3", "atom/1"]
    );
    assert_eq!(names(":- initialization(main)."), ["initialization/1"]);
    assert_eq!(names("fact(card(jack, hearts))."), [":fact/1"]);
}
