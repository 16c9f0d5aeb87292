% beta.pl: hand_value/3 and select_hand/3 as searches: every subset of the cards is tried
% and the ones that score are collected with findall/3. Written for crib similar's disguise
% corpus (tests/similar/disguise_corpus.rs), apart from the project's other solutions.
%
% Lines between `%{ change` and `%|` are this solution as written; lines between `%|` and
% `%}` are the same code as a student disguising it with that change would write it. The
% tests keep one side or the other.

hand_value(Hand, Start, Value) :-
    All = [Start|Hand],
    findall(2, fifteen(All), Fs),
%{ inline
    findall(2, pair(All), Ps),
%|
    findall(2, (append(_, [card(R, _)|Later], All), member(card(R, _), Later)), Ps),
%}
    runs(All, Rs),
    flush(Hand, Start, Fl),
    his_nobs(Hand, Start, Nb),
    append([Fs, Ps, [Rs, Fl, Nb]], Parts),
    sum_list(Parts, Value).

% A card of the deck, for the start cards.
card(card(R, S)) :-
    member(S, [hearts, diamonds, clubs, spades]),
    member(R, [ace, 2, 3, 4, 5, 6, 7, 8, 9, 10, jack, queen, king]).

fifteen(Cards) :-
    subset_of(Cards, Sub),
    Sub = [_, _|_],
    maplist(pip, Sub, Pips),
    sum_list(Pips, 15).

%{ inline
pair(Cards) :-
    append(_, [card(R, _)|Later], Cards),
    member(card(R, _), Later).

%|
%}
subset_of([], []).
subset_of([C|Cs], [C|Sub]) :-
    subset_of(Cs, Sub).
subset_of([_|Cs], Sub) :-
    subset_of(Cs, Sub).

pip(card(R, _), P) :-
    number(R),
    !,
    P = R.
pip(card(ace, _), 1) :- !.
pip(_, 10).

order(card(R, _), N) :-
    number(R),
    !,
    N = R.
order(card(ace, _), 1).
order(card(jack, _), 11).
order(card(queen, _), 12).
order(card(king, _), 13).

%{ split
runs(Cards, Points) :-
    findall(Len,
            ( subset_of(Cards, Sub),
              length(Sub, Len),
              Len >= 3,
              is_run(Sub)
            ),
            Lens),
    (   Lens == []
    ->  Points = 0
    ;   max_list(Lens, Max),
        include(==(Max), Lens, Longest),
        length(Longest, N),
        Points is N * Max
    ).
%|
runs(Cards, Points) :-
    findall(Len,
            ( subset_of(Cards, Sub),
              length(Sub, Len),
              Len >= 3,
              is_run(Sub)
            ),
            Lens),
    longest_total(Lens, Points).

longest_total(Lens, Points) :-
    (   Lens == []
    ->  Points = 0
    ;   max_list(Lens, Max),
        include(==(Max), Lens, Longest),
        length(Longest, N),
        Points is N * Max
    ).
%}

is_run(Sub) :-
    maplist(order, Sub, Ns),
    msort(Ns, [Lo|Rest]),
    length(Rest, K),
    Hi is Lo + K,
    last([Lo|Rest], Hi),
    sort([Lo|Rest], Distinct),
    length(Distinct, L),
    L =:= K + 1.

%{ clauses
flush(Hand, card(_, S), Points) :-
    maplist(suit_of, Hand, Suits),
    sort(Suits, Distinct),
    (   Distinct = [S]
    ->  Points = 5
    ;   Distinct = [_]
    ->  Points = 4
    ;   Points = 0
    ).
%|
flush(Hand, card(_, S), 5) :-
    maplist(suit_of, Hand, Suits),
    sort(Suits, [S]),
    !.
flush(Hand, _, 4) :-
    maplist(suit_of, Hand, Suits),
    sort(Suits, [_]),
    !.
flush(_, _, 0).
%}

suit_of(card(_, S), S).

his_nobs(Hand, card(_, S), 1) :-
    member(card(jack, S), Hand),
    !.
his_nobs(_, _, 0).

select_hand(Cards, Hand, Cribcards) :-
    findall(C, (card(C), \+ member(C, Cards)), Starts),
    findall(Score-Keep,
            ( length(Keep, 4),
              subset_of(Cards, Keep),
              score_keep(Keep, Starts, Score)
            ),
            Scored),
    max_member(_-Hand, Scored),
    subtract(Cards, Hand, Cribcards).

%{ aggregate
score_keep(Keep, Starts, Score) :-
    findall(V, (member(S, Starts), hand_value(Keep, S, V)), Vs),
    sum_list(Vs, Score).
%|
score_keep(Keep, Starts, Score) :-
    aggregate_all(sum(V), (member(S, Starts), hand_value(Keep, S, V)), Score).
%}
