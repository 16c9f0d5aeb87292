/*  Tests for child_lib.pl, the library of crib's child programs. Run from the repository
    root:

        swipl -g run_tests -t halt prolog/child_lib.plt

    The frame tests write to a temporary file instead of the grader's pipe and read the
    JSON back.
*/

:- use_module(child_lib).
:- use_module(library(plunit)).
:- use_module(library(http/json), [json_read_dict/3]).
:- autoload(library(aggregate), [aggregate_all/3]).
:- autoload(library(lists), [member/2]).
:- autoload(library(readutil), [read_file_to_string/3]).
:- autoload(library(process), [process_create/3, process_wait/2]).

%   no_choicepoint(:Goal): Goal succeeds and leaves no choicepoint.

no_choicepoint(Goal) :-
    call_cleanup(Goal, Det = true),
    Det == true.

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

read_frames(In, Frames) :-
    json_read_dict(In, Frame, [end_of_file(eof)]),
    (   Frame == eof
    ->  Frames = []
    ;   Frames = [Frame | Rest],
        read_frames(In, Rest)
    ).

%   submission_file(+Text, -Path): a temporary file holding Text.

submission_file(Text, Path) :-
    tmp_file_stream(text, Path0, Stream),
    close(Stream),
    file_name_extension(Path0, pl, Path),
    setup_call_cleanup(open(Path, write, Out),
                       write(Out, Text),
                       close(Out)).

%   The messages a caller of load_submission/2 with report(caller) is left
%   with: while capturing/0, user:message_hook/3 keeps each error and warning
%   as seen(Kind, Term), not printed. child_lib's own hook comes first, so with
%   report(frames) this one is never reached.

:- dynamic capturing/0, seen/2.
:- multifile user:message_hook/3.
:- dynamic user:message_hook/3.

user:message_hook(Term, Kind, _) :-
    capturing,
    memberchk(Kind, [error, warning]),
    assertz(seen(Kind, Term)).

%   captured(:Goal, -Seen): the Kind-Term of each message Goal printed.

captured(Goal, Seen) :-
    retractall(seen(_, _)),
    setup_call_cleanup(assertz(capturing), Goal, retractall(capturing)),
    findall(Kind-Term, retract(seen(Kind, Term)), Seen).

%   exit_status(+Text, +Options, -Status): how a fresh swipl that loads Text
%   with load_submission/2 and Options ends: exit(9) if loading returns,
%   exit(7) if it raises.

exit_status(Text, Options, Status) :-
    submission_file(Text, File),
    module_property(child_lib, file(Lib)),
    format(atom(Goal),
           "use_module(~q), \c
            catch(load_submission([~q], ~q), _, halt(7)), halt(9)",
           [Lib, File, Options]),
    current_prolog_flag(executable, Swipl),
    process_create(Swipl, ['--no-tty', '-q', '-g', Goal, '-t', 'halt(8)'],
                   [stdout(null), stderr(null), process(Pid)]),
    process_wait(Pid, Status),
    delete_file(File).


:- begin_tests(card_text).

test(read, [ forall(member(Text-Want,
                           [ "5H"-card(5, hearts),
                             "TH"-card(10, hearts),
                             "10H"-card(10, hearts),
                             "AS"-card(ace, spades),
                             'QC'-card(queen, clubs),
                             "KD"-card(king, diamonds),
                             "JD"-card(jack, diamonds)
                           ])),
             true(Card == Want)
           ]) :-
    no_choicepoint(card_text(Text, Card)).
test(write, Text == "TH") :-
    no_choicepoint(card_text(Text, card(10, hearts))).
test(not_cards, [forall(member(Text, ["1C", "5X", "5h", "", "H", "11S", "5HH"])), fail]) :-
    card_text(Text, _).
test(not_written, [forall(member(Card, [card(1, hearts), card(5.0, hearts), card(5, 'H'),
                                         card(jack, hearts, x), foo])),
                   fail]) :-
    card_text(_, Card).
test(round_trip, [forall(card_text(Text, Card)), true(Back == Card)]) :-
    card_text(Text, Back).
test(all_cards, N == 52) :-
    aggregate_all(count, card_text(_, _), N).
test(not_text, error(type_error(text, 42))) :-
    card_text(42, _).

:- end_tests(card_text).


:- begin_tests(card_index).

test(ends, [true(Cards == [card(ace, clubs), card(ace, spades), card(2, clubs),
                           card(king, spades)])]) :-
    maplist(card_index, Cards, [0, 3, 4, 51]).
test(write, Index == 18) :-
    no_choicepoint(card_index(card(5, hearts), Index)).
test(read, Card == card(10, diamonds)) :-
    no_choicepoint(card_index(Card, 37)).
test(round_trip, [forall(between(0, 51, Index)), true(Back == Index)]) :-
    card_index(Card, Index),
    card_index(Card, Back).
test(same_cards_as_text, N == 52) :-
    aggregate_all(count, ( between(0, 51, I), card_index(C, I), card_text(_, C) ), N).
test(not_an_index, [forall(member(Index, [-1, 52, 255])), fail]) :-
    card_index(_, Index).
test(not_a_card, fail) :-
    card_index(card(1, hearts), _).

:- end_tests(card_index).


:- begin_tests(card_tokens).

test(cards, Tokens == ["AS", "5C", "TH"]) :-
    no_choicepoint(card_tokens([card(ace, spades), card(5, clubs), card(10, hearts)], Tokens)).
test(empty, Tokens == []) :-
    card_tokens([], Tokens).
test(not_cards, [forall(member(Term, [foo, [card(5, hearts) | _], [card(_, hearts)], [_],
                                      [card(5, hearts), zzz], [card(14, clubs)]])),
                 fail]) :-
    card_tokens(Term, _).
test(unbound_kept) :-
    Cards = [card(5, hearts), _],
    \+ card_tokens(Cards, _),
    Cards = [_, X],
    var(X).

:- end_tests(card_tokens).


:- begin_tests(text).

test(term, Text == "foo('A',\"b\",[1,2])") :-
    term_text(foo('A', "b", [1, 2]), Text).
test(term_cut_short, true(( L == 603, sub_string(Text, 600, 3, 0, "...") ))) :-
    length(Long, 1000),
    maplist(=(a), Long),
    atomic_list_concat(Long, Atom),
    term_text(Atom, Text),
    string_length(Text, L).
test(message, Text == "atom_length/2: Arguments are not sufficiently instantiated") :-
    catch(atom_length(_, _), Error, true),
    message_text(Error, Text).
test(unknown_message, Text == "Unknown message: my_ball") :-
    message_text(my_ball, Text).
test(lines, Text == "one\ntwo 2") :-
    lines_text(['one'-[], nl, 'two ~w'-[2], nl], Text).

:- end_tests(text).


:- begin_tests(frames).

test(one_line_each, Frames = [_{type: "start", test: 4}, _{type: "done"}]) :-
    frames_of(( send_frame(_{type: start, test: 4}),
                send_frame(_{type: done})
              ), Frames).
test(text_escaped, Message == "a\nb \"c\"") :-
    frames_of(send_frame(_{type: diag, message: "a\nb \"c\""}), [Frame]),
    Message = Frame.message.

:- end_tests(frames).


:- begin_tests(outcomes).

test(value, Outcome-Int == value-"12") :-
    outcome_fields(true, value(12), Fields),
    Outcome = Fields.outcome,
    Int = Fields.value.int.
test(value_beyond_64_bits, Int == "123456789012345678901234567890") :-
    outcome_fields(true, value(123456789012345678901234567890), Fields),
    Int = Fields.value.int.
test(value_not_an_integer, Term == "foo('A')") :-
    outcome_fields(true, value(foo('A')), Fields),
    Term = Fields.value.term.
test(cards, Hand-Crib == ["5H", "AS"]-"foo") :-
    outcome_fields(true, cards([card(5, hearts), card(ace, spades)], foo), Fields),
    Fields.outcome == cards,
    Hand = Fields.hand.cards,
    Crib = Fields.crib.term.
test(fail, Fields == [outcome-fail]) :-
    outcome_fields(fail, value(_), Dict),
    dict_pairs(Dict, _, Fields).
test(halt, Outcome-Status == halt-"3") :-
    outcome_fields(error(grade_halt(3)), value(_), Fields),
    Outcome = Fields.outcome,
    Status = Fields.status.
test(kinds, Kinds == [timeout, backstop, memory, exception]) :-
    findall(Kind,
            ( member(E, [ time_limit_exceeded, grade_backstop,
                          error(resource_error(memory), _), error(foo, _) ]),
              outcome_fields(error(E), value(_), Fields),
              Fields.outcome == exception,
              Kind = Fields.kind
            ),
            Kinds).
test(message, Message == "Unknown message: my_ball") :-
    outcome_fields(error(my_ball), value(_), Fields),
    Message = Fields.message.

:- end_tests(outcomes).


:- begin_tests(load_submission).

test(loaded, true(( Frames = [_{type: "ready"},
                             _{type: "loaded", hand_value: "user", select_hand: null}],
                    Module == user ))) :-
    submission_file("hand_value(_, _, 0).\n", File),
    frames_of(load_submission([File]), Frames),
    submission_module(hand_value, Module),
    delete_file(File).
test(diagnostics, true(( Kinds == [warning, error],
                         Lines == [1, 0],
                         Messages == ["Singleton variables: [X]", "halt(2) called"] ))) :-
    submission_file("lib_test_singleton(X) :- true.\n:- halt(2).\n", File),
    frames_of(load_submission([File]), [_Ready, D1, D2, _Loaded]),
    atom_string(Kind1, D1.kind),
    atom_string(Kind2, D2.kind),
    Kinds = [Kind1, Kind2],
    Lines = [D1.line, D2.line],
    Messages = [D1.message, D2.message],
    delete_file(File).
test(halt_raises, throws(grade_halt(5))) :-
    submission_file("lib_test_halts :- halt(5).\n", File),
    frames_of(load_submission([File]), _),
    delete_file(File),
    lib_test_halts.
test(missing_file, Kind-Line == "error"-0) :-
    frames_of(load_submission(['/nonexistent/child_lib_test.pl']), [_Ready, Diag, _Loaded]),
    Kind = Diag.kind,
    Line = Diag.line.
test(in_a_module, Where-Module == "lib_test_module"-lib_test_module) :-
    submission_file(":- module(lib_test_module, []).\nselect_hand(C, C, []).\n", File),
    frames_of(load_submission([File]), [_Ready, Loaded]),
    Where = Loaded.select_hand,
    submission_module(select_hand, Module),
    delete_file(File).
test(bad_option, error(domain_error(oneof([raise, exit]), stop))) :-
    load_submission([], [halt(stop)]).

:- end_tests(load_submission).


:- begin_tests(load_submission_options).

test(default_frames, Types == ["ready", "diag", "loaded"]) :-
    submission_file("lib_opt_default(X) :- true.\n", File),
    frames_of(load_submission([File], []), Frames),
    findall(Type, ( member(Frame, Frames), Type = Frame.type ), Types),
    delete_file(File).
test(caller_reports, true(( Frames == [],
                            Seen = [warning-singletons(_, _)] ))) :-
    submission_file("lib_opt_caller(X) :- true.\n", File),
    captured(frames_of(load_submission([File], [report(caller)]), Frames),
             Seen),
    delete_file(File).
test(caller_error_printed,
     true(( Seen = [error-error(permission_error(_, module, child_lib), _)],
            Next == true ))) :-
    submission_file(":- module(child_lib, []).\n", First),
    submission_file("lib_opt_next.\n", Second),
    captured(load_submission([First, Second], [report(caller)]), Seen),
    (   current_predicate(user:lib_opt_next/0) -> Next = true ; Next = false ),
    delete_file(First),
    delete_file(Second).
test(caller_raises, true(( Ball == lib_opt_ball,
                           \+ current_predicate(user:lib_opt_unloaded/0) ))) :-
    submission_file(":- throw(lib_opt_ball).\n", First),
    submission_file("lib_opt_unloaded.\n", Second),
    catch(load_submission([First, Second], [report(caller)]), Ball, true),
    delete_file(First),
    delete_file(Second).
test(raise_rewrites, Body == throw(grade_halt(5))) :-
    submission_file("lib_opt_raise :- halt(5).\n", File),
    frames_of(load_submission([File], [halt(raise)]), _),
    clause(user:lib_opt_raise, Body),
    delete_file(File).
test(exit_as_written, Body == halt(5)) :-
    submission_file("lib_opt_exit :- halt(5).\n", File),
    load_submission([File], [halt(exit), report(caller)]),
    clause(user:lib_opt_exit, Body),
    delete_file(File).
test(exit_ends_the_process, Statuses == [exit(3), exit(0), exit(9)]) :-
    maplist([Text, Status]>>exit_status(Text, [halt(exit), report(caller)],
                                        Status),
            [ "lib_opt_a.\n:- halt(3).\n",
              ":- initialization(halt).\n",
              "lib_opt_b.\n"
            ],
            Statuses).
test(raise_raises, Status == exit(7)) :-
    exit_status(":- halt(3).\n", [report(caller)], Status).

:- end_tests(load_submission_options).
