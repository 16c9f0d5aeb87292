:- module(deep_child, []).
:- use_module(child_lib,
              [ card_index/2, open_frames/1, send_frame/1, outcome_fields/3,
                error_kind/2, load_submission/1, submission_module/2
              ]).
:- autoload(library(lists), [reverse/2]).

%   The child's own code resolves what it calls in system, never in user: a
%   submission loads into user, and what it defines there (its own length/2 or
%   format/3, redefined with redefine_system_predicate/1, its own member/2)
%   must not reach the child's calls.
:- set_module(base(system)).

/** <module> The child side of `crib grade --deep`

Answers many hand_value/3 (or select_hand/3) questions in one process, for the
marked hand_value check (crates/grade/src/marked_check.rs) and the deep
check (crates/grade/src/deep/), by their batch driver
(crates/grade/src/batch.rs). It is started in the same sandbox and limits as
grade_child.pl, and loads the submission and writes its frames with
child_lib.pl, as that child does (the grader writes both beside it). Invoked as

    swipl deep_child.pl AnswerPath Mode BatchFile First Last Careful \
        Seconds Factor File...

Mode is `hand_value` or `select_hand`. BatchFile holds packed inputs, read-only,
written by the grader: for hand_value 5 bytes an item (the four hand cards then
the start, each a card index 0..51, rank-major: index = 4 * (rank - 1) + suit,
suits clubs, diamonds, hearts, spades), for select_hand 6 bytes an item (255 for
no sixth card). The child answers items First to Last - 1 and writes, after the
frames load_submission/1 sends (`diag`, `loaded`):

    {"type":"outcomes","first":1000,"outcomes":[8,{"outcome":"value",
     "value":{"term":"foo"}},{"outcome":"fail"},...]}
    {"type":"done"}

one `outcomes` frame per 1,000 items or per half second, whichever comes first,
and one per item for the items below Careful (after a crash the grader asks for
that, to find the item that crashed). An item's outcome is the grade child's, as
in its `result` frames (child_lib.pl's outcome_fields/3): the answer, `fail`,
`halt`, or an `exception` of kind `timeout` (over the Seconds limit of CPU
time), `backstop` (over the wall-clock backstop), `memory` or `exception` (whose
message is sent for the first 20 only, and is empty after). An integer answer
within -1000..1000, the common case, is sent as the bare integer (`8` for
`{"outcome":"value","value":{"int":"8"}}`), which is much cheaper to write.

One watchdog thread for the whole batch enforces Seconds per call cheaply, as
the grade child does: the limit is CPU time (the process's, every thread), so a
busy machine does not change an answer, with a wall-clock backstop at Factor x
Seconds for a call that waits rather than computes. It looks every 50 ms at the
item running, its start time and CPU time, and makes a call over either limit
throw. A call that catches that and goes on is killed by the grader.
*/

%   main/0 runs when the file is run as a program, not when a test file
%   (prolog/deep_child.plt) sets the flag crib_child_under_test to load it.
:- if(\+ current_prolog_flag(crib_child_under_test, true)).
:- initialization(main, main).
:- endif.

%!  main is det.
%
%   Entry point: parse the command line, load the submission, answer the items,
%   halt.

main :-
    current_prolog_flag(argv, [AnswerPath, Mode, Batch, FirstA, LastA,
                               CarefulA, SecondsA, FactorA | Files]),
    atom_number(FirstA, First),
    atom_number(LastA, Last),
    atom_number(CarefulA, Careful),
    atom_number(SecondsA, Seconds),
    atom_number(FactorA, Factor),
    open_frames(AnswerPath),
    open(Batch, read, In, [type(binary)]),
    item_size(Mode, Size),
    Offset is First * Size,
    seek(In, Offset, bof, _),
    load_submission(Files),
    submission_module(Mode, Module),
    flag(deep_item, _, -1),
    thread_self(Me),
    thread_create(watchdog(Me, Seconds, Factor), _, [detached(true)]),
    get_time(Now),
    Ctx = ctx(In, Mode, Module, Careful),
    items(First, Last, Ctx, chunk(First, [], 0, Now)),
    send_frame(_{type: done}).

%   item_size(?Mode, ?Bytes): how many bytes of BatchFile an item takes.

item_size(hand_value, 5).
item_size(select_hand, 6).

%!  items(+I, +Last, +Ctx, +Chunk) is det.
%
%   Answers items I to Last - 1; Chunk is chunk(First, Answers, N, Since), the
%   answers not yet sent (newest first), how many, and when the last frame was
%   sent.

items(I, Last, _, chunk(First, Acc, _, _)) :-
    I >= Last,
    !,
    send(First, Acc).
items(I, Last, Ctx, chunk(First, Acc, N, Since)) :-
    Ctx = ctx(In, Mode, Module, Careful),
    read_item(Mode, In, Goal),
    answer(Mode, Module, I, Goal, Answer),
    I1 is I + 1,
    N1 is N + 1,
    get_time(Now),
    (   ( N1 >= 1000 ; Now - Since >= 0.5 ; I1 =< Careful )
    ->  send(First, [Answer | Acc]),
        items(I1, Last, Ctx, chunk(I1, [], 0, Now))
    ;   items(I1, Last, Ctx, chunk(First, [Answer | Acc], N1, Since))
    ).

%   send(+First, +Acc): the `outcomes` frame of the outcomes in Acc (newest
%   first) from item First on; nothing if there are none.

send(_, []) :- !.
send(First, Acc) :-
    reverse(Acc, Answers),
    send_frame(_{type: outcomes, first: First, outcomes: Answers}).

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

%!  answer(+Mode, +Module, +I, +Goal, -Fields) is det.
%
%   Calls Goal once as item I under the watchdog; Fields say how it ended
%   (outcome/3).

answer(hand_value, Module, I, hand_value(Hand, Start), Fields) :-
    call_item(Module, hand_value(Hand, Start, Value), I, Outcome),
    outcome(Outcome, value(Value), Fields).
answer(select_hand, Module, I, select_hand(Cards), Fields) :-
    call_item(Module, select_hand(Cards, Hand, Crib), I, Outcome),
    outcome(Outcome, cards(Hand, Crib), Fields).

%   call_item(+Module, +Goal, +I, -Outcome): calls Module:Goal once as item I,
%   telling the watchdog; Outcome is true, fail or error(Error), with
%   deep_timeout(I, Clock) for a call the watchdog stopped.

call_item(Module, Goal, I, Outcome) :-
    get_time(T),
    statistics(process_cputime, C),
    with_mutex(deep_watch,
               (   flag(deep_item, _, I),
                   flag(deep_since, _, T),
                   flag(deep_cpu, _, C)
               )),
    catch(( catch(( call(Module:Goal) -> Outcome = true ; Outcome = fail ),
                  Error,
                  Outcome = error(Error)),
            with_mutex(deep_watch, flag(deep_item, _, -1))
          ),
          deep_timeout(I, How),
          ( with_mutex(deep_watch, flag(deep_item, _, -1)),
            Outcome = error(deep_timeout(I, How))
          )).

%   outcome(+Outcome, +Answer, -Fields): outcome_fields/3 of an item, the
%   watchdog's deep_timeout(I, Clock) read as the grade child's
%   time_limit_exceeded (cpu) or grade_backstop (wall), and the message of a
%   plain exception left empty after the first 20; an integer answer within
%   -1000..1000, almost every item, is the integer itself (writing 28,000
%   outcomes as objects took the child about three times as long as the
%   answers).

outcome(true, value(Value), Value) :-
    integer(Value),
    Value >= -1000,
    Value =< 1000,
    !.
outcome(error(deep_timeout(_, cpu)), Answer, Fields) :-
    !,
    outcome_fields(error(time_limit_exceeded), Answer, Fields).
outcome(error(deep_timeout(_, wall)), Answer, Fields) :-
    !,
    outcome_fields(error(grade_backstop), Answer, Fields).
outcome(error(Error), _, Fields) :-
    Error \= grade_halt(_),
    error_kind(Error, exception),
    flag(deep_messages, N, N + 1),
    N >= 20,
    !,
    Fields = _{outcome: exception, kind: exception, message: ""}.
outcome(Outcome, Answer, Fields) :-
    outcome_fields(Outcome, Answer, Fields).

%!  watchdog(+Main, +Seconds, +Factor) is det.
%
%   Every 50 ms: if Main's current item has used more than Seconds of CPU time,
%   or started more than Factor x Seconds ago, make it throw deep_timeout(Item,
%   cpu) or deep_timeout(Item, wall). Runs until the process ends.

watchdog(Main, Seconds, Factor) :-
    repeat,
    sleep(0.05),
    get_time(Now),
    statistics(process_cputime, Cpu),
    with_mutex(deep_watch,
               (   flag(deep_item, I, I),
                   I >= 0,
                   flag(deep_since, T, T),
                   flag(deep_cpu, C, C),
                   (   Cpu - C > Seconds
                   ->  How = cpu
                   ;   Now - T > Factor * Seconds
                   ->  How = wall
                   )
               ->  flag(deep_item, _, -1),
                   Signal = throw(deep_timeout(I, How)),
                   catch(thread_signal(Main, Signal), _, true)
               ;   true
               )),
    fail.
