:- module(cribbage, [hand_value/3, select_hand/3]).

/** <module> Cribbage hands

Scores a cribbage show (fifteens, pairs, flush and nob) and picks the four
cards to keep from a deal.

@author Jo Example
*/

%!  hand_value(+Hand:list, +Start, -Value:integer) is det.
%
%   Value is the points of the four cards Hand with the start card Start.
hand_value(Hand, Start, Value) :-
    fifteens([Start|Hand], F),
    flush(Hand, Start, Fl),
    Value is F + Fl.

%!  select_hand(+Cards:list, -Hand:list, -Crib:list) is det.
%
%   Hand is the four of Cards worth most on their own; Crib the rest.
select_hand(Cards, Hand, Crib) :-
    findall(V-H, keep(Cards, H, V), Keeps),
    max_member(_-Hand, Keeps),
    subtract(Cards, Hand, Crib).

%!  keep(+Cards, -Hand, -Value) is nondet.
%
%   Hand is four of Cards, in order, and Value their points with no start.
keep(Cards, Hand, Value) :-
    length(Hand, 4),
    subseq(Cards, Hand),
    fifteens(Hand, Value).

%!  subseq(+List, ?Sub) is nondet.
%
%   Sub is List with some elements left out.
subseq([], []).
subseq([X|Xs], [X|Ys]) :-
    subseq(Xs, Ys).
subseq([_|Xs], Ys) :-
    subseq(Xs, Ys).

%!  fifteens(+Cards, -Points) is det.
%
%   Two points for each subset of Cards worth 15.
fifteens(Cards, Points) :-
    aggregate_all(count, (subseq(Cards, S), worth(S, 15)), N),
    Points is 2 * N.

%!  worth(+Cards, -Total) is det.
%
%   Total is the sum of the cards' values.
worth(Cards, Total) :-
    foldl(plus_value, Cards, 0, Total).

%!  plus_value(+Card, +T0, -T) is det.
%
%   T is T0 plus the value of Card.
plus_value(card(R, _), T0, T) :-
    (   number(R) -> V = R ; R == ace -> V = 1 ; V = 10 ),
    T is T0 + V.

%!  flush(+Hand, +Start, -Points) is det.
%
%   Four points for a flush in the hand, five with the start card.
flush([card(_, S)|Cs], card(_, SS), Points) :-
    (   \+ ( member(card(_, S1), Cs), S1 \== S )
    ->  ( SS == S -> Points = 5 ; Points = 4 )
    ;   Points = 0
    ).
