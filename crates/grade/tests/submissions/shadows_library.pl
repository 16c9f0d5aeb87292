% Corpus: defines its own (broken) versions of library predicates and hooks in user, as a
% student who writes "my own reverse/2" or a goal_expansion might; its own hand_value/3 and
% select_hand/3 call none of them. Expected: every answer judged, every test passes (the
% children call their libraries' predicates, never these).

nth0(_, _, _) :- throw(my_nth0_is_unfinished).
nth1(_, _, _) :- throw(my_nth1_is_unfinished).
last(_, _) :- throw(my_last_is_unfinished).
delete(_, _, _) :- throw(my_delete_is_unfinished).
reverse(_, _) :- throw(my_reverse_is_unfinished).
member(_, _) :- throw(my_member_is_unfinished).
append(_, _, _) :- throw(my_append_is_unfinished).
sum_list(_, _) :- throw(my_sum_list_is_unfinished).
max_list(_, _) :- throw(my_max_list_is_unfinished).
subtract(_, _, _) :- throw(my_subtract_is_unfinished).
maplist(_, _) :- throw(my_maplist_is_unfinished).
maplist(_, _, _) :- throw(my_maplist_is_unfinished).
foldl(_, _, _, _) :- throw(my_foldl_is_unfinished).
json_write_dict(_, _, _) :- throw(my_json_is_unfinished).
sub_term(_, _) :- throw(my_sub_term_is_unfinished).
domain_error(_, _) :- throw(my_domain_error_is_unfinished).
type_error(_, _) :- throw(my_type_error_is_unfinished).

% Hooks: what it would print is its own business, but the child's calls must not change.
portray(_) :- throw(my_portray_is_unfinished).
goal_expansion(format(_, _, _), throw(my_goal_expansion)).
goal_expansion(send_frame(_), throw(my_goal_expansion)).

% ---- a correct solution on helpers of its own (it calls none of the predicates above) ----

hand_value(Hand, Start, Value) :-
    own_ranks([Start|Hand], Ranks0),
    insertion_sort(Ranks0, Ranks),
    own_values(Ranks, Values),
    aggregate_all(count, (subset_of(Values, S), own_sum(S, 15)), Fifteens),
    aggregate_all(count, (subset_of(Ranks, [A, B]), A =:= B), Pairs),
    run_points(Ranks, Runs),
    flush_points(Hand, Start, Flush),
    nob_points(Hand, Start, Nob),
    Value is 2 * Fifteens + 2 * Pairs + Runs + Flush + Nob.

own_ranks([], []).
own_ranks([card(R, _)|Cs], [N|Ns]) :- rank_number(R, N), own_ranks(Cs, Ns).

rank_number(ace, 1).
rank_number(jack, 11).
rank_number(queen, 12).
rank_number(king, 13).
rank_number(N, N) :- integer(N).

own_values([], []).
own_values([R|Rs], [V|Vs]) :- ( R > 10 -> V = 10 ; V = R ), own_values(Rs, Vs).

own_sum([], 0).
own_sum([X|Xs], S) :- own_sum(Xs, S0), S is S0 + X.

own_length([], 0).
own_length([_|Xs], N) :- own_length(Xs, N0), N is N0 + 1.

own_member(X, [X|_]).
own_member(X, [_|Xs]) :- own_member(X, Xs).

insertion_sort([], []).
insertion_sort([X|Xs], Sorted) :- insertion_sort(Xs, S0), insert(X, S0, Sorted).

insert(X, [], [X]).
insert(X, [Y|Ys], Out) :- ( X =< Y -> Out = [X, Y|Ys] ; Out = [Y|Rest], insert(X, Ys, Rest) ).

subset_of([], []).
subset_of([X|Xs], [X|Ys]) :- subset_of(Xs, Ys).
subset_of([_|Xs], Ys) :- subset_of(Xs, Ys).

% The longest runs only: a run of four is not also two runs of three.
run_points(Ranks, Points) :-
    (   own_member(Len, [5, 4, 3]),
        aggregate_all(count, (subset_of(Ranks, Sub), own_length(Sub, Len), consecutive(Sub)), N),
        N > 0
    ->  Points is Len * N
    ;   Points = 0
    ).

consecutive([_]).
consecutive([A, B|T]) :- B =:= A + 1, consecutive([B|T]).

flush_points([card(_, S)|Hand], card(_, Start), Points) :-
    (   all_suit(Hand, S)
    ->  ( Start == S -> Points = 5 ; Points = 4 )
    ;   Points = 0
    ).

all_suit([], _).
all_suit([card(_, S)|Cs], S) :- all_suit(Cs, S).

nob_points(Hand, card(_, S), Points) :-
    ( own_member(card(jack, S), Hand) -> Points = 1 ; Points = 0 ).

% The keep with the greatest total over the start cards not dealt; the first such keep.
select_hand(Cards, Hand, Crib) :-
    findall(Total-(H-C), (keep(Cards, H, C), total_over_starts(H, Cards, Total)), Keeps),
    best(Keeps, _-(Hand-Crib)).

keep(Cards, Hand, Crib) :-
    subset_of(Cards, Hand),
    own_length(Hand, 4),
    without(Cards, Hand, Crib).

without([], _, []).
without([C|Cs], Hand, Out) :-
    ( own_member(C, Hand) -> Out = Rest ; Out = [C|Rest] ),
    without(Cs, Hand, Rest).

total_over_starts(Hand, Cards, Total) :-
    aggregate_all(sum(V), (deck_card(S), \+ own_member(S, Cards), hand_value(Hand, S, V)), Total).

deck_card(card(R, S)) :-
    own_member(R, [ace, 2, 3, 4, 5, 6, 7, 8, 9, 10, jack, queen, king]),
    own_member(S, [clubs, diamonds, hearts, spades]).

best([K|Ks], Best) :- best(Ks, K, Best).
best([], Best, Best).
best([T-X|Ks], T0-X0, Best) :- ( T > T0 -> best(Ks, T-X, Best) ; best(Ks, T0-X0, Best) ).
