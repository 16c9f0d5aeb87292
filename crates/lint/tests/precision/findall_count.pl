% Cribbage, Project 1.
% Author: Alex Doe

%! hand_value(+Hand, +Start, -Value) is det.
%  Value is the points for fifteens and pairs.
hand_value(Hand, Start, Value) :-
    Cards = [Start|Hand],
    (   Hand == []
    ->  Value = 0
    ;   findall(x, fifteen(Cards), Fs),
        length(Fs, NF),
        pair_count(Cards, NP),
        Value is 2 * NF + 2 * NP
    ).

%! select_hand(+Cards, -Hand, -Crib) is det.
%  Keeps the four cards whose fifteens are worth most.
select_hand(Cards, Hand, Crib) :-
    findall(V-H, (four_of(Cards, H), count_fifteens(H, V)), Scored),
    keysort(Scored, Sorted),
    length(Scored, Len),
    nth1(Len, Sorted, _-Hand),
    subtract(Cards, Hand, Crib).

%! pair_count(+Cards, -N) is det.
%  N is the number of pairs of cards of equal rank.
pair_count(Cards, N) :-
    findall(R, (append(_, [card(R, _)|T], Cards), member(card(R, _), T)), Ps),
    length(Ps, N).

%! count_fifteens(+Cards, -N) is det.
%  N is the number of fifteens; the list is printed when debugging.
count_fifteens(Cards, N) :-
    findall(S, fifteen_set(Cards, S), Sets),
    length(Sets, N),
    debug(crib, "fifteens: ~w", [Sets]).

%! fifteen(+Cards) is nondet.
%  Once for each subset of Cards worth 15.
fifteen(Cards) :-
    fifteen_set(Cards, _).

%! fifteen_set(+Cards, -Set) is nondet.
%  Set is a subset of Cards worth 15.
fifteen_set(Cards, Set) :-
    subset_of(Cards, Set),
    foldl(add_card, Set, 0, 15).

%! add_card(+Card, +S0, -S) is det.
%  S is S0 plus the card's value.
add_card(card(R, _), S0, S) :-
    (   integer(R) -> S is S0 + R
    ;   R == ace -> S is S0 + 1
    ;   S is S0 + 10
    ).

%! subset_of(+List, -Subset) is nondet.
%  Subset keeps some elements of List, in order.
subset_of([], []).
subset_of([X|Xs], [X|Ys]) :- subset_of(Xs, Ys).
subset_of([_|Xs], Ys) :- subset_of(Xs, Ys).

%! four_of(+Cards, -Four) is nondet.
%  Four is four of Cards, in order.
four_of(Cards, Four) :-
    length(Four, 4),
    subset_of(Cards, Four).
