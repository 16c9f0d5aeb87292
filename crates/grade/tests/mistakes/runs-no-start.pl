% mistake: runs-no-start
% area: runs
% what: Runs are looked for among the four hand cards only, leaving out the start card.
% equivalent: no

% Cribbage: hand_value/3 scores a hand, select_hand/3 picks the four cards to keep.

hand_value(Hand, Start, Value) :-
    Cards = [Start|Hand],
    fifteens(Cards, Fifteens),
    pairs(Cards, Pairs),
    runs(Hand, Runs),
    flush(Hand, Start, Flush),
    nob(Hand, Start, Nob),
    Value is Fifteens + Pairs + Runs + Flush + Nob.

% rank(Card, N): the rank as a number, ace low.
rank(card(ace, _), 1).
rank(card(jack, _), 11).
rank(card(queen, _), 12).
rank(card(king, _), 13).
rank(card(N, _), N) :- integer(N).

% value(Card, V): what the card counts towards fifteen.
value(card(ace, _), 1).
value(card(jack, _), 10).
value(card(queen, _), 10).
value(card(king, _), 10).
value(card(N, _), N) :- integer(N).

suit(card(_, S), S).

% combination(List, Sub): Sub is some of the elements of List, in order.
combination([], []).
combination([X|Xs], [X|Ys]) :- combination(Xs, Ys).
combination([_|Xs], Ys) :- combination(Xs, Ys).

fifteens(Cards, Points) :-
    findall(Sub, (combination(Cards, Sub), maplist(value, Sub, Vs), sum_list(Vs, 15)), Subs),
    length(Subs, N),
    Points is 2 * N.

pairs(Cards, Points) :-
    maplist(rank, Cards, Ranks0),
    msort(Ranks0, Ranks),
    clumped(Ranks, Groups),
    foldl(pair_points, Groups, 0, Points).

% N cards of one rank make N*(N-1)/2 pairs, 2 points each.
pair_points(_-N, P0, P) :- P is P0 + N * (N - 1).

runs(Cards, Points) :-
    maplist(rank, Cards, Ranks0),
    msort(Ranks0, Ranks),
    clumped(Ranks, Groups),
    findall(Len-Ways, run_in(Groups, Len, Ways), Runs),
    (   Runs == []
    ->  Points = 0
    ;   max_member(Len-Ways, Runs),
        Points is Len * Ways
    ).

% run_in(Groups, Len, Ways): Len consecutive ranks, which Ways sets of cards make.
run_in(Groups, Len, Ways) :-
    append(_, Tail, Groups),
    append(Stretch, _, Tail),
    consecutive(Stretch),
    length(Stretch, Len),
    Len >= 3,
    foldl(times, Stretch, 1, Ways).

consecutive([_-_]).
consecutive([A-_, B-N|T]) :- B =:= A + 1, consecutive([B-N|T]).

times(_-Count, W0, W) :- W is W0 * Count.

flush(Hand, Start, Points) :-
    maplist(suit, Hand, Suits),
    sort(Suits, Distinct),
    (   Distinct = [S]
    ->  (   suit(Start, S) -> Points = 5 ; Points = 4 )
    ;   Points = 0
    ).

nob(Hand, card(_, S), Points) :-
    (   member(card(jack, S), Hand) -> Points = 1 ; Points = 0 ).

select_hand(Cards, Hand, Cribcards) :-
    full_deck(Deck),
    subtract(Deck, Cards, Starts),
    findall(Total-Keep, (keep_four(Cards, Keep), total_value(Keep, Starts, Total)), Scored),
    best_keep(Scored, Hand),
    subtract(Cards, Hand, Cribcards).

keep_four(Cards, Keep) :-
    combination(Cards, Keep),
    length(Keep, 4).

total_value(Keep, Starts, Total) :-
    foldl(add_value(Keep), Starts, 0, Total).

add_value(Keep, Start, T0, T) :-
    hand_value(Keep, Start, V),
    T is T0 + V.

% best_keep(Scored, Keep): the keep with the highest total.
best_keep([T-K|Rest], Best) :-
    best_keep(Rest, T, K, Best).

best_keep([], _, K, K).
best_keep([T-K|Rest], T0, K0, Best) :-
    (   T > T0
    ->  best_keep(Rest, T, K, Best)
    ;   best_keep(Rest, T0, K0, Best)
    ).

full_deck(Deck) :-
    findall(card(R, S),
            ( member(R, [ace, 2, 3, 4, 5, 6, 7, 8, 9, 10, jack, queen, king]),
              member(S, [clubs, diamonds, hearts, spades]) ),
            Deck).
