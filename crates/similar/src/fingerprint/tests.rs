use super::*;

fn fps(text: &str) -> Vec<u64> {
    let mut h: Vec<u64> = fingerprints(&[("a.pl".into(), text.into())], Winnowing::default())
        .kept
        .into_iter()
        .map(|f| f.hash)
        .collect();
    h.sort();
    h.dedup();
    h
}

#[test]
fn renaming_and_layout_change_nothing() {
    let a = "score(Hand, Start, Points) :- append(Hand, [Start], All), count15(All, N), Points is 2 * N.";
    let b = "% renamed\nvalue(H,S,P):-\n    append(H,[S],Cards),\n    fifteens(Cards,Count),\n    P is 2*Count.";
    assert!(!fps(a).is_empty());
    // count15 and fifteens are not defined here: they stay names, so they differ.
    let b_same_calls = b.replace("fifteens", "count15");
    assert_eq!(fps(a), fps(&b_same_calls));
    assert_ne!(fps(a), fps(b));
}

#[test]
fn data_named_as_a_predicate_is_still_data() {
    let a = "value(Hand, Start, V) :- member(card(R, S), [Start|Hand]), points(card(R, S), Hand, V).\n\
             points(card(R, _), Hand, V) :- findall(x, member(card(R, _), Hand), Xs), length(Xs, V).";
    // An unused card/1 changes nothing else: card(R, S) is data everywhere in `a`.
    let b = format!("{a}\ncard(X) :- atom(X), write(X), nl, X = y.");
    let (fa, fb) = (fps(a), fps(&b));
    assert!(fa.iter().all(|h| fb.contains(h)), "{fa:?} {fb:?}");
    // card/2 as a predicate: its calls are the student's; its data is not.
    let c = format!("{a}\ncard(X, Y) :- atom(X), write(Y), nl, X = Y.");
    assert!(fa.iter().all(|h| fps(&c).contains(h)));
    let called = a.replace(
        "points(card(R, S), Hand, V)",
        "card(R, S), points(R, Hand, V)",
    );
    assert_ne!(
        fps(&called),
        fps(&format!("{called}\ncard(X, Y) :- X = Y."))
    );
}

#[test]
fn which_variable_goes_where_counts() {
    let a = "p(Hand, Start, Total) :- q(Hand, Start, Sum), r(Sum, Start, Total), s(Total).";
    let b = "p(Hand, Start, Total) :- q(Start, Hand, Sum), r(Start, Sum, Total), s(Total).";
    assert_ne!(fps(a), fps(b));
    assert_eq!(fps(a), fps(&a.replace("Start", "S0").replace("Sum", "Acc")));
}
