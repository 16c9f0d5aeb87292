% A module whose exports are entry points too (X301 must not flag what
% they call), with one helper nothing reaches (X301 must flag it).
% Author: Ada Example <ada@example.edu>
:- module(exports, [hand_value/3, select_hand/3, card_codes/2]).

%! hand_value(+Hand, +Start, -Value) is det.
%  Value is the number of cards, a stand-in for the points.
hand_value(Hand, _Start, Value) :-
    length(Hand, Value).

%! select_hand(+Cards, -Hand, -Crib) is det.
%  Keeps the first four cards.
select_hand([A, B, C, D|Crib], [A, B, C, D], Crib).

%! card_codes(+Cards, -Codes) is det.
%  Codes are the cards' codes: exported, so code_of/2 is reached.
card_codes(Cards, Codes) :-
    maplist(code_of, Cards, Codes).

%! code_of(+Card, -Code) is det.
%  Code is the card's code.
code_of(card(R, _), R).

%! leftover(+X) is det.
%  Reached from nothing: dead code.
leftover(_).
