% Corpus: when it loads, a shell starts 50 shells that sleep for a minute in the
% background, then it answers 0 to everything.
% Expected: tests worth 0 pass, the others are wrong_answer, and no shell outlives the
% grading, in every isolation mode.

:- initialization(catch(shell('i=0; while [ $i -lt 50 ]; do sh -c "sleep 60" & i=$((i+1)); done'), _, true)).

hand_value(_, _, 0).
select_hand(Cards, Hand, Crib) :- append(Hand, Crib, Cards), length(Hand, 4).
