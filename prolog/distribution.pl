/*  Score every (hand, start) pair and compare the histogram with spec/.

        swipl prolog/distribution.pl

    Scores all C(52,4) * 48 = 12,994,800 pairs under the hand rule with
    hand_values_codes/3, prints "points<TAB>count" for each score that
    occurs, and compares the rows with spec/distribution.tsv. Exits 0 if
    they are the same, 1 if not. Takes some seconds, so it is a script
    and not part of cribbage.plt.
*/

:- use_module(cribbage).
:- autoload(library(apply), [exclude/3, foldl/4, maplist/3]).
:- autoload(library(lists), [numlist/3, sum_list/2]).
:- autoload(library(readutil), [read_file_to_string/3]).

:- initialization(main, main).

%   spec_file(-File): spec/distribution.tsv, found from this file's
%   directory when it is loaded.

:- dynamic spec_file/1.
:- prolog_load_context(directory, Dir),
   directory_file_path(Dir, '../spec/distribution.tsv', Relative),
   absolute_file_name(Relative, File),
   retractall(spec_file(_)),
   assertz(spec_file(File)).

%!  main is det.
%
%   Sweeps every pair, prints the histogram, and halts with status 1 if it
%   differs from spec/distribution.tsv.

main :-
    statistics(cputime, Cpu0),
    get_time(Wall0),
    sweep(Rows),
    statistics(cputime, Cpu1),
    get_time(Wall1),
    Cpu is Cpu1 - Cpu0,
    Wall is Wall1 - Wall0,
    format("points\tcount~n"),
    forall(member(Points-Count, Rows), format("~w\t~w~n", [Points, Count])),
    foldl(add_count, Rows, 0, Pairs),
    foldl(add_points, Rows, 0, Total),
    Mean is Total / Pairs,
    format("~D pairs, mean ~4f, ~2f s (~2f s CPU)~n", [Pairs, Mean, Wall, Cpu]),
    spec_file(File),
    spec_rows(File, Want),
    (   Rows == Want
    ->  format("matches ~w~n", [File])
    ;   format("DIFFERS from ~w~n", [File]),
        forall(( member(P-C, Rows), \+ memberchk(P-C, Want) ),
               format("  swept  ~w\t~w~n", [P, C])),
        forall(( member(P-C, Want), \+ memberchk(P-C, Rows) ),
               format("  spec   ~w\t~w~n", [P, C])),
        halt(1)
    ).

%   add_count(+Row, +N0, -N): add a row's count of pairs.

add_count(_-Count, N0, N) :-
    N is N0 + Count.

%   add_points(+Row, +N0, -N): add a row's points over all its pairs.

add_points(Points-Count, N0, N) :-
    N is N0 + Points * Count.

%   sweep(-Rows): Points-Count for each score that occurs, ascending.

sweep(Rows) :-
    length(Counts, 30),                 % scores 0..29
    maplist(=(0), Counts),
    Histogram =.. [counts|Counts],
    numlist(0, 51, Deck),
    forall(choose(4, Deck, Hand, Starts),
           ( hand_values_codes(Hand, Starts, Values),
             count_values(Values, Histogram)
           )),
    Histogram =.. [counts|Final],
    numlist(0, 29, Scores),
    maplist(score_row, Scores, Final, AllRows),
    exclude(zero_row, AllRows, Rows).

%   count_values(+Values, +Histogram): add one to Histogram's argument
%   Value + 1 for each of Values (nb_setarg/3: kept on backtracking).

count_values([], _).
count_values([Value|Values], Histogram) :-
    Arg is Value + 1,
    arg(Arg, Histogram, Count0),
    Count is Count0 + 1,
    nb_setarg(Arg, Histogram, Count),
    count_values(Values, Histogram).

%   score_row(+Score, +Count, -Row): the row Score-Count.

score_row(Score, Count, Score-Count).

%   zero_row(+Row): no pair scores the row's points.

zero_row(_-0).

%   choose(+N, +List, -Chosen, -Rest): Chosen is N elements of List and
%   Rest the others, both in order; every way on backtracking.

choose(0, List, [], List).
choose(N, [X|Xs], [X|Chosen], Rest) :-
    N > 0,
    N1 is N - 1,
    choose(N1, Xs, Chosen, Rest).
choose(N, [X|Xs], Chosen, [X|Rest]) :-
    N > 0,
    choose(N, Xs, Chosen, Rest).

%   spec_rows(+File, -Rows): the points<TAB>count rows of File, skipping
%   comments and the header.

spec_rows(File, Rows) :-
    read_file_to_string(File, Text, []),
    split_string(Text, "\n", "\r", Lines),
    foldl(spec_line, Lines, Rows, []).

%   spec_line(+Line, -Rows, +Rows0): the row of a line, if it is one,
%   before Rows0.

spec_line(Line, Rows, Rows0) :-
    (   split_string(Line, "\t", " ", [PointsText, CountText]),
        number_string(Points, PointsText),
        number_string(Count, CountText)
    ->  Rows = [Points-Count|Rows0]
    ;   Rows = Rows0
    ).
