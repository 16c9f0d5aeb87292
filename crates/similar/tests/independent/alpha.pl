% alpha.pl: hand_value/3 and select_hand/3 written clause by clause, with explicit
% recursion and accumulators, for crib similar's disguise corpus
% (tests/similar/disguise_corpus.rs), apart from the project's other solutions.
%
% Lines between `%{ change` and `%|` are this solution as written; lines between `%|` and
% `%}` are the same code as a student disguising it with that change would write it. The
% tests keep one side or the other.

%  hand_value(+Hand, +Start, -Value): the points of the four cards Hand with Start.
%{ split
hand_value(Hand, Start, Value) :-
    Cards = [Start|Hand],
    fifteen_points(Cards, F),
    pair_points(Cards, P),
    run_points(Cards, R),
    flush_points(Hand, Start, Fl),
    nob_points(Hand, Start, N),
    Value is F + P + R + Fl + N.
%|
hand_value(Hand, Start, Value) :-
    Cards = [Start|Hand],
    set_points(Cards, Sets),
    suit_points(Hand, Start, Suits),
    Value is Sets + Suits.

set_points(Cards, Points) :-
    fifteen_points(Cards, F),
    pair_points(Cards, P),
    run_points(Cards, R),
    Points is F + P + R.

suit_points(Hand, Start, Points) :-
    flush_points(Hand, Start, Fl),
    nob_points(Hand, Start, N),
    Points is Fl + N.
%}

face(ace, 1).
face(jack, 11).
face(queen, 12).
face(king, 13).

%  card_rank(+Card, -N): N is 1 for an ace, 11 to 13 for the court cards.
%{ clauses
card_rank(card(R, _), N) :-
    (   face(R, N0)
    ->  N = N0
    ;   N = R
    ).
%|
card_rank(card(R, _), N) :-
    face(R, N),
    !.
card_rank(card(N, _), N).
%}

card_pips(Card, Pips) :-
    card_rank(Card, N),
    Pips is min(N, 10).

%  Two points for each set of cards whose pips add up to fifteen.
fifteen_points(Cards, Points) :-
    maplist(card_pips, Cards, Pips),
    count_sums(Pips, 15, Ways),
    Points is 2 * Ways.

count_sums([], 0, 1) :- !.
count_sums([], _, 0).
count_sums([P|Ps], Target, Ways) :-
    Rest is Target - P,
    count_sums(Ps, Target, Without),
    (   Rest >= 0
    ->  count_sums(Ps, Rest, With)
    ;   With = 0
    ),
    Ways is With + Without.

%  Two points for each two cards of the same rank.
%{ aggregate
pair_points(Cards, Points) :-
    maplist(card_rank, Cards, Ranks),
    pair_count(Ranks, 0, Pairs),
    Points is 2 * Pairs.

pair_count([], Acc, Acc).
pair_count([R|Rs], Acc0, Acc) :-
    same_rank(Rs, R, 0, K),
    Acc1 is Acc0 + K,
    pair_count(Rs, Acc1, Acc).

same_rank([], _, K, K).
same_rank([X|Xs], R, K0, K) :-
    (   X =:= R
    ->  K1 is K0 + 1
    ;   K1 = K0
    ),
    same_rank(Xs, R, K1, K).
%|
pair_points(Cards, Points) :-
    maplist(card_rank, Cards, Ranks),
    aggregate_all(count, (append(_, [R|Rs], Ranks), member(S, Rs), S =:= R), Pairs),
    Points is 2 * Pairs.
%}

%  The longest runs only: each way of choosing their cards scores their length.
run_points(Cards, Points) :-
    maplist(card_rank, Cards, Ranks),
    msort(Ranks, Sorted),
    longest_runs(5, Sorted, Points).

%{ inline
longest_runs(Len, Sorted, Points) :-
    Len >= 3,
    findall(Len, run_of(Len, Sorted), Found),
    Found \== [],
    !,
    length(Found, Count),
    Points is Len * Count.
%|
longest_runs(Len, Sorted, Points) :-
    Len >= 3,
    findall(Len, (choose(Len, Sorted, Picked), consecutive(Picked)), Found),
    Found \== [],
    !,
    length(Found, Count),
    Points is Len * Count.
%}
longest_runs(Len, Sorted, Points) :-
    Len > 3,
    !,
    Shorter is Len - 1,
    longest_runs(Shorter, Sorted, Points).
longest_runs(_, _, 0).

%{ inline
run_of(Len, Sorted) :-
    choose(Len, Sorted, Picked),
    consecutive(Picked).

%|
%}
choose(0, _, []) :- !.
choose(N, [X|Xs], [X|Ys]) :-
    N1 is N - 1,
    choose(N1, Xs, Ys).
choose(N, [_|Xs], Ys) :-
    N > 0,
    choose(N, Xs, Ys).

consecutive([_]).
consecutive([A, B|Rest]) :-
    B =:= A + 1,
    consecutive([B|Rest]).

%  Four points when the hand's cards share a suit, five when the start does too.
flush_points([card(_, S)|Rest], card(_, T), Points) :-
    (   all_suit(Rest, S)
    ->  (   T == S
        ->  Points = 5
        ;   Points = 4
        )
    ;   Points = 0
    ).

all_suit([], _).
all_suit([card(_, S)|Cs], S) :-
    all_suit(Cs, S).

%  One point for the jack of the start card's suit in the hand.
nob_points(Hand, card(_, S), Points) :-
    (   memberchk(card(jack, S), Hand)
    ->  Points = 1
    ;   Points = 0
    ).

%  select_hand(+Cards, -Hand, -Cribcards): the four cards worth most over every start card
%  left in the deck; the first such four when several are.
select_hand(Cards, Hand, Cribcards) :-
    deck(Deck),
    exclude(in_list(Cards), Deck, Starts),
    findall(Total-Keep,
            ( choose(4, Cards, Keep),
              expected_sum(Starts, Keep, 0, Total)
            ),
            Options),
    best_option(Options, _-Hand),
    discard_rest(Cards, Hand, Cribcards).

in_list(List, X) :-
    memberchk(X, List).

deck(Deck) :-
    findall(card(R, S),
            ( member(S, [clubs, diamonds, hearts, spades]),
              member(R, [ace, 2, 3, 4, 5, 6, 7, 8, 9, 10, jack, queen, king])
            ),
            Deck).

expected_sum([], _, T, T).
expected_sum([S|Ss], Keep, T0, T) :-
    hand_value(Keep, S, V),
    T1 is T0 + V,
    expected_sum(Ss, Keep, T1, T).

best_option([O|Os], Best) :-
    best_option(Os, O, Best).

best_option([], Best, Best).
best_option([T-K|Os], T0-K0, Best) :-
    (   T > T0
    ->  best_option(Os, T-K, Best)
    ;   best_option(Os, T0-K0, Best)
    ).

discard_rest([], _, []).
discard_rest([C|Cs], Hand, Crib) :-
    (   memberchk(C, Hand)
    ->  Crib = Crib1
    ;   Crib = [C|Crib1]
    ),
    discard_rest(Cs, Hand, Crib1).
