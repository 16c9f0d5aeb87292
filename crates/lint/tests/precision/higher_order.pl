% Cribbage project.
% Author: Dana Student
% Helpers are passed to maplist/3, foldl/4, include/3, exclude/3,
% predsort/3 and aggregate_all/3; one helper is left over from an old
% attempt and nothing calls it.

%! hand_value(+Hand, +Start, -Value) is det.
%  Value is the points of Hand with Start.
hand_value(Hand, Start, Value) :-
    Cards = [Start|Hand],
    maplist(rank_of, Cards, Ranks),
    foldl(add_pairs(Ranks), Ranks, 0, Twice),
    Pairs is Twice - 5,
    include(is_jack, Hand, Jacks),
    exclude(wrong_suit(Start), Jacks, Nobs),
    length(Nobs, Nob),
    aggregate_all(count, fifteen(Cards), F),
    Value is Pairs + Nob + 2 * F.

%! select_hand(+Cards, -Hand, -Crib) is det.
%  Sorts the cards by rank and keeps the four highest.
select_hand(Cards, Hand, Crib) :-
    predsort(by_rank, Cards, Sorted),
    append(Crib, Hand, Sorted),
    length(Hand, 4).

%! rank_of(+Card, -Rank) is det.
%  The rank of a card as a number.
rank_of(card(R, _), N) :-
    rank_num(R, N).

%! rank_num(+Rank, -N) is det.
%  Ace 1 to king 13.
rank_num(ace, 1) :- !.
rank_num(jack, 11) :- !.
rank_num(queen, 12) :- !.
rank_num(king, 13) :- !.
rank_num(N, N).

%! add_pairs(+Ranks, +Rank, +P0, -P) is det.
%  P is P0 plus the number of cards of Ranks equal to Rank.
add_pairs(Ranks, Rank, P0, P) :-
    aggregate_all(count, member(Rank, Ranks), N),
    P is P0 + N.

%! is_jack(+Card) is semidet.
is_jack(card(jack, _)).

%! wrong_suit(+Start, +Card) is semidet.
wrong_suit(card(_, S), card(_, S1)) :-
    S \== S1.

%! fifteen(+Cards) is nondet.
%  Once for each subset of Cards worth 15.
fifteen(Cards) :-
    foldl(maybe_add, Cards, 0, 15).

%! maybe_add(+Card, +S0, -S) is multi.
%  S is S0, or S0 plus the card's value.
maybe_add(_, S, S).
maybe_add(Card, S0, S) :-
    rank_of(Card, N),
    S is S0 + min(N, 10).

%! by_rank(-Order, +A, +B) is det.
%  Orders cards by rank, never equal.
by_rank(Order, A, B) :-
    rank_of(A, RA),
    rank_of(B, RB),
    (   RA < RB -> Order = (<) ; Order = (>) ).

%! card_string(+Card, -String) is det.
%  Left over from printing hands while debugging.
card_string(card(R, S), String) :-
    format(string(String), "~w of ~w", [R, S]).
