% Hides a system predicate the compiler accepts silently (W204 must
% flag msort/2) and defines hooks meant to be defined (W204 must not).
% Author: Ada Example <ada@example.edu>

%! hand_value(+Hand, +Start, -Value) is det.
%  Value is the number of distinct cards, a stand-in for the points.
hand_value(Hand, Start, Value) :-
    msort([Start|Hand], Sorted),
    length(Sorted, Value).

%! select_hand(+Cards, -Hand, -Crib) is det.
%  Keeps the first four cards.
select_hand([A, B, C, D|Crib], [A, B, C, D], Crib).

%! msort(+List, -Sorted) is det.
%  Hides the system's msort/2.
msort(List, List).

%! portray(+Term) is semidet.
%  A hook of print/1: a card prints as rank-suit.
portray(card(Rank, Suit)) :-
    format("~w-~w", [Rank, Suit]).
