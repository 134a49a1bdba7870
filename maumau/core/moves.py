"""The three kinds of move: ``Play``, ``Draw`` and ``Pass`` (docs/explanation/design.md).

Moves are immutable, interned values: ``Play("7H") is Play("7H")``.  Equal moves are
the same object, so comparing and hashing them costs nothing on the hot path.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .cards import Card, CardError, CardTuple, Rank, Suit, cards, parse_wish

__all__ = ["Move", "Play", "Draw", "Pass", "move_from_dict", "TURN", "EXTRA", "DRAWN", "PHASES"]

#: The phases of a turn, which say what moves come next: a normal turn, the extra play after
#: an Ace (MK-8, JM-8), and the choice after drawing (MR-4, JM-3).  A pending effect is its own
#: situation (C-5), in the phase of the turn it interrupts.
TURN, EXTRA, DRAWN = "turn", "extra", "drawn"
PHASES = (TURN, EXTRA, DRAWN)


class Move:
    """Base class of all moves."""

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        raise NotImplementedError

    def __copy__(self) -> Move:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Move:
        return self


class Play(Move):
    """Play one card, or a set of cards of one rank (LM-5), from the hand.

    ``Play("JC", wish="H")`` names a suit (or a rank: ``wish="Q"``),
    ``mau=True`` announces Mau/Macau/Makaó (C-8), ``runde=True`` opens a Runde (MR-8).
    In a set the first card must be legal and the last one becomes the top card;
    the order of the cards in between does not matter, so it is normalised.
    """

    __slots__ = ("cards", "card", "last", "wish", "mau", "runde", "indices", "__weakref__")
    _interned: dict[tuple[Any, ...], Play] = {}

    cards: CardTuple
    card: Card
    last: Card
    wish: Suit | Rank | None
    mau: bool
    runde: bool
    #: The cards' indices as bytes, in the play's order: how a state keeps cards (``maumau.core.turn``).
    indices: bytes

    def __new__(
        cls,
        cards_: str | Card | Iterable[str | Card],
        wish: str | Suit | Rank | None = None,
        mau: bool = False,
        runde: bool = False,
    ) -> Play:
        key = (cards_, wish, mau, runde)
        try:
            found = cls._interned.get(key)
        except TypeError:  # an unhashable list of cards
            found = None
        if found is not None:
            return found
        seq: tuple[Card, ...] = (cards_,) if isinstance(cards_, Card) else cards(cards_)
        if not seq:
            raise CardError.said("card.empty_play")
        if len(seq) > 2:
            seq = (seq[0], *sorted(seq[1:-1]), seq[-1])
        norm = (tuple(seq), None if wish is None else parse_wish(wish), bool(mau), bool(runde))
        play = cls._interned.get(norm)
        if play is None:
            play = super().__new__(cls)
            for name, value in zip(("cards", "wish", "mau", "runde"), norm, strict=True):
                object.__setattr__(play, name, value)
            object.__setattr__(play, "cards", CardTuple(norm[0]))
            object.__setattr__(play, "card", norm[0][0])
            object.__setattr__(play, "last", norm[0][-1])
            object.__setattr__(play, "indices", bytes([card.index for card in norm[0]]))
            cls._interned[norm] = play
        try:
            cls._interned[key] = play
        except TypeError:
            pass
        return play

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("moves are immutable")

    def __reduce__(self) -> tuple[type[Play], tuple[tuple[Card, ...], Suit | Rank | None, bool, bool]]:
        return (Play, (tuple(self.cards), self.wish, self.mau, self.runde))

    def replace(self, **changes: Any) -> Play:
        """This play with some options changed, e.g. ``move.replace(mau=False)``."""
        args: dict[str, Any] = {"cards_": tuple(self.cards), "wish": self.wish, "mau": self.mau,
                "runde": self.runde}
        args.update(changes)
        return Play(**args)

    def __str__(self) -> str:
        text = "play " + " ".join(c.text for c in self.cards)
        if self.wish is not None:
            text += f" wish {self.wish}"
        if self.runde:
            text += " runde"
        if self.mau:
            text += " mau"
        return text

    def __repr__(self) -> str:
        args = [repr(" ".join(c.text for c in self.cards))]
        if self.wish is not None:
            args.append(f"wish={str(self.wish)!r}")
        if self.mau:
            args.append("mau=True")
        if self.runde:
            args.append("runde=True")
        return f"Play({', '.join(args)})"

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"play": " ".join(c.text for c in self.cards)}
        if self.wish is not None:
            data["wish"] = str(self.wish)
        if self.mau:
            data["mau"] = True
        if self.runde:
            data["runde"] = True
        return data


class _Singleton(Move):
    __slots__ = ()
    _instance: _Singleton | None = None
    _word = ""

    def __new__(cls) -> _Singleton:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __reduce__(self) -> tuple[type[_Singleton], tuple[()]]:
        return (type(self), ())

    def __str__(self) -> str:
        return self._word

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def to_dict(self) -> dict[str, Any]:
        return {self._word: True}


class Draw(_Singleton):
    """Draw one card from the stock, or take a pending draw penalty (C-4, C-5)."""

    __slots__ = ()
    _instance = None
    _word = "draw"


class Pass(_Singleton):
    """End the turn without playing, where the rules allow it (C-5, MR-4, JM-3, JM-8)."""

    __slots__ = ()
    _instance = None
    _word = "pass"


def move_from_dict(data: Any) -> Move:
    """The inverse of ``Move.to_dict()``; raises ValueError on anything else."""
    if not isinstance(data, dict):
        raise ValueError(f"a move is a JSON object, not {data!r}")
    if data == {"draw": True}:
        return Draw()
    if data == {"pass": True}:
        return Pass()
    if "play" in data and set(data) <= {"play", "wish", "mau", "runde"}:
        return Play(data["play"], wish=data.get("wish"), mau=bool(data.get("mau")),
                    runde=bool(data.get("runde")))
    raise ValueError(f"not a move: {data!r}")
