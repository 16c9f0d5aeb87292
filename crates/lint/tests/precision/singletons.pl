% Cribbage project 1.
% Author: Avery Student

%! hand_value(+Hand, +Start, -Value) is det.
%  Value is the points for the nob and the flush.
hand_value(Hand, Start, Value) :-
    nob(Hand, Start, N),
    flush(Hand, Start, F),
    Value is N + F.

%! select_hand(+Cards, -Hand, -Crib) is det.
%  Keeps the first four cards.
select_hand([A, B, C, D|Crib], [A, B, C, D], Crib).

%! nob(+Hand, +Start, -Points) is det.
%  One point for the jack of the start's suit (Rank is never used).
nob(Hand, card(Rank, Suit), Points) :-
    (   memberchk(card(jack, Suit), Hand)
    ->  Points = 1
    ;   Points = 0
    ).

%! flush(+Hand, +Start, -Points) is det.
%  Four or five points for a flush (_S is used twice by mistake).
flush([card(_, _S)|Cards], card(_, S5), Points) :-
    (   forall(member(card(_, S1), Cards), S1 == _S)
    ->  ( S5 == _S -> Points = 5 ; Points = 4 )
    ;   Points = 0
    ).
