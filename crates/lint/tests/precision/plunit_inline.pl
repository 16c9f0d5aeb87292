% Cribbage project 1, with its tests in the same file.
% Author: Jesse Student

%! hand_value(+Hand, +Start, -Value) is det.
%  Value is the points for pairs.
hand_value(Hand, Start, Value) :-
    aggregate_all(count, pair([Start|Hand]), N),
    Value is 2 * N.

%! select_hand(+Cards, -Hand, -Crib) is det.
%  Keeps the first four cards.
select_hand([A, B, C, D|Crib], [A, B, C, D], Crib).

%! pair(+Cards) is nondet.
%  Once for each unordered pair of cards of equal rank.
pair(Cards) :-
    append(_, [card(R, _)|Rest], Cards),
    member(card(R, _), Rest).

%! hand(+Name, -Hand, -Start) is det.
%  Hands the tests use, by name.
hand(three_fives, [card(5, hearts), card(5, spades), card(5, clubs),
                   card(jack, hearts)], card(2, clubs)).

:- begin_tests(cribbage).

test(three_fives, V == 6) :-
    hand(three_fives, H, S),
    hand_value(H, S, V).

test(keep_four, Hand == [a, b, c, d]) :-
    select_hand([a, b, c, d, e, f], Hand, _).

:- end_tests(cribbage).
