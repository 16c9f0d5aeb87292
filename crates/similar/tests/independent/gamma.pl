% gamma.pl: hand_value/3 and select_hand/3 over rank counts, in the style of library(apply):
% msort/2, clumped/2, foldl/4 and maplist/3 rather than recursion. Written for crib similar's
% disguise corpus (tests/similar/disguise_corpus.rs), apart from the project's other solutions.
%
% Lines between `%{ change` and `%|` are this solution as written; lines between `%|` and
% `%}` are the same code as a student disguising it with that change would write it. The
% tests keep one side or the other.

hand_value(Hand, Start, Value) :-
%{ inline
    maplist(rank_value, [Start|Hand], Ranks),
%|
    findall(V, (member(card(R, _), [Start|Hand]), rank_index(R, V)), Ranks),
%}
    msort(Ranks, Sorted),
    clumped(Sorted, Counts),
    foldl(pair_score, Counts, 0, Pairs),
    run_score(Counts, Runs),
    maplist(face_value, Sorted, Faces),
    fifteens(Faces, Fifteens),
    suit_score(Hand, Start, Suits),
    Value is Pairs + Runs + Fifteens + Suits.

%{ inline
rank_value(card(R, _), V) :-
    rank_index(R, V).

%|
%}
rank_index(R, V) :-
    ranks(Rs),
    nth1(V, Rs, R),
    !.

ranks([ace, 2, 3, 4, 5, 6, 7, 8, 9, 10, jack, queen, king]).

suit(clubs).
suit(diamonds).
suit(hearts).
suit(spades).

face_value(R, F) :-
    F is min(R, 10).

pair_score(_-N, S0, S) :-
    S is S0 + N * (N - 1).

% Every subset's sum, built card by card; the fifteens are the sums equal to 15.
%{ aggregate
fifteens(Faces, Points) :-
    foldl(add_sums, Faces, [0], Sums),
    include(==(15), Sums, Hits),
    length(Hits, N),
    Points is 2 * N.
%|
fifteens(Faces, Points) :-
    foldl(add_sums, Faces, [0], Sums),
    aggregate_all(count, member(15, Sums), N),
    Points is 2 * N.
%}

add_sums(F, Sums0, Sums) :-
    maplist(plus(F), Sums0, More),
    append(Sums0, More, Sums).

% The run through the ranks present, its length times the ways to choose its cards.
run_score(Counts, Points) :-
    numlist(1, 13, All),
    maplist(count_of(Counts), All, Row),
    best_stretch(Row, 0, 1, 0, Points).

count_of(Counts, R, N) :-
    (   memberchk(R-N0, Counts)
    ->  N = N0
    ;   N = 0
    ).

best_stretch([], Len, Ways, Best0, Points) :-
    close_run(Len, Ways, Best0, Points).
best_stretch([0|Row], Len, Ways, Best0, Points) :-
    !,
    close_run(Len, Ways, Best0, Best),
    best_stretch(Row, 0, 1, Best, Points).
best_stretch([N|Row], Len, Ways, Best, Points) :-
    Len1 is Len + 1,
    Ways1 is Ways * N,
    best_stretch(Row, Len1, Ways1, Best, Points).

close_run(Len, Ways, Best0, Best) :-
    (   Len >= 3
    ->  Best is max(Best0, Len * Ways)
    ;   Best = Best0
    ).

%{ split
suit_score(Hand, card(_, Start), Points) :-
    maplist(card_suit, Hand, Suits),
    flush_bonus(Suits, Start, Flush),
    (   memberchk(card(jack, Start), Hand)
    ->  Nob = 1
    ;   Nob = 0
    ),
    Points is Flush + Nob.
%|
suit_score(Hand, card(_, Start), Points) :-
    maplist(card_suit, Hand, Suits),
    flush_bonus(Suits, Start, Flush),
    nob_bonus(Hand, Start, Nob),
    Points is Flush + Nob.

nob_bonus(Hand, Start, Nob) :-
    (   memberchk(card(jack, Start), Hand)
    ->  Nob = 1
    ;   Nob = 0
    ).
%}

card_suit(card(_, S), S).

%{ clauses
flush_bonus([S, S, S, S], Start, P) :-
    !,
    (   Start == S
    ->  P = 5
    ;   P = 4
    ).
flush_bonus(_, _, 0).
%|
flush_bonus([S, S, S, S], S, 5) :- !.
flush_bonus([S, S, S, S], _, 4) :- !.
flush_bonus(_, _, 0).
%}

select_hand(Cards, Hand, Cribcards) :-
    length(Cards, Len),
    numlist(1, Len, Positions),
    findall(Keep, combination(4, Positions, Keep), Keeps),
    starts(Cards, Starts),
    maplist(keep_worth(Cards, Starts), Keeps, Worths),
    pairs_keys_values(Scored, Worths, Keeps),
    max_first(Scored, _-Best),
    positions(Best, Cards, Hand),
    subtract(Cards, Hand, Cribcards).

combination(0, _, []).
combination(K, [X|Xs], [X|Ys]) :-
    K > 0,
    K1 is K - 1,
    combination(K1, Xs, Ys).
combination(K, [_|Xs], Ys) :-
    K > 0,
    combination(K, Xs, Ys).

starts(Cards, Starts) :-
    ranks(Rs),
    findall(card(R, S),
            ( suit(S),
              member(R, Rs),
              \+ memberchk(card(R, S), Cards)
            ),
            Starts).

keep_worth(Cards, Starts, Keep, Worth) :-
    positions(Keep, Cards, Hand),
    foldl(add_value(Hand), Starts, 0, Worth).

add_value(Hand, Start, W0, W) :-
    hand_value(Hand, Start, V),
    W is W0 + V.

positions(Ps, Cards, Hand) :-
    maplist(nth_card(Cards), Ps, Hand).

nth_card(Cards, P, C) :-
    nth1(P, Cards, C).

max_first([P|Ps], Best) :-
    foldl(better, Ps, P, Best).

better(W-K, W0-K0, B) :-
    (   W > W0
    ->  B = W-K
    ;   B = W0-K0
    ).
