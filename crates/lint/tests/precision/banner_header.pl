%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%
%%% COMP30020 Declarative Programming, Project 1: Cribbage
%%% Author:  Sam Sample (student 900001)
%%% Purpose: score a cribbage hand and choose which cards to keep.
%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%

%% hand_value(+Hand, +Start, -Value)
%  Value is the number of points Hand and the start card Start are worth.
hand_value(Hand, Start, Value) :-
    Cards = [Start|Hand],
    fifteens(Cards, F),
    pairs(Cards, P),
    nob(Hand, Start, N),
    Value is F + P + N.

%% select_hand(+Cards, -Hand, -Cribcards)
%  Keeps the first four cards and throws the rest into the crib.
select_hand([A, B, C, D|Crib], [A, B, C, D], Crib).

%% fifteens(+Cards, -Points)
%  Two points for every combination of cards adding up to 15.
fifteens(Cards, Points) :-
    maplist(card_value, Cards, Values),
    aggregate_all(count, sum_subset(Values, 15), N),
    Points is 2 * N.

%% sum_subset(+Values, +Total)
%  Succeeds once for each subset of Values summing to Total.
sum_subset([], 0).
sum_subset([V|Vs], T) :-
    T1 is T - V,
    T1 >= 0,
    sum_subset(Vs, T1).
sum_subset([_|Vs], T) :-
    sum_subset(Vs, T).

%% pairs(+Cards, -Points)
%  Two points for each pair of cards of the same rank.
pairs(Cards, Points) :-
    aggregate_all(count, a_pair(Cards), N),
    Points is 2 * N.

%% a_pair(+Cards)
%  One solution per unordered pair of equal rank.
a_pair([card(R, _)|Cards]) :-
    member(card(R, _), Cards).
a_pair([_|Cards]) :-
    a_pair(Cards).

%% nob(+Hand, +Start, -Points)
%  One point for the jack of the start card's suit in the hand.
nob(Hand, card(_, Suit), Points) :-
    (   memberchk(card(jack, Suit), Hand)
    ->  Points = 1
    ;   Points = 0
    ).

%% card_value(+Card, -Value)
%  The value of a card when counting fifteens.
card_value(card(Rank, _), Value) :-
    (   integer(Rank) -> Value = Rank
    ;   Rank == ace -> Value = 1
    ;   Value = 10
    ).
