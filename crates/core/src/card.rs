//! Cards, ranks and suits, and the three notations crib reads.

use std::fmt;
use std::str::FromStr;

use crate::CardError;

/// A rank, ace (low) to king. `Rank::number` gives 1 for the ace up to 13 for the king.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Rank {
    Ace = 1,
    Two,
    Three,
    Four,
    Five,
    Six,
    Seven,
    Eight,
    Nine,
    Ten,
    Jack,
    Queen,
    King,
}

impl Rank {
    /// Every rank, ace first.
    pub const ALL: [Rank; 13] = [
        Rank::Ace,
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
    ];

    /// Returns the rank's place in order: 1 for the ace up to 13 for the king.
    pub const fn number(self) -> u8 {
        self as u8
    }

    /// Returns the rank with the given number (1 = ace .. 13 = king), or `None` outside 1..=13.
    pub const fn from_number(number: u8) -> Option<Rank> {
        if number >= 1 && number <= 13 {
            Some(Rank::ALL[number as usize - 1])
        } else {
            None
        }
    }

    /// Returns what the rank counts towards fifteen: ace 1, two to ten at face value, faces 10.
    pub const fn value(self) -> u8 {
        let n = self as u8;
        if n > 10 {
            10
        } else {
            n
        }
    }

    /// Returns the one-character short name: `A 2 3 4 5 6 7 8 9 T J Q K`.
    pub const fn symbol(self) -> char {
        [
            'A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K',
        ][self as usize - 1]
    }

    /// Returns the rank as the assignment's Prolog term writes it: `ace`, `2` .. `10`, `jack`,
    /// `queen`, `king`.
    pub fn prolog(self) -> String {
        match self {
            Rank::Ace => "ace".into(),
            Rank::Jack => "jack".into(),
            Rank::Queen => "queen".into(),
            Rank::King => "king".into(),
            other => other.number().to_string(),
        }
    }
}

/// A suit. The order (clubs, diamonds, hearts, spades) is alphabetical and fixes card indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Suit {
    Clubs = 0,
    Diamonds,
    Hearts,
    Spades,
}

impl Suit {
    /// Every suit, in index order.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// Returns the suit's index: clubs 0, diamonds 1, hearts 2, spades 3.
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// Returns the one-letter short name: `C D H S`.
    pub const fn letter(self) -> char {
        ['C', 'D', 'H', 'S'][self as usize]
    }

    /// Returns the suit as the assignment's Prolog term writes it: `clubs` .. `spades`.
    pub const fn prolog(self) -> &'static str {
        ["clubs", "diamonds", "hearts", "spades"][self as usize]
    }
}

/// A playing card: one of the 52 of a standard deck.
///
/// A card is stored as its index, `4 * (rank number - 1) + suit index`, so cards order by rank
/// first and then by suit, and `Card::from_index` gives all 52 for `0..52`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// Returns the card of the given rank and suit.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card((rank as u8 - 1) * 4 + suit as u8)
    }

    /// Returns the card with the given index (see [`Card`]), or `None` if `index >= 52`.
    pub const fn from_index(index: u8) -> Option<Card> {
        if index < 52 {
            Some(Card(index))
        } else {
            None
        }
    }

    /// Returns the card's index, `0..52`: rank-major, suit-minor.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// Returns the card's rank.
    pub const fn rank(self) -> Rank {
        Rank::ALL[(self.0 / 4) as usize]
    }

    /// Returns the card's suit.
    pub const fn suit(self) -> Suit {
        Suit::ALL[(self.0 % 4) as usize]
    }

    /// Returns the card as the assignment's Prolog term: `card(5,hearts)`, `card(jack,diamonds)`.
    pub fn prolog(self) -> String {
        format!("card({},{})", self.rank().prolog(), self.suit().prolog())
    }

    /// Parses a card in any notation crib reads (case-insensitive, surrounding spaces ignored):
    ///
    /// - short notation, rank then suit letter: `5H`, `10H` or `TH`, `JD`, `AS`;
    /// - rank then suit symbol: `7♣`, `Q♥`, `5♦`, `A♠` (the white symbols `♧♢♡♤` too);
    /// - the assignment's Prolog term: `card(5,hearts)`, `card(jack, diamonds)`.
    ///
    /// # Errors
    /// Returns [`CardError::Parse`] quoting `text` when the rank or the suit is not one of
    /// those above.
    ///
    /// # Example
    /// ```
    /// use crib_core::{Card, Rank, Suit};
    /// assert_eq!(Card::parse("10h")?, Card::new(Rank::Ten, Suit::Hearts));
    /// assert_eq!(Card::parse("card(jack,diamonds)")?.to_string(), "JD");
    /// assert!(Card::parse("1H").is_err());
    /// # Ok::<(), crib_core::CardError>(())
    /// ```
    pub fn parse(text: &str) -> Result<Card, CardError> {
        let token = text.trim();
        let error = |problem: &'static str| CardError::Parse {
            token: text.to_string(),
            problem,
        };
        if token.is_empty() {
            return Err(error("a card is a rank then a suit, like 5H"));
        }
        if let Some(card) = short_ascii(token) {
            return Ok(card); // the common case, without allocating
        }
        let lower = token.to_lowercase();
        if let Some(inner) = lower
            .strip_prefix("card(")
            .and_then(|rest| rest.strip_suffix(')'))
        {
            let (rank, suit) = inner
                .split_once(',')
                .ok_or_else(|| error("a card term is card(Rank, Suit)"))?;
            let rank = prolog_rank(rank.trim())
                .ok_or_else(|| error("rank must be 2..10, ace, jack, queen or king"))?;
            let suit = Suit::ALL
                .into_iter()
                .find(|s| s.prolog() == suit.trim())
                .ok_or_else(|| error("suit must be clubs, diamonds, hearts or spades"))?;
            return Ok(Card::new(rank, suit));
        }
        let suit_char = lower.chars().next_back().expect("token is not empty");
        let rank_text = &lower[..lower.len() - suit_char.len_utf8()];
        let suit = short_suit(suit_char)
            .ok_or_else(|| error("suit must be one of C D H S (or ♣ ♦ ♥ ♠)"))?;
        let rank =
            short_rank(rank_text).ok_or_else(|| error("rank must be one of A 2-10 T J Q K"))?;
        Ok(Card::new(rank, suit))
    }

    /// Returns every card of the deck, in index order.
    pub fn deck() -> impl Iterator<Item = Card> {
        (0..52).map(Card)
    }
}

/// Reads short notation written in ASCII (`5H`, `10h`); None for anything else, which the
/// general path of [`Card::parse`] then reads or rejects.
fn short_ascii(token: &str) -> Option<Card> {
    let bytes = token.as_bytes();
    if !(2..=3).contains(&bytes.len()) || !token.is_ascii() {
        return None;
    }
    let (rank, suit) = bytes.split_at(bytes.len() - 1);
    let suit = short_suit(char::from(suit[0].to_ascii_lowercase()))?;
    let mut lower = [0u8; 2];
    for (l, r) in lower.iter_mut().zip(rank) {
        *l = r.to_ascii_lowercase();
    }
    let rank = short_rank(std::str::from_utf8(&lower[..rank.len()]).ok()?)?;
    Some(Card::new(rank, suit))
}

fn short_rank(text: &str) -> Option<Rank> {
    Some(match text {
        "a" => Rank::Ace,
        "t" | "10" => Rank::Ten,
        "j" => Rank::Jack,
        "q" => Rank::Queen,
        "k" => Rank::King,
        digit if digit.len() == 1 => number_rank(digit)?,
        _ => return None,
    })
}

/// Reads a rank written as its number, 2 to 10.
fn number_rank(text: &str) -> Option<Rank> {
    let n = text.parse::<u8>().ok()?;
    Rank::from_number(n).filter(|_| (2..=10).contains(&n))
}

fn short_suit(c: char) -> Option<Suit> {
    Some(match c {
        'c' | '♣' | '♧' => Suit::Clubs,
        'd' | '♦' | '♢' => Suit::Diamonds,
        'h' | '♥' | '♡' => Suit::Hearts,
        's' | '♠' | '♤' => Suit::Spades,
        _ => return None,
    })
}

fn prolog_rank(text: &str) -> Option<Rank> {
    Some(match text {
        "ace" => Rank::Ace,
        "jack" => Rank::Jack,
        "queen" => Rank::Queen,
        "king" => Rank::King,
        number => number_rank(number)?,
    })
}

impl FromStr for Card {
    type Err = CardError;

    fn from_str(text: &str) -> Result<Card, CardError> {
        Card::parse(text)
    }
}

/// Short notation: `5H`, `TH`, `JD`, `AS`.
impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank().symbol(), self.suit().letter())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Card {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Short notation is two ASCII characters; no formatting machinery needed.
        let text = [self.rank().symbol() as u8, self.suit().letter() as u8];
        serializer.serialize_str(std::str::from_utf8(&text).expect("ASCII"))
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Card {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Card, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Card::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// Parses each token with [`Card::parse`] and checks that no card repeats.
///
/// # Errors
/// The first token that does not parse ([`CardError::Parse`]), or the first card given twice
/// ([`CardError::Repeated`]).
pub fn parse_cards<S: AsRef<str>>(tokens: &[S]) -> Result<Vec<Card>, CardError> {
    let cards = tokens
        .iter()
        .map(|t| Card::parse(t.as_ref()))
        .collect::<Result<Vec<_>, _>>()?;
    check_distinct(&cards)?;
    Ok(cards)
}

/// Returns the cards in short notation separated by spaces: `"5H 5S 5C JD"`.
pub fn cards_text(cards: &[Card]) -> String {
    cards
        .iter()
        .map(Card::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Checks that no card appears twice.
///
/// # Errors
/// [`CardError::Repeated`] naming the first card seen twice.
pub fn check_distinct(cards: &[Card]) -> Result<(), CardError> {
    let mut seen = CardSet::EMPTY;
    for &card in cards {
        if !seen.insert(card) {
            return Err(CardError::Repeated { card });
        }
    }
    Ok(())
}

/// Parses one line of cards, as `crib score -` and `crib select -` read them: tokens in any
/// notation [`Card::parse`] reads, separated by spaces, tabs or commas. A comma inside a
/// Prolog term belongs to the term, and the line may be a Prolog list, so
/// `5H, 5S 5C,JD 5D` and `[card(5,hearts), card(jack,diamonds)]` both read.
///
/// # Errors
/// As [`parse_cards`]: the first token that is not a card, or the first card given twice.
///
/// # Example
/// ```
/// use crib_core::{parse_card_list, parse_cards};
/// let want = parse_cards(&["5H", "JD"])?;
/// assert_eq!(parse_card_list("5H, JD")?, want);
/// assert_eq!(parse_card_list("[card(5,hearts), card(jack,diamonds)]")?, want);
/// assert!(parse_card_list("5H 1C").is_err());
/// # Ok::<(), crib_core::CardError>(())
/// ```
pub fn parse_card_list(line: &str) -> Result<Vec<Card>, CardError> {
    let mut cards = Vec::with_capacity(6);
    let mut seen = CardSet::EMPTY;
    for token in card_tokens(line) {
        let card = Card::parse(token)?;
        if !seen.insert(card) {
            return Err(CardError::Repeated { card });
        }
        cards.push(card);
    }
    Ok(cards)
}

/// Splits a line at spaces, tabs, commas and square brackets outside parentheses.
fn card_tokens(line: &str) -> impl Iterator<Item = &str> {
    let mut depth = 0u32;
    line.split(move |c: char| {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        depth == 0 && (c.is_whitespace() || matches!(c, ',' | '[' | ']'))
    })
    .filter(|t| !t.is_empty())
}

/// A set of cards, stored as one bit per card index (bit `i` is the card with index `i`).
///
/// # Example
/// ```
/// use crib_core::{parse_cards, Card, CardSet};
/// let dealt: CardSet = parse_cards(&["5H", "5S", "JD"])?.into_iter().collect();
/// assert_eq!(dealt.len(), 3);
/// assert_eq!(dealt.complement().len(), 49);
/// assert!(dealt.contains(Card::parse("JD")?) && !dealt.contains(Card::parse("JH")?));
/// assert_eq!(dealt.iter().next(), Some(Card::parse("5H")?)); // index order
/// # Ok::<(), crib_core::CardError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CardSet(u64);

impl CardSet {
    /// No cards.
    pub const EMPTY: CardSet = CardSet(0);
    /// All 52 cards.
    pub const DECK: CardSet = CardSet((1 << 52) - 1);

    /// Returns the set of `cards` (a card given twice is in it once).
    pub fn of(cards: &[Card]) -> CardSet {
        cards.iter().copied().collect()
    }

    /// Returns the set whose bits are `bits`, without the bits above 51.
    pub const fn from_bits(bits: u64) -> CardSet {
        CardSet(bits & CardSet::DECK.0)
    }

    /// Returns the set as bits: bit `i` is set when the card with index `i` is in it.
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Returns whether `card` is in the set.
    pub const fn contains(self, card: Card) -> bool {
        self.0 >> card.index() & 1 == 1
    }

    /// Adds `card`; returns whether it was not already in the set.
    pub fn insert(&mut self, card: Card) -> bool {
        let bit = 1 << card.index();
        let new = self.0 & bit == 0;
        self.0 |= bit;
        new
    }

    /// Returns the set without `card`.
    #[must_use]
    pub const fn without(self, card: Card) -> CardSet {
        CardSet(self.0 & !(1 << card.index()))
    }

    /// Returns the cards of the deck not in the set.
    #[must_use]
    pub const fn complement(self) -> CardSet {
        CardSet(!self.0 & CardSet::DECK.0)
    }

    /// Returns how many cards the set holds.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Returns whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Returns the cards in index order.
    pub fn iter(self) -> impl Iterator<Item = Card> {
        let mut m = self.0;
        std::iter::from_fn(move || {
            (m != 0).then(|| {
                let i = m.trailing_zeros() as u8;
                m &= m - 1;
                Card(i)
            })
        })
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(cards: I) -> CardSet {
        CardSet(cards.into_iter().fold(0, |m, c| m | 1 << c.index()))
    }
}

impl std::ops::BitAnd for CardSet {
    type Output = CardSet;

    fn bitand(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }
}

/// The cards in short notation: `{5H 5S JD}`.
impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{}}}", cards_text(&self.iter().collect::<Vec<_>>()))
    }
}

#[cfg(test)]
mod tests;
