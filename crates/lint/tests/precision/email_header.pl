/*  Project 1: the value of a cribbage hand, and which four cards to keep.
    Tomas Ortega <tomas.ortega@mail.example.edu>
*/

%% hand_value(+Hand, +Start, -Value) is det.
%  Value counts the pairs in Hand and Start, two points each.
hand_value(Hand, Start, Value) :-
    ranks([Start|Hand], Ranks),
    aggregate_all(count, two_alike(Ranks), Pairs),
    Value is 2 * Pairs.

%% select_hand(+Cards, -Hand, -Crib) is det.
%  Keeps the last four of Cards and throws the first two into the crib.
select_hand([A, B|Hand], Hand, [A, B]).

%% ranks(+Cards, -Ranks) is det.
ranks([], []).
ranks([card(R, _)|Cards], [R|Rs]) :- ranks(Cards, Rs).

%% two_alike(+Ranks) is nondet.
%  True once for each two positions of Ranks that hold the same rank.
two_alike([R|Rs]) :- memberchk_all(R, Rs).
two_alike([_|Rs]) :- two_alike(Rs).

%% memberchk_all(+X, +List) is nondet.
%  True once for each element of List equal to X.
memberchk_all(X, [Y|_]) :- X == Y.
memberchk_all(X, [_|Ys]) :- memberchk_all(X, Ys).
