:- module(oracle,
          [ load_reference/2,           % +File, -Errors
            missing_predicates/2,       % +Wanted, -Missing
            values_codes/5,             % +Rule, +HandCodes, +StartCodes,
                                        % -Values, -Outcome
            value/5,                    % +Rule, +Hand, +Start, -Value, -Outcome
            select/4                    % +Cards, -Hand, -Cribcards, -Outcome
          ]).
:- autoload(library(apply), [include/3, maplist/3]).

/** <module> What crib-oracle asks a Prolog implementation

crates/oracle (Rust) embeds SWI-Prolog, loads this file from its own
copy of the text, loads a cribbage implementation (prolog/cribbage.pl
by default) into module user with load_reference/2, and then asks only
the questions below. Each answers with an Outcome instead of failing or
raising, so the Rust side reads one term per call:

  | true           | the goal succeeded and its outputs are bound |
  | false          | the goal failed                              |
  | error(Message) | the goal raised; Message is a string         |

The implementation is trusted: it runs in the grader's own process, so
a halt/0 in it ends that process. Student code never comes here.

values_codes/5 is the batched call crates/verify uses for its sweep:
one call values one hand against many start cards, with cards as
integer codes (see code_card/2), so that Rust passes and reads plain
integers. When the implementation exports hand_values_codes/4, as
prolog/cribbage.pl does, the batch is handed to it whole; otherwise
each start card is valued with hand_value/3 (hand rule) or
hand_value/4 (crib rule, rule first).
*/

:- dynamic loading/0, load_error/1.

%!  load_reference(+File, -Errors:list(string)) is det.
%
%   Load File into module user, collecting the text of every error
%   message printed while it loads (syntax errors, failed or raising
%   directives). Errors is [] when File loaded cleanly. Warnings are
%   printed as usual and not collected.
%
%   @error existence_error(source_sink, File) if there is no File.

load_reference(File, Errors) :-
    retractall(load_error(_)),
    setup_call_cleanup(
        assertz(loading),
        load_files(user:File, [if(not_loaded)]),
        retractall(loading)),
    findall(Error, retract(load_error(Error)), Errors).

:- multifile user:message_hook/3.

%   user:message_hook(+Message, +Kind, +Lines): while load_reference/2 loads,
%   the text of each error message is kept; the message is printed as usual.

user:message_hook(Message, error, Lines) :-
    loading,
    message_string(Message, Lines, Text),
    assertz(load_error(Text)),
    fail.

%   message_string(+Message, +Lines, -Text): what print_message_lines/3 prints
%   for Lines, trimmed.

message_string(_Message, Lines, Text) :-
    with_output_to(string(Text0),
                   print_message_lines(current_output, '', Lines)),
    split_string(Text0, "", "\n ", [Text]).

%!  missing_predicates(+Wanted:list, -Missing:list) is det.
%
%   Missing holds the Name/Arity of Wanted that module user cannot call,
%   whether defined there or imported.

missing_predicates(Wanted, Missing) :-
    include(missing, Wanted, Missing).

%   missing(+PI): module user cannot call PI.

missing(Name/Arity) :-
    functor(Head, Name, Arity),
    \+ predicate_property(user:Head, defined).

%!  values_codes(+Rule, +HandCodes, +StartCodes, -Values:list, -Outcome) is det.
%
%   Values holds the value of the hand of HandCodes with each card of
%   StartCodes as the start card, under Rule (hand or crib).

values_codes(Rule, HandCodes, StartCodes, Values, Outcome) :-
    outcome(batch_values(Rule, HandCodes, StartCodes, Values), Outcome).

%   batch_values(+Rule, +HandCodes, +StartCodes, -Values): the batch, by the
%   implementation's hand_values_codes/4 when it has one.

batch_values(Rule, HandCodes, StartCodes, Values) :-
    (   predicate_property(user:hand_values_codes(_, _, _, _), defined)
    ->  user:hand_values_codes(Rule, HandCodes, StartCodes, Values)
    ;   maplist(code_card, HandCodes, Hand),
        maplist(code_card, StartCodes, Starts),
        maplist(rule_value(Rule, Hand), Starts, Values)
    ).

%!  value(+Rule, +Hand:list, +Start, -Value, -Outcome) is det.
%
%   Value is what the implementation's hand_value/3 (Rule hand) or
%   hand_value/4 (Rule crib) says Hand scores with Start.

value(Rule, Hand, Start, Value, Outcome) :-
    outcome(rule_value(Rule, Hand, Start, Value), Outcome).

%   rule_value(+Rule, +Hand, +Start, -Value): the implementation's value of
%   Hand with Start under Rule.

rule_value(hand, Hand, Start, Value) :-
    user:hand_value(Hand, Start, Value).
rule_value(crib, Hand, Start, Value) :-
    user:hand_value(crib, Hand, Start, Value).

%!  select(+Cards:list, -Hand:list, -Cribcards:list, -Outcome) is det.
%
%   The implementation's select_hand(Cards, Hand, Cribcards).

select(Cards, Hand, Cribcards, Outcome) :-
    outcome(user:select_hand(Cards, Hand, Cribcards), Outcome).

:- meta_predicate outcome(0, -).

%   outcome(:Goal, -Outcome): calls Goal once; Outcome says how it ended.

outcome(Goal, Outcome) :-
    catch(( call(Goal) -> Outcome = true ; Outcome = false ),
          Error,
          error_outcome(Error, Outcome)).

%   error_outcome(+Error, -Outcome): error(Text), Text being what
%   print_message/2 prints for Error (message_to_string/2), trimmed.

error_outcome(Error, error(Text)) :-
    (   catch(message_to_string(Error, Text0), _, fail)
    ->  split_string(Text0, "", "\n ", [Text])
    ;   term_string(Error, Text)
    ).

%   code_card(?Code, ?Card): Code is (RankNumber - 1) * 4 + SuitIndex,
%   as in crib-core's Card::index(): ace 1 .. king 13; clubs 0,
%   diamonds 1, hearts 2, spades 3.

code_card(Code, card(Rank, Suit)) :-
    RankNumber is Code // 4 + 1,
    SuitIndex is Code mod 4,
    rank_name(RankNumber, Rank),
    suit_name(SuitIndex, Suit).

%   rank_name(?Number, ?Rank): ace 1 to king 13.

rank_name(1, ace).
rank_name(2, 2).
rank_name(3, 3).
rank_name(4, 4).
rank_name(5, 5).
rank_name(6, 6).
rank_name(7, 7).
rank_name(8, 8).
rank_name(9, 9).
rank_name(10, 10).
rank_name(11, jack).
rank_name(12, queen).
rank_name(13, king).

%   suit_name(?Index, ?Suit): clubs 0, diamonds 1, hearts 2, spades 3.

suit_name(0, clubs).
suit_name(1, diamonds).
suit_name(2, hearts).
suit_name(3, spades).
