:- module(lint_child, []).
:- use_module(child_lib,
              [ message_text/2, lines_text/2, open_frames/1, send_frame/1,
                load_submission/2
              ]).
:- use_module(library(prolog_xref)).
:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(occurs)).

%   The child's own code resolves what it calls in system, never in user, as
%   child_lib.pl's does: what a submission defines there must not reach it.
:- set_module(base(system)).

/** <module> What crib-lint needs to know about a submission

Read by SWI-Prolog itself. Run in crib-sandbox's jail, never in a crib process,
with child_lib.pl beside it:

    swipl --no-tty -q lint_child.pl FramePath Prefix FILE...

It loads the files (their directives run here, in the sandbox) as every child
does, with child_lib.pl's load_submission/2, and records the compiler's own
warnings and errors (a halt while they load ends it before its `done` frame,
as halt/1 does: the grader reads that as files it could not check); reads
every term again with the reader's positions, comments and variable names;
cross-references the files with library(prolog_xref); and sends each fact as
a frame on the grader's pipe (FramePath, opened with child_lib.pl's
open_frames/1), as the grader's children do: one JSON object a line, its
`type` the fact's kind, e.g.

    {"type":"term","file":"a.pl","start":3,"end":5,"clause":true,
     "name":"foo","arity":2,"depth":1}

and `{"type":"done"}` last. Lines, positions, arities, depths and counts are
numbers; PREDICATE, CALLED and BY are `name/arity` texts; every other field is
text, with Prefix (the submission's directory and a slash) taken out of it.
What the submission prints goes to stdout and cannot pass for a fact.
crib-lint (crates/lint/src/facts.rs) turns the facts into findings.

Facts (`line` is 1-based), each with its fields:

    warning     file line kind text
        a compiler warning or error while loading
    syntax      file line text
        a syntax error the reader met
    unread      file line text
        the text of the term that did not read
    term        file start end clause name arity depth
        a clause (clause true) or directive (clause false, name/arity of
        the directive's goal); depth is the deepest nesting of -> and ;
    comment     file start end text
        a comment
    mode        file start end predicate
        a PlDoc comment whose mode lines PlDoc reads (with its own reader)
        as documenting predicate
    badmode     file start end name text
        a PlDoc comment whose first line would be a mode line of name but
        for blanks before its '('
    ground      file line predicate cards
        a ground fact with `cards` card(Rank, Suit) terms
    idiom       file line rule text
        a construct an idiom rule looks for
    declared    file predicate kind
        discontiguous, dynamic, multifile declarations, and hooks the system
        calls (kind hook)
    call        file called by
        a call from a predicate of the files (by is `<directive>/0` for a
        directive): xref's, and those made through meta-arguments
        (maplist/3, call/N, a predicate of the files that calls an argument)
    unresolved  file line by
        a goal that is a variable bound in the clause itself (call(G) after
        G =.. L): what it calls cannot be known
    undefined   file called line by
        called (first on line, by by), defined nowhere (files, system,
        library)
    library     predicate
        a predicate of the files that redefines a library one
    system      predicate
        a predicate of the files that hides a system one

and then the `done` frame: everything was said.

Loading, message text and the frame writer come from child_lib.pl, the
library the grader's children share.

What the child gathers is data, passed down to the predicates that read it:
a `lint` dict (lint/2) holds the prefix and the files, and, once the files
are read, their clauses, the character offset of each line and the
meta-arguments of their predicates. The one fact asserted is that dict, for
user:message_hook/3 while the lint runs (a hook is given no arguments).
*/

%   main/0 runs when the file is run as a program, not when a test file
%   (prolog/lint_child.plt) sets the flag crib_child_under_test to load it.
:- if(\+ current_prolog_flag(crib_child_under_test, true)).
:- initialization(main, main).
:- endif.

%!  main is det.
%
%   Entry point: open the pipe named on the command line, send the facts of
%   the files named there (lint/2), halt.

main :-
    current_prolog_flag(argv, [FramePath, Prefix | Files]),
    open_frames(FramePath),
    lint(Prefix, Files),
    halt(0).

%!  lint(+Prefix:atom, +Files:list(atom)) is det.
%
%   Loads Files, reads them again, analyses and cross-references them, and
%   sends the facts and the `done` frame on the pipe open_frames/1 opened. An
%   exception in a step becomes a `warning` fact and the next step runs, with
%   what the steps before it gathered. Apart from main/0 so that
%   prolog/lint_child.plt can call it without halting.
%
%   Files load with child_lib.pl's load_submission/2, the loading every child
%   shares, with two options: report(caller), because the compiler's messages
%   become this child's own `warning` facts (user:message_hook/3 below), not
%   `diag` frames, and an exception that escapes loading ends it (the files
%   after it unloaded) and is a `warning` fact; and halt(exit), because a halt
%   while the files load must end this child before its `done` frame, with
%   what it said so far, as halt/1 does: the grader reads that end as the
%   files' E002 ("loading it ended the program before the check was done"),
%   where the answer child turns it into an exception.
%
%   The dict passed down, lint{prefix, files}, is Prefix (the submission's
%   directory and a slash, which the facts' text leaves out) and each file as
%   Absolute-AsGiven; read_files/3 adds what reading found.

lint(Prefix, Files) :-
    maplist(absolute_and_given, Files, Loading),
    Lint = lint{prefix: Prefix, files: Loading},
    setup_call_cleanup(assertz(linting(Lint)),
                       lint_steps(Lint, Files),
                       retractall(linting(_))).

%   absolute_and_given(+File, -Pair): File's absolute name and File.
absolute_and_given(File, Abs-File) :-
    absolute_file_name(File, Abs).

%!  lint_steps(+Lint:dict, +Files:list(atom)) is det.
%
%   The steps of lint/2, each in catch/3: load, read (read_files/3), analyse
%   (analyse_clauses/1), cross-reference, then the `done` frame.

lint_steps(Lint0, Files) :-
    catch(load_submission(Files, [report(caller), halt(exit)]), E,
          warn_exception(Lint0, E)),
    catch(use_module(library(pldoc/doc_modes)), _, true),
    catch(use_module(library(pldoc/doc_wiki)), _, true),
    read_files(Lint0, Files, Lint1),
    infer_meta(Lint1, Lint, Error),
    (   var(Error)
    ->  catch(analyse_clauses(Lint), E3, warn_exception(Lint, E3))
    ;   warn_exception(Lint, Error)
    ),
    catch(cross_reference(Lint, Files), E2, warn_exception(Lint, E2)),
    send_frame(_{type: done}).

%   linting(Lint): the lint/2 running, for user:message_hook/3. The one
%   fact this child asserts: the hook is called by the compiler, with no
%   argument of ours, and it must send each message's fact as the message
%   comes (a halt while the files load ends the child, so a fact kept to be
%   sent later would never be), which needs the files and the prefix.
:- dynamic linting/1.

%   The compiler's messages while the files load: each warning or error about
%   one of the files becomes a `warning` fact, and is printed as usual.

:- multifile user:message_hook/3.
:- dynamic user:message_hook/3.

%   user:message_hook(+Term, +Kind, +Lines): fails, so that the message is
%   printed as usual, after compiler_message/3.
user:message_hook(Term, Kind, Lines) :-
    ( Kind == warning ; Kind == error ),
    catch(compiler_message(Term, Kind, Lines), _, true),
    fail.

%!  compiler_message(+Term, +Kind:atom, +Lines:list) is nondet.
%
%   Sends the `warning` fact of a message about one of the files of the lint
%   running (once for each time the file was named); fails for a message
%   about anything else, or when no lint runs.

compiler_message(Term, Kind, Lines) :-
    message_place(Term, Abs, Line),
    linting(Lint),
    get_dict(files, Lint, Loading),
    member(Abs-File, Loading),
    message_kind(Term, Kind, What),
    warning_text(Lines, Text),
    emit(Lint, warning, _{file: File, line: Line, kind: What, text: Text}).

%   message_place(+Term, -File, -Line): where the compiler was when it printed
%   the message.
message_place(error(_, file(File, Line, _, _)), File, Line) :- !.
message_place(_, File, Line) :-
    source_location(File, Line).

%!  message_kind(+Term, +Kind:atom, -What:atom) is det.
%
%   What is the `kind` field of the fact of message Term: the warning a rule
%   reads (singletons, multiton, discontiguous, redefine_system, redefine,
%   syntax), else the message's Kind (warning or error).

message_kind(singletons(_, _), _, singletons) :- !.
message_kind(compiler_warnings(_, Ws), _, multiton) :-
    memberchk(multiton(_), Ws),
    !.
message_kind(discontiguous(_, _), _, discontiguous) :- !.
message_kind(error(permission_error(modify, static_procedure, _), _), _,
             redefine_system) :- !.
message_kind(redefine_procedure(_, _), _, redefine) :- !.
message_kind(declare_module(_, _), _, redefine) :- !.
message_kind(error(syntax_error(_), _), _, syntax) :- !.
message_kind(_, Kind, Kind).

%   warning_text(+Lines, -Text): the message on one line.
warning_text(Lines, Text) :-
    lines_text(Lines, Text0),
    normalize_space(string(Text), Text0).

%!  warn_exception(+Lint:dict, +Error) is det.
%
%   Sends an exception that stopped a step as a `warning` fact on line 1 of
%   the first file; nothing when there is no file.

warn_exception(Lint, E) :-
    message_text(E, Text),
    get_dict(files, Lint, [_-File | _]),
    !,
    emit(Lint, warning, _{file: File, line: 1, kind: error, text: Text}).
warn_exception(_, _).

%!  read_files(+Lint0:dict, +Files:list(atom), -Lint:dict) is det.
%
%   Reads every term of Files again (read_file/3), sending the facts of their
%   terms and comments. Lint is Lint0 with what the analysis reads: `clauses`,
%   each clause and directive read as clause(File, Start, Term, Head, Body,
%   BodyPos) (Head '<directive>' for a directive), in the order read; and
%   `starts`, a dict from each file to the character offset of each of its
%   lines (line_starts/2).

read_files(Lint0, Files, Lint) :-
    maplist(read_file(Lint0), Files, Reads),
    foldl(file_starts, Reads, files{}, Starts),
    maplist(file_clauses, Reads, ClauseLists),
    append(ClauseLists, Clauses),
    put_dict(_{clauses: Clauses, starts: Starts}, Lint0, Lint).

%!  file_starts(+Read:compound, +Starts0:dict, -Starts:dict) is det.
%
%   Starts is Starts0 with the line offsets of a file read, unless it has
%   them (a file named twice reads the same).

file_starts(read(File, Starts, _), Starts0, Starts1) :-
    (   get_dict(File, Starts0, _)
    ->  Starts1 = Starts0
    ;   put_dict(File, Starts0, Starts, Starts1)
    ).

%   file_clauses(+Read, -Clauses): the clauses of a file read.
file_clauses(read(_, _, Clauses), Clauses).

%!  read_file(+Lint:dict, +File:atom, -Read:compound) is det.
%
%   Reads every term of File again, with positions and comments, and sends
%   the facts of its terms and comments. Read is read(File, Starts, Clauses):
%   its lines' offsets and the clauses and directives read (read_terms/6). An
%   exception while reading stops the file, with the clauses read before it,
%   and is a `warning` fact.

read_file(Lint, File, read(File, Starts, Clauses)) :-
    catch(read_file_to_codes(File, Codes, []), _, Codes = []),
    line_starts(Codes, Starts),
    catch(setup_call_cleanup(
              open(File, read, S),
              read_terms(Lint, S, File, Starts-Codes, Clauses, Error),
              close(S)),
          Error, Clauses = []),
    (   var(Error)
    ->  true
    ;   warn_exception(Lint, Error)
    ).

%!  read_terms(+Lint:dict, +Stream, +File:atom, +Text:pair, -Clauses:list,
%!             -Error) is det.
%
%   Clauses are the clauses and directives of the terms to the end of Stream
%   (next_term/5); after a syntax error, reading goes on from where the reader
%   stopped. Text is Starts-Codes, the file's line offsets and codes. Error is
%   unbound, or the exception that stopped the reading, Clauses being those
%   read before it.

read_terms(Lint, S, File, Text, Clauses, Error) :-
    catch(next_term(Lint, S, File, Text, Read), Error, true),
    (   nonvar(Error)
    ->  Clauses = []
    ;   Read = last(Clauses)
    ->  true
    ;   Read = more(Clauses0),
        append(Clauses0, Clauses1, Clauses),
        read_terms(Lint, S, File, Text, Clauses1, Error)
    ).

%!  next_term(+Lint:dict, +Stream, +File:atom, +Text:pair, -Read:compound)
%!            is det.
%
%   Reads the next term of Stream, and sends its facts and those of the
%   comments before it. Read is more(Clauses) when reading goes on, last([])
%   at the end of Stream or at a syntax error the reader cannot go on after;
%   Clauses holds the term as term/7 gives it.

next_term(Lint, S, File, Starts-Codes, Read) :-
    stream_property(S, position(Before)),
    catch(read_term(S, Term,
                    [ module(user), subterm_positions(Pos), term_position(TP),
                      comments(Comments), syntax_errors(error) ]),
          Error, true),
    (   nonvar(Comments)
    ->  forall(member(C, Comments), comment(Lint, File, C))
    ;   true
    ),
    (   nonvar(Error)
    ->  syntax(Lint, File, Error),
        stream_property(S, position(After)),
        unread(Lint, File, Codes, Before, After),
        (   Error = error(syntax_error(_), _),
            After \== Before,
            \+ at_end_of_stream(S)
        ->  Read = more([])
        ;   Read = last([])
        )
    ;   Term == end_of_file
    ->  Read = last([])
    ;   var(Term)
    ->  Read = more([])
    ;   term(Lint, File, Starts, Term, Pos, TP, Clauses),
        Read = more(Clauses)
    ).

%!  unread(+Lint:dict, +File:atom, +Codes:codes, +Before, +After) is det.
%
%   Sends the `unread` fact of the text of a term that did not read, between
%   stream positions Before and After of File (whose codes are Codes), for
%   what it may call (X301 counts every name in it as a possible call of its
%   head's predicate).

unread(Lint, File, Codes, Before, After) :-
    (   stream_position_data(char_count, Before, B),
        stream_position_data(char_count, After, A),
        stream_position_data(line_count, Before, Line),
        A > B
    ->  length(Skip, B),
        append(Skip, Rest, Codes),
        Len is A - B,
        (   length(Mid, Len), append(Mid, _, Rest) -> true ; Mid = Rest ),
        string_codes(Text, Mid),
        emit(Lint, unread, _{file: File, line: Line, text: Text})
    ;   true
    ).

%!  syntax(+Lint:dict, +File:atom, +Error) is det.
%
%   Sends the `syntax` fact of an exception the reader raised, at its line
%   (1 if it has none).

syntax(Lint, File, error(syntax_error(What), Where)) :-
    !,
    (   Where = stream(_, Line, _, _) -> true
    ;   Where = file(_, Line, _, _) -> true
    ;   Line = 1
    ),
    term_string(What, Text),
    emit(Lint, syntax, _{file: File, line: Line, text: Text}).
syntax(Lint, File, E) :-
    term_string(E, Text),
    emit(Lint, syntax, _{file: File, line: 1, text: Text}).

%!  comment(+Lint:dict, +File:atom, +Comment:pair) is det.
%
%   Sends the `comment` fact of a comment Pos-Text the reader returned, and
%   its `mode` or `badmode` fact when PlDoc reads it as structured.

comment(Lint, File, Pos-Text) :-
    stream_position_data(line_count, Pos, Start),
    string_codes(Text, Codes),
    aggregate_all(count, member(0'\n, Codes), Newlines),
    End is Start + Newlines,
    emit(Lint, comment, _{file: File, start: Start, end: End, text: Text}),
    catch(ignore(pldoc_comment(Lint, File, Start, End, Text)), _, true).

%!  term(+Lint:dict, +File:atom, +Starts:list(nonneg), +Term, +Pos, +TermPos,
%!       -Clauses:list) is det.
%
%   Sends the facts of a term read (`term`, `declared`, `ground`). Clauses
%   is the term as the analysis reads it, [clause(File, Start, Term, Head,
%   Body, BodyPos)] (Head '<directive>' for a directive), or [] for a clause
%   whose head is not callable or a grammar rule that does not translate.

term(Lint, File, Starts, Term, Pos, TP, Clauses) :-
    stream_position_data(line_count, TP, Start),
    (   arg(2, Pos, EndChar), integer(EndChar)
    ->  char_line(Starts, EndChar, End)
    ;   End = Start
    ),
    (   Term = (:- Directive)
    ->  ( callable(Directive) -> functor(Directive, N, A) ; N = '?', A = 0 ),
        emit(Lint, term, _{file: File, start: Start, end: End, clause: false,
                           name: N, arity: A, depth: 0}),
        declarations(Lint, File, Directive),
        arg_pos(Pos, 1, DirPos),
        Clauses = [clause(File, Start, Term, '<directive>', Directive, DirPos)]
    ;   clause_parts(Term, Head, Body),
        callable(Head)
    ->  functor(Head, N, A),
        depth(Body, Depth),
        emit(Lint, term, _{file: File, start: Start, end: End, clause: true,
                           name: N, arity: A, depth: Depth}),
        ground_fact(Lint, File, Start, Term),
        (   analysed(Term, Pos, H, B, BP)
        ->  Clauses = [clause(File, Start, Term, H, B, BP)]
        ;   Clauses = []
        )
    ;   Clauses = []
    ).

%!  clause_parts(+Term, -Head, -Body) is det.
%
%   Head and Body are a clause's; a grammar rule's Head has its two extra
%   arguments.

clause_parts((H :- B), H, B) :- !.
clause_parts((H --> B), H2, B) :-
    !,
    (   callable(H)
    ->  functor(H, N, A),
        A2 is A + 2,
        functor(H2, N, A2)
    ;   H2 = H
    ).
clause_parts(H, H, true).

%!  analysed(+Term, +Pos, -Head, -Body, -BodyPos) is semidet.
%
%   The clause as the compiler sees it (a grammar rule translated by
%   dcg_translate_rule/4, positions kept), for the analysis of its goals;
%   fails for a grammar rule that does not translate to a callable head.

analysed((H --> B), Pos, Head, Body, BodyPos) :-
    !,
    catch(dcg_translate_rule((H --> B), Pos, Clause, CPos), _, fail),
    (   Clause = (Head :- Body)
    ->  arg_pos(CPos, 2, BodyPos)
    ;   Head = Clause, Body = true, BodyPos = none
    ),
    callable(Head).
analysed((H :- B), Pos, H, B, BodyPos) :-
    !,
    arg_pos(Pos, 2, BodyPos).
analysed(H, _, H, true, none).

%!  ground_fact(+Lint:dict, +File:atom, +Line:nonneg, +Term) is det.
%
%   Sends the `ground` fact of a fact with no variable that holds
%   card(Rank, Suit) terms, with how many (facts without any are not said:
%   rank and suit tables).

ground_fact(Lint, File, Line, Term) :-
    (   Term \= (_ :- _), Term \= (_ --> _), ground(Term), callable(Term)
    ->  aggregate_all(count, ground_card(Term), Cards),
        (   Cards > 0
        ->  functor(Term, N, A),
            emit(Lint, ground, _{file: File, line: Line, predicate: N/A,
                                 cards: Cards})
        ;   true
        )
    ;   true
    ).

%   ground_card(+Term): a card(Rank, Suit) term with atomic Rank and Suit in
%   Term, once for each.
ground_card(Term) :-
    sub_term(C, Term),
    C = card(R, S),
    atomic(R),
    atomic(S).

%!  declarations(+Lint:dict, +File:atom, +Directive) is det.
%
%   Sends the `declared` facts of a module's exports and of discontiguous,
%   dynamic and multifile declarations.

declarations(Lint, File, module(_, Exports)) :-
    !,
    forall(spec(Exports, N, A),
           emit(Lint, declared, _{file: File, predicate: N/A, kind: export})).
declarations(Lint, File, Directive) :-
    Directive =.. [Kind, Specs],
    memberchk(Kind, [discontiguous, dynamic, multifile]),
    !,
    forall(spec(Specs, N, A),
           emit(Lint, declared, _{file: File, predicate: N/A, kind: Kind})).
declarations(_, _, _).

%!  spec(+Specs, -Name:atom, -Arity:nonneg) is nondet.
%
%   Each predicate indicator of Specs: N/A or N//A, alone, in a list or a
%   conjunction, module-qualified or not.

spec(V, _, _) :- var(V), !, fail.
spec((A, B), N, Ar) :- !, ( spec(A, N, Ar) ; spec(B, N, Ar) ).
spec([H|T], N, Ar) :- !, ( spec(H, N, Ar) ; spec(T, N, Ar) ).
spec(_:S, N, A) :- !, spec(S, N, A).
spec(N/A, N, A) :- atom(N), integer(A).
spec(N//A0, N, A) :- atom(N), integer(A0), A is A0 + 2.

%!  depth(+Body, -Depth:nonneg) is det.
%
%   The deepest nesting of if-then-else and disjunction in Body: ( a -> b ; c )
%   is 1.

depth(V, 0) :- var(V), !.
depth((A, B), D) :- !, depth(A, DA), depth(B, DB), D is max(DA, DB).
depth((A ; B), D) :-
    !,
    alternatives((A ; B), Alts),
    foldl(alt_depth, Alts, 0, D0),
    D is D0 + 1.
depth((A -> B), D) :- !, depth(A, DA), depth(B, DB), D is max(DA, DB) + 1.
depth((A *-> B), D) :- !, depth(A, DA), depth(B, DB), D is max(DA, DB) + 1.
depth(\+ A, D) :- !, depth(A, D).
depth(findall(_, G, _), D) :- !, depth(G, D).
depth(forall(A, B), D) :- !, depth(A, DA), depth(B, DB), D is max(DA, DB).
depth(_, 0).

%   alternatives(+Body, -Alts): the branches of a chain a -> b ; c -> d ; e,
%   which counts as one level.
alternatives(V, [V]) :- var(V), !.
alternatives((A ; B), [A|Bs]) :- !, alternatives(B, Bs).
alternatives(A, [A]).

%!  alt_depth(+Alt, +D0:nonneg, -D:nonneg) is det.
%
%   D is the larger of D0 and the depth of a branch; a branch's own
%   condition -> then is not a level of its own.

alt_depth(Alt, D0, D) :-
    (   nonvar(Alt), Alt = (C -> T)
    ->  depth(C, DC), depth(T, DT), DA is max(DC, DT)
    ;   depth(Alt, DA)
    ),
    D is max(D0, DA).

%   PlDoc comments, read as PlDoc reads them (library(pldoc/doc_modes)).

%!  pldoc_comment(+Lint:dict, +File:atom, +Start:nonneg, +End:nonneg,
%!                +Text:string) is semidet.
%
%   Sends a `mode` fact for each predicate a structured comment's mode lines
%   document, or a `badmode` fact when they do not parse only because of
%   blanks between the name and its '(' (score(+A) written score (+A)).
%   Fails for a comment that is not structured.

pldoc_comment(Lint, File, Start, End, Text) :-
    structured_comment(Text, Prefixes),
    string_codes(Text, Codes),
    pldoc_wiki:indented_lines(Codes, Prefixes, Lines),
    modes_read(Lines, File:Start, PIs),
    (   PIs \== []
    ->  forall(member(N/A, PIs),
               emit(Lint, mode, _{file: File, start: Start, end: End,
                                  predicate: N/A}))
    ;   first_line(Lines, LineNo, First),
        spaced_name(First, Name, Fixed),
        selectchk(LineNo-First, Lines, LineNo-Fixed, Lines1),
        modes_read(Lines1, File:Start, [_|_])
    ->  split_string(Text, "\n", "", TextLines),
        (   nth1(LineNo, TextLines, Original)
        ->  true
        ;   string_codes(Original, First)
        ),
        normalize_space(string(Shown), Original),
        emit(Lint, badmode, _{file: File, start: Start, end: End, name: Name,
                              text: Shown})
    ;   true
    ).

%!  structured_comment(+Text:string, -Prefixes:list(string)) is semidet.
%
%   PlDoc's is_structured_comment/2 (pldoc/doc_process): %! or /** then a
%   blank; %% then a blank, unless the line is a separator (%% ----, %%%%).
%   Prefixes are what starts each of its lines.

structured_comment(Text, ["%"]) :-
    sub_string(Text, 0, 2, _, "%!"),
    blank_at(Text, 2),
    !.
structured_comment(Text, ["%"]) :-
    sub_string(Text, 0, 2, _, "%%"),
    blank_at(Text, 2),
    split_string(Text, "\n", "", [First|_]),
    string_codes(First, Cs),
    \+ maplist(separator_code, Cs),
    !.
structured_comment(Text, ["/**", " *"]) :-
    sub_string(Text, 0, 3, _, "/**"),
    blank_at(Text, 3).

%   separator_code(+Code): a code a separator line is made of.
separator_code(C) :- ( C == 0'% -> true ; code_type(C, space) ).

%   blank_at(+Text, +At): the character at At in Text is white space.
blank_at(Text, At) :-
    sub_string(Text, At, 1, _, C),
    string_code(1, C, Code),
    code_type(Code, space).

%!  modes_read(+Lines:list(pair), +FilePos, -PIs:list) is det.
%
%   The predicates a structured comment documents: as PlDoc's reader finds
%   them in the comment as a whole, else in its leading lines read one at a
%   time (leading_modes/3).

modes_read(Lines, FilePos, PIs) :-
    comment_modes(Lines, FilePos, PIs0),
    (   PIs0 == []
    ->  leading_modes(Lines, FilePos, PIs)
    ;   PIs = PIs0
    ).

%!  leading_modes(+Lines:list(pair), +FilePos, -PIs:list) is det.
%
%   The predicates of the leading lines of a comment that each read alone as
%   a mode line with arguments, a determinism or //: the first line with text
%   must be one. PlDoc reads all the %% lines of a %% comment (all the lines
%   up to a blank one of a /** comment) as one text of modes, so a line of
%   prose after the mode line, "%% pairs(+Cards, -N)" then "%% N counts the
%   pairs.", is a syntax error and the comment gives no mode: the name on its
%   mode line, right or wrong, would go unchecked (D103). A bare name ("%%
%   cribbage") is prose here.

leading_modes(Lines, FilePos, PIs) :-
    drop_empty_lines(Lines, Texts),
    leading_line_modes(Texts, FilePos, PIs0),
    sort(PIs0, PIs).

%   drop_empty_lines(+Lines, -Rest): Lines without its leading empty lines.
drop_empty_lines([_-[]|Lines], Rest) :- !, drop_empty_lines(Lines, Rest).
drop_empty_lines(Lines, Lines).

%!  leading_line_modes(+Lines:list(pair), +FilePos, -PIs:list) is det.
%
%   The predicates of the lines up to the first that is not a mode line
%   (line_modes/3).

leading_line_modes([Line|Lines], FilePos, PIs) :-
    line_modes(Line, FilePos, Found),
    !,
    leading_line_modes(Lines, FilePos, More),
    append(Found, More, PIs).
leading_line_modes(_, _, []).

%!  line_modes(+Line:pair, +FilePos, -PIs:list) is semidet.
%
%   The predicates of a line that reads alone as a mode line with arguments,
%   a determinism or //, or whose text before a " - " does: the one-line
%   style "%% rank(?R) - R is a card rank.", prose on the mode line itself.

line_modes(Line, FilePos, PIs) :-
    headed_modes(Line, FilePos, PIs),
    !.
line_modes(No-Codes, FilePos, PIs) :-
    append(Mode, [0' , 0'-, 0' |_], Codes),
    headed_modes(No-Mode, FilePos, PIs),
    !.

%   headed_modes(+Line, +FilePos, -PIs): Line reads alone as mode lines,
%   each headed_mode/1; PIs are their predicates.

headed_modes(Line, FilePos, PIs) :-
    catch(pldoc_modes:process_modes([Line], user, FilePos, Modes, _, _), _,
          fail),
    Modes = [_|_],
    forall(member(mode(M, _), Modes), headed_mode(M)),
    findall(PI, ( member(mode(M, _), Modes), mode_pi(M, PI) ), PIs),
    PIs = [_|_].

%!  headed_mode(@Mode) is semidet.
%
%   Mode is a mode term that is not a bare name: a head with arguments,
%   Head is Det or a grammar rule's Head//.

headed_mode(M) :- var(M), !, fail.
headed_mode(_ is _) :- !.
headed_mode(//(_)) :- !.
headed_mode(_:H) :- !, headed_mode(H).
headed_mode(H) :- compound(H).

%!  comment_modes(+Lines:list(pair), +FilePos, -PIs:list) is det.
%
%   The predicates the mode lines of a structured comment document, as
%   PlDoc's own reader finds them.

comment_modes(Lines, FilePos, PIs) :-
    catch(pldoc_modes:process_modes(Lines, user, FilePos, Modes, _, _), _,
          Modes = []),
    findall(PI, ( member(mode(M, _), Modes), mode_pi(M, PI) ), PIs0),
    sort(PIs0, PIs).

%!  mode_pi(@Mode, -PI) is semidet.
%
%   PI is the predicate indicator of a mode term (Head, Head is Det, M:Head,
%   Head// with the two arguments of a grammar rule).

mode_pi(M, _) :- var(M), !, fail.
mode_pi(H is _, PI) :- !, mode_pi(H, PI).
mode_pi(_:H, PI) :- !, mode_pi(H, PI).
mode_pi(//(H), N/A) :- !, callable(H), functor(H, N, A0), A is A0 + 2.
mode_pi(H, N/A) :- callable(H), functor(H, N, A).

%   first_line(+Lines, -No, -Codes): the first line of a comment with text.
first_line(Lines, No, Codes) :-
    member(No-Codes, Lines),
    Codes \== [],
    !.

%!  spaced_name(+Codes:codes, -Name:atom, -Fixed:codes) is semidet.
%
%   Codes is [%|!] name blanks ( ...: Fixed is Codes without the blanks.

spaced_name(Codes, Name, Fixed) :-
    append(Before, [0'(|After], Codes),
    !,
    append(Lead, NameBlanks, Before),
    maplist(lead_code, Lead),
    append(NameCodes, Blanks, NameBlanks),
    NameCodes = [C0|_],
    code_type(C0, lower),
    maplist(name_code, NameCodes),
    Blanks = [_|_],
    maplist(blank_code, Blanks),
    !,
    atom_codes(Name, NameCodes),
    append([Lead, NameCodes, [0'(|After]], Fixed).

%   lead_code(+C): a code that may come before a mode line's name.
lead_code(C) :- ( memberchk(C, `%!`) -> true ; code_type(C, space) ).

%   name_code(+C): a code of a predicate's name.
name_code(C) :- code_type(C, csym).

%   blank_code(+C): a code that may stand between a name and its '('.
blank_code(C) :- code_type(C, space).

%   The goals of a clause, seen through control constructs and meta-arguments.

%!  goal_in(+Meta:dict, +Body, +Pos, -Goal, -GoalPos, -Extra:nonneg) is nondet.
%
%   Goal, with Extra arguments added, is called when Body is: Body itself,
%   the goals of its control constructs, and what the meta-arguments of the
%   predicates it calls call (the meta_predicate property of library and
%   system predicates, and Meta, the meta-arguments inferred of the files'
%   own: see local_meta/4). Goal may be a variable. GoalPos is its subterm
%   position, or none.

goal_in(Meta, G, P0, Sub, SubP, N) :-
    unparen(P0, P),
    goal_in_(Meta, G, P, Sub, SubP, N).

%!  goal_in_(+Meta:dict, +Body, +Pos, -Goal, -GoalPos, -Extra:nonneg)
%!            is nondet.
%
%   goal_in/6 once the parentheses are off Pos: the goal of M:Goal, else
%   Body itself and what its meta-arguments call.

goal_in_(Meta, G, P, Sub, SubP, N) :-
    nonvar(G), G = M:G1, atom(M),
    !,
    arg_pos(P, 2, P1),
    goal_in(Meta, G1, P1, Sub, SubP, N).
goal_in_(_, G, P, G, P, 0).
goal_in_(Meta, G, P, Sub, SubP, N) :-
    goal_in_meta(Meta, G, P, Sub, SubP, N).

%!  goal_in_meta(+Meta:dict, +Goal, +Pos, -Sub, -SubPos, -Extra:nonneg)
%!               is nondet.
%
%   Sub, with Extra arguments added, is what the meta-arguments of Goal call:
%   a goal, a Var^Goal, a grammar body or a closure (closure_in/7).

goal_in_meta(Meta, G, P, Sub, SubP, N) :-
    callable(G),
    meta_args(Meta, G, Specs),
    member(I-E, Specs),
    arg(I, G, A0),
    arg_pos(P, I, AP0),
    (   E == (^)
    ->  strip_hat(A0, AP0, A, AP),
        goal_in(Meta, A, AP, Sub, SubP, N)
    ;   E == 0
    ->  goal_in(Meta, A0, AP0, Sub, SubP, N)
    ;   E == (//)
    ->  callable(A0), \+ is_list(A0), A0 \= {_}, A0 \= (_, _), A0 \= (_ ; _),
        closure(A0, AP0, 2, C, CP, CN),
        closure_in(Meta, C, CP, CN, Sub, SubP, N)
    ;   closure(A0, AP0, E, C, CP, CN),
        closure_in(Meta, C, CP, CN, Sub, SubP, N)
    ).

%!  closure_in(+Meta:dict, +Closure, +Pos, +E, -Sub, -SubPos, -N) is nondet.
%
%   The closure itself (called with E more arguments), and what the
%   closure's own meta-arguments call once it has them: for foldl(add, L, 0,
%   S) passed as a closure, add/3; for apply(Hand) called with a rule name as
%   its second argument by maplist/foldl, a goal that is a fresh variable (the
%   rule comes from the list: it cannot be known).

closure_in(_, C, CP, E, C, CP, E).
closure_in(Meta, C, CP, E, Sub, SubP, N) :-
    callable(C), integer(E), E > 0,
    C =.. L0,
    length(Extra, E),
    append(L0, Extra, L),
    G =.. L,
    goal_in_meta(Meta, G, CP, Sub, SubP, N).

%!  closure(+A0, +P0, +E, -Sub, -SubPos, -N) is det.
%
%   A0 called with E more arguments is Sub called with N more: M:G is G,
%   and call(G, A) as a closure is G with one more.

closure(A0, P0, E, Sub, SubP, N) :-
    unparen(P0, P),
    (   nonvar(A0), A0 = M:A1, atom(M)
    ->  arg_pos(P, 2, P1),
        closure(A1, P1, E, Sub, SubP, N)
    ;   nonvar(A0), A0 =.. [call, G|Args], Args \== []
    ->  length(Args, K),
        E1 is E + K,
        arg_pos(P, 1, P1),
        closure(G, P1, E1, Sub, SubP, N)
    ;   Sub = A0, SubP = P, N = E
    ).

%!  strip_hat(+G, +P0, -Sub, -SubPos) is det.
%
%   Sub (at SubPos) is the goal of G = V^Goal, as bagof/3 calls it; G itself
%   when it is no V^Goal.

strip_hat(G, P0, Sub, SubP) :-
    unparen(P0, P),
    (   nonvar(G), G = _^G1
    ->  arg_pos(P, 2, P1),
        strip_hat(G1, P1, Sub, SubP)
    ;   Sub = G, SubP = P
    ).

%!  meta_args(+Meta:dict, +Goal:callable, -Specs:list(pair)) is det.
%
%   Specs is I-E for each argument I that Goal calls, E being the number of
%   arguments added, ^ (Var^Goal) or // (a grammar body): from Meta for a
%   predicate of the files, else from the meta_predicate declaration of the
%   predicate Goal would call in user.

meta_args(Meta, G, Specs) :-
    functor(G, N, A),
    (   local_meta(Meta, N, A, Specs0)
    ->  Specs = Specs0
    ;   catch(predicate_property(user:G, meta_predicate(Spec)), _, fail)
    ->  Spec =.. [_|Args],
        findall(I-E, ( nth1(I, Args, S), meta_extra(S, E) ), Specs)
    ;   Specs = []
    ).

%   meta_extra(+Spec, -Extra): what a meta_predicate argument spec says is added
%   to the goal: a number of arguments, ^ or //.
meta_extra(N, N) :- integer(N).
meta_extra(^, ^).
meta_extra(//, //).

%!  local_meta(+Meta:dict, +Name:atom, +Arity:nonneg, -Specs:list(pair))
%!             is semidet.
%
%   Name/Arity is a predicate of the files, and Specs the meta-arguments
%   inferred of it (infer_meta/3), I-E as meta_args/3 says, in the order
%   found. Meta maps each Name to a list of Arity-Specs.

local_meta(Meta, N, A, Specs) :-
    get_dict(N, Meta, Arities),
    memberchk(A-Specs, Arities).

%   unparen(+P0, -P): a subterm position without the parentheses around it.
unparen(P0, P) :-
    nonvar(P0), P0 = parentheses_term_position(_, _, P1),
    !,
    unparen(P1, P).
unparen(P, P).

%!  arg_pos(+P0, +I:positive_integer, -AP) is det.
%
%   AP is the subterm position of argument I of the term at position P0, or
%   none when P0 does not say.

arg_pos(P0, I, AP) :-
    unparen(P0, P),
    (   nonvar(P), P = term_position(_, _, _, _, As), nth1(I, As, AP0)
    ->  AP = AP0
    ;   AP = none
    ).

%!  infer_meta(+Lint0:dict, -Lint:dict, -Error) is det.
%
%   Lint is Lint0 with `meta`: every predicate of the files, with the
%   arguments its clauses call (local_meta/4), to a fixpoint: an argument of
%   a clause's head that the clause calls (call(P, X), maplist(P, L), or
%   passed on to another such argument) makes the predicate a meta-predicate
%   in that argument. Error is unbound, or the exception that stopped the
%   inference, `meta` then being what was inferred before it.

infer_meta(Lint0, Lint, Error) :-
    get_dict(clauses, Lint0, Clauses),
    findall(N-A,
            ( member(clause(_, _, _, Head, _, _), Clauses),
              Head \== '<directive>',
              functor(Head, N, A) ),
            Locals0),
    sort(Locals0, Locals),
    foldl(add_local, Locals, meta{}, Meta0),
    meta_fixpoint(Clauses, Meta0, Meta, Error),
    put_dict(meta, Lint0, Meta, Lint).

%   add_local(+Name-Arity, +Meta0, -Meta): Meta0 with a predicate of the
%   files, with no meta-argument yet.
add_local(N-A, Meta0, Meta) :-
    (   get_dict(N, Meta0, Arities0) -> true ; Arities0 = [] ),
    put_dict(N, Meta0, [A-[] | Arities0], Meta).

%!  meta_fixpoint(+Clauses:list, +Meta0:dict, -Meta:dict, -Error) is det.
%
%   Meta is Meta0 with the meta-arguments Clauses call, found round after
%   round until a round finds none new; each round's are added in standard
%   order. Error as infer_meta/3 says.

meta_fixpoint(Clauses, Meta0, Meta, Error) :-
    catch(findall(N-A-I-E,
                  ( member(clause(_, _, _, Head, Body, BP), Clauses),
                    Head \== '<directive>',
                    goal_in(Meta0, Body, BP, G, _, E),
                    var(G),
                    head_arg(Head, G, I),
                    functor(Head, N, A),
                    \+ ( local_meta(Meta0, N, A, Specs),
                         memberchk(I-E, Specs) ) ),
                  New0),
          Error, true),
    (   nonvar(Error)
    ->  Meta = Meta0
    ;   sort(New0, New),
        (   New == []
        ->  Meta = Meta0
        ;   foldl(add_meta, New, Meta0, Meta1),
            meta_fixpoint(Clauses, Meta1, Meta, Error)
        )
    ).

%!  add_meta(+Found:pair, +Meta0:dict, -Meta:dict) is det.
%
%   Meta is Meta0 with Found, Name-Arity-I-E: argument I of Name/Arity is
%   called with E more arguments, after those found before.

add_meta(N-A-I-E, Meta0, Meta) :-
    get_dict(N, Meta0, Arities0),
    selectchk(A-Specs0, Arities0, A-Specs, Arities),
    append(Specs0, [I-E], Specs),
    put_dict(N, Meta0, Arities, Meta).

%   head_arg(+Head, +V, -I): V is argument I of Head (the same variable).
head_arg(Head, V, I) :-
    compound(Head),
    arg(I, Head, X),
    X == V,
    !.

%!  analyse_clauses(+Lint:dict) is det.
%
%   Sends the facts of the goals of the clauses and directives read: the
%   calls made through meta-arguments (a predicate of the files passed by name
%   to one of the files' predicates that calls it: xref does not see them),
%   the goals that cannot be known, and the idioms.

analyse_clauses(Lint) :-
    get_dict(clauses, Lint, Clauses),
    forall(member(Clause, Clauses), analyse_clause(Lint, Clause)).

%!  analyse_clause(+Lint:dict, +Clause:compound) is det.
%
%   Sends the facts of the goals of one clause or directive,
%   clause(File, Start, Term, Head, Body, BodyPos).

analyse_clause(Lint, clause(File, Start, Term, Head, Body, BP)) :-
    get_dict(starts, Lint, AllStarts),
    get_dict(File, AllStarts, Starts),
    get_dict(meta, Lint, Meta),
    functor(Head, HN, HA),
    Clause = clause(File, Starts, Start, Head, HN/HA),
    forall(goal_in(Meta, Body, BP, G, GP, E),
           called_goal(Lint, Clause, G, GP, E)),
    (   Head == '<directive>'
    ->  true
    ;   findall_length(Lint, File, Starts, Start, Term, Body, BP)
    ).

%!  called_goal(+Lint:dict, +Clause:compound, +G, +GP, +E) is det.
%
%   Sends the facts of one goal G at GP of a clause, called with E more
%   arguments: `unresolved` for a variable not from the head, `call` for a
%   predicate of the files, and the idioms. Clause is clause(File, Starts,
%   Start, Head, By): its file, that file's line offsets, its first line, its
%   head and its predicate.

called_goal(Lint, clause(File, Starts, Start, Head, HN/HA), G, GP, E) :-
    (   var(G)
    ->  (   head_arg(Head, G, _)
        ->  true
        ;   goal_line(Starts, GP, Start, Line),
            emit(Lint, unresolved, _{file: File, line: Line, by: HN/HA})
        )
    ;   callable(G), integer(E)
    ->  functor(G, N, A0),
        A is A0 + E,
        get_dict(meta, Lint, Meta),
        (   local_meta(Meta, N, A, _)
        ->  emit(Lint, call, _{file: File, called: N/A, by: HN/HA})
        ;   true
        ),
        (   E =:= 0, Head \== '<directive>'
        ->  idiom(Lint, File, Starts, Start, G, GP)
        ;   true
        )
    ;   true
    ).

%!  idiom(+Lint:dict, +File:atom, +Starts:list(nonneg), +Start:nonneg, +G,
%!        +P) is det.
%
%   Sends the `idiom` fact of a goal G at P, in a clause of File starting on
%   line Start, that changes the database, uses a global variable or negates
%   a negation; nothing for any other goal.

idiom(Lint, File, Starts, Start, G, P) :-
    functor(G, N, A),
    (   memberchk(N/A, [ assert/1, asserta/1, assertz/1, retract/1,
                         retractall/1 ])
    ->  Rule = state
    ;   memberchk(N/A, [b_setval/2, nb_setval/2, b_getval/2, nb_getval/2])
    ->  Rule = global
    ;   G = (\+ G2), nonvar(G2), G2 = (\+ _)
    ->  Rule = double_negation
    ),
    !,
    goal_line(Starts, P, Start, Line),
    format(string(Text), "~w/~w", [N, A]),
    emit(Lint, idiom, _{file: File, line: Line, rule: Rule, text: Text}).
idiom(_, _, _, _, _, _).

%!  findall_length(+Lint:dict, +File:atom, +Starts:list(nonneg),
%!                 +Start:nonneg, +Clause, +Body, +BodyPos) is det.
%
%   Sends an `idiom` fact for each findall(T, G, L) of Body with a
%   length(L, N) in the same body, L in nothing else of the clause (not the
%   head, not another goal): the list is built only to be counted.

findall_length(Lint, File, Starts, Start, Clause, Body, BP) :-
    get_dict(meta, Lint, Meta),
    forall(counted_findall(Meta, Clause, Body, BP, FP),
           (   goal_line(Starts, FP, Start, Line),
               emit(Lint, idiom, _{file: File, line: Line,
                                   rule: count_with_findall,
                                   text: "findall/3"})
           )).

%!  counted_findall(+Meta:dict, +Clause, +Body, +BodyPos, -FindallPos)
%!                  is nondet.
%
%   FindallPos is the position of a findall/3 of Body whose list only
%   length/2 reads.

counted_findall(Meta, Clause, Body, BP, FP) :-
    goal_in(Meta, Body, BP, F, FP, 0),
    nonvar(F),
    F = findall(_, _, L),
    var(L),
    occurrences_of_var(L, Clause, 2),
    goal_in(Meta, Body, BP, Len, _, 0),
    nonvar(Len),
    Len = length(L2, _),
    L2 == L.

%!  goal_line(+Starts:list(nonneg), +Pos, +Start:nonneg, -Line:nonneg) is det.
%
%   The line of a goal: its own position, or its clause's first line Start
%   when it has none (a goal made by the grammar rule translation).

goal_line(Starts, P0, Start, Line) :-
    unparen(P0, P),
    (   nonvar(P), P \== none, arg(1, P, C), integer(C)
    ->  char_line(Starts, C, Line)
    ;   Line = Start
    ).

%!  call_line(+Lint:dict, +File:atom, +By:compound, +Called:callable,
%!            +XrefLine, -Line:nonneg) is det.
%
%   Line is the first line where a clause of By (Name/Arity) in File calls
%   Called (X302's line), else XrefLine, the line xref gives, else 0.

call_line(Lint, File, BN/BA, Called, XrefLine, Line) :-
    functor(Called, N, A),
    get_dict(clauses, Lint, Clauses),
    get_dict(meta, Lint, Meta),
    (   member(clause(File, Start, _, Head, Body, BP), Clauses),
        (   Head == '<directive>'
        ->  BN/BA == '<directive>'/0
        ;   functor(Head, BN, BA)
        ),
        goal_in(Meta, Body, BP, G, GP, E),
        callable(G), integer(E),
        functor(G, N, A0), A =:= A0 + E
    ->  get_dict(starts, Lint, AllStarts),
        get_dict(File, AllStarts, Starts),
        goal_line(Starts, GP, Start, Line)
    ;   integer(XrefLine)
    ->  Line = XrefLine
    ;   Line = 0
    ).

%!  line_starts(+Codes:codes, -Starts:list(nonneg)) is det.
%
%   Starts is the character offset each line of Codes starts at.

line_starts(Codes, [0|Starts]) :-
    findall(S, (nth0(I, Codes, 0'\n), S is I + 1), Starts).

%!  char_line(+Starts:list(nonneg), +Char:nonneg, -Line:nonneg) is det.
%
%   Line is the line of character offset Char, given each line's Starts.

char_line(Starts, Char, Line) :-
    aggregate_all(count, (member(S, Starts), S =< Char), Line).

%!  cross_reference(+Lint:dict, +Files:list(atom)) is det.
%
%   Cross-references Files with library(prolog_xref) and sends the calls
%   between the files' predicates, the calls to nothing, and what the files'
%   predicates hide or are.

cross_reference(Lint, Files) :-
    forall(member(F, Files),
           (   absolute_file_name(F, Abs),
               xref_source(Abs, [silent(true)])
           )),
    forall(( member(F, Files), absolute_file_name(F, Abs),
             xref_called(Abs, Called, By, _, Line), callable(Called) ),
           call_fact(Lint, F, Abs, Called, By, Line)),
    forall(( member(F, Files), absolute_file_name(F, Abs),
             xref_defined(Abs, G, local(_)), functor(G, N, A) ),
           defined_fact(Lint, F, G, N, A)).

%!  defined_fact(+Lint:dict, +File:atom, +Head:callable, +Name:atom,
%!               +Arity:nonneg) is det.
%
%   Sends what a predicate the files define hides or is: a library one
%   (`library`), a system one (`system`), a hook (`declared`, kind hook).

defined_fact(Lint, F, G, N, A) :-
    (   '$in_library'(N, A, Lib),
        \+ system_predicate(N, A),
        \+ entry_library(Lib)
    ->  emit(Lint, library, _{predicate: N/A})
    ;   true
    ),
    (   overridden_system(N, A)
    ->  emit(Lint, system, _{predicate: N/A})
    ;   true
    ),
    (   hook(G)
    ->  emit(Lint, declared, _{file: F, predicate: N/A, kind: hook})
    ;   true
    ).

%!  entry_library(+Library:atom) is semidet.
%
%   Library's predicate is the convention for a program's own entry point
%   (library(main)'s main/0 runs the program's main/1): a file that defines
%   main/0 writes its entry point, it does not hide a helper it would call.

entry_library(Lib) :-
    file_base_name(Lib, main).

%!  hook(+Head:callable) is semidet.
%
%   Head is a hook the system calls (user:portray/1, user:message_hook/3
%   ...), so reached though no clause calls it.

hook(G) :-
    functor(G, N, A),
    memberchk(N/A, [ portray/1, message_hook/3, exception/3,
                     prolog_load_file/2, term_expansion/2, goal_expansion/2,
                     term_expansion/4, goal_expansion/4, message_property/2,
                     prolog_file_type/2, file_search_path/2,
                     library_directory/1, resource/3, expand_query/4,
                     expand_answer/2 ]).

%!  overridden_system(+Name:atom, +Arity:nonneg) is semidet.
%
%   Name/Arity is a system predicate a definition in user code hides
%   silently (the compiler only refuses the ISO core ones); hooks (dynamic or
%   multifile in system, e.g. term_expansion/2) are meant to be defined and
%   are left out.

overridden_system(N, A) :-
    system_predicate(N, A),
    \+ sub_atom(N, 0, _, _, $),
    functor(H, N, A),
    \+ predicate_property(system:H, dynamic),
    \+ predicate_property(system:H, multifile).

%!  call_fact(+Lint:dict, +File:atom, +Abs:atom, +Called:callable, +By,
%!            +XrefLine) is det.
%
%   Sends the `call` fact of a call xref found in File (absolute name Abs),
%   and its `undefined` fact if Called is defined nowhere.

call_fact(Lint, F, Abs, Called, By, XrefLine) :-
    functor(Called, N, A),
    (   callable(By), By \= '<directive>'(_)
    ->  functor(By, BN, BA)
    ;   BN = '<directive>',
        BA = 0
    ),
    emit(Lint, call, _{file: F, called: N/A, by: BN/BA}),
    (   defined_anywhere(Lint, Abs, Called, N, A)
    ->  true
    ;   call_line(Lint, F, BN/BA, Called, XrefLine, Line),
        emit(Lint, undefined, _{file: F, called: N/A, line: Line, by: BN/BA})
    ).

%!  defined_anywhere(+Lint:dict, +Abs:atom, +Head:callable, +Name:atom,
%!                   +Arity:nonneg) is semidet.
%
%   Head is defined in a file linted (Abs, or another of the lint's files),
%   the system, a library or a module loaded.

defined_anywhere(_, Abs, G, _, _) :- xref_defined(Abs, G, _), !.
defined_anywhere(Lint, _, G, _, _) :-
    get_dict(files, Lint, Loading),
    member(Other-_, Loading),
    xref_defined(Other, G, _),
    !.
defined_anywhere(_, _, _, N, A) :- system_predicate(N, A), !.
defined_anywhere(_, _, _, N, A) :- '$in_library'(N, A, _), !.
defined_anywhere(_, _, G, _, _) :-
    current_module(M),
    current_predicate(_, M:G),
    !.
defined_anywhere(_, _, G, _, _) :- xref_meta(G, _), fail.

%   system_predicate(+Name, +Arity): a predicate defined in module system.
system_predicate(N, A) :-
    functor(H, N, A),
    predicate_property(system:H, defined),
    \+ predicate_property(system:H, imported_from(_)).

%!  emit(+Lint:dict, +Kind:atom, +Fields:dict) is det.
%
%   Sends one fact of Kind as a frame of that type (crates/lint/src/facts.rs
%   reads each type into a struct of its own). Each field is sent as its key
%   says (field/3), Lint's prefix taken out of its text.

emit(Lint, Kind, Fields) :-
    get_dict(prefix, Lint, Prefix),
    dict_pairs(Fields, _, Pairs),
    maplist(field(Prefix), Pairs, Sent),
    dict_pairs(Frame, _, [type-Kind | Sent]),
    send_frame(Frame).

%!  field(+Prefix:atom, +Field:pair, -Sent:pair) is det.
%
%   Sent is Key-Value as sent: a line, a position, an arity, a depth or a
%   count (count_key/1) as a natural number (0 if it is none), `clause` as a
%   boolean, a Name/Arity pair as the text `name/arity`, anything else as
%   text (text/3), Prefix, the submission's directory, taken out.

field(_, K-V, K-N) :-
    count_key(K),
    !,
    (   integer(V), V >= 0
    ->  N = V
    ;   N = 0
    ).
field(_, clause-V, clause-V) :-
    !.
field(Prefix, K-N/A, K-T) :-
    !,
    format(string(S), "~w/~w", [N, A]),
    text(Prefix, S, T).
field(Prefix, K-V, K-T) :-
    text(Prefix, V, T).

%   count_key(?Key): a field sent as a natural number.

count_key(line).
count_key(start).
count_key(end).
count_key(arity).
count_key(depth).
count_key(cards).

%!  text(+Prefix:atom, +Field, -Text:string) is det.
%
%   Text is Field as a string, without carriage returns, with Prefix (the
%   submission's directory) taken out, and with U+FFFD for each surrogate
%   (SWI-Prolog reads a byte that is not UTF-8 as one, and no stream can
%   write it).

text(Prefix, F, T) :-
    (   string(F) -> S = F
    ;   atom(F) -> atom_string(F, S)
    ;   number(F) -> number_string(F, S)
    ;   term_string(F, S)
    ),
    string_codes(S, Codes),
    string_codes(Prefix, PrefixCodes),
    sendable(Codes, PrefixCodes, Sendable),
    string_codes(T, Sendable).

%!  sendable(+Codes:codes, +Prefix:codes, -Sendable:codes) is det.
%
%   Sendable is Codes without carriage returns or Prefix, surrogates
%   replaced.

sendable([], _, []) :-
    !.
sendable([0'\r | Codes], Prefix, Sendable) :-
    !,
    sendable(Codes, Prefix, Sendable).
sendable(Codes, Prefix, Sendable) :-
    Prefix \== [],
    append(Prefix, Rest, Codes),
    !,
    sendable(Rest, Prefix, Sendable).
sendable([C | Codes], Prefix, [S | Sendable]) :-
    (   between(0xD800, 0xDFFF, C)
    ->  S = 0xFFFD
    ;   S = C
    ),
    sendable(Codes, Prefix, Sendable).
