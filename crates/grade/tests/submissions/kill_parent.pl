% Corpus: at load, a shell leaves a `sleep` behind and kills its parent, the Prolog
% process grading it.
% Expected: the load fails (the child died), and no sleep outlives the grading, in every
% isolation mode.

:- initialization(catch(shell('(sleep 60 &); kill -9 $PPID'), _, true)).

hand_value(_, _, 0).
select_hand(Cards, Hand, Crib) :- append(Hand, Crib, Cards), length(Hand, 4).
