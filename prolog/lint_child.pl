/*  lint_child.pl: what crib-lint needs to know about a submission, read by SWI-Prolog
    itself. Run in crib-sandbox's jail, never in a crib process:

        swipl --no-tty -q lint_child.pl FILE...

    It loads the files (their directives run here, in the sandbox) and records the
    compiler's own warnings and errors; reads every term again with the reader's positions,
    comments and variable names; cross-references the files with library(prolog_xref); and
    prints one fact per line, fields separated by tabs (tabs, newlines and backslashes in a
    field escaped as \t, \n and \\). crib-lint (crates/lint) turns the facts into findings.

    Facts (LINE is 1-based):
      warning  FILE LINE KIND TEXT       a compiler warning or error while loading
      syntax   FILE LINE TEXT            a syntax error the reader met
      term     FILE START END KIND NAME ARITY DEPTH
                                         a clause (KIND clause) or directive (KIND
                                         directive, NAME/ARITY of the directive's goal);
                                         DEPTH is the deepest nesting of -> and ;
      comment  FILE START END TEXT       a comment
      ground   FILE LINE NAME ARITY CARDS
                                         a ground fact with CARDS card(Rank, Suit) terms
      idiom    FILE LINE RULE TEXT       a construct an idiom rule looks for
      declared FILE NAME ARITY KIND      discontiguous, dynamic, multifile declarations, and
                                         hooks the system calls (KIND hook)
      call     FILE NAME ARITY BYNAME BYARITY
                                         a call from a predicate of the files (BYNAME is
                                         '<directive>' for a directive)
      undefined FILE NAME ARITY          called, defined nowhere (files, system, library)
      library  NAME ARITY                a predicate of the files that redefines a library
                                         one
      system   NAME ARITY                a predicate of the files that hides a system one
      done                               the last line: everything was said
*/

:- module(lint_child, []).

:- use_module(library(prolog_xref)).
:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(occurs)).

:- initialization(main, main).

:- dynamic loading/2.   % loading(Absolute, AsGiven)

main :-
    current_prolog_flag(argv, Files),
    forall(member(F, Files),
           ( absolute_file_name(F, Abs), assertz(loading(Abs, F)) )),
    catch(load_files(user:Files, [silent(true)]), E, warn_exception(E)),
    forall(member(F, Files), catch(read_file(F), E1, warn_exception(E1))),
    catch(cross_reference(Files), E2, warn_exception(E2)),
    emit([done]),
    halt(0).

%   The compiler's messages while the files load.

:- multifile user:message_hook/3.
:- dynamic user:message_hook/3.

user:message_hook(Term, Kind, Lines) :-
    ( Kind == warning ; Kind == error ),
    catch(lint_child:compiler_message(Term, Kind, Lines), _, true),
    fail.

compiler_message(Term, Kind, Lines) :-
    message_place(Term, Abs, Line),
    loading(Abs, File),
    message_kind(Term, Kind, What),
    lines_text(Lines, Text),
    emit([warning, File, Line, What, Text]).

message_place(error(_, file(File, Line, _, _)), File, Line) :- !.
message_place(_, File, Line) :-
    source_location(File, Line).

message_kind(singletons(_, _), _, singletons) :- !.
message_kind(compiler_warnings(_, Ws), _, multiton) :- memberchk(multiton(_), Ws), !.
message_kind(discontiguous(_, _), _, discontiguous) :- !.
message_kind(error(permission_error(modify, static_procedure, _), _), _, redefine_system) :- !.
message_kind(redefine_procedure(_, _), _, redefine) :- !.
message_kind(declare_module(_, _), _, redefine) :- !.
message_kind(error(syntax_error(_), _), _, syntax) :- !.
message_kind(_, Kind, Kind).

lines_text(Lines, Text) :-
    catch(( with_output_to(string(Text0), print_message_lines(current_output, '', Lines)),
            normalize_space(string(Text), Text0) ),
          _, Text = "").

warn_exception(E) :-
    message_text(E, Text),
    loading(_, File), !,
    emit([warning, File, 1, error, Text]).
warn_exception(_).

message_text(E, Text) :-
    catch(( message_to_codes(E, [], Codes0), string_codes(Text, Codes0) ), _,
          term_string(E, Text)).

%   Reading every term again, with positions and comments.

read_file(File) :-
    catch(read_file_to_codes(File, Codes, []), _, Codes = []),
    line_starts(Codes, Starts),
    setup_call_cleanup(
        open(File, read, S),
        read_terms(S, File, Starts),
        close(S)).

read_terms(S, File, Starts) :-
    stream_property(S, position(Before)),
    catch(read_term(S, Term,
                    [ module(user), subterm_positions(Pos), term_position(TP),
                      comments(Comments), syntax_errors(error) ]),
          Error, true),
    (   nonvar(Comments) -> forall(member(C, Comments), comment(File, C)) ; true ),
    (   nonvar(Error)
    ->  syntax(File, Error),
        stream_property(S, position(After)),
        (   Error = error(syntax_error(_), _), After \== Before, \+ at_end_of_stream(S)
        ->  read_terms(S, File, Starts)
        ;   true
        )
    ;   Term == end_of_file
    ->  true
    ;   ( var(Term) -> true ; term(File, Starts, Term, Pos, TP) ),
        read_terms(S, File, Starts)
    ).

syntax(File, error(syntax_error(What), Where)) :-
    !,
    (   Where = stream(_, Line, _, _) -> true
    ;   Where = file(_, Line, _, _) -> true
    ;   Line = 1
    ),
    term_string(What, Text),
    emit([syntax, File, Line, Text]).
syntax(File, E) :-
    term_string(E, Text),
    emit([syntax, File, 1, Text]).

comment(File, Pos-Text) :-
    stream_position_data(line_count, Pos, Start),
    string_codes(Text, Codes),
    aggregate_all(count, member(0'\n, Codes), Newlines),
    End is Start + Newlines,
    emit([comment, File, Start, End, Text]).

term(File, Starts, Term, Pos, TP) :-
    stream_position_data(line_count, TP, Start),
    ( arg(2, Pos, EndChar), integer(EndChar) -> char_line(Starts, EndChar, End) ; End = Start ),
    (   Term = (:- Directive)
    ->  ( callable(Directive) -> functor(Directive, N, A) ; N = '?', A = 0 ),
        emit([term, File, Start, End, directive, N, A, 0]),
        declarations(File, Directive)
    ;   clause_parts(Term, Head, Body),
        callable(Head)
    ->  functor(Head, N, A),
        depth(Body, Depth),
        emit([term, File, Start, End, clause, N, A, Depth]),
        ground_fact(File, Start, Term),
        ( Pos = term_position(_, _, _, _, [_, BodyPos]), Term = (_ :- _) -> true ; BodyPos = none ),
        idioms(File, Starts, Term, Body, BodyPos)
    ;   true
    ).

clause_parts((H :- B), H, B) :- !.
clause_parts((H --> B), H2, B) :- !, ( callable(H) -> functor(H, N, A), A2 is A + 2, functor(H2, N, A2) ; H2 = H ).
clause_parts(H, H, true).

%   ground_fact(+File, +Line, +Term): a fact with no variable, and how many card(Rank,
%   Suit) terms it holds (facts without any are not said: rank and suit tables).
ground_fact(File, Line, Term) :-
    (   Term \= (_ :- _), Term \= (_ --> _), ground(Term), callable(Term)
    ->  aggregate_all(count, ( sub_term(C, Term), C = card(R, S), atomic(R), atomic(S) ), Cards),
        (   Cards > 0
        ->  functor(Term, N, A),
            emit([ground, File, Line, N, A, Cards])
        ;   true
        )
    ;   true
    ).

declarations(File, module(_, Exports)) :-
    !,
    forall(spec(Exports, N, A), emit([declared, File, N, A, export])).
declarations(File, Directive) :-
    Directive =.. [Kind, Specs],
    memberchk(Kind, [discontiguous, dynamic, multifile]),
    !,
    forall(spec(Specs, N, A), emit([declared, File, N, A, Kind])).
declarations(_, _).

spec(V, _, _) :- var(V), !, fail.
spec((A, B), N, Ar) :- !, ( spec(A, N, Ar) ; spec(B, N, Ar) ).
spec([H|T], N, Ar) :- !, ( spec(H, N, Ar) ; spec(T, N, Ar) ).
spec(_:S, N, A) :- !, spec(S, N, A).
spec(N/A, N, A) :- atom(N), integer(A).
spec(N//A0, N, A) :- atom(N), integer(A0), A is A0 + 2.

%!  depth(+Body, -Depth) is det.
%   The deepest nesting of if-then-else and disjunction in Body: ( a -> b ; c ) is 1.
depth(V, 0) :- var(V), !.
depth((A, B), D) :- !, depth(A, DA), depth(B, DB), D is max(DA, DB).
depth((A ; B), D) :- !, alternatives((A ; B), Alts), foldl(alt_depth, Alts, 0, D0), D is D0 + 1.
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

alt_depth(Alt, D0, D) :-
    (   nonvar(Alt), Alt = (C -> T)
    ->  depth(C, DC), depth(T, DT), DA is max(DC, DT)
    ;   depth(Alt, DA)
    ),
    D is max(D0, DA).

%   Idioms: walk the body's goals with their positions.
idioms(File, Starts, Clause, Body, Pos) :-
    forall(goal(Body, Pos, G, GPos), idiom(File, Starts, G, GPos)),
    findall_length(File, Starts, Clause, Body, Pos).

goal(V, _, _, _) :- var(V), !, fail.
goal(G, P, G, P).
goal(G, P, Sub, SubP) :-
    control(G),
    G =.. [_|Args],
    nth1(I, Args, Arg),
    ( P = term_position(_, _, _, _, ArgPs), nth1(I, ArgPs, AP) -> true ; AP = none ),
    goal(Arg, AP, Sub, SubP).

control((_, _)).
control((_ ; _)).
control((_ -> _)).
control((_ *-> _)).
control(\+ _).
control(findall(_, _, _)).
control(forall(_, _)).
control(aggregate_all(_, _, _)).
control(once(_)).
control(ignore(_)).

idiom(File, Starts, G, P) :-
    callable(G),
    functor(G, N, A),
    (   memberchk(N/A, [assert/1, asserta/1, assertz/1, retract/1, retractall/1])
    ->  Rule = state
    ;   memberchk(N/A, [b_setval/2, nb_setval/2, b_getval/2, nb_getval/2])
    ->  Rule = global
    ;   G = (\+ G2), nonvar(G2), G2 = (\+ _)
    ->  Rule = double_negation
    ),
    !,
    position_line(Starts, P, Line),
    functor(G, GN, GA),
    format(string(Text), "~w/~w", [GN, GA]),
    emit([idiom, File, Line, Rule, Text]).
idiom(_, _, _, _).

%   findall(T, G, L), length(L, N) in one body, L used nowhere else in the clause: the list
%   is built only to be counted.
findall_length(File, Starts, Clause, Body, Pos) :-
    forall(( goal(Body, Pos, F, FP), nonvar(F), F = findall(_, _, L), var(L),
             goal(Body, Pos, Len, _), nonvar(Len), Len = length(L2, _), L2 == L,
             occurrences_of_var(L, Clause, 2) ),
           ( position_line(Starts, FP, Line),
             emit([idiom, File, Line, count_with_findall, "findall/3"]) )).

position_line(Starts, P, Line) :-
    (   nonvar(P), P \== none, arg(1, P, C), integer(C)
    ->  char_line(Starts, C, Line)
    ;   Line = 0
    ).

%   Lines of character offsets.
line_starts(Codes, [0|Starts]) :-
    findall(S, (nth0(I, Codes, 0'\n), S is I + 1), Starts).

char_line(Starts, Char, Line) :-
    aggregate_all(count, (member(S, Starts), S =< Char), Line).

%   Cross-reference: calls between the files' predicates, and calls to nothing.
cross_reference(Files) :-
    forall(member(F, Files), ( absolute_file_name(F, Abs), xref_source(Abs, [silent(true)]) )),
    forall(( member(F, Files), absolute_file_name(F, Abs),
             xref_called(Abs, Called, By), callable(Called) ),
           call_fact(F, Abs, Called, By)),
    forall(( member(F, Files), absolute_file_name(F, Abs),
             xref_defined(Abs, G, local(_)), functor(G, N, A) ),
           defined_fact(F, G, N, A)).

%   What a predicate the files define hides or is: a library one, a system one, a hook.
defined_fact(F, G, N, A) :-
    (   '$in_library'(N, A, _), \+ system_predicate(N, A) -> emit([library, N, A]) ; true ),
    (   overridden_system(N, A) -> emit([system, N, A]) ; true ),
    (   hook(G) -> emit([declared, F, N, A, hook]) ; true ).

%   hook(+Head): a hook the system calls (user:portray/1, user:message_hook/3 ...), so
%   reached though no clause calls it.
hook(G) :-
    functor(G, N, A),
    memberchk(N/A, [ portray/1, message_hook/3, exception/3, prolog_load_file/2,
                     term_expansion/2, goal_expansion/2, term_expansion/4, goal_expansion/4,
                     message_property/2, prolog_file_type/2, file_search_path/2,
                     library_directory/1, resource/3, expand_query/4, expand_answer/2 ]).

%   overridden_system(+Name, +Arity): a system predicate a definition in user code hides
%   silently (the compiler only refuses the ISO core ones); hooks (dynamic or multifile in
%   system, e.g. term_expansion/2) are meant to be defined and are left out.
overridden_system(N, A) :-
    system_predicate(N, A),
    \+ sub_atom(N, 0, _, _, $),
    functor(H, N, A),
    \+ predicate_property(system:H, dynamic),
    \+ predicate_property(system:H, multifile).

call_fact(F, Abs, Called, By) :-
    functor(Called, N, A),
    (   callable(By), By \= '<directive>'(_) -> functor(By, BN, BA) ; BN = '<directive>', BA = 0 ),
    emit([call, F, N, A, BN, BA]),
    (   defined_anywhere(Abs, Called, N, A) -> true
    ;   emit([undefined, F, N, A])
    ).

defined_anywhere(Abs, G, _, _) :- xref_defined(Abs, G, _), !.
defined_anywhere(_, G, _, _) :- loading(Other, _), xref_defined(Other, G, _), !.
defined_anywhere(_, _, N, A) :- system_predicate(N, A), !.
defined_anywhere(_, _, N, A) :- '$in_library'(N, A, _), !.
defined_anywhere(_, G, _, _) :- current_module(M), current_predicate(_, M:G), !.
defined_anywhere(_, G, _, _) :- xref_meta(G, _), fail.

system_predicate(N, A) :-
    functor(H, N, A),
    predicate_property(system:H, defined),
    \+ predicate_property(system:H, imported_from(_)).

%   Output.
emit(Fields) :-
    maplist(field, Fields, Texts),
    atomic_list_concat(Texts, '\t', Line),
    format(user_output, "~w~n", [Line]).

field(F, T) :-
    (   string(F) -> S = F
    ;   atom(F) -> atom_string(F, S)
    ;   number(F) -> number_string(F, S)
    ;   term_string(F, S)
    ),
    split_string(S, "", "", [S1]),
    escape(S1, T).

escape(S, T) :-
    string_codes(S, Cs),
    foldl(escape_code, Cs, Out, []),
    string_codes(T, Out).

escape_code(0'\\, [0'\\, 0'\\|T], T) :- !.
escape_code(0'\t, [0'\\, 0't|T], T) :- !.
escape_code(0'\n, [0'\\, 0'n|T], T) :- !.
escape_code(0'\r, T, T) :- !.
escape_code(C, [C|T], T).
