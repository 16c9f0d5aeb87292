/*  Tests for answer_child.pl, the child that answers hand_value/3 and
    select_hand/3 items in batches. Run from the repository root:

        swipl -g run_tests -t halt prolog/answer_child.plt

    The flag crib_child_under_test keeps the child's main/0 from running when
    it loads. A batch is a temporary file of card indexes; the frames are
    written to a temporary file instead of the grader's pipe and read back;
    the submission is a temporary file whose hand_value/3 answers as the rank
    of the start card says (fixture/1).
*/

:- create_prolog_flag(crib_child_under_test, true, []).
:- use_module(answer_child).
:- use_module(child_lib, [open_frames/1]).
:- use_module(library(plunit)).
:- use_module(library(http/json), [json_read_dict/3]).

%   no_choicepoint(:Goal): Goal succeeds and leaves no choicepoint.

no_choicepoint(Goal) :-
    call_cleanup(Goal, Det = true),
    Det == true.

%   read_frames(+In, -Frames): the JSON objects to the end of In.

read_frames(In, Frames) :-
    json_read_dict(In, Frame, [end_of_file(eof)]),
    (   Frame == eof
    ->  Frames = []
    ;   Frames = [Frame | Rest],
        read_frames(In, Rest)
    ).

%   frames_in(+Path, -Frames): the frames written to Path; Path is deleted.

frames_in(Path, Frames) :-
    setup_call_cleanup(open(Path, read, In),
                       read_frames(In, Frames),
                       close(In)),
    delete_file(Path).

%   empty_file(-Path): a new empty temporary file.

empty_file(Path) :-
    tmp_file_stream(text, Path, Stream),
    close(Stream).

%   batch_file(+Bytes, -Path): a temporary file holding Bytes.

batch_file(Bytes, Path) :-
    tmp_file_stream(binary, Path, Out),
    maplist(put_byte(Out), Bytes),
    close(Out).

%   hand(-Indexes): the hand of every hand_value item: 5H 5C 5S JD.

hand([18, 16, 19, 41]).

:- dynamic fixture_file/1.

%   fixture(-File): the submission, written once and deleted when the tests
%   halt. hand_value/3 answers 8 for an ace start, fails for a 2, throws for
%   a 3, answers foo for a 4, 123456 for a 5, loops for a 6, halts for a
%   7, sleeps for an 8, catches the time limit and loops on for a 9, builds
%   a list without end for a 10 and answers the megabytes of its stacks for
%   a jack; select_hand/3 keeps the first four cards.

fixture(File) :-
    fixture_file(File),
    !.
fixture(File) :-
    tmp_file_stream(text, Path0, Stream),
    close(Stream),
    file_name_extension(Path0, pl, File),
    setup_call_cleanup(open(File, write, Out),
                       format(Out, "~s", ["\c
hand_value(_, card(ace, _), 8).
hand_value(_, card(2, _), _) :- fail.
hand_value(_, card(3, _), _) :- throw(dc_ball).
hand_value(_, card(4, _), foo).
hand_value(_, card(5, _), 123456).
hand_value(_, card(6, _), _) :- dc_spin.
hand_value(_, card(7, _), _) :- halt(4).
hand_value(_, card(8, _), _) :- sleep(5).
hand_value(_, card(9, _), _) :- catch(dc_spin, _, true), dc_spin.
hand_value(_, card(10, _), _) :- dc_grow([]).
hand_value(_, card(jack, _), Mb) :- statistics(stack, Bytes), Mb is Bytes >> 20.

dc_spin :- dc_spin.
dc_grow(List) :- dc_grow([x | List]).

select_hand([A, B, C, D | Crib], [A, B, C, D], Crib).
"]),
                       close(Out)),
    assertz(fixture_file(File)),
    at_halt(catch(delete_file(File), _, true)).

%   batch(+Mode, +Items, +First, +Last, +Careful, -Frames): the frames of
%   main/0 answering items First to Last - 1 of Items (lists of card indexes)
%   in Mode against fixture/1, with a limit of 0.3 s of CPU time per item, the
%   wall-clock backstop at 20 x that and 0.2 s of grace, untimed.

batch(Mode, Items, First, Last, Careful, Frames) :-
    batch(Mode, Items, ask(First, Last, Careful, 0.3, 20, false), Frames).

%   batch(+Mode, +Items, +Ask, -Frames): the same with Ask
%   ask(First, Last, Careful, Seconds, Factor, Timed).

batch(Mode, Items, ask(First, Last, Careful, Seconds, Factor, Timed),
      Frames) :-
    fixture(Submission),
    append(Items, Bytes),
    batch_file(Bytes, Batch),
    empty_file(Path),
    format(string(Ask), "~q",
           [ask(Mode, Batch, First, Last, Careful, Seconds, Factor, 0.2, 20,
                Timed)]),
    current_prolog_flag(argv, Argv),
    setup_call_cleanup(
        set_prolog_flag(argv, [Path, Ask, Submission]),
        answer_child:main,
        set_prolog_flag(argv, Argv)),
    delete_file(Batch),
    frames_in(Path, Frames).

%   start_items(+Ranks, -Items): a hand_value item per rank, hand/1 and a
%   start of that rank (a diamond, so that a 5 is not in the hand).

start_items(Ranks, Items) :-
    hand(Hand),
    findall(Item,
            ( member(Rank, Ranks),
              child_lib:card_index(card(Rank, diamonds), Start),
              append(Hand, [Start], Item)
            ),
            Items).

%   outcomes(+Frames, -Firsts, -Summaries): the `first` of each `outcomes`
%   frame, and every item's outcome in order as summary/2 writes it.

outcomes(Frames, Firsts, Summaries) :-
    findall(First-List,
            ( member(F, Frames),
              F.type == "outcomes",
              First = F.first,
              List = F.outcomes
            ),
            Chunks),
    pairs_keys_values(Chunks, Firsts, Lists),
    append(Lists, Outcomes),
    maplist(summary, Outcomes, Summaries).

%   summary(+Outcome, -Summary): an outcome read back, short: the bare
%   integer, value(Text), fail, exception(Kind), halt(Status) or
%   cards(Hand, Crib).

summary(Outcome, Summary) :-
    (   integer(Outcome)
    ->  Summary = Outcome
    ;   atom_string(What, Outcome.outcome),
        summary(What, Outcome, Summary)
    ).

%   summary(+What, +Outcome, -Summary): summary/2 of an outcome of that kind.

summary(value, O, value(Text)) :-
    (   Text = O.value.get(int)
    ->  true
    ;   Text = O.value.term
    ).
summary(fail, _, fail).
summary(exception, O, exception(Kind)) :-
    atom_string(Kind, O.kind).
summary(halt, O, halt(O.status)).
summary(cards, O, cards(O.hand.cards, O.crib.cards)).


:- begin_tests(read_items).

test(index_card, Cards == [card(ace, clubs), card(5, hearts),
                           card(king, spades), none]) :-
    maplist(answer_child:index_card, [0, 18, 51, 255], Cards).
test(not_a_card, fail) :-
    answer_child:index_card(52, _).
test(item_size, Sizes == [hand_value-5, select_hand-6]) :-
    findall(M-S, answer_child:item_size(M, S), Sizes).
test(hand_value, true(( Goal1 == hand_value([ card(5, hearts),
                                              card(5, clubs),
                                              card(5, spades),
                                              card(jack, diamonds) ],
                                            card(ace, clubs)),
                        Goal2 = hand_value(_, card(king, spades)),
                        End == true ))) :-
    batch_file([18, 16, 19, 41, 0, 18, 16, 19, 41, 51], Path),
    open(Path, read, In, [type(binary)]),
    no_choicepoint(answer_child:read_item(hand_value, In, Goal1)),
    no_choicepoint(answer_child:read_item(hand_value, In, Goal2)),
    (   at_end_of_stream(In) -> End = true ; End = false ),
    close(In),
    delete_file(Path).
test(select_hand, true(( length(Five, 5), length(Six, 6),
                         last(Six, card(10, diamonds)) ))) :-
    batch_file([18, 16, 19, 41, 4, 255, 18, 16, 19, 41, 4, 37], Path),
    open(Path, read, In, [type(binary)]),
    no_choicepoint(answer_child:read_item(select_hand, In,
                                        select_hand(Five))),
    answer_child:read_item(select_hand, In, select_hand(Six)),
    close(In),
    delete_file(Path).

:- end_tests(read_items).


:- begin_tests(outcome).

test(small_int, Fields == 8) :-
    answer_child:outcome(true, value(8), Fields).
test(large_int, Int == "1001") :-
    answer_child:outcome(true, value(1001), Fields),
    Int = Fields.value.int.
test(timeout, Kinds == [timeout, backstop]) :-
    findall(Kind,
            ( member(Clock, [cpu, wall]),
              answer_child:outcome(error(answer_timeout(3, Clock)), value(_),
                                 Fields),
              Kind = Fields.kind
            ),
            Kinds).
test(messages_counted, Messages == ["Unknown message: dc_ball", ""]) :-
    flag(answer_messages, Old, 1),
    findall(Message,
            ( between(1, 2, _),
              answer_child:outcome(error(dc_ball), value(_), Fields),
              Message = Fields.message
            ),
            Messages),
    flag(answer_messages, _, Old).

:- end_tests(outcome).


:- begin_tests(batch).

test(hand_value, true(( Types == ["ready", "loaded", "done"],
                        Summaries == [ 8, fail, exception(exception),
                                       value("foo"), value("123456"),
                                       exception(timeout), halt("4") ] ))) :-
    start_items([ace, 2, 3, 4, 5, 6, 7], Items),
    batch(hand_value, Items, 0, 7, 0, Frames),
    Frames = [Ready, Loaded | _],
    last(Frames, Done),
    Types = [Ready.type, Loaded.type, Done.type],
    outcomes(Frames, [0 | _], Summaries).
test(window, true(( Firsts == [2], Summaries == [exception(exception),
                                                 value("foo")] ))) :-
    start_items([ace, 2, 3, 4, 5], Items),
    batch(hand_value, Items, 2, 4, 0, Frames),
    outcomes(Frames, Firsts, Summaries).
%   An item stopped by a limit may leave the stacks grown to it; the next
%   item finds them given back (without that, a list grown for 0.3 s leaves
%   tens of megabytes, and the item after a hog could run out of memory).
test(gives_back, true(( Stopped == exception(timeout), Mb < 4 ))) :-
    start_items([10, jack], Items),
    batch(hand_value, Items, 0, 2, 0, Frames),
    outcomes(Frames, _, [Stopped, Mb]).
test(careful, true(( Firsts == [0, 1, 2, 3], Summaries == [8, 8, 8, 8] ))) :-
    start_items([ace, ace, ace, ace, ace], Items),
    batch(hand_value, Items, 0, 4, 4, Frames),
    outcomes(Frames, Firsts, Summaries).
test(select_hand, Summaries == [ cards(["5H", "5C", "5S", "JD"], ["2C"]),
                                 cards(["5H", "5C", "5S", "JD"],
                                       ["2C", "TD"]) ]) :-
    batch(select_hand, [ [18, 16, 19, 41, 4, 255],
                         [18, 16, 19, 41, 4, 37] ], 0, 2, 0, Frames),
    outcomes(Frames, _, Summaries).

test(timed, true(( Cpu = [_, _], Wall = [_, _] ))) :-
    start_items([ace, 2], Items),
    batch(hand_value, Items, ask(0, 2, 0, 0.3, 20, true), Frames),
    member(F, Frames),
    F.type == "outcomes",
    !,
    Cpu = F.cpu_ms,
    Wall = F.wall_ms.
test(untimed, Keys == [first, outcomes, type]) :-
    start_items([ace, 2], Items),
    batch(hand_value, Items, 0, 2, 0, Frames),
    member(F, Frames),
    F.type == "outcomes",
    !,
    dict_keys(F, Keys).
test(backstop, true(( Summaries == [exception(backstop), 8],
                      Wall >= 600, Wall < 3000 ))) :-
    start_items([8, ace], Items),
    batch(hand_value, Items, ask(0, 2, 2, 0.2, 3, true), Frames),
    outcomes(Frames, _, Summaries),
    member(F, Frames),
    F.type == "outcomes",
    !,
    F.wall_ms = [Wall].
%   The grader kills a child that overran; here it goes on spinning, so the
%   frames are read as they come, and the child's thread is killed.
test(overrun, Types == ["ready", "loaded", "outcomes", "overrun"]) :-
    start_items([ace, 9], Items),
    fixture(Submission),
    append(Items, Bytes),
    batch_file(Bytes, Batch),
    empty_file(Path),
    format(string(Ask), "~q",
           [ask(hand_value, Batch, 0, 2, 2, 0.2, 20, 0.2, 20, false)]),
    current_prolog_flag(argv, Argv),
    set_prolog_flag(argv, [Path, Ask, Submission]),
    thread_create(answer_child:main, Id, []),
    set_prolog_flag(argv, Argv),
    overrun_frames(Path, 50, Frames),
    thread_signal(Id, abort),
    catch(thread_join(Id, _), _, true),
    delete_file(Batch),
    frames_in(Path, _),
    findall(Type, ( member(F, Frames), Type = F.type ), Types).

:- end_tests(batch).

%   overrun_frames(+Path, +Tries, -Frames): the frames in Path once one is an
%   `overrun`, looking every 0.1 s at most Tries times.

overrun_frames(Path, Tries, Frames) :-
    setup_call_cleanup(open(Path, read, In), read_frames(In, Frames0), close(In)),
    (   ( member(F, Frames0), F.type == "overrun" ; Tries =< 0 )
    ->  Frames = Frames0
    ;   sleep(0.1),
        T1 is Tries - 1,
        overrun_frames(Path, T1, Frames)
    ).
