% Corpus: a submission split into two modules; cribbage.pl exports the two predicates,
% scoring.pl does the work. Expected: every test passes.
:- module(cribbage, [hand_value/3, select_hand/3]).
:- use_module(scoring).

hand_value(Hand, Start, Value) :- score(Hand, Start, Value).
select_hand(Cards, Hand, Crib) :- choose(Cards, Hand, Crib).
