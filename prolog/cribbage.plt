/*  Tests for cribbage.pl. Run from the repository root:

        swipl -g run_tests -t halt prolog/cribbage.plt

    run_tests/0 fails when a test fails, so the command then exits 1.
*/

:- use_module(cribbage).
:- use_module(child_lib, [card_text/2]).     % spec/'s notation: "5H", "TD"
:- use_module(library(plunit)).
:- use_module(library(http/json), [json_read_dict/3]).
:- autoload(library(aggregate), [aggregate_all/3]).
:- autoload(library(apply), [foldl/4, maplist/3]).
:- autoload(library(debug), [assertion/1]).
:- autoload(library(lists), [nth1/3, numlist/3, subtract/3, sum_list/2]).
:- autoload(library(random), [randseq/3]).

%   examples_file(-File): spec/examples.jsonl, found from this file's
%   directory when it is loaded.

:- dynamic examples_file/1.
:- prolog_load_context(directory, Dir),
   directory_file_path(Dir, '../spec/examples.jsonl', Relative),
   absolute_file_name(Relative, File),
   retractall(examples_file(_)),
   assertz(examples_file(File)).

%   example(-Id, -Example): each line of spec/examples.jsonl as a dict.

example(Id, Example) :-
    examples_file(File),
    setup_call_cleanup(open(File, read, In),
                       read_examples(In, Examples),
                       close(In)),
    member(Example, Examples),
    Id = Example.id.

read_examples(In, Examples) :-
    json_read_dict(In, Example, [end_of_file(eof)]),
    (   Example == eof
    ->  Examples = []
    ;   Examples = [Example|Rest],
        read_examples(In, Rest)
    ).

%   cards(+Text, -Cards): "5H 5S 5C JD" as a list of card terms.

cards(Text, Cards) :-
    split_string(Text, " ", " ", Words),
    maplist(card_text, Words, Cards).

%   no_choicepoint(:Goal): Goal succeeds and leaves no choicepoint.

no_choicepoint(Goal) :-
    call_cleanup(Goal, Det = true),
    Det == true.

%   rule_sum(+Rule, +Hand, +Start, -Value): the five rules, added up.

rule_sum(Rule, Hand, Start, Value) :-
    Cards = [Start|Hand],
    fifteens(Cards, Fifteens),
    pairs(Cards, Pairs),
    runs(Cards, Runs),
    flush(Rule, Hand, Start, Flush),
    nob(Hand, Start, Nob),
    Value is Fifteens + Pairs + Runs + Flush + Nob.

deck(Deck) :-
    numlist(0, 51, Codes),
    maplist(card_code, Deck, Codes).

%   random_deals(+Seed, +N, +Size, -Deals): N lists of Size different
%   cards, drawn at random from Seed.

random_deals(Seed, N, Size, Deals) :-
    set_random(seed(Seed)),
    length(Deals, N),
    maplist(random_deal(Size), Deals).

random_deal(Size, Cards) :-
    randseq(Size, 52, Ones),
    maplist(one_card, Ones, Cards).

one_card(One, Card) :-
    Code is One - 1,
    card_code(Card, Code).


:- begin_tests(spec_examples).

%   Every example of spec/examples.jsonl: the total, from hand_value/3
%   (hand rule) or hand_value/4 (crib rule), and the points of each rule.

test(example, [forall(example(Id, Example)), true(Got == Want)]) :-
    maplist(card_text, Example.hand, Hand),
    card_text(Example.start, Start),
    (   Example.crib == true
    ->  Rule = crib,
        hand_value(crib, Hand, Start, Points)
    ;   Rule = hand,
        hand_value(Hand, Start, Points)
    ),
    Cards = [Start|Hand],
    fifteens(Cards, Fifteens),
    pairs(Cards, Pairs),
    runs(Cards, Runs),
    flush(Rule, Hand, Start, Flush),
    nob(Hand, Start, Nob),
    Got = Id-[points=Points, fifteens=Fifteens, pairs=Pairs, runs=Runs,
              flush=Flush, nob=Nob],
    Want = Id-[points=Example.points, fifteens=Example.fifteens,
               pairs=Example.pairs, runs=Example.runs,
               flush=Example.flush, nob=Example.nob].

test(batch, [forall(example(_, Example)), true(Values == [Want])]) :-
    maplist(card_text, Example.hand, Hand),
    card_text(Example.start, Start),
    (   Example.crib == true
    ->  Rule = crib
    ;   Rule = hand
    ),
    hand_values(Rule, Hand, [Start], Values),
    Want = Example.points.

:- end_tests(spec_examples).


:- begin_tests(fifteens).

test(assignment, P == 8) :-                 % 2+3+T, 2+3+K, 5+T, 5+K
    cards("2C 3D 5H TS KC", Cards),
    fifteens(Cards, P).
test(none, P == 0) :-
    cards("2C 4D 6H 8S QC", Cards),
    fifteens(Cards, P).
test(faces_count_ten, P == 6) :-            % 5+J, 5+Q, 5+K
    cards("5H JC QD KS AH", Cards),
    fifteens(Cards, P).
test(four_fives_and_a_ten, P == 16) :-      % 4 ways 5+5+5, 4 ways 5+T
    cards("5C 5D 5H 5S TD", Cards),
    fifteens(Cards, P).
test(all_five_cards, P == 2) :-             % A+2+3+4+5
    cards("AC 2D 3H 4S 5C", Cards),
    fifteens(Cards, P).

:- end_tests(fifteens).


:- begin_tests(pairs).

test(by_rank, [ forall(member(Text-Want,
                              [ "2C 4D 6H 8S QC"-0,
                                "KS 4D 6H 8S KC"-2,
                                "3C 3D 4H 4S 5C"-4,
                                "5H 5S 5C JD 2D"-6,
                                "7C 7D 7H 7S AS"-12,
                                "5H 5S 5C JD JH"-8
                              ])),
                true(P == Want)
              ]) :-
    cards(Text, Cards),
    pairs(Cards, P).

:- end_tests(pairs).


:- begin_tests(runs).

test(by_rank, [ forall(member(Text-Want,
                              [ "2C 4D 6H 8S QC"-0,
                                "AC 2D 3H 4S 5C"-5,
                                "2C 6D 8H 9S 7C"-4,
                                "3C 3D 4H 4S 5C"-12,       % four runs of three
                                "3C 3D 3H 4S 5C"-9,        % three runs of three
                                "6C 7D 8H 9S 8C"-8,        % two runs of four
                                "QC KD AH 2S 3C"-3,        % ace is low only
                                "JC QD KH 2S 4C"-3,
                                "9C TD JH 2S 4C"-3,
                                "TC JD KH AS 2C"-0
                              ])),
                true(P == Want)
              ]) :-
    cards(Text, Cards),
    runs(Cards, P).

:- end_tests(runs).


:- begin_tests(flush).

test(by_rule, [ forall(member(Rule-Text-Want,
                              [ hand-"2H 4H 6H 8H TH"-5,
                                hand-"2H 4H 6H 8H TS"-4,
                                hand-"2H 4H 6H 8S TH"-0,   % three plus start is none
                                crib-"2H 4H 6H 8H TH"-5,
                                crib-"2H 4H 6H 8H TS"-0,
                                crib-"2H 4H 6H 8S TH"-0
                              ])),
                true(P == Want)
              ]) :-
    cards(Text, [C1, C2, C3, C4, Start]),
    flush(Rule, [C1, C2, C3, C4], Start, P).

:- end_tests(flush).


:- begin_tests(nob).

test(jack_of_start_suit, P == 1) :-
    cards("JH 2C 4D 6S", Hand),
    nob(Hand, card(8, hearts), P).
test(jack_of_another_suit, P == 0) :-
    cards("JH 2C 4D 6S", Hand),
    nob(Hand, card(8, clubs), P).
test(start_jack, P == 0) :-
    cards("2C 4D 6S 8H", Hand),
    nob(Hand, card(jack, hearts), P).
test(caller_says_zero, fail) :-             % steadfast: no false 0
    cards("JH 2C 4D 6S", Hand),
    nob(Hand, card(8, hearts), 0).

:- end_tests(nob).


:- begin_tests(card_code).

test(ends, [Ace, King] == [0, 51]) :-
    card_code(card(ace, clubs), Ace),
    card_code(card(king, spades), King).
test(five_of_hearts, Code == 18) :-         % (5 - 1) * 4 + 2
    card_code(card(5, hearts), Code).
test(round_trip, [forall(between(0, 51, Code)), true(Back == Code)]) :-
    card_code(Card, Code),
    card_code(Card, Back).
test(all_different, N == 52) :-
    deck(Deck),
    sort(Deck, Set),
    length(Set, N).
test(not_a_code, fail) :-
    card_code(_, 52).

:- end_tests(card_code).


:- begin_tests(hand_value).

test(assignment, [ forall(member(HandText-StartText-Want,
                                 [ "7C QH 2C JC"-"9H"-0,
                                   "AS 3H KH 7H"-"KS"-2,
                                   "AS 3H KH 7H"-"2D"-5,
                                   "6C 7C 8C 9C"-"8S"-20,
                                   "7H 9S 8C 7C"-"8H"-24,
                                   "5H 5S 5C JD"-"5D"-29
                                 ])),
                   true(V == Want)
                 ]) :-
    cards(HandText, Hand),
    card_text(StartText, Start),
    hand_value(Hand, Start, V).
test(deterministic) :-
    cards("5H 5S 5C JD", Hand),
    no_choicepoint(hand_value(Hand, card(5, diamonds), _)),
    no_choicepoint(hand_value(crib, Hand, card(5, diamonds), _)),
    no_choicepoint(hand_values(Hand, [card(5, diamonds), card(2, clubs)], _)),
    no_choicepoint(hand_values_codes([18, 19, 16, 41], [17, 4], _)).
test(rules_deterministic) :-
    cards("5H 5S 5C JD", Hand),
    Start = card(5, diamonds),
    Cards = [Start|Hand],
    no_choicepoint(fifteens(Cards, _)),
    no_choicepoint(pairs(Cards, _)),
    no_choicepoint(runs(Cards, _)),
    no_choicepoint(flush(hand, Hand, Start, _)),
    no_choicepoint(nob(Hand, Start, _)),
    no_choicepoint(card_code(card(jack, spades), _)),
    no_choicepoint(card_code(_, 43)).
test(wrong_value_fails, fail) :-
    cards("5H 5S 5C JD", Hand),
    hand_value(Hand, card(5, diamonds), 28).
test(crib_rule, [V, C] == [4, 0]) :-
    cards("2H 4H 6H 8H", Hand),
    hand_value(hand, Hand, card(10, spades), V),
    hand_value(crib, Hand, card(10, spades), C).
test(table_size, N == 6175) :-              % C(17,5) multisets less 13 of one rank
    predicate_property(cribbage:rank_points(_, _), number_of_clauses(N)).
test(five_of_a_rank, V == 45) :-            % repeated cards: scored by the rules
    Hand = [card(5, hearts), card(5, hearts), card(5, hearts), card(5, hearts)],
    hand_value(Hand, card(5, hearts), V).

%   The table must agree with the rules: 5,000 random pairs, both rules.

test(table_agrees_with_rules, Wrong == []) :-
    random_deals(7, 5000, 5, Deals),
    findall(Hand-Start-Rule-Value-Want,
            ( member([Start|Hand], Deals),
              member(Rule, [hand, crib]),
              hand_value(Rule, Hand, Start, Value),
              rule_sum(Rule, Hand, Start, Want),
              Value =\= Want
            ),
            Wrong).

test(not_a_card, error(type_error(card, card(1, hearts)))) :-
    cards("5S 5C JD", Hand),
    hand_value([card(1, hearts)|Hand], card(5, diamonds), _).
test(bad_start, error(type_error(card, joker))) :-
    cards("5H 5S 5C JD", Hand),
    hand_value(Hand, joker, _).
test(three_cards, error(domain_error(four_cards, _))) :-
    cards("5S 5C JD", Hand),
    hand_value(Hand, card(5, diamonds), _).
test(unbound, error(instantiation_error)) :-
    cards("5S 5C JD", Hand),
    hand_value([_|Hand], card(5, diamonds), _).
test(bad_rule, error(domain_error(oneof([hand, crib]), box))) :-
    cards("5H 5S 5C JD", Hand),
    hand_value(box, Hand, card(5, diamonds), _).

:- end_tests(hand_value).


:- begin_tests(hand_values).

%   The batch predicates agree with hand_value/4 on random hands against
%   all 48 start cards left.

test(agree, Wrong == []) :-
    random_deals(11, 200, 4, Hands),
    deck(Deck),
    findall(Rule-Hand,
            ( member(Hand, Hands),
              member(Rule, [hand, crib]),
              \+ batches_agree(Rule, Hand, Deck)
            ),
            Wrong).
test(hand_rule_by_default) :-
    cards("2H 4H 6H 8H", Hand),
    hand_values(Hand, [card(10, spades)], [4]),
    hand_values_codes([6, 14, 22, 30], [39], [4]).
test(no_starts, Values == []) :-
    hand_values_codes([0, 1, 2, 3], [], Values).
test(bad_hand, error(type_error(card, card(one, spades)))) :-
    cards("5H 5S 5C", Hand),
    hand_values([card(one, spades)|Hand], [], _).
test(starts_not_a_list, error(type_error(list, foo))) :-
    cards("5H 5S 5C JD", Hand),
    hand_values(Hand, foo, _).
test(bad_code, error(type_error(between(0, 51), 52))) :-
    hand_values_codes([0, 1, 2, 3], [52], _).
test(bad_start, error(type_error(card, card(one, spades)))) :-
    cards("5H 5S 5C JD", Hand),
    hand_values(Hand, [card(5, diamonds), card(one, spades)], _).

batches_agree(Rule, Hand, Deck) :-
    subtract(Deck, Hand, Starts),
    maplist(hand_value(Rule, Hand), Starts, Values),
    hand_values(Rule, Hand, Starts, Values),
    maplist(card_code, Hand, HandCodes),
    maplist(card_code, Starts, StartCodes),
    hand_values_codes(Rule, HandCodes, StartCodes, Values).

:- end_tests(hand_values).


:- begin_tests(select_hand).

test(six_cards, [Hand, Crib] == [Keep, Rest]) :-
    cards("5H 5S 2C 5C 9H JD", Cards),
    no_choicepoint(select_hand(Cards, Hand, Crib)),
    cards("5H 5S 5C JD", Keep),
    cards("2C 9H", Rest).
test(five_cards, [Hand, Crib] == [Keep, Rest]) :-
    cards("2C 5H 5S 5C JD", Cards),
    no_choicepoint(select_hand(Cards, Hand, Crib)),
    cards("5H 5S 5C JD", Keep),
    cards("2C", Rest).
test(run_over_pair, [Hand, Crib] == [Keep, Rest]) :-
    cards("KS 6C 7D 8H 9S 2D", Cards),
    select_hand(Cards, Hand, Crib),
    cards("6C 7D 8H 9S", Keep),
    cards("KS 2D", Rest).

%   Against brute force: the keep has the greatest total over the start
%   cards, is the first keep (by positions) to reach it, and Hand and
%   Cribcards split Cards in order.

test(brute_force, [ forall(random_deal(3, 60, [5, 6], Cards)),
                    true(Got == Want)
                  ]) :-
    select_hand(Cards, Hand, Crib),
    best_keep(Cards, Keep, Rest),
    Got = Cards-Hand-Crib,
    Want = Cards-Keep-Rest.

%   Here two keeps tie (see best_keep/3): both ways of keeping 7, 8, 9
%   and one of the two aces are worth the same, and the first wins.

test(tie_keeps_first, [Hand, Crib] == [Keep, Rest]) :-
    cards("AC 7D 8H 9S AH KS", Cards),
    keep_totals(Cards, Totals),
    Totals = [T-_|_],
    aggregate_all(count, member(T-_, Totals), Ties),
    assertion(Ties > 1),
    select_hand(Cards, Hand, Crib),
    cards("AC 7D 8H 9S", Keep),
    cards("AH KS", Rest).

test(four_cards, error(domain_error(five_or_six_cards, _))) :-
    cards("5H 5S 5C JD", Cards),
    select_hand(Cards, _, _).
test(repeated_card, error(domain_error(distinct_cards, _))) :-
    cards("5H 5S 5C JD 5H", Cards),
    select_hand(Cards, _, _).
test(not_a_card, error(type_error(card, card(5, stars)))) :-
    cards("5H 5S 5C JD", Cards),
    select_hand([card(5, stars)|Cards], _, _).
test(unbound, error(instantiation_error)) :-
    cards("5H 5S 5C JD", Cards),
    select_hand([_|Cards], _, _).

%   random_deal(+Seed, +N, +Sizes, -Cards): N random deals of each size
%   in Sizes, one by one.

random_deal(Seed, N, Sizes, Cards) :-
    member(Size, Sizes),
    random_deals(Seed, N, Size, Deals),
    member(Cards, Deals).

%   best_keep(+Cards, -Keep, -Rest) by brute force with hand_value/3:
%   every 4 positions of Cards in lexicographic order, scored against
%   every card not in Cards.

best_keep(Cards, Keep, Rest) :-
    keep_totals(Cards, Totals),
    Totals = [Best-_|_],
    member(Best-Positions, Totals),
    !,
    positions_split(Cards, Positions, Keep, Rest).

%   keep_totals(+Cards, -Totals): Total-Positions for every keep, best
%   total first; equal totals stay in lexicographic order of Positions.

keep_totals(Cards, Totals) :-
    length(Cards, N),
    deck(Deck),
    subtract(Deck, Cards, Starts),
    findall(Total-[I, J, K, L],
            ( between(1, N, I), between(I, N, J), J > I,
              between(J, N, K), K > J, between(K, N, L), L > K,
              maplist(nth_card(Cards), [I, J, K, L], Hand),
              maplist(hand_value(Hand), Starts, Values),
              sum_list(Values, Total)
            ),
            Totals0),
    sort(1, @>=, Totals0, Totals).

nth_card(Cards, I, Card) :-
    nth1(I, Cards, Card).

positions_split(Cards, Positions, Keep, Rest) :-
    numlist(1, 6, AllPositions),
    foldl(split_card(Positions), Cards, AllPositions-Keep-Rest, _-[]-[]).

split_card(Positions, Card, [I|Is]-Keep0-Rest0, Is-Keep-Rest) :-
    (   memberchk(I, Positions)
    ->  Keep0 = [Card|Keep],
        Rest0 = Rest
    ;   Keep0 = Keep,
        Rest0 = [Card|Rest]
    ).

:- end_tests(select_hand).
