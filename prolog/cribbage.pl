:- module(cribbage,
          [ hand_value/3,               % +Hand, +Start, -Value
            hand_value/4,               % +Rule, +Hand, +Start, -Value
            select_hand/3,              % +Cards, -Hand, -Cribcards
            hand_values/3,              % +Hand, +Starts, -Values
            hand_values/4,              % +Rule, +Hand, +Starts, -Values
            hand_values_codes/3,        % +HandCodes, +StartCodes, -Values
            hand_values_codes/4,        % +Rule, +HandCodes, +StartCodes,
                                        % -Values
            card_code/2,                % ?Card, ?Code
            fifteens/2,                 % +Cards, -Points
            pairs/2,                    % +Cards, -Points
            runs/2,                     % +Cards, -Points
            flush/4,                    % +Rule, +Hand, +Start, -Points
            nob/3                       % +Hand, +Start, -Points
          ]).
:- set_prolog_flag(optimise, true).    % compile arithmetic; this file only
:- autoload(library(aggregate), [aggregate_all/3]).
:- autoload(library(apply), [foldl/4, maplist/2, maplist/3]).
:- autoload(library(error),
            [must_be/2, domain_error/2, type_error/2, instantiation_error/1]).
:- autoload(library(lists), [append/3, clumped/2, subtract/3, sum_list/2]).

/** <module> Cribbage hand scoring and discarding

The reference answer to "Project 1: Cribbage". A card is the term
card(Rank, Suit): Rank is an integer 2..10 or one of ace, jack, queen,
king; Suit is one of clubs, diamonds, hearts, spades.

The show is scored by five rules, each an exported predicate:

  | fifteens/2 | 2 for each combination of cards adding up to 15      |
  | pairs/2    | 2 for each pair of cards of the same rank             |
  | runs/2     | 1 for each card of each run of 3 or more ranks        |
  | flush/4    | 4 if the four hand cards share a suit, 5 with start   |
  | nob/3      | 1 for the jack of the start card's suit in the hand   |

Fifteens, pairs and runs depend only on the five ranks. There are just
6,175 multisets of five ranks, so when this file is loaded it scores each
of them once with fifteens/2, pairs/2 and runs/2 and keeps the sums as
facts rank_points(Key, Points). hand_value/4 then needs one indexed
lookup plus flush/4 and nob/3; the rules themselves stay the definition,
and a hand the table does not cover is scored by the rules directly.

```
?- hand_value([card(5,hearts), card(5,spades), card(5,clubs),
               card(jack,diamonds)], card(5,diamonds), V).
V = 29.

?- select_hand([card(5,hearts), card(5,spades), card(5,clubs),
                card(jack,diamonds), card(2,clubs), card(9,hearts)],
               Hand, Crib).
Hand = [card(5,hearts), card(5,spades), card(5,clubs), card(jack,diamonds)],
Crib = [card(2,clubs), card(9,hearts)].
```

The scoring predicates are meant for ground card terms, as the
assignment allows. They explain an error only after their quick path
fails, so that checking costs nothing on good input, and they do not
check suits (see hand_value/4). select_hand/3 checks its whole deal up
front.
*/

                 /*******************************
                 *        CARDS AND CODES       *
                 *******************************/

%   rank_number(?Rank, ?Number): ace counts low (1); jack, queen and
%   king are 11, 12 and 13 for runs and pairs.

rank_number(ace, 1).
rank_number(2, 2).
rank_number(3, 3).
rank_number(4, 4).
rank_number(5, 5).
rank_number(6, 6).
rank_number(7, 7).
rank_number(8, 8).
rank_number(9, 9).
rank_number(10, 10).
rank_number(jack, 11).
rank_number(queen, 12).
rank_number(king, 13).

%   suit_index(?Suit, ?Index): the suit's place in card codes.

suit_index(clubs, 0).
suit_index(diamonds, 1).
suit_index(hearts, 2).
suit_index(spades, 3).

%   card_rank_number(+Card, -Number): the rank number of Card.

card_rank_number(card(Rank, _), Number) :-
    rank_number(Rank, Number).

%   The value of a card when counting fifteens: ace 1, faces 10.

card_value(card(Rank, _), Value) :-
    rank_number(Rank, Number),
    Value is min(Number, 10).

%!  card_code(?Card, ?Code:between(0,51)) is semidet.
%
%   Code is the integer encoding of Card used by hand_values_codes/4:
%
%       Code = (RankNumber - 1) * 4 + SuitIndex
%
%   where RankNumber is ace=1, 2..10, jack=11, queen=12, king=13 and
%   SuitIndex is clubs=0, diamonds=1, hearts=2, spades=3. So 0 is the
%   ace of clubs, 51 the king of spades, and Code >> 2 is RankNumber - 1.
%   Works in either direction; fails if neither argument is a card or a
%   code.

card_code(card(Rank, Suit), Code) :-
    (   integer(Code)
    ->  Number is (Code >> 2) + 1,
        Index is Code /\ 3,
        rank_number(Rank, Number),
        suit_index(Suit, Index)
    ;   rank_number(Rank, Number),
        suit_index(Suit, Index),
        Code is (Number - 1) * 4 + Index
    ).

%   full_deck(-Cards): the 52 cards, in code order.

full_deck(Cards) :-
    findall(Card, (between(0, 51, Code), card_code(Card, Code)), Cards).


                 /*******************************
                 *          THE RULES           *
                 *******************************/

%!  fifteens(+Cards:list, -Points:nonneg) is det.
%
%   2 points for each distinct combination of Cards whose values add
%   up to 15. An ace counts 1, a jack, queen or king 10, any other card
%   its face value. With Cards 2, 3, 5, 10, king that is 8 points: 2+3+10,
%   2+3+king, 5+10 and 5+king.

fifteens(Cards, Points) :-
    maplist(card_value, Cards, Values),
    aggregate_all(count, subset_sum(Values, 15), Count),
    Points is 2 * Count.

%   subset_sum(+Values, +Sum): some subset of Values adds up to Sum;
%   succeeds once for each such subset. Values are all positive.

subset_sum([], 0).
subset_sum([Value|Values], Sum) :-          % take Value
    Rest is Sum - Value,
    Rest >= 0,
    subset_sum(Values, Rest).
subset_sum([_|Values], Sum) :-              % leave it
    subset_sum(Values, Sum).

%!  pairs(+Cards:list, -Points:nonneg) is det.
%
%   2 points for each pair of Cards of the same rank. N cards of one
%   rank make N*(N-1)/2 pairs: three of a kind score 6, four score 12.

pairs(Cards, Points) :-
    rank_counts(Cards, Counts),
    foldl(add_pair_points, Counts, 0, Points).

%   add_pair_points(+Count, +Points0, -Points): add the points of N cards
%   of one rank, 2 for each of their N*(N-1)/2 pairs.

add_pair_points(_Rank-N, Points0, Points) :-
    Points is Points0 + N * (N - 1).

%   rank_counts(+Cards, -Counts): Counts is the list Number-N, ascending
%   by rank number, saying that N of Cards have that rank.

rank_counts(Cards, Counts) :-
    maplist(card_rank_number, Cards, Numbers),
    msort(Numbers, Sorted),             % not sort/2: duplicates are the point
    clumped(Sorted, Counts).

%!  runs(+Cards:list, -Points:nonneg) is det.
%
%   1 point for each card of each run: 3 or more cards of consecutive
%   ranks (suits don't matter). Ace is low only: queen, king, ace is no
%   run. A run counts once for each way of picking one card of each of
%   its ranks, so 3, 3, 4, 5 holds two runs of three (6 points).

runs(Cards, Points) :-
    rank_counts(Cards, Counts),
    consecutive_blocks(Counts, Blocks),
    foldl(add_run_points, Blocks, 0, Points).

%   A block of Length consecutive ranks is a run when Length >= 3. Each
%   choice of one card per rank is a run of Length cards.

add_run_points(Block, Points0, Points) :-
    length(Block, Length),
    (   Length >= 3
    ->  foldl(times_count, Block, 1, Ways),
        Points is Points0 + Length * Ways
    ;   Points = Points0
    ).

%   times_count(+Count, +Ways0, -Ways): Ways0 times the N cards of a rank.

times_count(_Rank-N, Ways0, Ways) :-
    Ways is Ways0 * N.

%   consecutive_blocks(+Counts, -Blocks): cut the ascending list Counts
%   into maximal blocks of consecutive rank numbers.

consecutive_blocks([], []).
consecutive_blocks([Count|Counts], [[Count|Block]|Blocks]) :-
    block_rest(Count, Counts, Block, Rest),
    consecutive_blocks(Rest, Blocks).

%   block_rest(+Count, +Counts, -Block, -Rest): Block is the counts that
%   continue the block of Count, one rank number higher each; Rest the
%   counts after it.

block_rest(Number-_, Counts, Block, Rest) :-
    (   Counts = [Next-N|Counts1],
        Next =:= Number + 1
    ->  Block = [Next-N|Block1],
        block_rest(Next-N, Counts1, Block1, Rest)
    ;   Block = [],
        Rest = Counts
    ).

%!  flush(+Rule:oneof([hand,crib]), +Hand:list, +Start, -Points:nonneg) is det.
%
%   Points for a flush. If the four Hand cards share a suit and Start
%   does too, 5. If only the four Hand cards share a suit, 4 under the
%   hand Rule and 0 under the crib Rule (a crib flush needs all five).
%   Three hand cards plus the start are no flush.

flush(Rule, Hand, card(_, StartSuit), Points) :-
    four_card_flush(Rule, FourCardPoints),
    (   same_suit(Hand, Suit)
    ->  (   Suit == StartSuit
        ->  Points = 5
        ;   Points = FourCardPoints
        )
    ;   Points = 0
    ).

%   same_suit(+Hand, -Suit): the four cards of Hand are all of Suit.

same_suit([card(_, Suit), card(_, Suit), card(_, Suit), card(_, Suit)], Suit).

%   four_card_flush(?Rule, ?Points): what the four hand cards alone
%   score under Rule if they share a suit the start card lacks.

four_card_flush(hand, 4).
four_card_flush(crib, 0).

%!  nob(+Hand:list, +Start, -Points:nonneg) is det.
%
%   1 point ("one for his nob") if Hand holds the jack of the suit of
%   Start. A jack as the start card scores nothing here.

nob(Hand, card(_, Suit), Points) :-
    (   memberchk(card(jack, Suit), Hand)
    ->  Points = 1
    ;   Points = 0
    ).

%   rules_value(+Rule, +Hand, +Start, -Value): the value of a hand,
%   straight from the five rules. hand_value/4 gives the same answer
%   faster (see the rank_points table below) and falls back to this.

rules_value(Rule, Hand, Start, Value) :-
    Cards = [Start|Hand],
    fifteens(Cards, Fifteens),
    pairs(Cards, Pairs),
    runs(Cards, Runs),
    flush(Rule, Hand, Start, Flush),
    nob(Hand, Start, Nob),
    Value is Fifteens + Pairs + Runs + Flush + Nob.


                 /*******************************
                 *      THE RANK-POINTS TABLE   *
                 *******************************/

%   rank_weight(?Rank, ?Weight) and rank_points(?Key, ?Points).
%
%   A multiset of ranks is keyed by one integer with three bits per
%   rank number holding how many cards have that rank: a card of rank
%   number N adds 1 << 3*(N-1). Adding is order-free, so no sorting is
%   needed, and in octal the key reads as the counts (5,5,5,5,jack is
%   8'10000040000). The key is one integer so that first-argument
%   indexing finds a rank_points/2 fact with one hash lookup.
%
%   Both tables are computed here, at load time, from the rules above.
%   No five cards of a deck share a rank, so the table holds 6,175 of
%   the 6,188 multisets of five ranks; any other key (duplicate cards)
%   misses it, and hand_value/4 then falls back to the rules.

rank_weight_fact(rank_weight(Rank, Weight)) :-
    rank_number(Rank, Number),
    number_weight(Number, Weight).

%   number_weight(+Number, -Weight): what a card of rank number Number
%   adds to a key.

number_weight(Number, Weight) :-
    Weight is 1 << (3 * (Number - 1)).

%   rank_points_fact(-Fact): a rank_points(Key, Points) fact for each
%   multiset of five ranks, on backtracking.

rank_points_fact(rank_points(Key, Points)) :-
    five_ranks(Numbers),
    ranks_cards(Numbers, Cards),
    fifteens(Cards, Fifteens),
    pairs(Cards, Pairs),
    runs(Cards, Runs),
    Points is Fifteens + Pairs + Runs,
    foldl(add_rank_weight, Numbers, 0, Key).

%   add_rank_weight(+Number, +Key0, -Key): add a card of rank number
%   Number to the key.

add_rank_weight(Number, Key0, Key) :-
    number_weight(Number, Weight),
    Key is Key0 + Weight.

%   five_ranks(-Numbers): an ascending list of five rank numbers that
%   five cards of one deck can have; all of them on backtracking.

five_ranks([A, B, C, D, E]) :-
    between(1, 13, A),
    between(A, 13, B),
    between(B, 13, C),
    between(C, 13, D),
    between(D, 13, E),
    A =\= E.                            % not five of a kind

%   ranks_cards(+Numbers, -Cards): cards with these rank numbers; the
%   cards of one rank get different suits, as in a real deck.

ranks_cards(Numbers, Cards) :-
    clumped(Numbers, Counts),
    foldl(add_rank_cards, Counts, Cards, []).

%   add_rank_cards(+Count, -Cards, +Cards0): N cards of the rank, of the
%   first N suits, before Cards0.

add_rank_cards(Number-N, Cards, Cards0) :-
    rank_number(Rank, Number),
    length(Suits, N),
    append(Suits, _, [clubs, diamonds, hearts, spades]),
    foldl(add_card(Rank), Suits, Cards, Cards0).

%   add_card(+Rank, +Suit, -Cards, +Cards0): card(Rank, Suit) before Cards0.

add_card(Rank, Suit, [card(Rank, Suit)|Cards], Cards).

:- findall(Fact, rank_weight_fact(Fact), Facts),
   compile_aux_clauses(Facts).
:- findall(Fact, rank_points_fact(Fact), Facts),
   compile_aux_clauses(Facts).


                 /*******************************
                 *         HAND VALUES          *
                 *******************************/

%!  hand_value(+Hand:list, +Start, -Value:nonneg) is det.
%
%   Value is the points Hand, four cards, scores with start card Start
%   under the hand rule: the sum of fifteens/2, pairs/2 and runs/2 over
%   all five cards, flush/4 and nob/3. See hand_value/4.

hand_value(Hand, Start, Value) :-
    (   quick_value(hand, Hand, Start, Value0)
    ->  Value = Value0
    ;   checked_value(hand, Hand, Start, Value)
    ).

%!  hand_value(+Rule:oneof([hand,crib]), +Hand, +Start, -Value:nonneg) is det.
%
%   Value is the points Hand scores with start card Start. Rule is
%   hand for a player's hand, crib for the crib, where a flush counts
%   only if all five cards share a suit.
%
%   The quick path looks up Rule and each card's rank and so checks
%   them; it does not check suits, which would cost a tenth of the call.
%   A suit other than the four is matched by no other card's suit.
%
%   @error instantiation_error if Hand or Start is not ground.
%   @error type_error(card, X) if X in Hand, or Start, is not a card
%   term with a rank.
%   @error domain_error(four_cards, Hand) if Hand is not 4 long.
%   @error domain_error(oneof([hand,crib]), Rule) for another Rule.

hand_value(Rule, Hand, Start, Value) :-
    (   quick_value(Rule, Hand, Start, Value0)
    ->  Value = Value0
    ;   checked_value(Rule, Hand, Start, Value)
    ).

%   quick_value(+Rule, +Hand, +Start, -Value): Value from the rank-points
%   table plus flush and nob; fails on anything that is not a ground hand
%   of four cards with known ranks whose five ranks are in the table.

quick_value(Rule, Hand, Start, Value) :-
    ground(Hand-Start),
    Hand = [card(R1, _), card(R2, _), card(R3, _), card(R4, _)],
    Start = card(R5, _),
    rank_weight(R1, W1),
    rank_weight(R2, W2),
    rank_weight(R3, W3),
    rank_weight(R4, W4),
    rank_weight(R5, W5),
    Key is W1 + W2 + W3 + W4 + W5,
    rank_points(Key, RankPoints),
    flush(Rule, Hand, Start, Flush),
    nob(Hand, Start, Nob),
    Value is RankPoints + Flush + Nob.

%   checked_value(+Rule, +Hand, +Start, -Value): raise the error that
%   made the quick path fail, or, if there is none (repeated cards
%   outside the table), score the hand with the rules.

checked_value(Rule, Hand, Start, Value) :-
    must_be_rule(Rule),
    must_be_hand(Hand),
    must_be_card(Start),
    rules_value(Rule, Hand, Start, Value).

%   must_be_rule(+Rule): Rule is hand or crib, or raise the error.

must_be_rule(Rule) :-
    must_be(atom, Rule),
    (   four_card_flush(Rule, _)
    ->  true
    ;   domain_error(oneof([hand, crib]), Rule)
    ).

%   must_be_hand(+Hand): Hand is a list of four cards, or raise the error.

must_be_hand(Hand) :-
    must_be(list, Hand),
    maplist(must_be_card, Hand),
    (   length(Hand, 4)
    ->  true
    ;   domain_error(four_cards, Hand)
    ).

%   must_be_card(+Card): Card is a ground card term, or raise the error.

must_be_card(Card) :-
    (   \+ ground(Card)
    ->  instantiation_error(Card)
    ;   Card = card(Rank, Suit),
        rank_number(Rank, _),
        suit_index(Suit, _)
    ->  true
    ;   type_error(card, Card)
    ).

%!  hand_values(+Hand:list, +Starts:list, -Values:list) is det.
%!  hand_values(+Rule, +Hand:list, +Starts:list, -Values:list) is det.
%
%   Values holds the value of Hand with each card of Starts as the start
%   card, in the same order: maplist(hand_value(Rule, Hand), Starts,
%   Values), but faster, since the hand's part of the work is done once.
%   hand_values/3 uses the hand rule. Errors as hand_value/4.

hand_values(Hand, Starts, Values) :-
    hand_values(hand, Hand, Starts, Values).

%   hand_values/4 is documented with hand_values/3 above.

hand_values(Rule, Hand, Starts, Values) :-
    (   ground(Starts),
        hand_part(Rule, Hand, HandKey, Bonus),
        start_values(Starts, HandKey, Bonus, Values0)
    ->  Values = Values0
    ;   must_be_rule(Rule),
        must_be_hand(Hand),
        must_be(list, Starts),
        maplist(hand_value(Rule, Hand), Starts, Values)
    ).

%   hand_part(+Rule, +Hand, -HandKey, -Bonus): HandKey is the rank key
%   of the four hand cards. Flush and nob depend on the start card only
%   through its suit, so Bonus is b(Clubs, Diamonds, Hearts, Spades),
%   their points for a start card of each suit.

hand_part(Rule, Hand, HandKey, b(Clubs, Diamonds, Hearts, Spades)) :-
    ground(Hand),
    Hand = [card(R1, _), card(R2, _), card(R3, _), card(R4, _)],
    rank_weight(R1, W1),
    rank_weight(R2, W2),
    rank_weight(R3, W3),
    rank_weight(R4, W4),
    HandKey is W1 + W2 + W3 + W4,
    suit_bonus(Rule, Hand, clubs, Clubs),
    suit_bonus(Rule, Hand, diamonds, Diamonds),
    suit_bonus(Rule, Hand, hearts, Hearts),
    suit_bonus(Rule, Hand, spades, Spades).

%   suit_bonus(+Rule, +Hand, +Suit, -Bonus): flush and nob points of Hand
%   for a start card of Suit.

suit_bonus(Rule, Hand, Suit, Bonus) :-
    Start = card(ace, Suit),            % any rank will do
    flush(Rule, Hand, Start, Flush),
    nob(Hand, Start, Nob),
    Bonus is Flush + Nob.

%   start_values(+Starts, +HandKey, +Bonus, -Values): the value of the
%   hand with each start card, from hand_part/4's key and bonus.

start_values([], _, _, []).
start_values([card(Rank, Suit)|Starts], HandKey, Bonus, [Value|Values]) :-
    rank_weight(Rank, Weight),
    Key is HandKey + Weight,
    rank_points(Key, RankPoints),
    bonus_of(Suit, Bonus, SuitBonus),
    Value is RankPoints + SuitBonus,
    start_values(Starts, HandKey, Bonus, Values).

%   bonus_of(+Suit, +Bonuses, -Bonus): the bonus for a start of Suit.

bonus_of(clubs,    b(Bonus, _, _, _), Bonus).
bonus_of(diamonds, b(_, Bonus, _, _), Bonus).
bonus_of(hearts,   b(_, _, Bonus, _), Bonus).
bonus_of(spades,   b(_, _, _, Bonus), Bonus).

%!  hand_values_codes(+HandCodes:list, +StartCodes:list, -Values:list) is det.
%!  hand_values_codes(+Rule, +HandCodes, +StartCodes, -Values:list) is det.
%
%   As hand_values/4, with each card given by its integer code
%   (0..51, see card_code/2): 4 HandCodes, any number of StartCodes.
%   Meant for callers outside Prolog, which pass plain integers.
%   hand_values_codes/3 uses the hand rule.
%
%   @error the error of must_be(list(between(0,51)), Codes) if a code
%   is not an integer 0..51; else as hand_value/4.

hand_values_codes(HandCodes, StartCodes, Values) :-
    hand_values_codes(hand, HandCodes, StartCodes, Values).

%   hand_values_codes/4 is documented with hand_values_codes/3 above.

hand_values_codes(Rule, HandCodes, StartCodes, Values) :-
    (   codes_cards(HandCodes, Hand),
        hand_part(Rule, Hand, HandKey, Bonus),
        code_values(StartCodes, HandKey, Bonus, Values0)
    ->  Values = Values0
    ;   must_be(list(between(0, 51)), HandCodes),
        must_be(list(between(0, 51)), StartCodes),
        maplist(card_code, Hand, HandCodes),
        maplist(card_code, Starts, StartCodes),
        hand_values(Rule, Hand, Starts, Values)
    ).

%   codes_cards(+Codes, -Cards): four codes as cards, from the table.

codes_cards([C1, C2, C3, C4], [H1, H2, H3, H4]) :-
    code_card(C1, H1),
    code_card(C2, H2),
    code_card(C3, H3),
    code_card(C4, H4).

%   code_values(+Codes, +HandKey, +Bonus, -Values): start_values/4 with
%   the start cards given by their codes.

code_values([], _, _, []).
code_values([Code|Codes], HandKey, Bonus, [Value|Values]) :-
    code_start(Code, Weight, SuitArg),
    Key is HandKey + Weight,
    rank_points(Key, RankPoints),
    arg(SuitArg, Bonus, SuitBonus),
    Value is RankPoints + SuitBonus,
    code_values(Codes, HandKey, Bonus, Values).

%   code_card(?Code, ?Card) and code_start(?Code, ?Weight, ?SuitArg):
%   card_code/2 and what a start card adds, tabled for the 52 codes.
%   SuitArg is the argument of the bonus term b/4 for the suit.

code_card_fact(code_card(Code, Card)) :-
    between(0, 51, Code),
    card_code(Card, Code).

%   code_start_fact(-Fact): a code_start/3 fact for each of the 52 codes.

code_start_fact(code_start(Code, Weight, SuitArg)) :-
    between(0, 51, Code),
    card_code(card(Rank, _), Code),
    rank_weight(Rank, Weight),
    SuitArg is (Code /\ 3) + 1.

:- findall(Fact, code_card_fact(Fact), Facts),
   compile_aux_clauses(Facts).
:- findall(Fact, code_start_fact(Fact), Facts),
   compile_aux_clauses(Facts).


                 /*******************************
                 *        CHOOSING A HAND       *
                 *******************************/

%!  select_hand(+Cards:list, -Hand:list, -Cribcards:list) is det.
%
%   Hand is the four of the 5 or 6 Cards with the greatest expected
%   value over every start card not among Cards (47 or 46 of them), and
%   Cribcards the others. Both keep the order of Cards. All keeps are
%   scored against the same start cards, so comparing total points is
%   comparing expected values, exactly, in integers. Of equal keeps the
%   first is taken, counting keeps by their positions in Cards in
%   lexicographic order (1234, 1235, 1236, 1245, ...).
%
%   @error instantiation_error if Cards is not ground.
%   @error type_error(card, X) if X in Cards is not a card.
%   @error domain_error(five_or_six_cards, Cards) for another length.
%   @error domain_error(distinct_cards, Cards) if a card is repeated.

select_hand(Cards, Hand, Cribcards) :-
    must_be_deal(Cards),
    full_deck(Deck),
    subtract(Deck, Cards, Starts),
    findall(option(Total, Keep, Crib),
            ( keep(4, Cards, Keep, Crib),
              hand_values(Keep, Starts, Values),
              sum_list(Values, Total)
            ),
            [First|Options]),
    foldl(better_option, Options, First, option(_, Hand0, Crib0)),
    Hand = Hand0,
    Cribcards = Crib0.

%   keep(+N, +Cards, -Keep, -Rest): Keep is N of Cards, Rest the others,
%   both in order. Keeping the first card before leaving it enumerates
%   the keeps in lexicographic order of positions.

keep(0, Cards, [], Cards).
keep(N, [Card|Cards], [Card|Keep], Rest) :-
    N > 0,
    N1 is N - 1,
    keep(N1, Cards, Keep, Rest).
keep(N, [Card|Cards], Keep, [Card|Rest]) :-
    N > 0,
    keep(N, Cards, Keep, Rest).

%   An option replaces the best so far only if strictly better, so the
%   first of equal options wins.

better_option(Option, Best0, Best) :-
    Option = option(Total, _, _),
    Best0 = option(Total0, _, _),
    (   Total > Total0
    ->  Best = Option
    ;   Best = Best0
    ).

%   must_be_deal(+Cards): Cards are five or six distinct cards, or raise
%   the error.

must_be_deal(Cards) :-
    must_be(list, Cards),
    maplist(must_be_card, Cards),
    length(Cards, Length),
    (   memberchk(Length, [5, 6])
    ->  true
    ;   domain_error(five_or_six_cards, Cards)
    ),
    sort(Cards, Set),
    (   length(Set, Length)
    ->  true
    ;   domain_error(distinct_cards, Cards)
    ).
