% Prints, for each file given after --, one line per clause the reader reads:
% FILE<TAB>START_LINE<TAB>VARIABLE NAMES (comma-separated, in order of first occurrence).
% Reading does not run the code. Used by tests/similar/reader.rs.
:- initialization(main, main).

main :-
    current_prolog_flag(argv, Files),
    forall(member(F, Files), catch(clauses(F), _, true)).

clauses(File) :-
    setup_call_cleanup(open(File, read, S), read_all(S, File), close(S)).

read_all(S, File) :-
    catch(read_term(S, T, [term_position(P), variable_names(Vs), syntax_errors(fail)]), _, fail),
    T \== end_of_file,
    !,
    stream_position_data(line_count, P, Line),
    maplist([N=_, N]>>true, Vs, Names),
    atomic_list_concat(Names, ',', Text),
    format("~w\t~w\t~w~n", [File, Line, Text]),
    read_all(S, File).
read_all(_, _).
