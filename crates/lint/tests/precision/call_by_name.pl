% Project 1, cribbage.
% Author: Robin Student
% Cards are turned into numbers by a generic list builder that is given
% the name of the conversion to apply.

%! hand_value(+Hand, +Start, -Value) is det.
%  Value is the points for fifteens and runs.
hand_value(Hand, Start, Value) :-
    Cards = [Start|Hand],
    generate_list(Cards, nosum, card_to_rank, Ranks),
    generate_list(Cards, sum, card_to_value, Values),
    fifteens(Values, F),
    runs(Ranks, R),
    Value is F + R.

%! select_hand(+Cards, -Hand, -Crib) is det.
%  Keeps the first four cards.
select_hand([A, B, C, D|Crib], [A, B, C, D], Crib).

%! generate_list(+Cards, +Type, +Pred, -List) is det.
%  List holds Pred applied to each card, with Type passed along.
generate_list([], _, _, []).
generate_list([Card|Cards], Type, Pred, [Value|Values]) :-
    call(Pred, Card, Type, Value),
    generate_list(Cards, Type, Pred, Values).

%! card_to_rank(+Card, +Type, -Rank) is det.
%  The rank of a card as a number from 1 to 13.
card_to_rank(card(R, _), _, N) :-
    rank_number(R, N).

%! card_to_value(+Card, +Type, -Value) is det.
%  The value of a card for fifteens.
card_to_value(card(R, _), _, V) :-
    rank_number(R, N),
    V is min(N, 10).

%! rank_number(+Rank, -N) is det.
%  Ace is 1, jack 11, queen 12, king 13.
rank_number(ace, 1) :- !.
rank_number(jack, 11) :- !.
rank_number(queen, 12) :- !.
rank_number(king, 13) :- !.
rank_number(N, N).

%! fifteens(+Values, -Points) is det.
%  Two points for each subset of Values summing to 15.
fifteens(Values, Points) :-
    aggregate_all(count, sums_to(Values, 15), N),
    Points is 2 * N.

%! sums_to(+Values, +Total) is nondet.
%  A subset of Values sums to Total.
sums_to(_, 0).
sums_to([V|Vs], T) :-
    T > 0,
    T1 is T - V,
    sums_to(Vs, T1).
sums_to([_|Vs], T) :-
    T > 0,
    sums_to(Vs, T).

%! runs(+Ranks, -Points) is det.
%  Runs are not scored yet.
runs(_, 0).

%! old_rank(+Card, -Rank) is det.
%  The first version of card_to_rank/3, no longer used.
old_rank(card(R, _), R).
