% Project 1: cribbage hands scored from tables of ranks and suits, which
% A601 must leave alone (they hold no card(Rank, Suit) terms, or one).
% Author: Ada Example <ada@example.edu>

%! hand_value(+Hand, +Start, -Value) is det.
%  Value is two points for each fifteen and one for a flush of the hand.
hand_value(Hand, Start, Value) :-
    aggregate_all(count, fifteen([Start|Hand]), Fifteens),
    flush_points(Hand, Flush),
    Value is 2 * Fifteens + Flush.

%! select_hand(+Cards, -Hand, -Crib) is det.
%  Keeps the first four cards.
select_hand([A, B, C, D|Crib], [A, B, C, D], Crib).

%! fifteen(+Cards) is nondet.
%  Succeeds once for each subset of Cards whose values sum to 15.
fifteen(Cards) :-
    subset_of(Cards, Subset),
    foldl(add_value, Subset, 0, 15).

%! add_value(+Card, +Sum0, -Sum) is det.
%  Sum is Sum0 plus the card's value.
add_value(card(Rank, _), Sum0, Sum) :-
    rank_value(Rank, V),
    Sum is Sum0 + V.

%! subset_of(+List, -Subset) is multi.
%  Every subset of List, in order.
subset_of([], []).
subset_of([X|Xs], [X|Ys]) :-
    subset_of(Xs, Ys).
subset_of([_|Xs], Ys) :-
    subset_of(Xs, Ys).

%! flush_points(+Hand, -Points) is det.
%  Four points when the four cards share a suit (reaches card_code/2).
flush_points([card(_, S)|Cards], Points) :-
    suit(S),
    card_code(card(ace, S), _),
    (   forall(member(card(_, S1), Cards), S1 == S)
    ->  Points = 4
    ;   Points = 0
    ).

%! rank_value(?Rank, ?Value) is nondet.
%  The value of each rank when counting fifteens: thirteen ground facts.
rank_value(ace, 1).
rank_value(2, 2).
rank_value(3, 3).
rank_value(4, 4).
rank_value(5, 5).
rank_value(6, 6).
rank_value(7, 7).
rank_value(8, 8).
rank_value(9, 9).
rank_value(10, 10).
rank_value(jack, 10).
rank_value(queen, 10).
rank_value(king, 10).

%! suit(?Suit) is nondet.
%  The four suits.
suit(clubs).
suit(diamonds).
suit(hearts).
suit(spades).

%! card_code(?Card, ?Code) is nondet.
%  A code for each card, one card a fact: a table of cards, not of hands.
card_code(card(ace, clubs), 0).
card_code(card(2, clubs), 1).
card_code(card(3, clubs), 2).
card_code(card(4, clubs), 3).
card_code(card(5, clubs), 4).
card_code(card(6, clubs), 5).
card_code(card(7, clubs), 6).
card_code(card(8, clubs), 7).
card_code(card(9, clubs), 8).
card_code(card(10, clubs), 9).
card_code(card(jack, clubs), 10).
card_code(card(queen, clubs), 11).
card_code(card(king, clubs), 12).
card_code(card(ace, diamonds), 13).
card_code(card(2, diamonds), 14).
card_code(card(3, diamonds), 15).
card_code(card(4, diamonds), 16).
card_code(card(5, diamonds), 17).
card_code(card(6, diamonds), 18).
card_code(card(7, diamonds), 19).
card_code(card(8, diamonds), 20).
card_code(card(9, diamonds), 21).
card_code(card(10, diamonds), 22).
card_code(card(jack, diamonds), 23).
card_code(card(queen, diamonds), 24).
card_code(card(king, diamonds), 25).
card_code(card(ace, hearts), 26).
card_code(card(2, hearts), 27).
card_code(card(3, hearts), 28).
card_code(card(4, hearts), 29).
card_code(card(5, hearts), 30).
card_code(card(6, hearts), 31).
card_code(card(7, hearts), 32).
card_code(card(8, hearts), 33).
card_code(card(9, hearts), 34).
card_code(card(10, hearts), 35).
card_code(card(jack, hearts), 36).
card_code(card(queen, hearts), 37).
card_code(card(king, hearts), 38).
card_code(card(ace, spades), 39).
card_code(card(2, spades), 40).
card_code(card(3, spades), 41).
card_code(card(4, spades), 42).
card_code(card(5, spades), 43).
card_code(card(6, spades), 44).
card_code(card(7, spades), 45).
card_code(card(8, spades), 46).
card_code(card(9, spades), 47).
card_code(card(10, spades), 48).
card_code(card(jack, spades), 49).
card_code(card(queen, spades), 50).
card_code(card(king, spades), 51).
