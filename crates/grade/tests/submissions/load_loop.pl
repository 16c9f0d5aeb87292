% Corpus: a directive that never ends, so the submission never finishes loading.
% Expected: load_failed (loading took longer than the load limit); every test not_run.

:- initialization(spin).

spin :- spin.

hand_value(_, _, 0).
select_hand([A, B, C, D | Crib], [A, B, C, D], Crib).
