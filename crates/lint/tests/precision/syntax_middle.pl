% Cribbage project, with a typo left in the middle.
% Author: Jordan Student

%! hand_value(+Hand, +Start, -Value) is det.
%  Value is the points for fifteens and the nob.
hand_value(Hand, Start, Value) :-
    fifteens([Start|Hand], F),
    nob(Hand, Start, N),
    Value is F + N.

%! select_hand(+Cards, -Hand, -Crib) is det.
%  Keeps the first four cards.
select_hand([A, B, C, D|Crib], [A, B, C, D], Crib).

%! fifteens(+Cards, -Points) is det.
%  Two points for each subset worth 15 (the comma after the findall is
%  missing, so this clause does not read).
fifteens(Cards, Points) :-
    findall(S, (subset_of(Cards, S), worth(S, 15)), Sets)
    length(Sets, N),
    Points is 2 * N.

%! nob(+Hand, +Start, -Points) is det.
%  One point for the jack of the start's suit.
nob(Hand, card(_, Suit), 1) :-
    memberchk(card(jack, Suit), Hand),
    !.
nob(_, _, 0).

%! subset_of(+List, -Sub) is nondet.
subset_of([], []).
subset_of([X|Xs], [X|Ys]) :- subset_of(Xs, Ys).
subset_of([_|Xs], Ys) :- subset_of(Xs, Ys).

%! worth(+Cards, -Total) is det.
worth([], 0).
worth([card(R, _)|Cs], T) :-
    worth(Cs, T0),
    (   integer(R) -> V = R ; R == ace -> V = 1 ; V = 10 ),
    T is T0 + V.
