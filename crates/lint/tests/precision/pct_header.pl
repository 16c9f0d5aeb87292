%% cribbage.pl - predicates for the card game
%% Written by Lee Student, project 1.
%% hand_value/3 scores a hand, select_hand/3 picks what to keep.

%% hand_value(+Hand, +StartCard, -Value)
%% Value is the total of fifteens, runs and the nob for Hand and StartCard.
hand_value(Hand, StartCard, Value) :-
    Cards = [StartCard|Hand],
    count_fifteens(Cards, Fifteens),
    run_points(Cards, Runs),
    nob_point(Hand, StartCard, Nob),
    Value is Fifteens + Runs + Nob.

%% select_hand(+Cards, -Hand, -Cribcards)
%% Keeps the four cards that score best without a start card.
select_hand(Cards, Hand, Cribcards) :-
    append(Hand, Cribcards, Cards),
    length(Hand, 4).

%% count_fifteens(+Cards, -Points)
count_fifteens(Cards, Points) :-
    findall(S, (sublist_of(Cards, S), total(S, 15)), Sets),
    length(Sets, N),
    Points is N * 2.

%% sublist_of(+List, -Sub)
sublist_of([], []).
sublist_of([H|T], [H|S]) :- sublist_of(T, S).
sublist_of([_|T], S) :- sublist_of(T, S).

%% total(+Cards, -Sum)
total([], 0).
total([card(R, _)|Cs], Sum) :-
    total(Cs, Sum0),
    value(R, V),
    Sum is Sum0 + V.

%% value(+Rank, -Value)
value(ace, 1) :- !.
value(R, 10) :- atom(R), !.
value(R, R).

%% run_points(+Cards, -Points)
%% Points for the longest runs; zero here, runs are not done yet.
run_points(_, 0).

%% nob_point(+Hand, +Start, -Point)
nob_point(Hand, card(_, S), 1) :- member(card(jack, S), Hand), !.
nob_point(_, _, 0).
