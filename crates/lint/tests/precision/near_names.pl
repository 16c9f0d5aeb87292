%% Cribbage, project 1: scoring pairs and runs.
%% Author: Sam Okafor

%% hand_values(+Hand, +Start, -Points)
%% Points is what the pairs and the runs of Hand and Start are worth.
hand_value(Hand, Start, Points) :-
    rank_numbers([Start|Hand], Numbers),
    pair(Numbers, Pairs),
    run_points(Numbers, Runs),
    Points is Pairs + Runs.

%% select_hand(+Cards, -Hand, -Crib)
%% Keeps the first four of the six Cards and gives the crib the rest.
select_hand(Cards, Hand, Crib) :-
    length(Hand, 4),
    append(Hand, Crib, Cards).

%% rank_number(+Cards, -Numbers) is det.
%% Numbers are the ranks of Cards, ace 1 up to king 13.
rank_numbers(Cards, Numbers) :-
    maplist(card_number, Cards, Numbers).

%% card_number(+Card, -Number)
%% Number is the rank of Card counted from the ace.
card_number(card(Rank, _), N) :-
    (   integer(Rank) -> N = Rank
    ;   nth1(N0, [jack, queen, king], Rank) -> N is 10 + N0
    ;   N = 1
    ).

/** pairs(+Numbers, -Points)
 *  Two points for each two cards of the same rank.
 */
pair(Numbers, Points) :-
    aggregate_all(count, two_same(Numbers), N),
    Points is 2 * N.

%! two_same(+Numbers) is nondet.
%
%  True once for each two of Numbers that are equal.
two_same([N|Ns]) :- member(N, Ns).
two_same([_|Ns]) :- two_same(Ns).

%! run_point(+Numbers, -Points) is det.
%
%  Runs are left for later: no points yet.
run_points(_, 0).
