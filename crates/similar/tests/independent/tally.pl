% tally.pl: the cribbage project written independently of the project's other solutions,
% in an accumulator style, as evidence for crib similar's tests (crates/similar).
% Author: crib's developers.

%! hand_value(+Hand, +Start, -Value) is det.
%  Value is the points of the four cards Hand with the start card Start.
hand_value(Hand, card(SR, SS), Value) :-
    maplist(rank_number, [card(SR, SS)|Hand], Numbers),
    msort(Numbers, Sorted),
    fifteen_tally(Sorted, 0, 0, F),
    pair_tally(Sorted, 0, P),
    run_tally(Sorted, R),
    suit_tally(Hand, SS, S),
    jack_tally(Hand, SS, J),
    Value is F + P + R + S + J.

%! rank_number(+Card, -N) is det.
%  N is the card's rank from 1 (ace) to 13 (king).
rank_number(card(ace, _), 1) :- !.
rank_number(card(jack, _), 11) :- !.
rank_number(card(queen, _), 12) :- !.
rank_number(card(king, _), 13) :- !.
rank_number(card(N, _), N).

%! fifteen_tally(+Numbers, +Sum, +Acc, -Points) is det.
%  Two points for every subset of Numbers that, added to Sum, makes fifteen.
fifteen_tally([], 15, Acc, Points) :- !, Points is Acc + 2.
fifteen_tally([], _, Acc, Acc).
fifteen_tally([N|Ns], Sum, Acc0, Acc) :-
    Pips is min(N, 10),
    With is Sum + Pips,
    (   With =< 15
    ->  fifteen_tally(Ns, With, Acc0, Acc1)
    ;   Acc1 = Acc0
    ),
    fifteen_tally(Ns, Sum, Acc1, Acc).

%! pair_tally(+Sorted, +Acc, -Points) is det.
%  Two points for each two cards of one rank.
pair_tally([], Acc, Acc).
pair_tally([N|Ns], Acc0, Acc) :-
    include(==(N), Ns, Same),
    length(Same, K),
    Acc1 is Acc0 + 2 * K,
    pair_tally(Ns, Acc1, Acc).

%! run_tally(+Sorted, -Points) is det.
%  The longest runs of consecutive ranks, each counted once per way to pick its cards.
run_tally(Sorted, Points) :-
    clumped_ranks(Sorted, Counts),
    best_run(Counts, 0, 0, Points).

clumped_ranks(Sorted, Counts) :-
    findall(R-K, (between(1, 13, R), include(==(R), Sorted, L), length(L, K)), Counts).

%  best_run(+RankCounts, +Length, +Ways, -Points): scans ranks 1..13 keeping the current
%  stretch of present ranks and the ways to choose its cards.
best_run([], Len, Ways, Points) :- run_points(Len, Ways, Points).
best_run([_-0|Rest], Len, Ways, Points) :-
    !,
    run_points(Len, Ways, Here),
    (   Here > 0 -> Points = Here ; best_run(Rest, 0, 0, Points) ).
best_run([_-K|Rest], Len, Ways, Points) :-
    Len1 is Len + 1,
    (   Len =:= 0 -> Ways1 = K ; Ways1 is Ways * K ),
    best_run(Rest, Len1, Ways1, Points).

run_points(Len, Ways, Points) :-
    (   Len >= 3 -> Points is Len * Ways ; Points = 0 ).

%! suit_tally(+Hand, +StartSuit, -Points) is det.
%  Four for a hand of one suit, five when the start card shares it.
suit_tally([card(_, S)|Cards], StartSuit, Points) :-
    (   forall(member(card(_, T), Cards), T == S)
    ->  (   S == StartSuit -> Points = 5 ; Points = 4 )
    ;   Points = 0
    ).

%! jack_tally(+Hand, +StartSuit, -Points) is det.
%  One for the jack of the start card's suit in the hand.
jack_tally(Hand, StartSuit, Points) :-
    (   memberchk(card(jack, StartSuit), Hand) -> Points = 1 ; Points = 0 ).

%! select_hand(+Cards, -Hand, -Crib) is det.
%  Hand is the four of Cards with the greatest total over every start card not dealt,
%  the first such in the order of Cards; Crib is the rest.
select_hand(Cards, Hand, Crib) :-
    findall(Total-Keep, (keep_of(Cards, Keep), total_over_starts(Cards, Keep, Total)), Scored),
    best_first(Scored, _-Hand),
    exclude([C]>>memberchk(C, Hand), Cards, Crib).

keep_of(Cards, Keep) :-
    length(Keep, 4),
    sublist_of(Cards, Keep).

sublist_of([], []).
sublist_of([C|Cs], [C|Ks]) :- sublist_of(Cs, Ks).
sublist_of([_|Cs], Ks) :- sublist_of(Cs, Ks).

total_over_starts(Cards, Keep, Total) :-
    aggregate_all(sum(V),
                  ( member(R, [ace, 2, 3, 4, 5, 6, 7, 8, 9, 10, jack, queen, king]),
                    member(S, [clubs, diamonds, hearts, spades]),
                    \+ memberchk(card(R, S), Cards),
                    hand_value(Keep, card(R, S), V) ),
                  Total).

best_first([First|Rest], Best) :-
    foldl([T-K, T0-K0, B]>>(T > T0 -> B = T-K ; B = T0-K0), Rest, First, Best).
