:- module(card_notation,
          [ card_text/2                 % ?Text, ?Card
          ]).
:- autoload(library(error), [type_error/2]).

/** <module> Cards in short notation

spec/ writes a card as its rank then its suit: "5H", "TD", "AS", "QC".
Ranks are A 2-9 T J Q K, suits C D H S. This module turns that notation
into the card(Rank, Suit) terms of cribbage.pl and back.

```
?- card_text("TH", Card).
Card = card(10, hearts).

?- card_text(Text, card(ace, spades)).
Text = "AS".
```
*/

%!  card_text(+Text:text, -Card) is semidet.
%!  card_text(-Text:string, +Card) is det.
%!  card_text(-Text:string, -Card) is multi.
%
%   Text is Card in short notation. Text is read from an atom or a
%   string, in capitals; "10H" is read as well as "TH", but 10 is always
%   written T. Fails if Text is no card. With both arguments unbound,
%   enumerates the 52 cards.
%
%   @error type_error(text, Text) if Text is neither atom nor string.

card_text(Text, card(Rank, Suit)) :-
    (   var(Text)
    ->  rank_symbol(Rank, RankSymbol),
        suit_symbol(Suit, SuitSymbol),
        atomics_to_string([RankSymbol, SuitSymbol], Text)
    ;   atom(Text)
    ->  text_card(Text, Rank, Suit)
    ;   string(Text)
    ->  atom_string(Atom, Text),
        text_card(Atom, Rank, Suit)
    ;   type_error(text, Text)
    ).

text_card(Atom, Rank, Suit) :-
    sub_atom(Atom, Before, 1, 0, SuitSymbol),
    sub_atom(Atom, 0, Before, 1, RankSymbol),
    symbol_rank(RankSymbol, Rank0),
    suit_symbol(Suit0, SuitSymbol),
    Rank = Rank0,
    Suit = Suit0.

%   rank_symbol(?Rank, ?Symbol): how Rank is written.

rank_symbol(ace, 'A').
rank_symbol(2, '2').
rank_symbol(3, '3').
rank_symbol(4, '4').
rank_symbol(5, '5').
rank_symbol(6, '6').
rank_symbol(7, '7').
rank_symbol(8, '8').
rank_symbol(9, '9').
rank_symbol(10, 'T').
rank_symbol(jack, 'J').
rank_symbol(queen, 'Q').
rank_symbol(king, 'K').

%   symbol_rank(+Symbol, -Rank): how a rank may be read.

symbol_rank(Symbol, Rank) :-
    (   Symbol == '10'
    ->  Rank = 10
    ;   rank_symbol(Rank, Symbol)
    ).

suit_symbol(clubs, 'C').
suit_symbol(diamonds, 'D').
suit_symbol(hearts, 'H').
suit_symbol(spades, 'S').
