% Cribbage hand values, a small and tidy example.
% Author: Ada Example <ada@example.edu>

%! hand_value(+Hand, +Start, -Value) is det.
%  Value is the points of the four cards Hand with the start card Start.
hand_value(Hand, Start, Value) :-
    aggregate_all(count, fifteen([Start|Hand]), N),
    Value is 2 * N.

%! select_hand(+Cards, -Hand, -Crib) is det.
%  Keeps the first four cards.
select_hand([A, B, C, D|Crib], [A, B, C, D], Crib).

%! fifteen(+Cards) is nondet.
%  Succeeds once for each subset of Cards worth 15.
fifteen(Cards) :-
    subset_of(Cards, Subset),
    sum_list(Subset, 15).

% subset_of(+List, -Subset): every subset of List.
subset_of([], []).
subset_of([X|Xs], [X|Ys]) :-
    subset_of(Xs, Ys).
subset_of([_|Xs], Ys) :-
    subset_of(Xs, Ys).
