:- module(answer_child, []).
:- use_module(child_lib,
              [ card_index/2, open_frames/1, send_frame/1, outcome_fields/3,
                error_kind/2, load_submission/1, submission_module/2
              ]).
:- autoload(library(lists), [reverse/2]).
:- autoload(library(pairs), [pairs_keys_values/3]).

%   The child's own code resolves what it calls in system, never in user: a
%   submission loads into user, and what it defines there (its own length/2 or
%   format/3, redefined with redefine_system_predicate/1, its own member/2)
%   must not reach the child's calls.
:- set_module(base(system)).

/** <module> The child that answers a submission's items

Answers many hand_value/3 or select_hand/3 questions in one process: the
select_hand tests, the marked hand_value check (crates/grade/src/marked_check.rs)
and the deep check (crates/grade/src/deep/), all asked by the one batch driver
(crates/grade/src/batch.rs). It loads the submission and writes its frames with
child_lib.pl (the grader writes both beside it). Invoked as

    swipl answer_child.pl AnswerPath Ask File...

Ask is one term, written by the grader (`Ask` in batch.rs):

    ask(Mode, BatchFile, First, Last, Careful, Seconds, Factor, Grace,
        Messages, Timed)

Mode is `hand_value` or `select_hand`. BatchFile holds packed inputs, read-only,
written by the grader: for hand_value 5 bytes an item (the four hand cards then
the start, each a card index 0..51, rank-major: index = 4 * (rank - 1) + suit,
suits clubs, diamonds, hearts, spades), for select_hand 6 bytes an item (255 for
no sixth card). The child answers items First to Last - 1 and writes, after the
frames load_submission/1 sends (`ready`, `diag`, `loaded`):

    {"type":"outcomes","first":1000,"outcomes":[8,{"outcome":"value",
     "value":{"term":"foo"}},{"outcome":"fail"},...]}
    {"type":"overrun","item":1005}
    {"type":"done"}

one `outcomes` frame per 1,000 items or per half second, whichever comes first,
and one per item for the items below Careful (after a crash the grader asks for
that, to find the item that crashed; the select_hand tests ask it for every
item). With Timed `true`, each frame also has `cpu_ms` and `wall_ms`, each
item's CPU time (the whole process's, every thread) and wall-clock time. An
item's outcome is child_lib.pl's outcome_fields/3: the answer, `fail`, `halt`,
or an `exception` of kind `timeout` (over the Seconds limit of CPU time),
`backstop` (over the wall-clock backstop), `memory` or `exception` (whose
message is sent for the first Messages only, and is empty after). An integer
answer within -1000..1000, the common case, is sent as the bare integer (`8`
for `{"outcome":"value","value":{"int":"8"}}`), which is much cheaper to write.

One watchdog thread for the whole batch enforces Seconds per call: the limit is
CPU time (the process's, every thread), so a busy machine does not change an
answer, with a wall-clock backstop at Factor x Seconds for a call that waits
rather than computes. It looks every 50 ms at the item running, its start time
and CPU time, and makes a call over either limit throw. A call that catches
that and goes on for Grace seconds more (of CPU time, or of wall-clock time past
the backstop) is reported (`overrun`), and the grader kills the process. After
an item stopped by a limit of time or memory, the child gives back what it took
(its stacks trimmed, the heap returned where it can be), so that the items after
a hog run as they would in a new child.
*/

%   main/0 runs when the file is run as a program, not when a test file
%   (prolog/answer_child.plt) sets the flag crib_child_under_test to load it.
:- if(\+ current_prolog_flag(crib_child_under_test, true)).
:- initialization(main, main).
:- endif.

%!  main is det.
%
%   Entry point: read the Ask, load the submission, answer the items, halt.

main :-
    current_prolog_flag(argv, [AnswerPath, AskText | Files]),
    term_string(Ask, AskText),
    Ask = ask(Mode, Batch, First, Last, Careful, Seconds, Factor, Grace,
              Messages, Timed),
    open_frames(AnswerPath),
    open(Batch, read, In, [type(binary)]),
    item_size(Mode, Size),
    Offset is First * Size,
    seek(In, Offset, bof, _),
    load_submission(Files),
    submission_module(Mode, Module),
    flag(answer_item, _, -1),
    flag(answer_messages, _, Messages),
    thread_self(Me),
    Limits = limits(Seconds, Factor, Grace),
    % One watchdog a process (a test file runs main/0 more than once).
    catch(thread_signal(answer_watchdog, abort), _, true),
    catch(thread_join(answer_watchdog, _), _, true),
    thread_create(watchdog(Me, Limits), _, [alias(answer_watchdog)]),
    get_time(Now),
    Ctx = ctx(In, Mode, Module, Careful, Timed),
    items(First, Last, Ctx, chunk(First, [], 0, Now)),
    send_frame(_{type: done}).

%   item_size(?Mode, ?Bytes): how many bytes of BatchFile an item takes.

item_size(hand_value, 5).
item_size(select_hand, 6).

%!  items(+I, +Last, +Ctx, +Chunk) is det.
%
%   Answers items I to Last - 1; Chunk is chunk(First, Answers, N, Since), the
%   answers not yet sent (newest first, each Fields-Times), how many, and when
%   the last frame was sent.

items(I, Last, Ctx, chunk(First, Acc, _, _)) :-
    I >= Last,
    !,
    send(First, Acc, Ctx).
items(I, Last, Ctx, chunk(First, Acc, N, Since)) :-
    Ctx = ctx(In, Mode, Module, Careful, _),
    read_item(Mode, In, Goal),
    answer(Mode, Module, I, Goal, Answer),
    I1 is I + 1,
    N1 is N + 1,
    get_time(Now),
    (   ( N1 >= 1000 ; Now - Since >= 0.5 ; I1 =< Careful )
    ->  send(First, [Answer | Acc], Ctx),
        items(I1, Last, Ctx, chunk(I1, [], 0, Now))
    ;   items(I1, Last, Ctx, chunk(First, [Answer | Acc], N1, Since))
    ).

%   send(+First, +Acc, +Ctx): the `outcomes` frame of the answers in Acc
%   (newest first) from item First on, with their times when Ctx says Timed;
%   nothing if there are none.

send(_, [], _) :- !.
send(First, Acc, ctx(_, _, _, _, Timed)) :-
    reverse(Acc, Answers),
    pairs_keys_values(Answers, Outcomes, Times),
    (   Timed == true
    ->  pairs_keys_values(Times, Cpu, Wall),
        send_frame(_{type: outcomes, first: First, outcomes: Outcomes,
                     cpu_ms: Cpu, wall_ms: Wall})
    ;   send_frame(_{type: outcomes, first: First, outcomes: Outcomes})
    ).

%   read_item(+Mode, +In, -Goal): the next item of BatchFile as a test goal.

read_item(hand_value, In, hand_value([C1, C2, C3, C4], S)) :-
    read_cards([C1, C2, C3, C4, S], In).
read_item(select_hand, In, select_hand(Cards)) :-
    read_cards([C1, C2, C3, C4, C5, C6], In),
    (   C6 == none
    ->  Cards = [C1, C2, C3, C4, C5]
    ;   Cards = [C1, C2, C3, C4, C5, C6]
    ).

%   The list goes first, so that the last card leaves no choicepoint (one left
%   per item would keep every item's frames alive and fill the stacks).

read_cards([], _).
read_cards([Card | Cards], In) :-
    get_byte(In, Byte),
    index_card(Byte, Card),
    read_cards(Cards, In).

%   index_card(+Byte, -Card): 255 is no card (a five-card deal), else
%   card_index/2.

index_card(Byte, Card) :-
    (   Byte == 255
    ->  Card = none
    ;   card_index(Card, Byte)
    ).

%!  answer(+Mode, +Module, +I, +Goal, -Answer) is det.
%
%   Calls Goal once as item I under the watchdog; Answer is Fields-(Cpu-Wall):
%   how it ended (outcome/3), its CPU and wall-clock milliseconds.

answer(hand_value, Module, I, hand_value(Hand, Start), Fields-Times) :-
    call_item(Module, hand_value(Hand, Start, Value), I, Outcome, Times),
    outcome(Outcome, value(Value), Fields).
answer(select_hand, Module, I, select_hand(Cards), Fields-Times) :-
    call_item(Module, select_hand(Cards, Hand, Crib), I, Outcome, Times),
    outcome(Outcome, cards(Hand, Crib), Fields).

%   call_item(+Module, +Goal, +I, -Outcome, -Times): calls Module:Goal once as
%   item I, telling the watchdog; Outcome is true, fail or error(Error), with
%   answer_timeout(I, Clock) for a call the watchdog stopped; Times is
%   CpuMs-WallMs.

call_item(Module, Goal, I, Outcome, Cpu-Wall) :-
    get_time(T),
    statistics(process_cputime, C),
    with_mutex(answer_watch,
               (   flag(answer_since, _, T),
                   flag(answer_cpu, _, C),
                   flag(answer_fired, _, 0),
                   flag(answer_item, _, I)
               )),
    catch(( catch(( call(Module:Goal) -> Outcome = true ; Outcome = fail ),
                  Error,
                  Outcome = error(Error)),
            with_mutex(answer_watch, flag(answer_item, _, -1))
          ),
          answer_timeout(I, How),
          ( with_mutex(answer_watch, flag(answer_item, _, -1)),
            Outcome = error(answer_timeout(I, How))
          )),
    statistics(process_cputime, C1),
    get_time(T1),
    Cpu is round((C1 - C) * 1000),
    Wall is round((T1 - T) * 1000),
    (   hogged(Outcome)
    ->  give_back
    ;   true
    ).

%   hogged(+Outcome): the item was stopped by a limit, so it may have left the
%   stacks grown to the limit (a list built without end) or the heap full (a
%   findall/3 without end), which would leave the next items no room.

hogged(error(answer_timeout(_, _))).
hogged(error(error(resource_error(_), _))).

%   give_back: return the memory a hogging item took to the system, so that
%   the items after it run as in a new child: the stacks shrunk to what is in
%   use and, where this SWI-Prolog has trim_heap/0, the heap given back.

give_back :-
    garbage_collect,
    trim_stacks,
    catch(trim_heap, error(existence_error(procedure, _), _), true).

%   outcome(+Outcome, +Answer, -Fields): outcome_fields/3 of an item, the
%   watchdog's answer_timeout(I, Clock) read as time_limit_exceeded (cpu) or
%   grade_backstop (wall), and the message of a plain exception left empty
%   after the first Messages (the flag answer_messages counts down); an integer
%   answer within -1000..1000, almost every item, is the integer itself
%   (writing 28,000 outcomes as objects took the child about three times as
%   long as the answers).

outcome(true, value(Value), Value) :-
    integer(Value),
    Value >= -1000,
    Value =< 1000,
    !.
outcome(error(answer_timeout(_, cpu)), Answer, Fields) :-
    !,
    outcome_fields(error(time_limit_exceeded), Answer, Fields).
outcome(error(answer_timeout(_, wall)), Answer, Fields) :-
    !,
    outcome_fields(error(grade_backstop), Answer, Fields).
outcome(error(Error), _, Fields) :-
    Error \= grade_halt(_),
    error_kind(Error, exception),
    flag(answer_messages, N, max(N - 1, 0)),
    N =< 0,
    !,
    Fields = _{outcome: exception, kind: exception, message: ""}.
outcome(Outcome, Answer, Fields) :-
    outcome_fields(Outcome, Answer, Fields).

%!  watchdog(+Main, +Limits) is det.
%
%   Every 50 ms, with Limits limits(Seconds, Factor, Grace): if Main's current
%   item has used more than Seconds of CPU time, or started more than Factor x
%   Seconds ago, make it throw answer_timeout(Item, cpu) or answer_timeout(Item,
%   wall); if it goes on Grace seconds past that (it caught the exception),
%   send `overrun` once (the grader kills the process). Runs until the process
%   ends.

watchdog(Main, Limits) :-
    repeat,
    sleep(0.05),
    get_time(Now),
    statistics(process_cputime, Cpu),
    with_mutex(answer_watch, watch(Main, Limits, Now, Cpu)),
    fail.

%   watch(+Main, +Limits, +Now, +Cpu): one look at the item running.

watch(Main, limits(Seconds, Factor, Grace), Now, Cpu) :-
    flag(answer_item, I, I),
    I >= 0,
    flag(answer_since, T, T),
    flag(answer_cpu, C, C),
    flag(answer_fired, Fired, Fired),
    Used is Cpu - C,
    Waited is Now - T,
    Backstop is Factor * Seconds,
    (   Fired =:= 0
    ->  (   Used > Seconds
        ->  How = cpu
        ;   Waited > Backstop
        ->  How = wall
        )
    ->  flag(answer_fired, _, 1),
        catch(thread_signal(Main, throw(answer_timeout(I, How))), _, true)
    ;   Fired =:= 1,
        ( Used >= Seconds + Grace ; Waited >= Backstop + Grace )
    ->  flag(answer_fired, _, 2),
        send_frame(_{type: overrun, item: I})
    ),
    !.
watch(_, _, _, _).
