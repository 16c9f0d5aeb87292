% Cribbage hand scoring and card selection, Project 1.
% Author: Morgan Example <morgan@example.edu>
%
% A card is card(Rank, Suit). Ranks are 2..10, ace, jack, queen, king.

%! hand_value(+Hand, +Start, -Value) is det.
%  Value is the points of the four cards Hand with the start card Start.
hand_value(Hand, Start, Value) :-
    Cards = [Start|Hand],
    maplist(card_rank, Cards, Ranks),
    fifteens(Ranks, F),
    pairs(Ranks, P),
    runs(Ranks, R),
    flush(Hand, Start, Fl),
    nob(Hand, Start, N),
    Value is F + P + R + Fl + N.

%! select_hand(+Cards, -Hand, -Crib) is det.
%  Hand is the four of Cards whose value, averaged over every start card
%  left, is highest; Crib is the rest.
select_hand(Cards, Hand, Crib) :-
    findall(Avg-H-C, keep_value(Cards, H, C, Avg), Keeps),
    max_member(_-Hand-Crib, Keeps).

%! keep_value(+Cards, -Hand, -Crib, -Avg) is nondet.
%  Avg is the mean value of Hand over the start cards not in Cards.
keep_value(Cards, Hand, Crib, Avg) :-
    split(Cards, Hand, Crib),
    length(Hand, 4),
    findall(V, (start_card(Cards, S), hand_value(Hand, S, V)), Vs),
    sum_list(Vs, Total),
    length(Vs, N),
    Avg is Total / N.

%! split(+Cards, -Hand, -Crib) is nondet.
%  Every way of putting each card in Hand or in Crib, order kept.
split([], [], []).
split([C|Cs], [C|Hs], Crib) :- split(Cs, Hs, Crib).
split([C|Cs], Hs, [C|Crib]) :- split(Cs, Hs, Crib).

%! start_card(+Cards, -Start) is nondet.
%  Start is a card of the deck not in Cards.
start_card(Cards, card(R, S)) :-
    member(S, [clubs, diamonds, hearts, spades]),
    member(R, [ace, 2, 3, 4, 5, 6, 7, 8, 9, 10, jack, queen, king]),
    \+ memberchk(card(R, S), Cards).

%! card_rank(+Card, -N) is det.
%  N is the rank as a number: ace 1, jack 11, queen 12, king 13.
card_rank(card(R, _), N) :-
    (   integer(R) -> N = R
    ;   nth1(N, [ace, x, x, x, x, x, x, x, x, x, jack, queen, king], R)
    ).

%! fifteens(+Ranks, -Points) is det.
%  Two points for each subset of the ranks whose values sum to 15.
fifteens(Ranks, Points) :-
    maplist([R, V]>>(V is min(R, 10)), Ranks, Values),
    aggregate_all(count, sums_to(Values, 15), N),
    Points is 2 * N.

%! sums_to(+Values, +Total) is nondet.
%  Once for each subset of Values summing to Total.
sums_to([], 0).
sums_to([V|Vs], T) :- T1 is T - V, T1 >= 0, sums_to(Vs, T1).
sums_to([_|Vs], T) :- sums_to(Vs, T).

%! pairs(+Ranks, -Points) is det.
%  Two points for each pair of equal ranks.
pairs(Ranks, Points) :-
    aggregate_all(count, (select(R, Ranks, Rest), memberchk(R, Rest)), N),
    Points is N.

%! runs(+Ranks, -Points) is det.
%  Each run of three or more scores its length, once per combination.
runs(Ranks, Points) :-
    msort(Ranks, Sorted),
    longest_runs(Sorted, Points).

%! longest_runs(+Sorted, -Points) is det.
%  The points of the longest runs among the sorted ranks.
longest_runs(Sorted, Points) :-
    (   run_of(5, Sorted, N5), N5 > 0 -> Points is 5 * N5
    ;   run_of(4, Sorted, N4), N4 > 0 -> Points is 4 * N4
    ;   run_of(3, Sorted, N3) -> Points is 3 * N3
    ).

%! run_of(+Len, +Sorted, -Count) is det.
%  Count is the number of subsets of Len cards that are a run.
run_of(Len, Sorted, Count) :-
    aggregate_all(count, (length(S, Len), split(Sorted, S, _), is_run(S)),
                  Count).

%! is_run(+Ranks) is semidet.
%  The ranks are consecutive.
is_run([_]).
is_run([A, B|T]) :- B =:= A + 1, is_run([B|T]).

%! flush(+Hand, +Start, -Points) is det.
%  Four for a flush in the hand, five when the start matches.
flush([card(_, S)|Cs], card(_, SS), Points) :-
    (   forall(member(card(_, S1), Cs), S1 == S)
    ->  ( SS == S -> Points = 5 ; Points = 4 )
    ;   Points = 0
    ).

%! nob(+Hand, +Start, -Points) is det.
%  One point for the jack of the start card's suit.
nob(Hand, card(_, Suit), Points) :-
    (   memberchk(card(jack, Suit), Hand) -> Points = 1 ; Points = 0 ).
