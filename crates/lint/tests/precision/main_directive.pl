% Cribbage project 1; running the file prints two examples.
% Author: Billie Student

:- initialization(main).

%! main is det.
%  Prints the value of two example hands.
main :-
    forall(example(H, S), show(H, S)).

%! show(+Hand, +Start) is det.
show(Hand, Start) :-
    hand_value(Hand, Start, V),
    format("~w + ~w: ~w~n", [Hand, Start, V]).

%! example(-Hand, -Start) is multi.
example([card(5, hearts), card(5, spades), card(5, clubs), card(jack, diamonds)],
        card(5, diamonds)).
example([card(ace, hearts), card(2, hearts), card(3, hearts), card(4, hearts)],
        card(king, spades)).

%! hand_value(+Hand, +Start, -Value) is det.
%  Value is the points for fifteens.
hand_value(Hand, Start, Value) :-
    aggregate_all(count, fifteen([Start|Hand], 15), N),
    Value is 2 * N.

%! select_hand(+Cards, -Hand, -Crib) is det.
select_hand([A, B, C, D|Crib], [A, B, C, D], Crib).

%! fifteen(+Cards, +Left) is nondet.
fifteen(_, 0).
fifteen([card(R, _)|Cs], Left) :-
    Left > 0,
    ( integer(R) -> V = R ; R == ace -> V = 1 ; V = 10 ),
    Left1 is Left - V,
    fifteen(Cs, Left1).
fifteen([_|Cs], Left) :-
    Left > 0,
    fifteen(Cs, Left).
