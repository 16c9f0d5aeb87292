/*  Tests for grade_child.pl, the child that runs a submission's select_hand
    tests. Run from the repository root:

        swipl -g run_tests -t halt prolog/grade_child.plt

    The flag crib_child_under_test keeps the child's main/0 from running when
    it loads. The frame tests write to a temporary file instead of the
    grader's pipe and read the JSON back; the submission is a temporary file
    whose select_hand/3 behaves as the rank of its first card says (fixture/1).
*/

:- create_prolog_flag(crib_child_under_test, true, []).
:- use_module(grade_child).
:- use_module(child_lib, [open_frames/1, load_submission/1]).
:- use_module(library(plunit)).
:- use_module(library(http/json), [json_read_dict/3]).

%   frames_of(:Goal, -Frames): the frames Goal sends, as dicts, in order.

frames_of(Goal, Frames) :-
    tmp_file_stream(text, Path, Stream),
    close(Stream),
    open_frames(Path),
    call(Goal),
    setup_call_cleanup(open(Path, read, In),
                       read_frames(In, Frames),
                       close(In)),
    delete_file(Path).

%   read_frames(+In, -Frames): the JSON objects to the end of In.

read_frames(In, Frames) :-
    json_read_dict(In, Frame, [end_of_file(eof)]),
    (   Frame == eof
    ->  Frames = []
    ;   Frames = [Frame | Rest],
        read_frames(In, Rest)
    ).

%   text_file(+Text, -Path): a temporary .pl file holding Text.

text_file(Text, Path) :-
    tmp_file_stream(text, Path0, Stream),
    close(Stream),
    file_name_extension(Path0, pl, Path),
    setup_call_cleanup(open(Path, write, Out),
                       write(Out, Text),
                       close(Out)).

:- dynamic fixture_file/1.

%   fixture(-File): the submission the tests run, written once. Its
%   select_hand/3 keeps the first four cards as an ace leads, fails on a 2,
%   throws on a 3, loops on a 4, halts on a 5, sleeps on a 6, and on a 7
%   catches the time limit and goes on for 0.5 s of CPU time. It is deleted
%   when the tests halt.

fixture(File) :-
    fixture_file(File),
    !.
fixture(File) :-
    text_file("select_hand([card(R, S) | Cs], Hand, Crib) :-
    gc_behave(R, [card(R, S) | Cs], Hand, Crib).

gc_behave(ace, [A, B, C, D | Crib], [A, B, C, D], Crib).
gc_behave(2, _, _, _) :- fail.
gc_behave(3, _, _, _) :- throw(gc_ball).
gc_behave(4, _, _, _) :- gc_spin.
gc_behave(5, _, _, _) :- halt(3).
gc_behave(6, _, _, _) :- sleep(5).
gc_behave(7, Cards, Cards, []) :-
    catch(gc_spin, _, true),
    statistics(process_cputime, C0),
    gc_busy(C0 + 0.5).

gc_spin :- gc_spin.

gc_busy(Until) :-
    statistics(process_cputime, C),
    (   C >= Until
    ->  true
    ;   gc_busy(Until)
    ).
", File),
    assertz(fixture_file(File)),
    at_halt(catch(delete_file(File), _, true)).

%   load_fixture: loads fixture/1 as the child does.

load_fixture :-
    fixture(File),
    frames_of(load_submission([File]), _).

%   deal(+Rank, -Cards): six cards led by one of Rank.

deal(Rank, [ card(Rank, hearts), card(5, clubs), card(5, spades),
             card(jack, diamonds), card(2, clubs), card(9, hearts) ]).

%   result(+Rank, +Seconds, -Frames): the frames of test 7 run on deal(Rank)
%   with a limit of Seconds of CPU time, and a backstop far enough (20 x) that
%   a busy machine does not reach it first.

result(Rank, Seconds, Frames) :-
    result(Rank, Seconds, 20, Frames).

%   result(+Rank, +Seconds, +Factor, -Frames): the same with the backstop at
%   Factor x Seconds of wall-clock time, and 0.2 s of grace.

result(Rank, Seconds, Factor, Frames) :-
    retractall(grade_child:timing(_, _)),
    assertz(grade_child:timing(Factor, 0.2)),
    deal(Rank, Cards),
    frames_of(grade_child:run_test(7, Seconds, select_hand(Cards)), Frames).


:- begin_tests(read_tests).

test(terms, Tests == [ timing(3, 0.5),
                       test(0, 2, select_hand([card(5, hearts)])),
                       test(1, 2, select_hand([]))
                     ]) :-
    text_file("timing(3, 0.5).\n\c
               test(0, 2, select_hand([card(5, hearts)])).\n\c
               % a comment\n\c
               test(1, 2, select_hand([])).\n", File),
    grade_child:read_tests(File, Tests),
    delete_file(File).
test(empty, Tests == []) :-
    text_file("", File),
    grade_child:read_tests(File, Tests),
    delete_file(File).
test(not_prolog, error(syntax_error(_))) :-
    text_file("test(0, 2,\n", File),
    call_cleanup(grade_child:read_tests(File, _), delete_file(File)).

:- end_tests(read_tests).


:- begin_tests(test_goal).

test(select_hand, true(( Module-Call-Answer ==
                         user-select_hand(Cards, H, C)-cards(H, C),
                         var(H), var(C), H \== C ))) :-
    Cards = [card(5, hearts)],
    grade_child:test_goal(select_hand(Cards), Module, Call, Answer),
    Call = select_hand(_, H, C).
test(not_hand_value, fail) :-
    grade_child:test_goal(hand_value([card(5, hearts)], card(ace, clubs)),
                          _, _, _).

:- end_tests(test_goal).


:- begin_tests(run_test, [setup(load_fixture)]).

test(cards, true(( Start = _{type: "start", test: 7},
                   Outcome-Hand-Crib ==
                   "cards"-["AH", "5C", "5S", "JD"]-["2C", "9H"],
                   integer(Cpu), integer(Wall) ))) :-
    result(ace, 2, [Start, Result]),
    Result.type == "result",
    Result.test == 7,
    Outcome = Result.outcome,
    Hand = Result.hand.cards,
    Crib = Result.crib.cards,
    Cpu = Result.cpu_ms,
    Wall = Result.wall_ms.
test(fail, Outcome == "fail") :-
    result(2, 2, [_, Result]),
    Outcome = Result.outcome.
test(exception, Outcome-Kind-Message ==
                "exception"-"exception"-"Unknown message: gc_ball") :-
    result(3, 2, [_, Result]),
    Outcome = Result.outcome,
    Kind = Result.kind,
    Message = Result.message.
test(timeout, true(( Outcome-Kind == "exception"-"timeout",
                     Cpu >= 200, Cpu < 1500 ))) :-
    result(4, 0.2, [_, Result]),
    Outcome = Result.outcome,
    Kind = Result.kind,
    Cpu = Result.cpu_ms.
test(halt, Outcome-Status == "halt"-"3") :-
    result(5, 2, [_, Result]),
    Outcome = Result.outcome,
    Status = Result.status.
test(backstop, true(( Kind == "backstop", Wall >= 600, Wall < 3000 ))) :-
    result(6, 0.2, 3, [_, Result]),
    Kind = Result.kind,
    Wall = Result.wall_ms.
test(overrun, Types-Outcome == ["start", "overrun", "result"]-"cards") :-
    result(7, 0.2, Frames),
    findall(Type, ( member(F, Frames), Type = F.type ), Types),
    last(Frames, Result),
    Outcome = Result.outcome.
test(no_watch_left, Armed-Fired == []-[]) :-
    result(4, 0.2, _),
    findall(N, grade_child:armed(N), Armed),
    findall(N, grade_child:fired(N, _), Fired).

:- end_tests(run_test).


:- begin_tests(main, [setup(load_fixture)]).

%   From test 1 on: test 0 is not run, and the tests file's timing is used.

test(from_first, true(( Types == [ "ready", "loaded", "start", "result", "start",
                                   "result", "done" ],
                        Tests == [1, 1, 2, 2],
                        Outcomes == ["fail", "exception"],
                        Timing == timing(3, 0.5) ))) :-
    fixture(Submission),
    deal(ace, Ace),
    deal(2, Two),
    deal(3, Three),
    format(string(Text), "~q.~n~q.~n~q.~n~q.~n",
           [ timing(3, 0.5), test(0, 2, select_hand(Ace)),
             test(1, 2, select_hand(Two)), test(2, 2, select_hand(Three)) ]),
    text_file(Text, TestsFile),
    tmp_file_stream(text, Path, Stream),
    close(Stream),
    current_prolog_flag(argv, Argv),
    retractall(grade_child:timing(_, _)),
    setup_call_cleanup(
        set_prolog_flag(argv, [Path, TestsFile, '1', Submission]),
        grade_child:main,
        set_prolog_flag(argv, Argv)),
    grade_child:timing(F, G),
    Timing = timing(F, G),
    setup_call_cleanup(open(Path, read, In), read_frames(In, Frames),
                       close(In)),
    delete_file(Path),
    delete_file(TestsFile),
    findall(Type, ( member(Fr, Frames), Type = Fr.type ), Types),
    findall(T, ( member(Fr, Frames), T = Fr.get(test) ), Tests),
    findall(O, ( member(Fr, Frames), O = Fr.get(outcome) ), Outcomes).

:- end_tests(main).
