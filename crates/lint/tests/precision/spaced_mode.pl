% Cribbage scoring, project 1.
% Author: Pat Learner

%% hand_value(+Hand, +Start, -Value)
%  Value is the fifteens score of the five cards.
hand_value(Hand, Start, Value) :-
    score_fifteens([Start|Hand], Value).

%% select_hand(+Cards, -Hand, -Crib)
%  Keeps the first four cards.
select_hand([A, B, C, D|Crib], [A, B, C, D], Crib).

%% score_fifteens (+Cards, ?Score)
%  Score is two points for each combination worth fifteen.
score_fifteens(Cards, Score) :-
    aggregate_all(count, fifteen(Cards, 0), N),
    Score is 2 * N.

%% fifteen(+Cards, +Sum0)
%  A subset of Cards that brings Sum0 to exactly 15.
fifteen(_, 15).
fifteen([card(R, _)|Cs], Sum0) :-
    Sum0 < 15,
    points(R, P),
    Sum is Sum0 + P,
    fifteen(Cs, Sum).
fifteen([_|Cs], Sum0) :-
    Sum0 < 15,
    fifteen(Cs, Sum0).

%% points(+Rank, -Points)
points(ace, 1).
points(jack, 10).
points(queen, 10).
points(king, 10).
points(N, N) :- integer(N).
