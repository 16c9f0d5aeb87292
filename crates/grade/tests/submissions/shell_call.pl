% Corpus: shell/1, file writes and deletes in the hand_value calls with four fives (12 of
% them), otherwise correct. Expected: every test passes; nothing on the host changes (see
% tests/corpus.rs).

hand_value(Hand, Start, Value) :-
    (   four_fives(Hand)
    ->  catch(shell('touch /tmp/crib-grade-canary/shell-call; rm -rf /tmp/crib-grade-canary', _), _, true),
        catch(( open('/tmp/crib-grade-canary/written-call', write, S), write(S, pwned), close(S) ), _, true),
        catch(( open('scratch-file', append, S2), write(S2, ok), close(S2) ), _, true),
        catch(delete_file('/grader/tests.pl'), _, true)
    ;   true
    ),
    base_value(Hand, Start, Value).

% The trigger: a hand of four fives (12 of the 23,647 hand_value items, whatever the seed).
four_fives(Hand) :- include(is_five, Hand, [_, _, _, _]).
is_five(card(5, _)).

select_hand(Cards, Hand, Crib) :- base_select(Cards, Hand, Crib).

% ---- the correct base the code above wraps ----

% A correct base_value/3 for the code above to wrap.
base_value(Hand, Start, Value) :-
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
        findall(L, (run_subset(Ranks, L), length(L, Len)), Runs),
        Runs \== []
    ->  length(Runs, Count),
        Points is Count * Len
    ;   Points = 0
    ).

run_subset(Ranks, Sub) :-
    subset_of(Ranks, Sub),
    length(Sub, Len), Len >= 3,
    consecutive(Sub).

consecutive([_]).
consecutive([A, B|T]) :- B =:= A + 1, consecutive([B|T]).

flush_points([card(_, S)|Hand], card(_, Start), Points) :-
    (   maplist(same_suit(S), Hand)
    ->  (   Start == S -> Points = 5 ; Points = 4 )
    ;   Points = 0
    ).

same_suit(S, card(_, S)).

nob_points(Hand, card(_, S), Points) :-
    (   memberchk(card(jack, S), Hand) -> Points = 1 ; Points = 0 ).

% A correct base_select/3.
base_select(Cards, Hand, Cribcards) :-
    findall(Total-(H-C), (keep(Cards, H, C), expected_total(H, Cards, Total)), Keeps),
    max_member(_-(Hand-Cribcards), Keeps).

keep(Cards, Hand, Crib) :-
    length(Hand, 4),
    subset_of(Cards, Hand),
    subtract(Cards, Hand, Crib).

expected_total(Hand, Cards, Total) :-
    findall(V, (deck_card(S), \+ memberchk(S, Cards), base_value(Hand, S, V)), Vs),
    sum_list(Vs, Total).

deck_card(card(R, S)) :-
    member(R, [ace, 2, 3, 4, 5, 6, 7, 8, 9, 10, jack, queen, king]),
    member(S, [clubs, diamonds, hearts, spades]).
