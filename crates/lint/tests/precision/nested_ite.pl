% Cribbage, project 1: all in if-then-else.
% Author: Jamie Student

%! hand_value(+Hand, +Start, -Value) is det.
%  Value is the points of Hand with Start.
hand_value(Hand, Start, Value) :-
    flush_points(Hand, Start, F),
    nob_points(Hand, Start, N),
    Value is F + N.

%! select_hand(+Cards, -Hand, -Crib) is det.
%  Keeps the first four cards.
select_hand([A, B, C, D|Crib], [A, B, C, D], Crib).

%! flush_points(+Hand, +Start, -Points) is det.
%  Five for a five-card flush, four for a four-card flush in the hand.
flush_points([card(_, S1), card(_, S2), card(_, S3), card(_, S4)],
             card(_, S5), Points) :-
    (   S1 == S2
    ->  (   S2 == S3
        ->  (   S3 == S4
            ->  (   S4 == S5
                ->  Points = 5
                ;   Points = 4
                )
            ;   Points = 0
            )
        ;   Points = 0
        )
    ;   Points = 0
    ).

%! nob_points(+Hand, +Start, -Points) is det.
%  One point for the jack of the start's suit; a chain of tests counts
%  as one level.
nob_points(Hand, card(_, Suit), Points) :-
    (   Hand == []
    ->  Points = 0
    ;   memberchk(card(jack, Suit), Hand)
    ->  Points = 1
    ;   Points = 0
    ).
