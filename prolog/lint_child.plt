/*  Tests for lint_child.pl, the child that reads a submission for crib lint
    and sends what it finds as facts. Run from the repository root:

        swipl -g run_tests -t halt prolog/lint_child.plt

    The flag crib_child_under_test keeps the child's main/0 from running when
    it loads. The unit `facts` lints one small file (fixture_text/1), written
    to a temporary directory, once with lint/2, its frames written to a
    temporary file instead of the grader's pipe and read back. The unit
    `loading` runs the child as the grader does, a fresh swipl on files
    that halt or raise while they load.
*/

:- create_prolog_flag(crib_child_under_test, true, []).
:- use_module(lint_child).
:- use_module(child_lib, [open_frames/1]).
:- use_module(library(plunit)).
:- use_module(library(http/json), [json_read_dict/3]).
:- autoload(library(process), [process_create/3, process_wait/2]).

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

%   read_frames(+In, -Frames): the JSON objects to the end of In.

read_frames(In, Frames) :-
    json_read_dict(In, Frame, [end_of_file(eof)]),
    (   Frame == eof
    ->  Frames = []
    ;   Frames = [Frame | Rest],
        read_frames(In, Rest)
    ).

:- dynamic quiet/0.
:- multifile user:message_hook/3.

%   user:message_hook(+Term, +Kind, +Lines): while the fixture is linted
%   (quiet/0), its warnings and errors, which the child prints as well as
%   sending them, are not printed.

user:message_hook(_, Kind, _) :-
    quiet,
    memberchk(Kind, [warning, error]).

%   fixture_text(-Text): the file linted, one construct a line or two; the
%   tests name its lines.

fixture_text("\c
%!  lc_double(+X, -Y) is det.
%
%   Y is twice X.

lc_double(X, Y) :- Y is 2 * X.

lc_quad(X, Y) :- lc_double(X, Z), lc_double(Z, Y).

lc_sign(X, S) :- ( X > 0 -> S = pos ; X < 0 -> S = neg ; S = zero ).

lc_card(card(5, hearts)).

:- dynamic lc_fact/1.

lc_state :- assertz(lc_fact(1)).

lc_unused(A) :- lc_nowhere(A).

lc_single(X) :- true.

/* block */
%!  lc_spaced (+X) is det.
lc_spaced(_).

lc_bad(X :- .
lc_after.
").

:- dynamic linted/2.

%   lint_fixture: lints fixture_text/1 as lc_fixture.pl in a new temporary
%   directory, that directory and a slash being the prefix, and keeps the
%   frames and the directory (linted/2).

lint_fixture :-
    tmp_file(lc, Dir),
    make_directory(Dir),
    directory_file_path(Dir, 'lc_fixture.pl', File),
    fixture_text(Text),
    setup_call_cleanup(open(File, write, Out), write(Out, Text), close(Out)),
    atom_concat(Dir, /, Prefix),
    setup_call_cleanup(assertz(quiet),
                       frames_of(lint_child:lint(Prefix, [File]), Frames),
                       retractall(quiet)),
    assertz(linted(Frames, Dir)).

%   remove_fixture: deletes what lint_fixture/0 wrote.

remove_fixture :-
    retract(linted(_, Dir)),
    delete_directory_and_contents(Dir).

%   fact(+Pattern): the first frame sent that holds the keys and values of
%   Pattern (a dict; see :</2).

fact(Pattern) :-
    linted(Frames, _),
    member(Frame, Frames),
    Pattern :< Frame,
    !.


:- begin_tests(facts, [setup(lint_fixture), cleanup(remove_fixture)]).

test(done_last, Types == ["done"]) :-
    linted(Frames, _),
    last(Frames, Last),
    Last.type == "done",
    findall(T, ( member(F, Frames), T = F.type, T == "done" ), Types).
test(prefix_out, true(( Files == ["lc_fixture.pl"],
                        sub_string(Text, 0, _, _, "lc_fixture.pl:25:") ))) :-
    linted(Frames, _),
    findall(File, ( member(F, Frames), File = F.get(file) ), Files0),
    sort(Files0, Files),
    fact(_{type: "warning", kind: "syntax", text: Text}).
test(clauses, Terms == [ 5-5-2-0, 9-9-2-1 ]) :-
    findall(S-E-A-D,
            ( member(Name, ["lc_double", "lc_sign"]),
              fact(_{type: "term", name: Name, clause: true, start: S,
                     end: E, arity: A, depth: D})
            ),
            Terms).
test(directive, true(( Start-Arity == 13-1, Kind == "dynamic" ))) :-
    fact(_{type: "term", clause: false, name: "dynamic", start: Start,
           arity: Arity}),
    fact(_{type: "declared", predicate: "lc_fact/1", kind: Kind}).
test(comments, true(( End-Text == 3-"%!  lc_double(+X, -Y) is det.\n\c
                                      %\n%   Y is twice X.",
                      Block == 21 ))) :-
    fact(_{type: "comment", start: 1, end: End, text: Text}),
    fact(_{type: "comment", text: "/* block */", start: Block}).
test(modes, true(( Start-End == 1-3, Bad == "lc_spaced" ))) :-
    fact(_{type: "mode", predicate: "lc_double/2", start: Start, end: End}),
    fact(_{type: "badmode", start: 22, name: Bad}),
    \+ fact(_{type: "mode", predicate: "lc_spaced/1"}).
test(singleton, Line == 19) :-
    fact(_{type: "warning", kind: "singletons", line: Line}).
test(syntax_error, true(( Line == 25,
                          sub_string(Unread, _, _, 0, "lc_bad(X :- ."),
                          After == 26 ))) :-
    fact(_{type: "syntax", line: Line}),
    fact(_{type: "unread", text: Unread}),
    fact(_{type: "term", name: "lc_after", start: After}).
test(calls, true(( By == "lc_quad/2", Line == 17 ))) :-
    fact(_{type: "call", called: "lc_double/2", by: By}),
    fact(_{type: "undefined", called: "lc_nowhere/1", by: "lc_unused/1",
           line: Line}),
    \+ fact(_{type: "undefined", called: "lc_double/2"}).
test(ground_and_idiom, true(( Cards == 1, Rule-Line == "state"-15 ))) :-
    fact(_{type: "ground", predicate: "lc_card/1", line: 11,
           cards: Cards}),
    fact(_{type: "idiom", text: "assertz/1", rule: Rule, line: Line}).

:- end_tests(facts).


:- begin_tests(depth).

test(depths, Depths == [0, 1, 1, 2, 1, 1]) :-
    maplist(lint_child:depth,
            [ (a, b),
              (a -> b ; c),
              (a -> b ; c -> d ; e),
              (a -> (b ; c) ; d),
              \+ (a ; b),
              findall(x, (a -> b), _)
            ],
            Depths).
test(variable, Depth == 0) :-
    lint_child:depth(_, Depth).

:- end_tests(depth).


%   run_child(+Texts, -Status, -Frames): runs lint_child.pl as the grader
%   does, in a fresh swipl, on files lh1.pl, lh2.pl ... holding Texts, in a new
%   temporary directory; Status is how it ended and Frames what it sent.

run_child(Texts, Status, Frames) :-
    tmp_file(lh, Dir),
    make_directory(Dir),
    findall(File,
            ( nth1(I, Texts, Text),
              format(atom(Name), "lh~d.pl", [I]),
              directory_file_path(Dir, Name, File),
              setup_call_cleanup(open(File, write, Out), write(Out, Text),
                                 close(Out))
            ),
            Files),
    directory_file_path(Dir, 'frames', FramePath),
    atom_concat(Dir, /, Prefix),
    module_property(lint_child, file(Child)),
    current_prolog_flag(executable, Swipl),
    process_create(Swipl, ['--no-tty', '-q', Child, FramePath, Prefix | Files],
                   [stdout(null), stderr(null), process(Pid)]),
    process_wait(Pid, Status),
    (   exists_file(FramePath)
    ->  setup_call_cleanup(open(FramePath, read, In), read_frames(In, Frames),
                           close(In))
    ;   Frames = []
    ),
    delete_directory_and_contents(Dir).

%   types(+Frames, -Types): the type of each frame, in order.

types(Frames, Types) :-
    findall(Type, ( member(Frame, Frames), Type = Frame.type ), Types).


:- begin_tests(loading).

% A halt while the files load ends the child with its status and without the
% `done` frame (the grader's E002), after what it said before the halt.
test(halt_directive, true(( Status == exit(3),
                            Types == ["warning"],
                            Line == 1 ))) :-
    run_child(["lh_one(X) :- true.\n:- halt(3).\nlh_two(Y) :- true.\n"],
              Status, Frames),
    types(Frames, Types),
    Frames = [Warning],
    Line = Warning.line.
test(initialization_halt,
     true(( Status == exit(0), \+ memberchk("done", Types) ))) :-
    run_child(["% Halts while it loads.\n:- initialization(halt).\n\c
                lh_value(_, _, 0).\n"],
              Status, Frames),
    types(Frames, Types).
test(not_halting, true(( Status == exit(0), last(Types, "done") ))) :-
    run_child(["lh_fine.\n"], Status, Frames),
    types(Frames, Types).
% An exception that escapes loading a file stops the loading: a `warning` fact
% on line 1 of the first file, and the next file is not loaded (no singleton
% warning for it), but it is still read.
test(exception_stops_loading,
     true(( Warnings == ["lh1.pl"-"Unknown message: lh_ball"],
            Terms == ["lh1.pl", "lh2.pl"] ))) :-
    run_child([":- throw(lh_ball).\n", "lh_b(X) :- true.\n"], _, Frames),
    findall(F-T, ( member(W, Frames), W.type == "warning",
                   F = W.file, T = W.text ), Warnings),
    findall(F, ( member(W, Frames), W.type == "term", F = W.file ), Terms).

:- end_tests(loading).


%   read_text(+Text, -Lint): reads Text, written to a temporary file, with
%   read_files/3 (its frames to a temporary file, then dropped), and infers
%   its meta-arguments: the lint dict the analysis would be given, with the
%   file's name taken out of its clauses (file `f`).

read_text(Text, Lint) :-
    tmp_file_stream(text, File, Out),
    write(Out, Text),
    close(Out),
    Lint0 = lint{prefix: '', files: [File-File]},
    frames_of(lint_child:read_files(Lint0, [File], Lint1), _),
    lint_child:infer_meta(Lint1, Lint2, Error),
    delete_file(File),
    var(Error),
    get_dict(clauses, Lint2, Clauses0),
    maplist(as_read_from_f(File), Clauses0, Clauses),
    get_dict(starts, Lint2, Starts0),
    get_dict(File, Starts0, Starts),
    put_dict(_{clauses: Clauses, starts: f{}.put(f, Starts)}, Lint2, Lint).

as_read_from_f(File, clause(File, S, T, H, B, P), clause(f, S, T, H, B, P)).

%   heads(+Lint, -Heads): the head of each clause read, in order.

heads(Lint, Heads) :-
    findall(H, member(clause(_, _, _, H, _, _), Lint.clauses), Heads).


:- begin_tests(state).

% What the child gathers is passed, not asserted: its one dynamic
% predicate is the hook's, and it holds nothing once lint/2 is done.
test(one_dynamic, Dynamic == [linting/1]) :-
    findall(N/A,
            ( predicate_property(lint_child:H, dynamic),
              \+ predicate_property(lint_child:H, imported_from(_)),
              functor(H, N, A) ),
            Dynamic).
test(nothing_left, fail) :-
    lint_child:linting(_).
test(clauses_in_order, true(( Heads =@= ['<directive>', a(1), b(_, _, _)],
                              Starts == [0, 16, 22, 36, 37] ))) :-
    read_text(":- dynamic a/1.\na(1).\nb(X) --> [X].\n\n", Lint),
    heads(Lint, Heads),
    Starts = Lint.starts.f.
test(starts_line, Line == 3) :-
    lint_child:char_line([0, 16, 22, 35], 25, Line).
% app/2 calls its first argument; twice/2 passes its own to app/2, so it is
% found in the second round.
test(inferred_meta, true(( App == [1-1], Twice == [1-1], Plain == [] ))) :-
    read_text("app(P, X) :- call(P, X).\n\c
               twice(P, X) :- app(P, X), app(P, X).\n\c
               plain(X) :- X > 1.\n", Lint),
    lint_child:local_meta(Lint.meta, app, 2, App),
    lint_child:local_meta(Lint.meta, twice, 2, Twice),
    lint_child:local_meta(Lint.meta, plain, 1, Plain).
test(library_meta, Specs == [1-2]) :-
    lint_child:meta_args(meta{}, maplist(_, _, _), Specs).
test(goal_through_meta, Goals =@= [maplist(p, _), p/1]) :-
    read_text("q(L) :- maplist(p, L).\np(_).\n", Lint),
    memberchk(clause(_, _, _, q(_), Body, BP), Lint.clauses),
    findall(G,
            ( lint_child:goal_in(Lint.meta, Body, BP, G0, _, E),
              (   E =:= 0
              ->  G = G0
              ;   functor(G0, N, A0), A is A0 + E, G = N/A
              ) ),
            Goals).

:- end_tests(state).
