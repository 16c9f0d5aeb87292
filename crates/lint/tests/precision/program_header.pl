% Cribbage hand scorer for the first project.
% Counts fifteens and flushes; the keep is the first four cards dealt.

%! hand_value(+Hand, +Start, -Points) is det.
%
%  Points is two for each fifteen plus the flush.
hand_value(Hand, Start, Points) :-
    fifteen_points([Start|Hand], Fifteens),
    flush_points(Hand, Start, Flush),
    Points is Fifteens + Flush.

%! select_hand(+Cards, -Hand, -Crib) is det.
select_hand(Cards, Hand, Crib) :-
    length(Hand, 4),
    append(Hand, Crib, Cards).

%! fifteen_points(+Cards, -Points) is det.
fifteen_points(Cards, Points) :-
    aggregate_all(count, (pick(Cards, Set), sum_to(Set, 15)), N),
    Points is 2 * N.

%! pick(+Cards, -Set) is nondet.
pick([], []).
pick([C|Cs], [C|Set]) :- pick(Cs, Set).
pick([_|Cs], Set) :- pick(Cs, Set).

%! sum_to(+Cards, -Total) is det.
sum_to([], 0).
sum_to([card(R, _)|Cs], Total) :-
    sum_to(Cs, Total0),
    (   integer(R) -> V = R
    ;   R == ace -> V = 1
    ;   V = 10
    ),
    Total is Total0 + V.

%! flush_points(+Hand, +Start, -Points) is det.
%
%  Five for five cards of one suit, four for the four of Hand only.
flush_points([card(_, S)|Hand], card(_, Start), Points) :-
    (   forall(member(card(_, T), Hand), T == S)
    ->  (   Start == S -> Points = 5 ; Points = 4 )
    ;   Points = 0
    ).
