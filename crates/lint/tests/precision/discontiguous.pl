% Cribbage project 1: values and names of ranks, in the order they came.
% Author: Quinn Student

:- discontiguous rank_name/2.

%! hand_value(+Hand, +Start, -Value) is det.
%  Value is twice the number of fifteens.
hand_value(Hand, Start, Value) :-
    aggregate_all(count, fifteen([Start|Hand]), N),
    Value is 2 * N.

%! select_hand(+Cards, -Hand, -Crib) is det.
%  Keeps the first four cards.
select_hand([A, B, C, D|Crib], [A, B, C, D], Crib).

%! fifteen(+Cards) is nondet.
fifteen(Cards) :-
    foldl(take, Cards, 0, 15).

%! take(+Card, +S0, -S) is multi.
take(_, S, S).
take(card(R, _), S0, S) :-
    rank_value(R, V),
    S is S0 + V.

%! rank_value(?Rank, ?Value) is nondet.
rank_value(ace, 1).
rank_value(jack, 10).

%! rank_name(?Rank, ?Name) is nondet.
%  Declared discontiguous: its clauses may be split (no W203).
rank_name(ace, "Ace").

rank_value(queen, 10).
rank_value(king, 10).
rank_value(N, N) :- integer(N).

rank_name(king, "King").
