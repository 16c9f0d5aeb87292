% Cribbage with a grammar for runs.
% Author: Casey Student

%! hand_value(+Hand, +Start, -Value) is det.
%  Value is the points for runs: the sorted ranks are parsed by run//1.
hand_value(Hand, Start, Value) :-
    maplist(rank, [Start|Hand], Ranks),
    msort(Ranks, Sorted),
    (   phrase(longest_run(Value), Sorted)
    ->  true
    ;   Value = 0
    ).

%! select_hand(+Cards, -Hand, -Crib) is det.
%  Keeps the first four cards.
select_hand([A, B, C, D|Crib], [A, B, C, D], Crib).

%! longest_run(-Length)// is semidet.
%  Length is the length of the run the sorted ranks hold, if 3 or more.
longest_run(Length) -->
    skip,
    run(First, 1, Length),
    { Length >= 3, First > 0 },
    skip.

%! run(+Prev, +N0, -N)// is nondet.
%  Consecutive ranks after Prev.
run(Prev, N0, N) -->
    [R],
    { R =:= Prev + 1 },
    !,
    { N1 is N0 + 1 },
    run(R, N1, N).
run(_, N, N) --> [].

%! skip// is nondet.
%  Any ranks.
skip --> [].
skip --> [_], skip.

%! rank(+Card, -N) is det.
%  The rank as a number.
rank(card(ace, _), 1) :- !.
rank(card(jack, _), 11) :- !.
rank(card(queen, _), 12) :- !.
rank(card(king, _), 13) :- !.
rank(card(N, _), N).

%! digits(-Codes)// is det.
%  Left over from reading cards typed in.
digits([D|Ds]) --> [D], { code_type(D, digit) }, !, digits(Ds).
digits([]) --> [].
