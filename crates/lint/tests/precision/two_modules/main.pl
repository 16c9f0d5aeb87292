% Project 1: the entry points; the scoring rules are in scoring.pl.
% Author: Taylor Student
:- module(main, [hand_value/3, select_hand/3]).
:- use_module(scoring).

%! hand_value(+Hand, +Start, -Value) is det.
%  Value is the sum of what each rule of scoring.pl gives.
hand_value(Hand, Start, Value) :-
    fifteens([Start|Hand], F),
    pairs([Start|Hand], P),
    Value is F + P.

%! select_hand(+Cards, -Hand, -Crib) is det.
%  Keeps the four cards worth most without a start card.
select_hand(Cards, Hand, Crib) :-
    best_keep(Cards, Hand),
    subtract(Cards, Hand, Crib).

%! best_keep(+Cards, -Hand) is det.
%  Hand is the four of Cards with the most fifteens and pairs.
best_keep(Cards, Hand) :-
    findall(V-H, (keep4(Cards, H), fifteens(H, F), pairs(H, P), V is F + P),
            Keeps),
    max_member(_-Hand, Keeps).
