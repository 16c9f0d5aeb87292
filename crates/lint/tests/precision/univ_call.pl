% Cribbage project 1: rule predicates built from their names.
% Author: Sasha Student
% score_by/3 builds the goal with =.. and calls it: what it calls is
% known only when it runs, so X301 must stay silent.

%! hand_value(+Hand, +Start, -Value) is det.
hand_value(Hand, Start, Value) :-
    score_by(fifteen, [Start|Hand], F),
    score_by(nob, [Start|Hand], N),
    Value is F + N.

%! select_hand(+Cards, -Hand, -Crib) is det.
select_hand([A, B, C, D|Crib], [A, B, C, D], Crib).

%! score_by(+Rule, +Cards, -Points) is det.
%  Calls the predicate named Rule followed by _points.
score_by(Rule, Cards, Points) :-
    atom_concat(Rule, '_points', Name),
    Goal =.. [Name, Cards, Points],
    call(Goal).

%! fifteen_points(+Cards, -Points) is det.
fifteen_points(_, 0).

%! nob_points(+Cards, -Points) is det.
nob_points([card(_, S)|Hand], 1) :-
    memberchk(card(jack, S), Hand),
    !.
nob_points(_, 0).
