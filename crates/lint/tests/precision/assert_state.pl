% Cribbage project, keeping a running score in the database.
% Author: Morgan Student

:- dynamic score/1.

%! hand_value(+Hand, +Start, -Value) is det.
%  Value is the points of Hand with Start.
hand_value(Hand, Start, Value) :-
    retractall(score(_)),
    assertz(score(0)),
    forall(fifteen([Start|Hand]), add_score(2)),
    forall(pair([Start|Hand]), add_score(2)),
    score(Value).

%! add_score(+N) is det.
%  Adds N to the stored score.
add_score(N) :-
    retract(score(S0)),
    S is S0 + N,
    assertz(score(S)).

%! select_hand(+Cards, -Hand, -Crib) is det.
%  Keeps the first four cards and remembers the crib.
select_hand([A, B, C, D|Crib], [A, B, C, D], Crib) :-
    nb_setval(last_crib, Crib).

%! fifteen(+Cards) is nondet.
fifteen(Cards) :-
    sub(Cards, S),
    foldl([card(R, _), T0, T]>>(value(R, V), T is T0 + V), S, 0, 15).

%! pair(+Cards) is nondet.
pair(Cards) :-
    append(_, [card(R, _)|Rest], Cards),
    member(card(R, _), Rest).

%! sub(+List, -Sub) is nondet.
sub([], []).
sub([X|Xs], [X|Ys]) :- sub(Xs, Ys).
sub([_|Xs], Ys) :- sub(Xs, Ys).

%! value(+Rank, -Value) is det.
value(ace, 1) :- !.
value(R, R) :- integer(R), !.
value(_, 10).
