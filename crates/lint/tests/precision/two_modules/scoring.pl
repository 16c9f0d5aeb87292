% Scoring rules for project 1, used by main.pl.
% Author: Taylor Student
:- module(scoring, [fifteens/2, pairs/2, keep4/2]).

%! fifteens(+Cards, -Points) is det.
%  Two points for each subset of Cards worth 15.
fifteens(Cards, Points) :-
    aggregate_all(count, fifteen(Cards, 15), N),
    Points is 2 * N.

%! fifteen(+Cards, +Left) is nondet.
%  A subset of Cards adds up to Left.
fifteen(_, 0).
fifteen([card(R, _)|Cs], Left) :-
    Left > 0,
    value(R, V),
    Left1 is Left - V,
    fifteen(Cs, Left1).
fifteen([_|Cs], Left) :-
    Left > 0,
    fifteen(Cs, Left).

%! pairs(+Cards, -Points) is det.
%  Two points for each pair of equal ranks.
pairs(Cards, Points) :-
    aggregate_all(count, pair(Cards), N),
    Points is 2 * N.

%! pair(+Cards) is nondet.
pair([card(R, _)|Cs]) :- member(card(R, _), Cs).
pair([_|Cs]) :- pair(Cs).

%! keep4(+Cards, -Four) is nondet.
%  Four of Cards, in order.
keep4(Cards, Four) :-
    length(Four, 4),
    sublist(Cards, Four).

%! sublist(+List, -Sub) is nondet.
sublist([], []).
sublist([X|Xs], [X|Ys]) :- sublist(Xs, Ys).
sublist([_|Xs], Ys) :- sublist(Xs, Ys).

%! value(+Rank, -Value) is det.
value(ace, 1) :- !.
value(R, R) :- integer(R), !.
value(_, 10).

%! runs(+Cards, -Points) is det.
%  Not exported and not called: runs were never finished.
runs(_, 0).
