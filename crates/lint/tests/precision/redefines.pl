% Cribbage project 1, with my own list predicates.
% Author: Sky Student

%! hand_value(+Hand, +Start, -Value) is det.
%  Value is the points for pairs.
hand_value(Hand, Start, Value) :-
    pairs([Start|Hand], Value).

%! select_hand(+Cards, -Hand, -Crib) is det.
%  Keeps the last four cards.
select_hand(Cards, Hand, Crib) :-
    append(Crib, Hand, Cards),
    length(Hand, 4).

%! pairs(+Cards, -Points) is det.
%  Two points for each pair of equal ranks.
pairs([], 0).
pairs([card(R, _)|Cs], Points) :-
    count_rank(Cs, R, N),
    pairs(Cs, P0),
    Points is P0 + 2 * N.

%! count_rank(+Cards, +Rank, -N) is det.
count_rank(Cards, Rank, N) :-
    include(has_rank(Rank), Cards, Same),
    length(Same, N).

%! has_rank(+Rank, +Card) is semidet.
has_rank(R, card(R, _)).

%! append(?A, ?B, ?AB) is nondet.
%  My own append, written for practice.
append([], L, L).
append([H|T], L, [H|R]) :-
    append(T, L, R).
