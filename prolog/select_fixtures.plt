/*  select_hand/3 of cribbage.pl against the tables in fixtures/select-6.tsv and
    fixtures/select-5.tsv, which `cargo xtask fixtures` generates from crib-core. Run from
    the repository root:

        swipl -g run_tests -t halt prolog/select_fixtures.plt

    For each deal the reference must keep four cards worth the table's expected_total,
    summed over every start card not dealt. Both implementations take the first best keep,
    counting keeps by the positions of the kept cards, so the four cards and the crib must
    be the table's too. A failure names the line of the table.
*/

:- use_module(cribbage, [select_hand/3, hand_value/3]).
:- use_module(library(plunit)).
:- autoload(library(aggregate), [aggregate_all/3]).
:- autoload(library(apply), [maplist/3]).
:- autoload(library(lists), [member/2, nth1/3]).
:- autoload(library(readutil), [read_file_to_string/3]).

%   fixtures_dir(-Dir): the repository's fixtures/, found from this file's
%   directory when it is loaded.

:- dynamic fixtures_dir/1.
:- prolog_load_context(directory, Dir),
   directory_file_path(Dir, '../fixtures', Relative),
   absolute_file_name(Relative, Fixtures),
   retractall(fixtures_dir(_)),
   assertz(fixtures_dir(Fixtures)).

%   deal(+File, -Line, -Dealt, -Keep, -Discard, -Total) is nondet.
%
%   Each data row of fixtures/File: its line number, the cards dealt, kept
%   and discarded (lists of card/2 terms, in dealt order) and the kept
%   hand's total over every start card not dealt.

deal(File, Line, Dealt, Keep, Discard, Total) :-
    fixtures_dir(Dir),
    directory_file_path(Dir, File, Path),
    read_file_to_string(Path, Text, []),
    split_string(Text, "\n", "", Lines),
    nth1(Line, Lines, Row),
    split_string(Row, "\t", "", [DealtText, KeepText, DiscardText, _, TotalText|_]),
    DealtText \== "dealt",                      % the column names
    \+ sub_string(DealtText, 0, 1, _, "#"),     % the header
    cards(DealtText, Dealt),
    cards(KeepText, Keep),
    cards(DiscardText, Discard),
    number_string(Total, TotalText).

%   cards(+Text, -Cards): "5H TD AS" as [card(5,hearts), card(10,diamonds),
%   card(ace,spades)].

cards(Text, Cards) :-
    split_string(Text, " ", "", Words),
    maplist(card, Words, Cards).

card(Word, card(Rank, Suit)) :-
    string_chars(Word, [R, S]),
    rank_char(R, Rank),
    suit_char(S, Suit).

rank_char('A', ace).
rank_char('T', 10).
rank_char('J', jack).
rank_char('Q', queen).
rank_char('K', king).
rank_char(C, N) :-
    char_type(C, digit(N)),
    N >= 2.

suit_char('C', clubs).
suit_char('D', diamonds).
suit_char('H', hearts).
suit_char('S', spades).

%   total(+Dealt, +Hand, -Total): Hand's points summed over every start card
%   not in Dealt.

total(Dealt, Hand, Total) :-
    aggregate_all(sum(V),
                  ( deck_card(Start),
                    \+ memberchk(Start, Dealt),
                    hand_value(Hand, Start, V)
                  ),
                  Total).

deck_card(card(Rank, Suit)) :-
    member(Rank, [ace, 2, 3, 4, 5, 6, 7, 8, 9, 10, jack, queen, king]),
    member(Suit, [clubs, diamonds, hearts, spades]).

%   answer(+Dealt, -Answer): what cribbage.pl chooses, as keep/crib/total.

answer(Dealt, keep(Hand)-crib(Crib)-total(Total)) :-
    select_hand(Dealt, Hand, Crib),
    total(Dealt, Hand, Total).

:- begin_tests(select_fixtures).

test(deals_read, Counts == [1000, 1000]) :-
    findall(N, ( member(F, ['select-6.tsv', 'select-5.tsv']),
                 aggregate_all(count, deal(F, _, _, _, _, _), N)
               ), Counts).

test(six_cards, [ forall(deal('select-6.tsv', Line, Dealt, Keep, Discard, Total)),
                  true(Line-Got == Line-(keep(Keep)-crib(Discard)-total(Total)))
                ]) :-
    answer(Dealt, Got).

test(five_cards, [ forall(deal('select-5.tsv', Line, Dealt, Keep, Discard, Total)),
                   true(Line-Got == Line-(keep(Keep)-crib(Discard)-total(Total)))
                 ]) :-
    answer(Dealt, Got).

:- end_tests(select_fixtures).
