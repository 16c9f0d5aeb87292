:- module(child_lib,
          [ card_text/2,                % ?Text, ?Card
            card_index/2,               % ?Card, ?Index
            card_tokens/2,              % +Cards, -Tokens
            term_text/2,                % +Term, -Text
            message_text/2,             % +Message, -Text
            lines_text/2,               % +Lines, -Text
            outcome_fields/3,           % +Outcome, +Answer, -Fields
            error_kind/2,               % +Error, -Kind
            open_frames/1,              % +Path
            send_frame/1,               % +Frame
            load_submission/1,          % +Files
            load_submission/2,          % +Files, +Options
            submission_module/2         % +Name, -Module
          ]).
:- autoload(library(apply), [maplist/3]).
:- autoload(library(error), [domain_error/2, type_error/2]).
%   Loaded now, before any submission code runs (not autoloaded at the first
%   frame), so that nothing a submission defines is there when it is compiled.
:- use_module(library(http/json), [json_write_dict/3]).
:- autoload(library(lists), [member/2]).
:- autoload(library(occurs), [sub_term/2]).

%   The child's own code resolves what it calls in system, never in user: a
%   submission loads into user, and what it defines there (its own length/2 or
%   format/3, redefined with redefine_system_predicate/1, its own member/2)
%   must not reach the child's calls.
:- set_module(base(system)).

/** <module> What crib's child programs share

crib runs each submission in sandboxed `swipl` children: answer_child.pl
(every hand_value/3 and select_hand/3 item, in batches) and lint_child.pl
(what crib lint reads). The grader writes this file beside them and each loads
it with use_module/1. It holds:

  - **cards**: card(Rank, Suit) as in the assignment, in the two encodings the
    grader uses: short notation ("5H", "TD", "AS": card_text/2, card_tokens/2)
    and the index 0..51, rank-major, of crib-core's `Card` (card_index/2);
  - **text**: a term, an error or printed message lines as one trimmed string
    of at most 600 characters (term_text/2, message_text/2, lines_text/2);
  - **frames**: one JSON object a line on the grader's pipe (open_frames/1,
    send_frame/1), and how a goal ended as a frame's fields (outcome_fields/3),
    as in the answer child's `outcomes` frames;
  - **the submission**: loading it into `user`, the one way every child loads
    it: with its diagnostics sent as frames and halt/0,1 turned into an
    exception (load_submission/1), or as the caller asks (load_submission/2:
    the lint child reads the compiler's messages itself, and a halt ends it);
    and where its hand_value/3 and select_hand/3 are (submission_module/2).

```
?- card_text(Text, card(10, hearts)).
Text = "TH".

?- card_index(Card, 51).
Card = card(king, spades).

?- card_tokens([card(ace, spades), card(5, clubs)], Tokens).
Tokens = ["AS", "5C"].
```

crates/grade/src/protocol.rs reads the frames. prolog/cribbage.pl, the
reference students read, keeps its own card_code/2 so that it stands alone.
*/

                 /*******************************
                 *             CARDS            *
                 *******************************/

%   rank(?Number, ?Rank, ?Symbol): ace counts 1 and king 13; Symbol is how short
%   notation writes Rank.

rank(1, ace, 'A').
rank(2, 2, '2').
rank(3, 3, '3').
rank(4, 4, '4').
rank(5, 5, '5').
rank(6, 6, '6').
rank(7, 7, '7').
rank(8, 8, '8').
rank(9, 9, '9').
rank(10, 10, 'T').
rank(11, jack, 'J').
rank(12, queen, 'Q').
rank(13, king, 'K').

%   suit(?Number, ?Suit, ?Symbol): the suit's place in card indexes, and its
%   letter.

suit(0, clubs, 'C').
suit(1, diamonds, 'D').
suit(2, hearts, 'H').
suit(3, spades, 'S').

%!  card_text(+Text:text, -Card) is semidet.
%!  card_text(-Text:string, +Card) is semidet.
%!  card_text(-Text:string, -Card) is multi.
%
%   Text is Card in short notation: rank then suit, ranks A 2-9 T J Q K, suits C
%   D H S. Text is read from an atom or a string, in capitals; "10H" is read as
%   well as "TH", but 10 is always written T. Fails if Text or Card is no card.
%   With both arguments unbound, enumerates the 52 cards; call it with a ground
%   Card to write only that card.
%
%   @error type_error(text, Text) if Text is neither var, atom nor string.

card_text(Text, card(Rank, Suit)) :-
    (   var(Text)
    ->  rank(_, Rank, RankSymbol),
        suit(_, Suit, SuitSymbol),
        atomics_to_string([RankSymbol, SuitSymbol], Text)
    ;   atom(Text)
    ->  text_card(Text, Rank, Suit)
    ;   string(Text)
    ->  atom_string(Atom, Text),
        text_card(Atom, Rank, Suit)
    ;   type_error(text, Text)
    ).

%   text_card(+Atom, -Rank, -Suit): the rank and suit Atom writes, if any.

text_card(Atom, Rank, Suit) :-
    sub_atom(Atom, Before, 1, 0, SuitSymbol),
    sub_atom(Atom, 0, Before, 1, RankSymbol),
    symbol_rank(RankSymbol, Rank0),
    suit(_, Suit0, SuitSymbol),
    Rank = Rank0,
    Suit = Suit0.

%   symbol_rank(+Symbol, -Rank): how a rank may be read.

symbol_rank(Symbol, Rank) :-
    (   Symbol == '10'
    ->  Rank = 10
    ;   rank(_, Rank, Symbol)
    ).

%!  card_index(+Card, -Index:between(0,51)) is semidet.
%!  card_index(-Card, +Index:integer) is semidet.
%
%   Index is crib-core's `Card::index()` of Card: 4 * (RankNumber - 1) +
%   SuitNumber, ace 1 to king 13, clubs 0, diamonds 1, hearts 2, spades 3. So 0
%   is the ace of clubs and 51 the king of spades. Fails if Card is no card or
%   Index is not in 0..51.

card_index(card(Rank, Suit), Index) :-
    (   integer(Index)
    ->  between(0, 51, Index),
        RankNumber is Index // 4 + 1,
        SuitNumber is Index mod 4,
        rank(RankNumber, Rank, _),
        suit(SuitNumber, Suit, _)
    ;   rank(RankNumber, Rank, _),
        suit(SuitNumber, Suit, _),
        Index is 4 * (RankNumber - 1) + SuitNumber
    ).

%!  card_tokens(@Cards, -Tokens:list(string)) is semidet.
%
%   Tokens are the short notation of Cards, a proper list of ground card terms.
%   Fails on anything else, without binding Cards: a submission's answer may be
%   any term.

card_tokens(Cards, Tokens) :-
    is_list(Cards),
    ground(Cards),
    maplist(card_token, Cards, Tokens).

%   card_token(+Card, -Token): card_text/2 the other way round, for maplist/3.

card_token(Card, Token) :-
    card_text(Token, Card).

                 /*******************************
                 *             TEXT             *
                 *******************************/

%!  term_text(@Term, -Text:string) is det.
%
%   Text is Term written quoted, 12 levels deep at most, trimmed and cut short
%   (see lines_text/2): a submission's answer can be huge.

term_text(Term, Text) :-
    Options = [quoted(true), max_depth(12), portray(false)],
    catch(term_string(Term, Full, Options), _, Full = "<unprintable>"),
    shorten(Full, Text).

%!  message_text(@Message, -Text:string) is det.
%
%   Text is what print_message/2 prints for Message (an error term, say),
%   trimmed and cut short; Message written with term_text/2 if it cannot be
%   translated.

message_text(Message, Text) :-
    catch(message_to_string(Message, Full), _, term_text(Message, Full)),
    shorten(Full, Text).

%!  lines_text(+Lines:list, -Text:string) is det.
%
%   Text is what print_message_lines/3 prints for Lines, the message lines
%   message_hook/3 is given, with no prefix. It is trimmed of blanks at both
%   ends, and cut to 600 characters and "..." when longer.

lines_text(Lines, Text) :-
    catch(with_output_to(string(Full),
                         print_message_lines(current_output, '', Lines)),
          _, Full = "<unprintable message>"),
    shorten(Full, Text).

%   shorten(+Full, -Text): Full trimmed, and cut to 600 characters and "...".

shorten(Full, Text) :-
    split_string(Full, "", " \n\t", [Trimmed]),
    (   string_length(Trimmed, N), N > 600
    ->  sub_string(Trimmed, 0, 600, _, Head),
        string_concat(Head, "...", Text)
    ;   Text = Trimmed
    ).

                 /*******************************
                 *            FRAMES            *
                 *******************************/

:- dynamic frame_stream/1.

%!  open_frames(+Path) is det.
%
%   Opens Path, the grader's pipe (`/proc/self/fd/3`), for send_frame/1, and
%   closes the stream it opened before, if any. What the submission writes goes
%   to stdout and stderr, so it cannot corrupt the frames.

open_frames(Path) :-
    open(Path, write, Out, [encoding(utf8), buffer(full)]),
    (   retract(frame_stream(Old))
    ->  close(Old)
    ;   true
    ),
    assertz(frame_stream(Out)).

%!  send_frame(+Frame:dict) is det.
%
%   Writes Frame as one line of JSON on the pipe open_frames/1 opened, and
%   flushes it. Safe to call from any thread.

send_frame(Frame) :-
    frame_stream(Out),
    with_output_to(string(Line),
                   json_write_dict(current_output, Frame, [width(0)])),
    with_mutex(child_lib_frames,
               (   format(Out, "~s~n", [Line]),
                   flush_output(Out)
               )).

%!  outcome_fields(+Outcome, +Answer, -Fields:dict) is det.
%
%   Fields says how a goal ended and what it answered, as the grader reads it
%   (`Outcome` in crates/grade/src/protocol.rs). Outcome is `true`, `fail` or
%   error(Error); Answer is value(Value) for hand_value/3 or cards(Hand, Crib)
%   for select_hand/3, its output arguments:
%
%       _{outcome: value, value: _{int: "12"}}
%       _{outcome: cards, hand: _{cards: ["5H", "5C", "5D", "JS"]},
%         crib: _{term: "foo"}}
%       _{outcome: fail}
%       _{outcome: halt, status: "3"}
%       _{outcome: exception, kind: timeout, message: "Time limit exceeded"}
%
%   An answer is `int` (digits), `cards` (tokens) or `term` (term_text/2); an
%   exception's kind is error_kind/2's; grade_halt(Status) is a halt.

outcome_fields(true, Answer, Fields) :-
    answer_fields(Answer, Fields).
outcome_fields(fail, _, _{outcome: fail}).
outcome_fields(error(Error), _, Fields) :-
    error_fields(Error, Fields).

%   answer_fields(+Answer, -Fields): the fields of a goal that succeeded.

answer_fields(value(Value), _{outcome: value, value: A}) :-
    value_answer(Value, A).
answer_fields(cards(Hand, Crib), _{outcome: cards, hand: H, crib: C}) :-
    card_list(Hand, H),
    card_list(Crib, C).

%   error_fields(+Error, -Fields): the fields of a goal that raised Error:
%   `halt` for a halt in the submission, else `exception` with its kind.

error_fields(grade_halt(Status), _{outcome: halt, status: Text}) :-
    !,
    term_text(Status, Text).
error_fields(Error, _{outcome: exception, kind: Kind, message: Text}) :-
    error_kind(Error, Kind),
    message_text(Error, Text).

%!  error_kind(@Error, -Kind) is det.
%
%   Kind is `timeout` (time_limit_exceeded: the CPU-time limit), `backstop`
%   (grade_backstop: the wall-clock backstop), `memory` (a resource error) or
%   `exception`.

error_kind(Error, Kind) :-
    (   Error == time_limit_exceeded
    ->  Kind = timeout
    ;   Error == grade_backstop
    ->  Kind = backstop
    ;   subsumes_term(error(resource_error(_), _), Error)
    ->  Kind = memory
    ;   Kind = exception
    ).

%   value_answer(+Value, -Answer): hand_value's answer, {"int":Digits} or
%   {"term":Text}.

value_answer(Value, Answer) :-
    (   integer(Value)
    ->  number_string(Value, Text),
        Answer = _{int: Text}
    ;   term_text(Value, Text),
        Answer = _{term: Text}
    ).

%   card_list(+Term, -Answer): select_hand's hand or crib, {"cards":[Token,...]}
%   or {"term":Text}.

card_list(Term, Answer) :-
    (   card_tokens(Term, Tokens)
    ->  Answer = _{cards: Tokens}
    ;   term_text(Term, Text),
        Answer = _{term: Text}
    ).

                 /*******************************
                 *        THE SUBMISSION        *
                 *******************************/

%   loading: the submission is loading. halt_exits, caller_reports: it loads
%   with halt(exit), report(caller) (load_submission/2); neither is there for
%   load_submission/1.
:- dynamic loading/0, halt_exits/0, caller_reports/0, submission_dir/1.

%!  load_submission(+Files:list(atom)) is det.
%
%   Sends the `ready` frame (the child program runs, and nothing of the
%   submission has run yet: a child that ends before it could not be started,
%   which is crib's failure, never the submission's), then loads Files into
%   `user`, one after the other, each with load_files/2 and if(not_loaded) (a
%   file another has loaded already is not loaded again), then sends the
%   `loaded` frame. Each message of kind error or warning
%   printed while loading becomes a `diag` frame with its file and line, and so
%   does an exception that escapes loading a file (the next file is loaded all
%   the same):
%
%       {"type":"ready"}
%       {"type":"diag","kind":"error","file":"a.pl","line":3,"message":"..."}
%       {"type":"loaded","hand_value":"user","select_hand":null}
%
%   (see submission_module/2 for `loaded`). While Files load, a halt/0 or halt/1
%   written in them is compiled to throw `grade_halt(Status)`, so a directive
%   that halts only raises, and a test that halts ends with that exception. A
%   halt the expansion cannot see (call(G) with G = halt) still ends the
%   process. This is the answer child's way, load_submission(Files,
%   []).

load_submission(Files) :-
    (   caller_reports
    ->  true
    ;   send_frame(_{type: ready})
    ),
    retractall(submission_dir(_)),
    (   Files = [First | _]
    ->  file_directory_name(First, Dir),
        assertz(submission_dir(Dir))
    ;   true
    ),
    setup_call_cleanup(assertz(loading),
                       forall(member(File, Files),
                              catch(load_files(user:File, [if(not_loaded)]),
                                    Error,
                                    report_load_error(File, Error))),
                       retractall(loading)),
    (   caller_reports
    ->  true
    ;   found(hand_value, HandValue),
        found(select_hand, SelectHand),
        send_frame(_{type: loaded, hand_value: HandValue,
                     select_hand: SelectHand})
    ).

%!  load_submission(+Files:list(atom), +Options:list) is det.
%
%   Loads Files as load_submission/1 does, but for what Options change:
%
%     - halt(How)
%       `raise` (the default): halt/0 and halt/1 written in Files are compiled
%       to throw `grade_halt(Status)`. `exit`: they are left as written, so a
%       halt while Files load ends the process with its status, the files
%       after it unloaded: the lint child, whose grader reads a child that
%       ended before its `done` frame as a submission it could not check
%       (E002).
%     - report(Who)
%       `frames` (the default): `diag` frames and the `loaded` frame.
%       `caller`: no frame is sent, and what loading says is left to the
%       caller, as load_files/2 leaves it when given a list: the messages are
%       printed as usual, for the caller's own user:message_hook/3, an error
%       that escapes loading a file is printed too (and the next file is
%       loaded), and any other exception ends the loading and is raised to the
%       caller (the lint child).
%
%   @error domain_error(oneof(Values), Value) if an option has another value.

load_submission(Files, Options) :-
    option_value(halt, Options, [raise, exit], Halt),
    option_value(report, Options, [frames, caller], Report),
    setup_call_cleanup(loading_as(Halt, Report),
                       load_submission(Files),
                       ( retractall(halt_exits), retractall(caller_reports) )).

%   option_value(+Name, +Options, +Values, -Value): Value is the option Name's
%   in Options, one of Values, the first of Values if Options has none. Not
%   library(option): a library loaded here changes what the lint child, which
%   looks predicates up among those loaded, says of a submission.

option_value(Name, Options, Values, Value) :-
    Option =.. [Name, Value0],
    (   memberchk(Option, Options)
    ->  Value = Value0
    ;   Values = [Value | _]
    ),
    (   atom(Value),
        memberchk(Value, Values)
    ->  true
    ;   domain_error(oneof(Values), Value)
    ).

%   loading_as(+Halt, +Report): asserts halt_exits and caller_reports as the
%   options say.

loading_as(Halt, Report) :-
    (   Halt == exit
    ->  assertz(halt_exits)
    ;   true
    ),
    (   Report == caller
    ->  assertz(caller_reports)
    ;   true
    ).

%   report_load_error(+File, +Error): the `diag` frame of an exception that
%   escaped loading File; with report(caller), Error printed if it is an
%   error(_, _), else raised again.

report_load_error(File, Error) :-
    (   caller_reports
    ->  (   Error = error(_, _)
        ->  print_message(error, Error)
        ;   throw(Error)
        )
    ;   message_text(Error, Text),
        send_frame(_{type: diag, kind: error, file: File, line: 0,
                     message: Text})
    ).

:- multifile user:goal_expansion/2, prolog:message//1.
:- dynamic user:goal_expansion/2.

%   user:goal_expansion(+Goal, -Expanded): while the submission loads, halt/0
%   and halt/1 become throw(grade_halt(Status)), unless with halt(exit).

user:goal_expansion(halt, throw(grade_halt(0))) :-
    loading,
    \+ halt_exits.
user:goal_expansion(halt(Status), throw(grade_halt(Status))) :-
    loading,
    \+ halt_exits.

%   prolog:message(+Message)//: the text of grade_halt(Status), for the `diag`
%   frame of a directive that halts.

prolog:message(grade_halt(Status)) -->
    [ 'halt(~q) called'-[Status] ].

:- multifile user:message_hook/3.
:- dynamic user:message_hook/3.

%   user:message_hook(+Term, +Kind, +Lines): while the submission loads with
%   report(frames), each error and warning printed is sent as a `diag` frame
%   instead (it succeeds, so the message is not printed). With report(caller)
%   it fails: the message is the caller's.

user:message_hook(Term, Kind, Lines) :-
    loading,
    \+ caller_reports,
    memberchk(Kind, [error, warning]),
    \+ Term = halt(_),
    catch(send_diag(Term, Kind, Lines), _, true).

%   send_diag(+Term, +Kind, +Lines): the `diag` frame of a message.

send_diag(Term, Kind, Lines) :-
    message_location(Term, File0, Line0),
    (   atom(File0) -> File = File0 ; File = '' ),
    (   integer(Line0) -> Line = Line0 ; Line = 0 ),
    lines_text(Lines, Text),
    send_frame(_{type: diag, kind: Kind, file: File, line: Line,
                 message: Text}).

%   message_location(+Term, -File, -Line): where the message is about, or '' and
%   0.

message_location(error(_, file(File, Line, _, _)), File, Line) :-
    atom(File),
    !.
message_location(_, File, Line) :-
    source_location(File, Line),
    !.
message_location(Term, File, Line) :-   % init_goal(goal_raised(..), File:Line)
    sub_term(File:Line, Term),
    atom(File),
    integer(Line),
    !.
message_location(_, '', 0).

%!  submission_module(+Name, -Module) is det.
%
%   Module is where to call Name/3 (hand_value or select_hand) after
%   load_submission/1: see found/2; `user` if the submission defines it nowhere
%   (the call then raises an existence error, as the assignment's tests would).

submission_module(Name, Module) :-
    found(Name, Where),
    (   Where == null
    ->  Module = user
    ;   Module = Where
    ).

%   found(+Name, -Where): Where is the module to call Name/3 in: `user` if
%   visible there (defined or imported), else a module of the submission that
%   defines it without exporting it, else `null`. The `loaded` frame says Where.

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
