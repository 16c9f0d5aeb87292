% Cribbage project 1, written in a hurry.
% Author: Riley Student

%! hand_value(+Hand, +Start, -Value) is det.
%  Value is the points for pairs and the five-card flush.
hand_value(Hand, Start, Value) :-
	pair_points([Start|Hand], P),
	flush_points(Hand, Start, F),
	Value is P + F.

%! select_hand(+Cards, -Hand, -Crib) is det.
%  Keeps the first four cards.
select_hand([A, B, C, D|Crib], [A, B, C, D], Crib).

%! pair_points(+Cards, -Points) is det.
%  Two points for every pair of cards with the same rank, counted over all the unordered pairs.
pair_points(Cards, Points) :-
    aggregate_all(count, (append(_, [card(R, _)|Rest], Cards), member(card(R, _), Rest)), N),
    Points is 2 * N.

%! flush_points(+Hand, +Start, -Points) is det.
%  Five points when all five cards share a suit.
flush_points(Hand, card(_, S), 5) :-
	forall(member(card(_, S1), Hand), S1 == S), !.
flush_points(_, _, 0).
