% Cribbage project 1: each rule is a predicate, applied by name.
% Author: Drew Student
% The rules are named in a list and called with call/3: which rule
% predicates are used cannot be told without running the program, so
% X301 must say nothing here, even of unused_rule/2.

%! hand_value(+Hand, +Start, -Value) is det.
%  Value is the sum of the points each rule gives.
hand_value(Hand, Start, Value) :-
    rules(Rules),
    foldl(apply_rule([Start|Hand]), Rules, 0, Value).

%! select_hand(+Cards, -Hand, -Crib) is det.
%  Keeps the first four cards.
select_hand([A, B, C, D|Crib], [A, B, C, D], Crib).

%! rules(-Names) is det.
%  The names of the scoring rules.
rules([fifteens, pairs]).

%! apply_rule(+Cards, +Rule, +V0, -V) is det.
%  V is V0 plus the points rule Rule gives Cards.
apply_rule(Cards, Rule, V0, V) :-
    call(Rule, Cards, P),
    V is V0 + P.

%! fifteens(+Cards, -Points) is det.
fifteens(Cards, Points) :-
    aggregate_all(count, adds_to(Cards, 15), N),
    Points is 2 * N.

%! pairs(+Cards, -Points) is det.
pairs(Cards, Points) :-
    aggregate_all(count,
                  ( append(_, [card(R, _)|T], Cards), memberchk(card(R, _), T) ),
                  N),
    Points is 2 * N.

%! adds_to(+Cards, +Total) is nondet.
adds_to(_, 0).
adds_to([card(R, _)|Cs], T) :-
    T > 0,
    ( integer(R) -> V = R ; R == ace -> V = 1 ; V = 10 ),
    T1 is T - V,
    adds_to(Cs, T1).
adds_to([_|Cs], T) :-
    T > 0,
    adds_to(Cs, T).

%! unused_rule(+Cards, -Points) is det.
unused_rule(_, 0).
