"""Cards, suits, ranks, the card notation and the decks of the Mau-Mau family (C-1).

Cards are small immutable values.  Every card is interned: ``Card.parse("7H")``
always returns the same object, so equality and hashing are as cheap as identity
while still meaning "same rank and suit".  A double deck therefore simply holds
each card twice.
"""

from __future__ import annotations

import enum
import html
from collections.abc import Iterable
from typing import Any

__all__ = [
    "CardError",
    "Suit",
    "Rank",
    "Card",
    "JOKER",
    "cards",
    "parse_wish",
    "make_deck",
    "RANKS_52",
    "RANKS_32",
    "CARD_INDEX",
    "CARD_AT",
]


class CardError(ValueError):
    """A card, suit or rank written in a notation maumau does not know."""

    @classmethod
    def said(cls, key: str, **values: Any) -> CardError:
        """The error with the catalogue's message ``key`` in the course's language (made above the
        core, as an IllegalMove's: a door up to the words)."""
        from ..text.i18n import t

        return cls(t(key, **values))


class Suit(enum.Enum):
    """The four suits, written ``C D H S`` or ``♣ ♦ ♥ ♠``."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOL[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Suit.{self.name}"

    @classmethod
    def parse(cls, text: str | Suit) -> Suit:
        """``Suit.parse("H")`` or ``Suit.parse("♥")``; a clear error otherwise."""
        if isinstance(text, Suit):
            return text
        suit = _SUIT_BY_TEXT.get(str(text).strip().upper())
        if suit is None:
            raise CardError.said("card.unknown_suit", text=text)
        return suit


_SUIT_SYMBOL = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_BY_TEXT = {s.value: s for s in Suit} | {sym: s for s, sym in _SUIT_SYMBOL.items()}


class Rank(enum.Enum):
    """The thirteen ranks ``2``…``10 J Q K A`` (``T`` is accepted for 10)."""

    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Rank.{self.name}"

    @property
    def order(self) -> int:
        return _RANK_ORDER[self]

    @classmethod
    def parse(cls, text: str | Rank) -> Rank:
        """``Rank.parse("Q")``, ``Rank.parse("10")`` or ``Rank.parse("T")``."""
        if isinstance(text, Rank):
            return text
        rank = _RANK_BY_TEXT.get(str(text).strip().upper())
        if rank is None:
            raise CardError.said("card.unknown_rank", text=text)
        return rank


_RANK_ORDER = {r: i for i, r in enumerate(Rank)}
_RANK_BY_TEXT = {r.value: r for r in Rank} | {"T": Rank.TEN}

RANKS_52: tuple[Rank, ...] = tuple(Rank)
RANKS_32: tuple[Rank, ...] = tuple(r for r in Rank if r.order >= Rank.SEVEN.order)


class Card:
    """A playing card: a rank and a suit, or the joker (no rank, no suit).

    >>> Card.parse("10H") is Card(Rank.TEN, Suit.HEARTS)
    True
    >>> str(Card.parse("T♥")), Card.parse("QS").symbol
    ('10H', 'Q♠')
    """

    __slots__ = ("rank", "suit", "index", "text", "symbol", "__weakref__")
    _interned: dict[tuple[Rank | None, Suit | None], Card] = {}

    rank: Rank | None
    suit: Suit | None
    index: int
    text: str
    symbol: str

    def __new__(cls, rank: Rank | None, suit: Suit | None) -> Card:
        card = cls._interned.get((rank, suit))
        if card is not None:
            return card
        if (rank is None) != (suit is None):
            raise CardError.said("card.rank_and_suit")
        card = super().__new__(cls)
        if rank is None or suit is None:
            index, text, symbol = 52, "JOKER", "★"  # not 🃏: an emoji is an empty box without an emoji font
        else:
            index = list(Suit).index(suit) * 13 + rank.order
            text, symbol = rank.value + suit.value, rank.value + suit.symbol
        for name, value in (("rank", rank), ("suit", suit), ("index", index),
                            ("text", text), ("symbol", symbol)):
            object.__setattr__(card, name, value)
        cls._interned[(rank, suit)] = card
        CARD_INDEX[card] = index
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[Rank | None, Suit | None]]:
        return (Card, (self.rank, self.suit))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self

    @classmethod
    def parse(cls, text: str | Card) -> Card:
        """Read ``7H``, ``10D``/``TD``, ``Q♠`` or ``JOKER`` (``★``, and the older ``🃏``); raise CardError
        otherwise."""
        if isinstance(text, Card):
            return text
        card = _CARD_BY_TEXT.get(str(text).strip().upper())
        if card is None:
            raise CardError.said("card.unknown", text=text)
        return card

    @property
    def is_joker(self) -> bool:
        return self.rank is None

    @property
    def is_red(self) -> bool:
        return self.suit is not None and self.suit.is_red

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({self.text!r})"

    def _repr_html_(self) -> str:
        return card_html(self, letter=_letter(self))


#: Each card's ``index``, by the card: the engine keeps hands sorted by it (``maumau.core.turn``), and
#: compiled, a look-up here costs half of reading the attribute.
CARD_INDEX: dict[Card, int] = {}


#: The look of ``card_html``: a portrait card, about 2.5 × 3.4 times the font size, the rank in
#: the top-left corner, the suit large below it.  Everything is inline (a notebook shows
#: it without any style sheet, also where an untrusted output is sanitised), and the class name
#: is its own, so that the card table's style sheet (``.mm-card``) never reaches it.
_CARD_STYLE = ("display:inline-block;position:relative;box-sizing:border-box;width:2.5em;height:3.4em;"
               "margin:0.12em 0.1em;padding:0;vertical-align:middle;border:1px solid #9e9e9e;"
               "border-radius:0.28em;background:#fff;box-shadow:1px 1px 2px rgba(0,0,0,.3);"
               "font-family:'DejaVu Sans',Arial,sans-serif;font-weight:bold;line-height:1;text-align:left;"
               "white-space:nowrap;overflow:hidden")
_CORNER_STYLE = "position:absolute;left:0.16em;top:0.14em;font-size:1em;line-height:1;letter-spacing:-0.04em"
_PIP_STYLE = "position:absolute;left:0;right:0;bottom:0.12em;font-size:1.45em;line-height:1;text-align:center"
_JOKER_STYLE = "position:absolute;left:0;right:0;bottom:0.6em;font-size:0.55em;line-height:1;text-align:center"


def card_html(card: Card, *, size: str = "1.1em", faded: bool = False, letter: str | None = None) -> str:
    """A small playing card as HTML (used by ``_repr_html_`` and the views): the rank in its
    corner, the suit large below it, red or black; ``size`` is its font size
    (the card is about 2.5 by 3.4 times as large), ``faded`` shows it pale; ``letter``: the rank
    as a language writes it (D for the Queen in German; the words above the core know it)."""
    colour = "#c62828" if card.is_red else ("#6a1b9a" if card.is_joker else "#1a1a1a")
    rank, suit = card.rank, card.suit
    symbol = card.symbol
    if rank is None or suit is None:  # the joker (a card has both or neither)
        corner, pip, pip_style = "★", "JOKER", _JOKER_STYLE
    else:
        corner, pip, pip_style = letter or rank.value, suit.symbol, _PIP_STYLE
        symbol = corner + suit.symbol
    opacity = ";opacity:0.45" if faded else ""
    return (f'<span class="mm-cardface" title="{html.escape(symbol)}" aria-label="{html.escape(symbol)}" '
            f'style="{_CARD_STYLE};font-size:{html.escape(size)};color:{colour}{opacity}">'
            f'<span style="{_CORNER_STYLE}">{corner}</span>'
            f'<span style="{pip_style}" aria-hidden="true">{pip}</span></span>')


class CardTuple(tuple[Card, ...]):
    """A tuple of cards that prints as notation and shows as cards in Jupyter."""

    __slots__ = ()

    def __str__(self) -> str:
        return " ".join(c.text for c in self)

    def _repr_html_(self) -> str:
        return "".join(card_html(c, letter=_letter(c)) for c in self) or "<i>no cards</i>"


def _letter(card: Card) -> str | None:
    """The card's rank as the course's language writes it (D for the Queen in German and Hungarian),
    for a card a person looks at in Jupyter (the words are above the core: a door up)."""
    if card.rank is None:
        return None
    from ..text.i18n import rank_letter

    return rank_letter(card.rank)


def _all_cards() -> dict[str, Card]:
    joker = Card(None, None)
    table: dict[str, Card] = {"JOKER": joker, "★": joker, "🃏": joker}  # 🃏: the joker's old symbol
    for suit_text, suit in _SUIT_BY_TEXT.items():
        for rank_text, rank in _RANK_BY_TEXT.items():
            table[rank_text + suit_text] = Card(rank, suit)
    return table


_CARD_BY_TEXT = _all_cards()
JOKER: Card = _CARD_BY_TEXT["JOKER"]

#: The cards by their ``index`` (0-51 by suit and rank, the joker 52): ``CARD_AT[card.index] is card``.
#: The engine keeps a hand as the bytes of its cards' indices (``maumau.core.turn``) and reads a card
#: back here.
CARD_AT: tuple[Card, ...] = tuple(sorted(set(_CARD_BY_TEXT.values())))


def cards(text: str | Iterable[str | Card]) -> CardTuple:
    """``cards("7H 8S QH")`` → a tuple of cards (also accepts commas or a list)."""
    if isinstance(text, str):
        parts: Iterable[str | Card] = text.replace(",", " ").split()
    else:
        parts = text
    return CardTuple(Card.parse(p) for p in parts)


def parse_wish(text: str | Suit | Rank) -> Suit | Rank:
    """A wish: a suit (``"H"``, ``"♥"``) or a rank (``"Q"``, ``"10"``)."""
    if isinstance(text, (Suit, Rank)):
        return text
    key = str(text).strip().upper()
    if key in _SUIT_BY_TEXT:
        return _SUIT_BY_TEXT[key]
    if key in _RANK_BY_TEXT:
        return _RANK_BY_TEXT[key]
    raise CardError.said("card.unknown_wish", text=text)


def make_deck(ranks: Iterable[Rank] = RANKS_52, *, copies: int = 1, jokers: int = 0) -> CardTuple:
    """A sorted deck: every rank in every suit, ``copies`` times, plus ``jokers``."""
    ranks = tuple(ranks)
    one = [Card(r, s) for s in Suit for r in ranks]
    return CardTuple(sorted(one * copies + [JOKER] * jokers))
