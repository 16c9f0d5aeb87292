% mistake: value-fifteens-only
% area: value
% what: Only fifteens are counted: the value is the fifteens' points, and pairs, runs, the
%   flush and his nob are never added (a first version of hand_value/3 handed in as it was).
% equivalent: no

% hand_value(+Hand, +Start, -Value): Value is the points of Hand with Start.
hand_value(Hand, Start, Value) :-
    All = [Start|Hand],
    maplist(rank_number, All, Ranks),
    fifteen_points(Ranks, Value).

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
