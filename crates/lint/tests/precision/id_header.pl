% Cribbage: scoring a hand and choosing the cards to keep.
% Priya Raman, 20481736

%! hand_value(+Hand, +Start, -Points) is det.
%
%  Points is the score of the four cards of Hand with the start card Start:
%  two for each fifteen and one for the jack of the start's suit.
hand_value(Hand, Start, Points) :-
    fifteens([Start|Hand], Fifteens),
    his_nob(Hand, Start, Nob),
    Points is Fifteens + Nob.

%! select_hand(+Cards, -Hand, -Crib) is det.
%
%  Hand is the first four of the six Cards dealt, Crib the other two.
select_hand(Cards, Hand, Crib) :-
    length(Hand, 4),
    append(Hand, Crib, Cards).

%! fifteens(+Cards, -Points) is det.
%
%  Two points for each set of Cards whose pips add up to 15.
fifteens(Cards, Points) :-
    aggregate_all(count, (subset_of(Cards, Set), pips(Set, 15)), N),
    Points is 2 * N.

%! subset_of(+Cards, -Set) is nondet.
subset_of([], []).
subset_of([C|Cs], [C|Set]) :- subset_of(Cs, Set).
subset_of([_|Cs], Set) :- subset_of(Cs, Set).

%! pips(+Cards, -Sum) is det.
pips([], 0).
pips([card(Rank, _)|Cs], Sum) :-
    pips(Cs, Sum0),
    pip(Rank, P),
    Sum is Sum0 + P.

%! pip(+Rank, -Pip) is det.
pip(ace, 1) :- !.
pip(Rank, Rank) :- integer(Rank), !.
pip(_, 10).

%! his_nob(+Hand, +Start, -Point) is det.
his_nob(Hand, card(_, Suit), 1) :- memberchk(card(jack, Suit), Hand), !.
his_nob(_, _, 0).
