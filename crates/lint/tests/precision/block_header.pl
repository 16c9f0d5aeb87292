/** cribbage.pl

    Project 1 for Declarative Programming.
    Author: Kim Coder

    Scores hands of cribbage.
*/

/**
 * hand_value(+Hand, +Start, -Value) is det
 *
 * Value is the points of Hand with the start card Start: fifteens and
 * pairs only.
 */
hand_value(Hand, Start, Value) :-
    All = [Start|Hand],
    fifteen_points(All, F),
    pair_points(All, P),
    Value is F + P.

/**
 * select_hand(+Cards, -Hand, -Crib) is det
 *
 * Keeps the first four cards.
 */
select_hand([A, B, C, D|Crib], [A, B, C, D], Crib).

/**
 * fifteen_points(+Cards, -Points) is det
 *
 * Two points for each subset of Cards worth fifteen.
 */
fifteen_points(Cards, Points) :-
    aggregate_all(count, fifteen(Cards), N),
    Points is 2 * N.

/**
 * fifteen(+Cards) is nondet
 *
 * A subset of Cards whose values add to 15.
 */
fifteen(Cards) :-
    subsets(Cards, Sub),
    sum_values(Sub, 15).

/**
 * pair_points(+Cards, -Points) is det
 */
pair_points(Cards, Points) :-
    aggregate_all(count,
                  ( select(card(R, _), Cards, Rest), member(card(R, _), Rest) ),
                  Twice),
    Points is Twice.

/**
 * subsets(+List, -Sub) is nondet
 */
subsets([], []).
subsets([X|Xs], [X|Ys]) :- subsets(Xs, Ys).
subsets([_|Xs], Ys) :- subsets(Xs, Ys).

/**
 * sum_values(+Cards, -Sum) is det
 */
sum_values(Cards, Sum) :-
    foldl([card(R, _), S0, S]>>(rank_value(R, V), S is S0 + V), Cards, 0, Sum).

/**
 * rank_value(+Rank, -Value) is det
 */
rank_value(ace, 1) :- !.
rank_value(R, R) :- integer(R), !.
rank_value(_, 10).
