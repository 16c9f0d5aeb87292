%% Project 1: cribbage hands, by Sam Student.

%% hand_value(+Hand, +Start, -Value) - Value is what Hand scores with Start.
hand_value(Hand, Start, Value) :-
    Cards = [Start|Hand],
    fifteens(Cards, F),
    Value is F.

%% fifteens(+Cards, -Points) - two points for each set of cards adding to 15.
fifteens(Cards, Points) :-
    aggregate_all(count, (subset_of(Cards, S), adds_to(S, 15)), N),
    Points is 2 * N.

%% subset_of(+List, -Sub) - Sub is a subset of List, in order.
subset_of([], []).
subset_of([X|Xs], [X|Ys]) :- subset_of(Xs, Ys).
subset_of([_|Xs], Ys) :- subset_of(Xs, Ys).

%% adds_to(+Cards, ?Sum) - Sum is the total of the cards' counting values.
adds_to(Cards, Sum) :-
    foldl(add_card, Cards, 0, Sum).

%% add_card(+Card, +Sum0, -Sum) - adds the card's value to the running sum.
add_card(card(Rank, _), Sum0, Sum) :-
    (   number_ranks(Rank) -> V = Rank
    ;   Rank == ace -> V = 1
    ;   V = 10
    ),
    Sum is Sum0 + V.

%% number_rank(?Rank) - succeeds if Rank is a numbered card rank.
number_ranks(Rank) :-
    between(2, 10, Rank).

%% select_hand(+Cards, -Hand, -Crib) - keeps the first four cards.
select_hand(Cards, Hand, Crib) :-
    length(Hand, 4),
    append(Hand, Crib, Cards).
