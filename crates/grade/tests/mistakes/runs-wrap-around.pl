% mistake: runs-wrap-around
% area: runs
% what: Runs may wrap around from king to ace (K-A-2 counts as a run).
% equivalent: no

% hand_value(+Hand, +Start, -Value): Value is the points of Hand with Start.
hand_value(Hand, Start, Value) :-
    All = [Start|Hand],
    maplist(rank_number, All, Ranks0),
    msort(Ranks0, Ranks),
    fifteen_points(Ranks, F),
    pair_points(Ranks, P),
    run_points(Ranks, R),
    flush_points(Hand, Start, Fl),
    nob_points(Hand, Start, N),
    Value is F + P + R + Fl + N.

rank_number(card(ace, _), 1) :- !.
rank_number(card(jack, _), 11) :- !.
rank_number(card(queen, _), 12) :- !.
rank_number(card(king, _), 13) :- !.
rank_number(card(N, _), N).

count_value(N, V) :- V is min(N, 10).

fifteen_points(Ranks, Points) :-
    maplist(count_value, Ranks, Values),
    aggregate_all(count, (subset_of(Values, S), sum_list(S, 15)), Count),
    Points is 2 * Count.

subset_of([], []).
subset_of([X|Xs], [X|Ys]) :- subset_of(Xs, Ys).
subset_of([_|Xs], Ys) :- subset_of(Xs, Ys).

pair_points(Ranks, Points) :-
    aggregate_all(count, (append(_, [X|Rest], Ranks), member(X, Rest)), Count),
    Points is 2 * Count.

run_points(Ranks, Points) :-
    (   between(0, 2, Drop), Len is 5 - Drop,
        findall(Set, (subset_of(Ranks, Set), length(Set, Len), round_run(Set)), Runs),
        Runs \== []
    ->  length(Runs, Count),
        Points is Count * Len
    ;   Points = 0
    ).

% the ranks go round: after the king (13) comes the ace (1) again, so a run is Len
% different ranks that follow one another from one of them, counting round the king
round_run(Set) :-
    length(Set, Len),
    member(First, Set),
    forall(between(1, Len, K), ( R is (First + K - 2) mod 13 + 1, memberchk(R, Set) )),
    sort(Set, Distinct),
    length(Distinct, Len),
    !.

flush_points([card(_, S)|Hand], card(_, Start), Points) :-
    (   maplist(same_suit(S), Hand)
    ->  (   Start == S -> Points = 5 ; Points = 4 )
    ;   Points = 0
    ).

same_suit(S, card(_, S)).

nob_points(Hand, card(_, S), Points) :-
    (   memberchk(card(jack, S), Hand) -> Points = 1 ; Points = 0 ).

% select_hand(+Cards, -Hand, -Cribcards): keep the four with the best expected value.
select_hand(Cards, Hand, Cribcards) :-
    findall(Total-(H-C), (keep(Cards, H, C), expected_total(H, Cards, Total)), Keeps),
    max_member(_-(Hand-Cribcards), Keeps).

keep(Cards, Hand, Crib) :-
    length(Hand, 4),
    subset_of(Cards, Hand),
    subtract(Cards, Hand, Crib).

expected_total(Hand, Cards, Total) :-
    findall(V, (deck_card(S), \+ memberchk(S, Cards), hand_value(Hand, S, V)), Vs),
    sum_list(Vs, Total).

deck_card(card(R, S)) :-
    member(R, [ace, 2, 3, 4, 5, 6, 7, 8, 9, 10, jack, queen, king]),
    member(S, [clubs, diamonds, hearts, spades]).
