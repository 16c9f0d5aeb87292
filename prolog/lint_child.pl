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
*/

%   main/0 runs when the file is run as a program, not when a test file
%   (prolog/lint_child.plt) sets the flag crib_child_under_test to load it.
:- if(\+ current_prolog_flag(crib_child_under_test, true)).
:- initialization(main, main).
:- endif.

%   loading(Absolute, AsGiven); read_clause(File, Start, Term, Head, Body,
%   BodyPos), a clause or directive (Head '<directive>') as read;
%   file_starts(File, Starts); file_codes(File, Codes); local(Name, Arity), a
%   predicate the files define; inferred_meta(Name, Arity, Arg, Extra), an
%   argument of a predicate of the files that it calls with Extra more
%   arguments; lib_meta(Name, Arity, Specs), what meta_args/2 found of a library
%   or system predicate; prefix(Prefix), the submission's directory with a
%   slash, which the facts' text leaves out.
:- dynamic loading/2, read_clause/6, file_starts/2, file_codes/2, local/2,
           inferred_meta/4, lib_meta/3, prefix/1.

%!  main is det.
%
%   Entry point: open the pipe named on the command line, send the facts of
%   the files named there (lint/2), halt.

main :-
    current_prolog_flag(argv, [FramePath, Prefix | Files]),
    open_frames(FramePath),
    lint(Prefix, Files),
    halt(0).

%!  lint(+Prefix, +Files) is det.
%
%   Loads Files, reads them again, analyses and cross-references them, and
%   sends the facts and the `done` frame on the pipe open_frames/1 opened. An
%   exception in a step becomes a `warning` fact and the next step runs.
%   Apart from main/0 so that prolog/lint_child.plt can call it without
%   halting.
%
%   Files load with child_lib.pl's load_submission/2, the loading every child
%   shares, with two options: report(caller), because the compiler's messages
%   become this child's own `warning` facts (user:message_hook/3 below), not
%   `diag` frames, and an exception that escapes loading ends it (the files
%   after it unloaded) and is a `warning` fact; and halt(exit), because a halt
%   while the files load must end this child before its `done` frame, with
%   what it said so far, as halt/1 does: the grader reads that end as the
%   files' E002 ("loading it ended the program before the check was done"),
%   where the grade and deep children turn it into an exception.

lint(Prefix, Files) :-
    assertz(prefix(Prefix)),
    forall(member(F, Files),
           ( absolute_file_name(F, Abs), assertz(loading(Abs, F)) )),
    catch(load_submission(Files, [report(caller), halt(exit)]), E,
          warn_exception(E)),
    catch(use_module(library(pldoc/doc_modes)), _, true),
    catch(use_module(library(pldoc/doc_wiki)), _, true),
    forall(member(F, Files), catch(read_file(F), E1, warn_exception(E1))),
    catch(analyse_clauses, E3, warn_exception(E3)),
    catch(cross_reference(Files), E2, warn_exception(E2)),
    send_frame(_{type: done}).

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

%!  compiler_message(+Term, +Kind, +Lines) is semidet.
%
%   Prints the `warning` fact of a message about one of the files; fails for a
%   message about anything else.

compiler_message(Term, Kind, Lines) :-
    message_place(Term, Abs, Line),
    loading(Abs, File),
    message_kind(Term, Kind, What),
    warning_text(Lines, Text),
    emit(warning, _{file: File, line: Line, kind: What, text: Text}).

%   message_place(+Term, -File, -Line): where the compiler was when it printed
%   the message.
message_place(error(_, file(File, Line, _, _)), File, Line) :- !.
message_place(_, File, Line) :-
    source_location(File, Line).

%   message_kind(+Term, +Kind, -What): the KIND field of the fact: the warning
%   a rule reads, else the message's kind (warning or error).
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

%   warn_exception(+Error): an exception that stopped a step, said as a
%   `warning` fact on line 1 of the first file.
warn_exception(E) :-
    message_text(E, Text),
    loading(_, File), !,
    emit(warning, _{file: File, line: 1, kind: error, text: Text}).
warn_exception(_).

%!  read_file(+File) is det.
%
%   Reads every term of File again, with positions and comments, and prints
%   the facts of its terms and comments.

read_file(File) :-
    catch(read_file_to_codes(File, Codes, []), _, Codes = []),
    line_starts(Codes, Starts),
    assertz(file_starts(File, Starts)),
    assertz(file_codes(File, Codes)),
    setup_call_cleanup(
        open(File, read, S),
        read_terms(S, File, Starts),
        close(S)).

%   read_terms(+Stream, +File, +Starts): the terms to the end of Stream; after a
%   syntax error, reading goes on from where the reader stopped.
read_terms(S, File, Starts) :-
    stream_property(S, position(Before)),
    catch(read_term(S, Term,
                    [ module(user), subterm_positions(Pos), term_position(TP),
                      comments(Comments), syntax_errors(error) ]),
          Error, true),
    (   nonvar(Comments)
    ->  forall(member(C, Comments), comment(File, C))
    ;   true
    ),
    (   nonvar(Error)
    ->  syntax(File, Error),
        stream_property(S, position(After)),
        unread(File, Before, After),
        (   Error = error(syntax_error(_), _),
            After \== Before,
            \+ at_end_of_stream(S)
        ->  read_terms(S, File, Starts)
        ;   true
        )
    ;   Term == end_of_file
    ->  true
    ;   ( var(Term) -> true ; term(File, Starts, Term, Pos, TP) ),
        read_terms(S, File, Starts)
    ).

%   unread(+File, +Before, +After): the text of a term that did not read, for
%   what it may call (X301 counts every name in it as a possible call of its
%   head's predicate).
unread(File, Before, After) :-
    (   file_codes(File, Codes),
        stream_position_data(char_count, Before, B),
        stream_position_data(char_count, After, A),
        stream_position_data(line_count, Before, Line),
        A > B
    ->  length(Skip, B),
        append(Skip, Rest, Codes),
        Len is A - B,
        (   length(Mid, Len), append(Mid, _, Rest) -> true ; Mid = Rest ),
        string_codes(Text, Mid),
        emit(unread, _{file: File, line: Line, text: Text})
    ;   true
    ).

%   syntax(+File, +Error): the `syntax` fact of an error the reader raised.
syntax(File, error(syntax_error(What), Where)) :-
    !,
    (   Where = stream(_, Line, _, _) -> true
    ;   Where = file(_, Line, _, _) -> true
    ;   Line = 1
    ),
    term_string(What, Text),
    emit(syntax, _{file: File, line: Line, text: Text}).
syntax(File, E) :-
    term_string(E, Text),
    emit(syntax, _{file: File, line: 1, text: Text}).

%   comment(+File, +Comment): the `comment` fact of a comment, and its `mode`
%   or `badmode` fact when PlDoc reads it as structured.
comment(File, Pos-Text) :-
    stream_position_data(line_count, Pos, Start),
    string_codes(Text, Codes),
    aggregate_all(count, member(0'\n, Codes), Newlines),
    End is Start + Newlines,
    emit(comment, _{file: File, start: Start, end: End, text: Text}),
    catch(ignore(pldoc_comment(File, Start, End, Text)), _, true).

%   term(+File, +Starts, +Term, +Pos, +TermPos): the facts of a term read
%   (`term`, `declared`, `ground`), and read_clause/6 and local/2 for the
%   analysis.
term(File, Starts, Term, Pos, TP) :-
    stream_position_data(line_count, TP, Start),
    (   arg(2, Pos, EndChar), integer(EndChar)
    ->  char_line(Starts, EndChar, End)
    ;   End = Start
    ),
    (   Term = (:- Directive)
    ->  ( callable(Directive) -> functor(Directive, N, A) ; N = '?', A = 0 ),
        emit(term, _{file: File, start: Start, end: End, clause: false,
                    name: N, arity: A, depth: 0}),
        declarations(File, Directive),
        arg_pos(Pos, 1, DirPos),
        assertz(read_clause(File, Start, Term, '<directive>', Directive,
                            DirPos))
    ;   clause_parts(Term, Head, Body),
        callable(Head)
    ->  functor(Head, N, A),
        depth(Body, Depth),
        emit(term, _{file: File, start: Start, end: End, clause: true,
                    name: N, arity: A, depth: Depth}),
        ground_fact(File, Start, Term),
        (   analysed(Term, Pos, H, B, BP)
        ->  assertz(read_clause(File, Start, Term, H, B, BP)),
            functor(H, HN, HA),
            ( local(HN, HA) -> true ; assertz(local(HN, HA)) )
        ;   true
        )
    ;   true
    ).

%   clause_parts(+Term, -Head, -Body): a clause's head and body; a grammar
%   rule's head with its two extra arguments.
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

%   analysed(+Term, +Pos, -Head, -Body, -BodyPos): the clause as the compiler
%   sees it (a grammar rule translated by dcg_translate_rule/4, positions kept),
%   for the analysis of its goals.
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

%   ground_fact(+File, +Line, +Term): a fact with no variable, and how many
%   card(Rank, Suit) terms it holds (facts without any are not said: rank and
%   suit tables).
ground_fact(File, Line, Term) :-
    (   Term \= (_ :- _), Term \= (_ --> _), ground(Term), callable(Term)
    ->  aggregate_all(count, ground_card(Term), Cards),
        (   Cards > 0
        ->  functor(Term, N, A),
            emit(ground, _{file: File, line: Line, predicate: N/A,
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

%   declarations(+File, +Directive): the `declared` facts of a module's exports
%   and of discontiguous, dynamic and multifile declarations.
declarations(File, module(_, Exports)) :-
    !,
    forall(spec(Exports, N, A),
           emit(declared, _{file: File, predicate: N/A, kind: export})).
declarations(File, Directive) :-
    Directive =.. [Kind, Specs],
    memberchk(Kind, [discontiguous, dynamic, multifile]),
    !,
    forall(spec(Specs, N, A),
           emit(declared, _{file: File, predicate: N/A, kind: Kind})).
declarations(_, _).

%   spec(+Specs, -Name, -Arity): each predicate indicator of Specs.
spec(V, _, _) :- var(V), !, fail.
spec((A, B), N, Ar) :- !, ( spec(A, N, Ar) ; spec(B, N, Ar) ).
spec([H|T], N, Ar) :- !, ( spec(H, N, Ar) ; spec(T, N, Ar) ).
spec(_:S, N, A) :- !, spec(S, N, A).
spec(N/A, N, A) :- atom(N), integer(A).
spec(N//A0, N, A) :- atom(N), integer(A0), A is A0 + 2.

%!  depth(+Body, -Depth) is det.
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

%   The branches of a chain a -> b ; c -> d ; e, which counts as one level.
alternatives(V, [V]) :- var(V), !.
alternatives((A ; B), [A|Bs]) :- !, alternatives(B, Bs).
alternatives(A, [A]).

%   alt_depth(+Alt, +D0, -D): D is the larger of D0 and the depth of a branch;
%   a branch's own condition -> then is not a level of its own.
alt_depth(Alt, D0, D) :-
    (   nonvar(Alt), Alt = (C -> T)
    ->  depth(C, DC), depth(T, DT), DA is max(DC, DT)
    ;   depth(Alt, DA)
    ),
    D is max(D0, DA).

%   PlDoc comments, read as PlDoc reads them (library(pldoc/doc_modes)).

%   pldoc_comment(+File, +Start, +End, +Text): a mode fact for each predicate a
%   structured comment's mode lines document, or a badmode fact when they do not
%   parse only because of blanks between the name and its '(' (score(+A) written
%   score (+A)).
pldoc_comment(File, Start, End, Text) :-
    structured_comment(Text, Prefixes),
    string_codes(Text, Codes),
    pldoc_wiki:indented_lines(Codes, Prefixes, Lines),
    modes_read(Lines, File:Start, PIs),
    (   PIs \== []
    ->  forall(member(N/A, PIs),
               emit(mode, _{file: File, start: Start, end: End,
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
        emit(badmode, _{file: File, start: Start, end: End, name: Name,
                      text: Shown})
    ;   true
    ).

%   structured_comment(+Text, -Prefixes): PlDoc's is_structured_comment/2
%   (pldoc/doc_process): %! or /** then a blank; %% then a blank, unless the
%   line is a separator (%% ----, %%%%).
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

%   modes_read(+Lines, +FilePos, -PIs): the predicates a structured comment
%   documents: as PlDoc's reader finds them in the comment as a whole, else
%   in its leading lines read one at a time (leading_modes/3).
modes_read(Lines, FilePos, PIs) :-
    comment_modes(Lines, FilePos, PIs0),
    (   PIs0 == []
    ->  leading_modes(Lines, FilePos, PIs)
    ;   PIs = PIs0
    ).

%   leading_modes(+Lines, +FilePos, -PIs): the predicates of the leading lines
%   of a comment that each read alone as a mode line with arguments, a
%   determinism or //: the first line with text must be one. PlDoc reads all
%   the %% lines of a %% comment (all the lines up to a blank one of a /**
%   comment) as one text of modes, so a line of prose after the mode line,
%   "%% pairs(+Cards, -N)" then "%% N counts the pairs.", is a syntax error
%   and the comment gives no mode: the name on its mode line, right or wrong,
%   would go unchecked (D103). A bare name ("%% cribbage") is prose here.
leading_modes(Lines, FilePos, PIs) :-
    drop_empty_lines(Lines, Texts),
    leading_line_modes(Texts, FilePos, PIs0),
    sort(PIs0, PIs).

%   drop_empty_lines(+Lines, -Rest): Lines without its leading empty lines.
drop_empty_lines([_-[]|Lines], Rest) :- !, drop_empty_lines(Lines, Rest).
drop_empty_lines(Lines, Lines).

%   leading_line_modes(+Lines, +FilePos, -PIs): the predicates of the lines
%   up to the first that does not read alone as a mode line with arguments.
leading_line_modes([Line|Lines], FilePos, PIs) :-
    catch(pldoc_modes:process_modes([Line], user, FilePos, Modes, _, _), _,
          fail),
    Modes = [_|_],
    forall(member(mode(M, _), Modes), headed_mode(M)),
    findall(PI, ( member(mode(M, _), Modes), mode_pi(M, PI) ), Found),
    Found = [_|_],
    !,
    leading_line_modes(Lines, FilePos, More),
    append(Found, More, PIs).
leading_line_modes(_, _, []).

%   headed_mode(+Mode): a mode term that is not a bare name: a head with
%   arguments, Head is Det or a grammar rule's Head//.
headed_mode(M) :- var(M), !, fail.
headed_mode(_ is _) :- !.
headed_mode(//(_)) :- !.
headed_mode(_:H) :- !, headed_mode(H).
headed_mode(H) :- compound(H).

%   comment_modes(+Lines, +FilePos, -PIs): the predicates the mode lines of a
%   structured comment document, as PlDoc's own reader finds them.
comment_modes(Lines, FilePos, PIs) :-
    catch(pldoc_modes:process_modes(Lines, user, FilePos, Modes, _, _), _,
          Modes = []),
    findall(PI, ( member(mode(M, _), Modes), mode_pi(M, PI) ), PIs0),
    sort(PIs0, PIs).

%   mode_pi(+Mode, -PI): the predicate indicator of a mode term.
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

%   spaced_name(+Codes, -Name, -Fixed): Codes is [%|!] name blanks ( ...: Fixed
%   without the blanks.
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

%   goal_in(+Body, +Pos, -Goal, -GoalPos, -Extra): Goal, with Extra arguments
%   added, is called when Body is: Body itself, the goals of its control
%   constructs, and what the meta-arguments of the predicates it calls call (the
%   meta_predicate property of library and system predicates, inferred_meta/4 of
%   the files' own). Goal may be a variable. GoalPos is its subterm position, or
%   none.
goal_in(G, P0, Sub, SubP, N) :-
    unparen(P0, P),
    goal_in_(G, P, Sub, SubP, N).

%   goal_in_(+Body, +Pos, -Goal, -GoalPos, -Extra): goal_in/5 once the
%   parentheses are off Pos.
goal_in_(G, P, Sub, SubP, N) :-
    nonvar(G), G = M:G1, atom(M),
    !,
    arg_pos(P, 2, P1),
    goal_in(G1, P1, Sub, SubP, N).
goal_in_(G, P, G, P, 0).
goal_in_(G, P, Sub, SubP, N) :-
    goal_in_meta(G, P, Sub, SubP, N).

%   goal_in_meta(+Goal, +Pos, -Sub, -SubPos, -Extra): what the meta-arguments
%   of Goal call.
goal_in_meta(G, P, Sub, SubP, N) :-
    callable(G),
    meta_args(G, Specs),
    member(I-E, Specs),
    arg(I, G, A0),
    arg_pos(P, I, AP0),
    (   E == (^)
    ->  strip_hat(A0, AP0, A, AP),
        goal_in(A, AP, Sub, SubP, N)
    ;   E == 0
    ->  goal_in(A0, AP0, Sub, SubP, N)
    ;   E == (//)
    ->  callable(A0), \+ is_list(A0), A0 \= {_}, A0 \= (_, _), A0 \= (_ ; _),
        closure(A0, AP0, 2, C, CP, CN),
        closure_in(C, CP, CN, Sub, SubP, N)
    ;   closure(A0, AP0, E, C, CP, CN),
        closure_in(C, CP, CN, Sub, SubP, N)
    ).

%   closure_in(+Closure, +Pos, +E, -Sub, -SubP, -N): the closure itself (called
%   with E more arguments), and what the closure's own meta-arguments call once
%   it has them: for foldl(add, L, 0, S) passed as a closure, add/3; for
%   apply(Hand) called with a rule name as its second argument by maplist/foldl,
%   a goal that is a fresh variable (the rule comes from the list: it cannot be
%   known).
closure_in(C, CP, E, C, CP, E).
closure_in(C, CP, E, Sub, SubP, N) :-
    callable(C), integer(E), E > 0,
    C =.. L0,
    length(Extra, E),
    append(L0, Extra, L),
    G =.. L,
    goal_in_meta(G, CP, Sub, SubP, N).

%   closure(+A0, +P0, +E, -Sub, -SubP, -N): A0 called with E more arguments
%   is Sub called with N more; call(G, A) as a closure is G with one more.
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

%   strip_hat(+G, +P0, -Sub, -SubP): the goal of V^Goal, as bagof/3 calls it.
strip_hat(G, P0, Sub, SubP) :-
    unparen(P0, P),
    (   nonvar(G), G = _^G1
    ->  arg_pos(P, 2, P1),
        strip_hat(G1, P1, Sub, SubP)
    ;   Sub = G, SubP = P
    ).

%   meta_args(+Goal, -Specs): I-E for each argument I that Goal calls, E being
%   the number of arguments added, ^ (Var^Goal) or // (a grammar body).
meta_args(G, Specs) :-
    functor(G, N, A),
    (   local(N, A)
    ->  findall(I-E, inferred_meta(N, A, I, E), Specs)
    ;   lib_meta(N, A, Specs0)
    ->  Specs = Specs0
    ;   (   catch(predicate_property(user:G, meta_predicate(Spec)), _, fail)
        ->  Spec =.. [_|Args],
            findall(I-E, ( nth1(I, Args, S), meta_extra(S, E) ), Specs0)
        ;   Specs0 = []
        ),
        assertz(lib_meta(N, A, Specs0)),
        Specs = Specs0
    ).

%   meta_extra(+Spec, -Extra): what a meta_predicate argument spec says is added
%   to the goal: a number of arguments, ^ or //.
meta_extra(N, N) :- integer(N).
meta_extra(^, ^).
meta_extra(//, //).

%   unparen(+P0, -P): a subterm position without the parentheses around it.
unparen(P0, P) :-
    nonvar(P0), P0 = parentheses_term_position(_, _, P1),
    !,
    unparen(P1, P).
unparen(P, P).

%   arg_pos(+P0, +I, -AP): the position of argument I of the term at P0, or
%   none.
arg_pos(P0, I, AP) :-
    unparen(P0, P),
    (   nonvar(P), P = term_position(_, _, _, _, As), nth1(I, As, AP0)
    ->  AP = AP0
    ;   AP = none
    ).

%   inferred_meta/4 to a fixpoint: an argument of a clause's head that the
%   clause calls (call(P, X), maplist(P, L), or passed on to another such
%   argument) makes the predicate a meta-predicate in that argument.
infer_meta :-
    findall(N-A-I-E,
            ( read_clause(_, _, _, Head, Body, BP),
              Head \== '<directive>',
              goal_in(Body, BP, G, _, E),
              var(G),
              head_arg(Head, G, I),
              functor(Head, N, A),
              \+ inferred_meta(N, A, I, E) ),
            New0),
    sort(New0, New),
    (   New == []
    ->  true
    ;   forall(member(N-A-I-E, New), assertz(inferred_meta(N, A, I, E))),
        infer_meta
    ).

%   head_arg(+Head, +V, -I): V is argument I of Head (the same variable).
head_arg(Head, V, I) :-
    compound(Head),
    arg(I, Head, X),
    X == V,
    !.

%   analyse_clauses: the calls made through meta-arguments (a predicate of the
%   files passed by name to one of the files' predicates that calls it: xref
%   does not see them), the goals that cannot be known, and the idioms.
analyse_clauses :-
    infer_meta,
    forall(read_clause(File, Start, Term, Head, Body, BP),
           analyse_clause(File, Start, Term, Head, Body, BP)).

%   analyse_clause(+File, +Start, +Term, +Head, +Body, +BodyPos): the facts of
%   the goals of one clause or directive.
analyse_clause(File, Start, Term, Head, Body, BP) :-
    file_starts(File, Starts),
    functor(Head, HN, HA),
    forall(goal_in(Body, BP, G, GP, E),
           called_goal(File, Starts, Start, Head, HN/HA, G, GP, E)),
    (   Head == '<directive>'
    ->  true
    ;   findall_length(File, Starts, Start, Term, Body, BP)
    ).

%   called_goal(+File, +Starts, +Start, +Head, +By, +G, +GP, +E): the facts of
%   one goal G of a clause of By, called with E more arguments: `unresolved`
%   for a variable not from the head, `call` for a predicate of the files, and
%   the idioms.
called_goal(File, Starts, Start, Head, HN/HA, G, GP, E) :-
    (   var(G)
    ->  (   head_arg(Head, G, _)
        ->  true
        ;   goal_line(Starts, GP, Start, Line),
            emit(unresolved, _{file: File, line: Line, by: HN/HA})
        )
    ;   callable(G), integer(E)
    ->  functor(G, N, A0),
        A is A0 + E,
        (   local(N, A)
        ->  emit(call, _{file: File, called: N/A, by: HN/HA})
        ;   true
        ),
        (   E =:= 0, Head \== '<directive>'
        ->  idiom(File, Starts, Start, G, GP)
        ;   true
        )
    ;   true
    ).

%   idiom(+File, +Starts, +Start, +G, +P): the `idiom` fact of a goal that
%   changes the database, uses a global variable or negates a negation.
idiom(File, Starts, Start, G, P) :-
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
    emit(idiom, _{file: File, line: Line, rule: Rule, text: Text}).
idiom(_, _, _, _, _).

%   findall_length(+File, +Starts, +Start, +Clause, +Body, +BodyPos):
%   findall(T, G, L) and length(L, N) in one body, L in nothing else of the
%   clause (not the head, not another goal): the list is built only to be
%   counted.
findall_length(File, Starts, Start, Clause, Body, BP) :-
    forall(counted_findall(Clause, Body, BP, FP),
           (   goal_line(Starts, FP, Start, Line),
               emit(idiom, _{file: File, line: Line,
                               rule: count_with_findall, text: "findall/3"})
           )).

%   counted_findall(+Clause, +Body, +BodyPos, -FindallPos): a findall/3 of Body
%   whose list only length/2 reads.
counted_findall(Clause, Body, BP, FP) :-
    goal_in(Body, BP, F, FP, 0),
    nonvar(F),
    F = findall(_, _, L),
    var(L),
    occurrences_of_var(L, Clause, 2),
    goal_in(Body, BP, Len, _, 0),
    nonvar(Len),
    Len = length(L2, _),
    L2 == L.

%   goal_line(+Starts, +Pos, +Start, -Line): the line of a goal: its own
%   position, or its clause's first line when it has none (a goal made by the
%   grammar rule translation).
goal_line(Starts, P0, Start, Line) :-
    unparen(P0, P),
    (   nonvar(P), P \== none, arg(1, P, C), integer(C)
    ->  char_line(Starts, C, Line)
    ;   Line = Start
    ).

%   call_line(+File, +By, +Called, +XrefLine, -Line): the first line where a
%   clause of By in File calls Called (X302's line), else the line xref gives.
call_line(File, BN/BA, Called, XrefLine, Line) :-
    functor(Called, N, A),
    (   read_clause(File, Start, _, Head, Body, BP),
        (   Head == '<directive>'
        ->  BN/BA == '<directive>'/0
        ;   functor(Head, BN, BA)
        ),
        goal_in(Body, BP, G, GP, E),
        callable(G), integer(E),
        functor(G, N, A0), A =:= A0 + E
    ->  file_starts(File, Starts),
        goal_line(Starts, GP, Start, Line)
    ;   integer(XrefLine)
    ->  Line = XrefLine
    ;   Line = 0
    ).

%   line_starts(+Codes, -Starts): the character offset each line starts at.
line_starts(Codes, [0|Starts]) :-
    findall(S, (nth0(I, Codes, 0'\n), S is I + 1), Starts).

%   char_line(+Starts, +Char, -Line): the line of character offset Char.
char_line(Starts, Char, Line) :-
    aggregate_all(count, (member(S, Starts), S =< Char), Line).

%!  cross_reference(+Files) is det.
%
%   Cross-references Files with library(prolog_xref) and prints the calls
%   between the files' predicates, the calls to nothing, and what the files'
%   predicates hide or are.

cross_reference(Files) :-
    forall(member(F, Files),
           (   absolute_file_name(F, Abs),
               xref_source(Abs, [silent(true)])
           )),
    forall(( member(F, Files), absolute_file_name(F, Abs),
             xref_called(Abs, Called, By, _, Line), callable(Called) ),
           call_fact(F, Abs, Called, By, Line)),
    forall(( member(F, Files), absolute_file_name(F, Abs),
             xref_defined(Abs, G, local(_)), functor(G, N, A) ),
           defined_fact(F, G, N, A)).

%   defined_fact(+File, +Head, +Name, +Arity): what a predicate the files define
%   hides or is: a library one, a system one, a hook.
defined_fact(F, G, N, A) :-
    (   '$in_library'(N, A, Lib),
        \+ system_predicate(N, A),
        \+ entry_library(Lib)
    ->  emit(library, _{predicate: N/A})
    ;   true
    ),
    (   overridden_system(N, A) -> emit(system, _{predicate: N/A}) ; true ),
    (   hook(G)
    ->  emit(declared, _{file: F, predicate: N/A, kind: hook})
    ;   true
    ).

%   entry_library(+Library): a library whose predicate is the convention for a
%   program's own entry point (library(main)'s main/0 runs the program's
%   main/1): a file that defines main/0 writes its entry point, it does not hide
%   a helper it would call.
entry_library(Lib) :-
    file_base_name(Lib, main).

%   hook(+Head): a hook the system calls (user:portray/1, user:message_hook/3
%   ...), so reached though no clause calls it.
hook(G) :-
    functor(G, N, A),
    memberchk(N/A, [ portray/1, message_hook/3, exception/3,
                     prolog_load_file/2, term_expansion/2, goal_expansion/2,
                     term_expansion/4, goal_expansion/4, message_property/2,
                     prolog_file_type/2, file_search_path/2,
                     library_directory/1, resource/3, expand_query/4,
                     expand_answer/2 ]).

%   overridden_system(+Name, +Arity): a system predicate a definition in user
%   code hides silently (the compiler only refuses the ISO core ones); hooks
%   (dynamic or multifile in system, e.g. term_expansion/2) are meant to be
%   defined and are left out.
overridden_system(N, A) :-
    system_predicate(N, A),
    \+ sub_atom(N, 0, _, _, $),
    functor(H, N, A),
    \+ predicate_property(system:H, dynamic),
    \+ predicate_property(system:H, multifile).

%   call_fact(+File, +Abs, +Called, +By, +XrefLine): the `call` fact of a call
%   xref found, and its `undefined` fact if Called is defined nowhere.
call_fact(F, Abs, Called, By, XrefLine) :-
    functor(Called, N, A),
    (   callable(By), By \= '<directive>'(_)
    ->  functor(By, BN, BA)
    ;   BN = '<directive>',
        BA = 0
    ),
    emit(call, _{file: F, called: N/A, by: BN/BA}),
    (   defined_anywhere(Abs, Called, N, A) -> true
    ;   call_line(F, BN/BA, Called, XrefLine, Line),
        emit(undefined, _{file: F, called: N/A, line: Line, by: BN/BA})
    ).

%   defined_anywhere(+Abs, +Head, +Name, +Arity): Head is defined in a file
%   linted, the system, a library or a module loaded.
defined_anywhere(Abs, G, _, _) :- xref_defined(Abs, G, _), !.
defined_anywhere(_, G, _, _) :-
    loading(Other, _),
    xref_defined(Other, G, _),
    !.
defined_anywhere(_, _, N, A) :- system_predicate(N, A), !.
defined_anywhere(_, _, N, A) :- '$in_library'(N, A, _), !.
defined_anywhere(_, G, _, _) :-
    current_module(M),
    current_predicate(_, M:G),
    !.
defined_anywhere(_, G, _, _) :- xref_meta(G, _), fail.

%   system_predicate(+Name, +Arity): a predicate defined in module system.
system_predicate(N, A) :-
    functor(H, N, A),
    predicate_property(system:H, defined),
    \+ predicate_property(system:H, imported_from(_)).

%!  emit(+Kind:atom, +Fields:dict) is det.
%
%   Sends one fact of Kind as a frame of that type (crates/lint/src/facts.rs
%   reads each type into a struct of its own). Each field is sent as its key
%   says (field/2).

emit(Kind, Fields) :-
    dict_pairs(Fields, _, Pairs),
    maplist(field, Pairs, Sent),
    dict_pairs(Frame, _, [type-Kind | Sent]),
    send_frame(Frame).

%   field(+Key-Value, -Key-Sent): a line, a position, an arity, a depth or a
%   count (count_key/1) as a natural number (0 if it is none), `clause` as a
%   boolean, a Name/Arity pair as the text `name/arity`, anything else as
%   text; text without carriage returns and with the submission's directory
%   (prefix/1) taken out of the paths it holds.

field(K-V, K-N) :-
    count_key(K),
    !,
    (   integer(V), V >= 0
    ->  N = V
    ;   N = 0
    ).
field(clause-V, clause-V) :-
    !.
field(K-N/A, K-T) :-
    !,
    format(string(S), "~w/~w", [N, A]),
    text(S, T).
field(K-V, K-T) :-
    text(V, T).

%   count_key(?Key): a field sent as a natural number.

count_key(line).
count_key(start).
count_key(end).
count_key(arity).
count_key(depth).
count_key(cards).

%   text(+Field, -Text): a field as a string, without carriage returns, with
%   the submission's directory taken out, and with U+FFFD for each surrogate
%   (SWI-Prolog reads a byte that is not UTF-8 as one, and no stream can
%   write it).

text(F, T) :-
    (   string(F) -> S = F
    ;   atom(F) -> atom_string(F, S)
    ;   number(F) -> number_string(F, S)
    ;   term_string(F, S)
    ),
    string_codes(S, Codes),
    prefix(Prefix),
    string_codes(Prefix, PrefixCodes),
    sendable(Codes, PrefixCodes, Sendable),
    string_codes(T, Sendable).

%   sendable(+Codes, +Prefix, -Sendable): Codes without carriage returns or
%   Prefix, surrogates replaced.

sendable([], _, []).
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
