:- module(grade_child, []).
:- use_module(child_lib,
              [ open_frames/1, send_frame/1, outcome_fields/3,
                load_submission/1, submission_module/2
              ]).
:- autoload(library(lists), [member/2]).

%   The child's own code resolves what it calls in system, never in user: a
%   submission loads into user, and what it defines there (its own length/2 or
%   format/3, redefined with redefine_system_predicate/1, its own member/2)
%   must not reach the child's calls.
:- set_module(base(system)).

/** <module> The child side of `crib grade`

Runs inside the sandbox the grader builds, one process per submission (and a
fresh one after a test kills it). Invoked as

    swipl grade_child.pl AnswerPath TestsFile First File...

It loads the submission's Files into `user`, reporting every error and warning
printed while loading (with file and line), then runs the tests in TestsFile
from index First on, and writes one JSON object a line on AnswerPath (the
grader's pipe, `/proc/self/fd/3`), each tagged with its `type`
(crates/grade/src/protocol.rs reads them):

    {"type":"diag","kind":"error","file":"a.pl","line":3,"message":"..."}
    {"type":"loaded","hand_value":"user","select_hand":null}
    {"type":"start","test":4}
    {"type":"result","test":4,"cpu_ms":3,"wall_ms":4,"outcome":"cards",
     "hand":{"cards":["5H","5S","5C","JD"]},"crib":{"cards":["2C","9H"]}}
    {"type":"overrun","test":5}
    {"type":"done"}

A `result` frame's `outcome` is `cards` (select_hand/3 answered `hand` and
`crib`; `value`, an answer of hand_value/3's shape, is the deep child's),
`fail`, `halt` (with the `status` written) or `exception` (with its `kind`,
`timeout`, `backstop`, `memory` or `exception`, and the `message`); `cpu_ms`
and `wall_ms` are the goal's CPU time
(the whole process's, every thread) and wall-clock time. An answer is
`{"int":Digits}`, `{"cards":[Token,...]}` or `{"term":Text}`
(child_lib.pl's outcome_fields/3, which the deep child's frames share).
`overrun` says
that the goal went on past its limit plus the grace after the watchdog stopped
it (it caught the exception): the grader kills the process.

A test is `test(Index, Seconds, select_hand(Cards))`: inputs only (hand_value/3
is asked in batches by deep_child.pl). TestsFile also holds `timing(Factor,
Grace)`: a goal is stopped when its CPU time reaches Seconds (kind `timeout`)
or, if it is waiting or starved rather than computing, when its wall-clock time
reaches Factor x Seconds (kind `backstop`); Grace seconds (of CPU or of
wall-clock time) after that, `overrun`. The expected answers never enter this
process; the grader compares. What the submission prints goes to stdout and
stderr, which the grader keeps apart from the pipe, so it cannot corrupt the
protocol.

What it shares with deep_child.pl and lint_child.pl (card tokens, message text,
the frame writer, loading the submission: here halt/0,1 written in it raises
grade_halt(Status) instead of halting) is child_lib.pl, which the grader writes
beside it. A halt the rewriting cannot see ends the process, and the grader
starts a fresh one for the remaining tests.
*/

%   main/0 runs when the file is run as a program, not when a test file
%   (prolog/grade_child.plt) sets the flag crib_child_under_test to load it.
:- if(\+ current_prolog_flag(crib_child_under_test, true)).
:- initialization(main, main).
:- endif.

:- dynamic armed/1, fired/2, timing/2.

%!  main is det.
%
%   Entry point: parse the command line, load the submission, run the tests,
%   halt.

main :-
    current_prolog_flag(argv, [AnswerPath, TestsFile, FirstAtom | Files]),
    atom_number(FirstAtom, First),
    open_frames(AnswerPath),
    read_tests(TestsFile, Tests),
    (   memberchk(timing(Factor, Grace), Tests)
    ->  assertz(timing(Factor, Grace))
    ;   assertz(timing(3, 0.5))
    ),
    load_submission(Files),
    forall(( member(test(I, Seconds, Goal), Tests), I >= First ),
           run_test(I, Seconds, Goal)),
    send_frame(_{type: done}).

%!  read_tests(+File, -Tests:list) is det.
%
%   Tests are the terms of File, read before any submission code runs.

read_tests(File, Tests) :-
    setup_call_cleanup(open(File, read, In),
                       read_all(In, Tests),
                       close(In)).

%   read_all(+In, -Terms): the terms to the end of In.

read_all(In, Terms) :-
    read_term(In, Term, []),
    (   Term == end_of_file
    ->  Terms = []
    ;   Terms = [Term | Rest],
        read_all(In, Rest)
    ).

%!  run_test(+Index, +Seconds, +Goal) is det.
%
%   Runs one test under a time limit and writes its `start` and `result` frames.
%   Only the first solution counts, as with once/1.

run_test(I, Seconds, Goal) :-
    send_frame(_{type: start, test: I}),
    test_goal(Goal, Module, Call, Answer),
    flag(grade_watchdog, N, N + 1),
    statistics(process_cputime, C0),
    get_time(W0),
    catch(with_time_limit(N, I, Seconds,
                               (   call(Module:Call)
                               ->  Outcome0 = true
                               ;   Outcome0 = fail
                               )),
          Error,
          Outcome0 = error(Error)),
    statistics(process_cputime, C1),
    get_time(W1),
    Cpu is round((C1 - C0) * 1000),
    Wall is round((W1 - W0) * 1000),
    (   Outcome0 == error(time_limit_exceeded), retract(fired(N, wall))
    ->  Outcome = error(grade_backstop)
    ;   Outcome = Outcome0
    ),
    retractall(fired(N, _)),
    outcome_fields(Outcome, Answer, Fields),
    send_frame(Fields.put(_{type: result, test: I,
                            cpu_ms: Cpu, wall_ms: Wall})).

%   test_goal(+Test, -Module, -Call, -Answer): the goal of a test, where to call
%   it, and the outputs it binds.

test_goal(select_hand(Cards), Module, select_hand(Cards, Hand, Crib),
          cards(Hand, Crib)) :-
    submission_module(select_hand, Module).

%!  with_time_limit(+N:integer, +Test:integer, +Seconds, :Goal) is semidet.
%
%   Runs Goal once, as test Test, under watch N. A watchdog thread makes it
%   throw time_limit_exceeded when the process has used Seconds of CPU time
%   since the goal started, or, for a goal that waits (sleep/1, a blocking read)
%   or is starved by a busy machine, when Factor x Seconds of wall-clock time
%   have passed (timing/2); fired(N, Clock) then says which clock stopped it. A
%   goal that catches the exception and goes on is reported (`overrun`) Grace
%   seconds later, and the grader kills the process. Measuring CPU time keeps
%   the verdict the same however busy the machine is. (library(time)'s
%   call_with_time_limit/2 is wall-clock only, and with its alarm thread a
%   halt/1 during the goal sometimes hangs the process in SWI-Prolog 9.0.)

with_time_limit(N, Test, Seconds, Goal) :-
    thread_self(Me),
    assertz(armed(N)),
    timing(Factor, Grace),
    Backstop is Seconds * Factor,
    statistics(process_cputime, C0),
    get_time(W0),
    Watch = watch(N, Test, Me, C0, W0, Seconds, Backstop, Grace),
    thread_create(watchdog(Watch, armed), Watchdog, []),
    call_cleanup(once(Goal), disarm(N, Watchdog)).

%   watchdog(+Watch, +State): State is `armed` until the goal is stopped, then
%   `fired`. It sleeps no longer than the CPU time left (a goal uses at most one
%   second of CPU per second, unless it runs threads) and at most 0.1 s, so a
%   loop is stopped within 0.1 s of CPU time of its limit.

watchdog(Watch, State) :-
    Watch = watch(N, Test, Thread, C0, W0, Limit, Backstop, Grace),
    statistics(process_cputime, C),
    get_time(W),
    Cpu is C - C0,
    Wall is W - W0,
    (   State == armed, Cpu >= Limit
    ->  fire(N, Thread, cpu),
        watchdog(Watch, fired)
    ;   State == armed, Wall >= Backstop
    ->  fire(N, Thread, wall),
        watchdog(Watch, fired)
    ;   State == fired, ( Cpu >= Limit + Grace ; Wall >= Backstop + Grace )
    ->  with_mutex(grade_watchdog,
                   (   armed(N)
                   ->  send_frame(_{type: overrun, test: Test})
                   ;   true
                   ))
    ;   (   State == armed
        ->  Left is min(Limit - Cpu, Backstop - Wall)
        ;   Left is min(Limit + Grace - Cpu, Backstop + Grace - Wall)
        ),
        Sleep is max(0.005, min(0.1, Left)),
        sleep(Sleep),
        watchdog(Watch, State)
    ).

%   fire(+N, +Thread, +Clock): stops watch N's goal, if still armed, and
%   records which clock stopped it.

fire(N, Thread, Clock) :-
    with_mutex(grade_watchdog,
               (   armed(N)
               ->  assertz(fired(N, Clock)),
                   thread_signal(Thread, throw(time_limit_exceeded))
               ;   true
               )).

%   disarm(+N, +Watchdog): the goal of watch N has ended: stop its watchdog.

disarm(N, Watchdog) :-
    with_mutex(grade_watchdog, retractall(armed(N))),
    catch(thread_signal(Watchdog, abort), _, true),
    catch(thread_join(Watchdog, _), _, true).
