:- module(grade_child, []).
:- use_module(library(http/json), [json_write_dict/3]).
:- use_module(library(lists), [member/2, append/3]).
:- use_module(library(apply), [maplist/3]).

/** <module> The child side of `crib grade`

Runs inside the sandbox the grader builds, one process per submission (and a fresh one after
a test kills it). Invoked as

    swipl grade_child.pl AnswerPath TestsFile First File...

It loads the submission's Files into `user`, reporting every error and warning printed while
loading (with file and line), then runs the tests in TestsFile from index First on, and
writes one JSON object a line on AnswerPath (the grader's pipe, `/proc/self/fd/3`), each
tagged with its `type` (crates/grade/src/protocol.rs reads them):

    {"type":"diag","kind":"error","file":"a.pl","line":3,"message":"..."}
    {"type":"loaded","hand_value":"user","select_hand":null}
    {"type":"start","test":4}
    {"type":"result","test":4,"cpu_ms":3,"wall_ms":4,"outcome":"value","value":{"int":"12"}}
    {"type":"overrun","test":5}
    {"type":"done"}

A `result` frame's `outcome` is `value` (hand_value/3 answered `value`), `cards`
(select_hand/3 answered `hand` and `crib`), `fail`, `halt` (with the `status` written) or
`exception` (with its `kind`, `timeout`, `backstop`, `memory` or `exception`, and the
`message`); `cpu_ms` and `wall_ms` are the goal's CPU time (the whole process's, every
thread) and wall-clock time. An answer is `{"int":Digits}`, `{"cards":[Token,...]}` or
`{"term":Text}`. `overrun` says that the goal went on past its limit plus the grace after
the watchdog stopped it (it caught the exception): the grader kills the process.

A test is `test(Index, Seconds, Goal)` where Goal is `hand_value(Hand, Start)` or
`select_hand(Cards)`: inputs only. TestsFile also holds `timing(Factor, Grace)`: a goal is
stopped when its CPU time reaches Seconds (kind `timeout`) or, if it is waiting or starved
rather than computing, when its wall-clock time reaches Factor x Seconds (kind `backstop`);
Grace seconds (of CPU or of wall-clock time) after that, `overrun`. The expected answers never enter this process; the grader
compares. What the submission prints goes to stdout and stderr, which the grader keeps apart
from the pipe, so it cannot corrupt the protocol.

A halt/0,1 written in the submission raises instead of halting (see goal_expansion/2
below); one the expansion cannot see ends the process, and the grader starts a fresh one for
the remaining tests.
*/

:- initialization(main, main).

:- dynamic answers/1, loading/0, submission_dir/1, armed/1, fired/2, timing/2.

%!  main is det.
%
%   Entry point: parse the command line, load the submission, run the tests, halt.

main :-
    current_prolog_flag(argv, [AnswerPath, TestsFile, FirstAtom | Files]),
    atom_number(FirstAtom, First),
    open(AnswerPath, write, Out, [encoding(utf8), buffer(line)]),
    assertz(answers(Out)),
    read_tests(TestsFile, Tests),
    (   memberchk(timing(Factor, Grace), Tests)
    ->  assertz(timing(Factor, Grace))
    ;   assertz(timing(3, 0.5))
    ),
    load_submission(Files),
    found(hand_value, HandValue),
    found(select_hand, SelectHand),
    emit(_{type: loaded, hand_value: HandValue, select_hand: SelectHand}),
    forall(( member(test(I, Seconds, Goal), Tests), I >= First ),
           run_test(I, Seconds, Goal)),
    emit(_{type: done}).

%!  read_tests(+File, -Tests:list) is det.
%
%   Tests are the terms of File, read before any submission code runs.

read_tests(File, Tests) :-
    setup_call_cleanup(open(File, read, In),
                       read_all(In, Tests),
                       close(In)).

read_all(In, Terms) :-
    read_term(In, Term, []),
    (   Term == end_of_file
    ->  Terms = []
    ;   Terms = [Term | Rest],
        read_all(In, Rest)
    ).

%!  load_submission(+Files:list(atom)) is det.
%
%   Loads Files into `user`. Messages of kind error and warning printed meanwhile become
%   `diag` frames; an exception that escapes loading becomes one too.

load_submission(Files) :-
    (   Files = [First | _]
    ->  file_directory_name(First, Dir),
        assertz(submission_dir(Dir))
    ;   true
    ),
    assertz(loading),
    forall(member(File, Files),
           catch(load_files(user:File, [if(not_loaded)]),
                 Error,
                 report_load_error(File, Error))),
    retractall(loading).

report_load_error(File, Error) :-
    message_text(Error, Text),
    emit(_{type: diag, kind: error, file: File, line: 0, message: Text}).

:- multifile user:goal_expansion/2, prolog:message//1.
:- dynamic user:goal_expansion/2.

%   halt/0,1 written in the submission (also in `:- initialization(halt)`) throws
%   grade_halt(Status) instead of ending the process: at load time the directive just
%   raises, in a test the verdict is `crashed` with the status, and the next test runs in
%   the same child. A halt the expansion cannot see (call(G) with G = halt) ends the process;
%   the grader then starts a fresh child.

user:goal_expansion(halt, grade_child:halt_called(0)) :-
    loading.
user:goal_expansion(halt(Status), grade_child:halt_called(Status)) :-
    loading.

halt_called(Status) :-
    throw(grade_halt(Status)).

prolog:message(grade_halt(Status)) -->
    [ 'halt(~q) called'-[Status] ].

:- multifile user:message_hook/3.
:- dynamic user:message_hook/3.

user:message_hook(Term, Kind, Lines) :-
    loading,
    memberchk(Kind, [error, warning]),
    \+ Term = halt(_),
    capture(Term, Kind, Lines).

capture(Term, Kind, Lines) :-
    catch(capture_(Term, Kind, Lines), _, true).

capture_(Term, Kind, Lines) :-
    message_location(Term, File0, Line0),
    (   atom(File0) -> File = File0 ; File = '' ),
    (   integer(Line0) -> Line = Line0 ; Line = 0 ),
    lines_text(Lines, Text),
    emit(_{type: diag, kind: Kind, file: File, line: Line, message: Text}).

message_location(error(_, file(File, Line, _, _)), File, Line) :-
    atom(File),
    !.
message_location(_, File, Line) :-
    source_location(File, Line),
    !.
message_location(Term, File, Line) :-           % e.g. init_goal(goal_raised(..), File:Line)
    sub_term(File:Line, Term),
    atom(File),
    integer(Line),
    !.
message_location(_, '', 0).

%!  found(+Name, -Where) is det.
%
%   Where is the module to call Name/3 in: `user` if visible there (defined or imported),
%   else a module of the submission that defines it without exporting it, else `null`.

found(Name, Where) :-
    functor(Head, Name, 3),
    (   predicate_property(user:Head, defined)
    ->  Where = user
    ;   submission_dir(Dir),
        module_property(Module, file(File)),
        sub_atom(File, 0, _, _, Dir),
        predicate_property(Module:Head, defined),
        \+ predicate_property(Module:Head, imported_from(_))
    ->  Where = Module
    ;   Where = null
    ).

%!  run_test(+Index, +Seconds, +Goal) is det.
%
%   Runs one test under a time limit and writes its `start` and `result` frames. Only the
%   first solution counts, as with once/1.

run_test(I, Seconds, Goal) :-
    emit(_{type: start, test: I}),
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
    outcome_frame(Outcome, Answer, Frame),
    emit(Frame.put(_{type: result, test: I, cpu_ms: Cpu, wall_ms: Wall})).

test_goal(hand_value(Hand, Start), Module, hand_value(Hand, Start, Value), value(Value)) :-
    found(hand_value, Module0),
    module_or_user(Module0, Module).
test_goal(select_hand(Cards), Module, select_hand(Cards, Hand, Crib), cards(Hand, Crib)) :-
    found(select_hand, Module0),
    module_or_user(Module0, Module).

module_or_user(null, user) :- !.
module_or_user(Module, Module).

outcome_frame(true, value(Value), _{outcome: value, value: A}) :-
    answer(Value, A).
outcome_frame(true, cards(Hand, Crib), _{outcome: cards, hand: H, crib: C}) :-
    card_list(Hand, H),
    card_list(Crib, C).
outcome_frame(fail, _, _{outcome: fail}).
outcome_frame(error(grade_halt(Status)), _, _{outcome: halt, status: Text}) :-
    !,
    term_text(Status, Text).
outcome_frame(error(Error), _, _{outcome: exception, kind: Kind, message: Text}) :-
    error_kind(Error, Kind),
    message_text(Error, Text).

error_kind(time_limit_exceeded, timeout) :- !.
error_kind(grade_backstop, backstop) :- !.
error_kind(error(resource_error(_), _), memory) :- !.
error_kind(_, exception).

answer(Value, _{int: Text}) :-
    integer(Value),
    !,
    number_string(Value, Text).
answer(Value, _{term: Text}) :-
    term_text(Value, Text).

card_list(List, _{cards: Tokens}) :-
    is_list(List),
    maplist(card_token, List, Tokens),
    !.
card_list(Term, _{term: Text}) :-
    term_text(Term, Text).

card_token(Card, Token) :-
    nonvar(Card),
    Card = card(Rank, Suit),
    rank_letter(Rank, R),
    suit_letter(Suit, S),
    atom_concat(R, S, Token).

rank_letter(Rank, Letter) :-
    nonvar(Rank),
    (   integer(Rank), between(2, 9, Rank)
    ->  atom_number(Letter, Rank)
    ;   rank_name(Rank, Letter)
    ).

rank_name(10, 'T').
rank_name(ace, 'A').
rank_name(jack, 'J').
rank_name(queen, 'Q').
rank_name(king, 'K').

suit_letter(Suit, Letter) :-
    atom(Suit),
    suit_name(Suit, Letter).

suit_name(clubs, 'C').
suit_name(diamonds, 'D').
suit_name(hearts, 'H').
suit_name(spades, 'S').

%!  term_text(+Term, -Text:string) is det.
%
%   Text is Term written quoted, cut short when deep or long: answers can be huge.

term_text(Term, Text) :-
    catch(term_string(Term, Full, [quoted(true), max_depth(12), portray(false)]),
          _, Full = "<unprintable>"),
    shorten(Full, Text).

%!  message_text(+Error, -Text:string) is det.
%
%   Text is the message SWI-Prolog prints for Error, trimmed and cut short.

message_text(Error, Text) :-
    catch(( message_to_codes(Error, Codes),
            string_codes(Full, Codes)
          ), _, term_text(Error, Full)),
    shorten(Full, Text).

message_to_codes(Error, Codes) :-
    '$messages':translate_message(Error, Lines, []),
    lines_codes(Lines, Codes).

lines_text(Lines, Text) :-
    catch(lines_codes(Lines, Codes), _, Codes = `<unprintable message>`),
    string_codes(Full, Codes),
    shorten(Full, Text).

lines_codes(Lines, Codes) :-
    with_output_to(codes(Codes), print_message_lines(current_output, '', Lines)).

shorten(Full, Text) :-
    split_string(Full, "", " \n\t", [Trimmed]),
    (   string_length(Trimmed, N), N > 600
    ->  sub_string(Trimmed, 0, 600, _, Head),
        string_concat(Head, "...", Text)
    ;   Text = Trimmed
    ).

%!  with_time_limit(+N:integer, +Test:integer, +Seconds:number, :Goal) is semidet.
%
%   Runs Goal once, as test Test, under watch N. A watchdog thread makes it throw
%   time_limit_exceeded when the process has used Seconds of CPU time since the goal
%   started, or, for a goal that waits (sleep/1, a blocking read) or is starved by a busy
%   machine, when Factor x Seconds of wall-clock time have passed (timing/2); fired(N, Clock)
%   then says which clock stopped it. A goal that catches the exception and goes on is
%   reported (`overrun`) Grace seconds later, and the grader kills the process. Measuring
%   CPU time keeps the verdict the same however busy the machine is. (library(time)'s
%   call_with_time_limit/2 is wall-clock only, and with its alarm thread a halt/1 during the
%   goal sometimes hangs the process in SWI-Prolog 9.0.)

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

%   watchdog(+Watch, +State): State is `armed` until the goal is stopped, then `fired`.
%   It sleeps no longer than the CPU time left (a goal uses at most one second of CPU per
%   second, unless it runs threads) and at most 0.1 s, so a loop is stopped within 0.1 s
%   of CPU time of its limit.

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
                   ->  emit(_{type: overrun, test: Test})
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

fire(N, Thread, Clock) :-
    with_mutex(grade_watchdog,
               (   armed(N)
               ->  assertz(fired(N, Clock)),
                   thread_signal(Thread, throw(time_limit_exceeded))
               ;   true
               )).

disarm(N, Watchdog) :-
    with_mutex(grade_watchdog, retractall(armed(N))),
    catch(thread_signal(Watchdog, abort), _, true),
    catch(thread_join(Watchdog, _), _, true).

%!  emit(+Frame:dict) is det.
%
%   Writes Frame as one line of JSON on the grader's pipe.

emit(Frame) :-
    answers(Out),
    with_output_to(string(Line), json_write_dict(current_output, Frame, [width(0)])),
    format(Out, "~s~n", [Line]),
    flush_output(Out).
