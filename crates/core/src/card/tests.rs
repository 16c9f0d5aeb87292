use super::*;

#[test]
fn every_card_round_trips_through_each_notation() {
    for card in Card::deck() {
        assert_eq!(Card::parse(&card.to_string()), Ok(card));
        assert_eq!(Card::parse(&card.to_string().to_lowercase()), Ok(card));
        let symbol = ['♣', '♦', '♥', '♠'][usize::from(card.suit().index())];
        assert_eq!(
            Card::parse(&format!("{}{symbol}", card.rank().symbol())),
            Ok(card)
        );
        assert_eq!(Card::parse(&card.prolog()), Ok(card));
        assert_eq!(Card::from_index(card.index()), Some(card));
        assert_eq!(Card::new(card.rank(), card.suit()), card);
    }
}

#[test]
fn reads_the_notations_the_issue_lists() {
    let ten_hearts = Card::new(Rank::Ten, Suit::Hearts);
    for text in [
        "10H",
        "TH",
        "th",
        "10♥",
        "card(10,hearts)",
        " card( 10 , hearts ) ",
    ] {
        assert_eq!(Card::parse(text), Ok(ten_hearts), "{text}");
    }
    assert_eq!(
        Card::parse("card(jack,diamonds)"),
        Ok(Card::new(Rank::Jack, Suit::Diamonds))
    );
    assert_eq!(Card::parse("A♠"), Ok(Card::new(Rank::Ace, Suit::Spades)));
    assert_eq!(Card::parse("7♣"), Ok(Card::new(Rank::Seven, Suit::Clubs)));
    assert_eq!(Card::parse("Q♡"), Ok(Card::new(Rank::Queen, Suit::Hearts)));
}

#[test]
fn errors_quote_the_token_and_say_what_is_wrong() {
    let cases = [
        ("1C", "rank must be one of A 2-10 T J Q K"),
        ("11C", "rank must be one of A 2-10 T J Q K"),
        ("5X", "suit must be one of C D H S"),
        ("", "a card is a rank then a suit"),
        ("H", "rank must be"),
        ("card(1,hearts)", "rank must be 2..10"),
        ("card(5,stars)", "suit must be clubs"),
        ("card(5)", "card(Rank, Suit)"),
    ];
    for (text, want) in cases {
        let err = Card::parse(text).unwrap_err().to_string();
        assert!(err.contains(&format!("{text:?}")), "{err}");
        assert!(err.contains(want), "{text}: {err}");
    }
}

#[test]
fn repeated_cards_are_named() {
    let err = parse_cards(&["5H", "5S", "5h"]).unwrap_err();
    assert_eq!(err.to_string(), "card 5H is given twice");
}

#[test]
fn values_count_faces_as_ten() {
    let values: Vec<u8> = Rank::ALL.iter().map(|r| r.value()).collect();
    assert_eq!(values, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]);
}

#[test]
fn a_line_of_cards_reads_in_every_notation_and_separator() {
    let want = parse_cards(&["5H", "5S", "5C", "JD", "5D"]).unwrap();
    for line in [
        "5H 5S 5C JD 5D",
        "5h,5s,5c,jd,5d",
        "  5H, 5S\t5C ,JD 5D  ",
        "5♥ 5♠ 5♣ J♦ 5♦",
        "[card(5,hearts), card(5, spades),card(5,clubs), card(jack,diamonds), card(5,diamonds)]",
    ] {
        assert_eq!(parse_card_list(line), Ok(want.clone()), "{line}");
    }
    assert_eq!(parse_card_list("  "), Ok(vec![]));
    assert!(matches!(
        parse_card_list("5H 1C 5D"),
        Err(CardError::Parse { token, .. }) if token == "1C"
    ));
    assert_eq!(
        parse_card_list("5H 5D 5h"),
        Err(CardError::Repeated {
            card: Card::parse("5H").unwrap()
        })
    );
}

#[test]
fn a_card_set_holds_each_card_once() {
    let mut set = CardSet::EMPTY;
    assert!(set.is_empty());
    let five = Card::parse("5H").unwrap();
    assert!(set.insert(five));
    assert!(!set.insert(five), "already there");
    assert_eq!(set.len(), 1);
    assert_eq!(set.complement().len(), 51);
    assert!(!set.complement().contains(five));
    assert_eq!(set.without(five), CardSet::EMPTY);
    assert_eq!(
        CardSet::DECK.iter().collect::<Vec<_>>(),
        Card::deck().collect::<Vec<_>>()
    );
    assert_eq!(CardSet::from_bits(u64::MAX), CardSet::DECK);
    assert_eq!(format!("{:?}", CardSet::of(&[five])), "{5H}");
}
