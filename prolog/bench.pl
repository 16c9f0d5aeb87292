:- module(bench, [bench/0]).
:- use_module(cribbage).
:- autoload(library(apply), [maplist/3]).
:- autoload(library(assoc), [empty_assoc/1, get_assoc/3, put_assoc/4]).
:- autoload(library(lists), [append/3, numlist/3, subtract/3]).
:- autoload(library(random), [randseq/3]).

/** <module> Timing the cribbage reference

Run as

```
swipl -g bench -t halt prolog/bench.pl
```

It times, on inputs drawn with a fixed seed (42):

  - hand_value/3, one call per (hand, start) pair, over 100,000
    distinct pairs of five different cards;
  - hand_values/3 and hand_values_codes/3, one call per hand against
    the 48 cards left, reported per (hand, start) pair;
  - select_hand/3 on 1,000 six-card and 1,000 five-card deals;
  - building the rank_points table, as cribbage.pl does when loaded,
    and loading cribbage.pl again, which builds all its tables;
  - for scale, the five rules without the table, on 10,000 pairs.

Times are CPU seconds (statistics/2, cputime) including the loop that
makes the calls; nothing is subtracted. The empty loop is timed too, so
the reader can see what it costs.
*/

%!  bench is det.
%
%   Draw the inputs, time each predicate and print a table of the
%   figures beside their targets.

bench :-
    set_random(seed(42)),
    random_pairs(100_000, Pairs),
    length(Pairs, NPairs),
    time_per(NPairs, forall(member(_-_, Pairs), true), Empty),
    time_per(NPairs,
             forall(member(H-S, Pairs), hand_value(H, S, _)),
             HandValue),
    random_hands(2_500, Hands),
    maplist(hand_starts, Hands, HandStarts),
    length(Hands, NHands),
    NBatch is NHands * 48,
    time_per(NBatch,
             forall(member(H-Ss, HandStarts), hand_values(H, Ss, _)),
             Batch),
    maplist(codes_of, HandStarts, CodeStarts),
    time_per(NBatch,
             forall(member(HC-SC, CodeStarts), hand_values_codes(HC, SC, _)),
             BatchCodes),
    random_deals(1_000, 6, Sixes),
    time_per(1_000, forall(member(D, Sixes), select_hand(D, _, _)), Six),
    random_deals(1_000, 5, Fives),
    time_per(1_000, forall(member(D, Fives), select_hand(D, _, _)), Five),
    time_per(1, findall(F, cribbage:rank_points_fact(F), _), Build),
    module_property(cribbage, file(File)),
    time_per(1, load_files(File, [if(true)]), Load),
    length(Few, 10_000),
    append(Few, _, Pairs),
    time_per(10_000,
             forall(member(H-S, Few), cribbage:rules_value(hand, H, S, _)),
             Rules),
    format("~w distinct (hand, start) pairs, ~w hands x 48 starts, seed 42~n~n",
           [NPairs, NHands]),
    format("~w~t~45|~w~t~58|~w~n", [measure, target, measured]),
    row('hand_value/3, per call', 2.0e-6, HandValue),
    row('hand_values/3, per pair', none, Batch),
    row('hand_values_codes/3, per pair', none, BatchCodes),
    row('select_hand/3, 6 cards, per call', 2.0e-3, Six),
    row('select_hand/3, 5 cards, per call', 2.0e-3, Five),
    row('rank_points table build', none, Build),
    row('loading cribbage.pl, tables included', none, Load),
    row('rules without the table, per call', none, Rules),
    row('empty loop, per pair', none, Empty).

%   time_per(+N, :Goal, -Seconds): CPU seconds of Goal divided by N.

time_per(N, Goal, Seconds) :-
    garbage_collect,
    statistics(cputime, T0),
    call(Goal),
    statistics(cputime, T1),
    Seconds is (T1 - T0) / N.

%   row(+Name, +Target, +Seconds): a line of the table, the figure in
%   the unit of the target, or else in ms or us by its size.

row(Name, Target, Seconds) :-
    (   Target == none
    ->  TargetText = "",
        unit(Seconds, Unit)
    ;   unit(Target, Unit),
        seconds_text(Target, Unit, TargetText)
    ),
    seconds_text(Seconds, Unit, Text),
    format("~w~t~45|~w~t~58|~w~n", [Name, TargetText, Text]).

%   unit(+Seconds, -Unit): ms for a millisecond or more, else us.

unit(Seconds, Unit) :-
    (   Seconds >= 1.0e-3
    ->  Unit = ms
    ;   Unit = us
    ).

%   seconds_text(+Seconds, +Unit, -Text): Seconds written in Unit.

seconds_text(Seconds, ms, Text) :-
    Ms is Seconds * 1.0e3,
    format(string(Text), "~3f ms", [Ms]).
seconds_text(Seconds, us, Text) :-
    Us is Seconds * 1.0e6,
    format(string(Text), "~3f us", [Us]).

%   random_pairs(+N, -Pairs): N different Hand-Start pairs, each of five
%   different cards in random order. Pairs that hold the same hand cards
%   and start are the same pair, whatever the order of the hand.

random_pairs(N, Pairs) :-
    empty_assoc(Seen),
    random_pairs(N, Seen, Pairs).

%   random_pairs(+N, +Seen, -Pairs): N pairs more, none of them in Seen.

random_pairs(0, _, []) :- !.
random_pairs(N, Seen, Pairs) :-
    randseq(5, 52, [S|Hs]),
    msort(Hs, Sorted),
    (   get_assoc(S-Sorted, Seen, _)
    ->  random_pairs(N, Seen, Pairs)
    ;   put_assoc(S-Sorted, Seen, true, Seen1),
        maplist(one_code_card, Hs, Hand),
        one_code_card(S, Start),
        Pairs = [Hand-Start|Pairs1],
        N1 is N - 1,
        random_pairs(N1, Seen1, Pairs1)
    ).

%   randseq/3 draws from 1..52; card codes are 0..51.

one_code_card(One, Card) :-
    Code is One - 1,
    card_code(Card, Code).

%   random_hands(+N, -Hands): N hands of four different cards.

random_hands(N, Hands) :-
    length(Hands, N),
    maplist(random_deal(4), Hands).

%   random_deals(+N, +Size, -Deals): N deals of Size different cards.

random_deals(N, Size, Deals) :-
    length(Deals, N),
    maplist(random_deal(Size), Deals).

%   random_deal(+Size, -Cards): Size different cards in random order.

random_deal(Size, Cards) :-
    randseq(Size, 52, Ones),
    maplist(one_code_card, Ones, Cards).

%   hand_starts(+Hand, -Hand-Starts): the 48 start cards left.

hand_starts(Hand, Hand-Starts) :-
    numlist(0, 51, Codes),
    maplist(card_code, Deck, Codes),
    subtract(Deck, Hand, Starts).

%   codes_of(+Hand-Starts, -HandCodes-StartCodes): the cards as codes.

codes_of(Hand-Starts, HandCodes-StartCodes) :-
    maplist(card_code, Hand, HandCodes),
    maplist(card_code, Starts, StartCodes).
