% Corpus: leaves a `sleep` behind in a session of its own (setsid), which holds the
% child's output pipes open, then answers 0 to everything.
% Expected: tests worth 0 pass, the others are wrong_answer; the sleep is killed and does
% not keep the grader waiting, in every isolation mode.

:- initialization(catch(shell('setsid sleep 60 </dev/null &'), _, true)).

hand_value(_, _, 0).
select_hand(Cards, Hand, Crib) :- append(Hand, Crib, Cards), length(Hand, 4).
