"""The named variants of RULES.md, each a name, a deck, a hand size, a player range
and a tuple of rules; ``without`` and ``with_rules`` make house-rule variants."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, cast

from . import rules as R
from .cards import RANKS_32, RANKS_52, Card, CardTuple, Rank, Suit, make_deck
from .moves import Draw, Move, Play
from .problems import InvalidState
from .rules import rulebook
from .rules.base import HOOKS, Memory, Pending, Role, Rule, lock_slot, overrides, with_locked

if TYPE_CHECKING:  # pragma: no cover
    from .playable import CardPlays

__all__ = ["Variant", "variant", "variant_names", "VariantError"]


class VariantError(ValueError):
    """An unknown variant, rule or option, or a player count the variant does not allow."""


class Variant:
    """A game of the Mau-Mau family: a name, a deck, a hand size, players and rules.

    >>> v = variant("makao")
    >>> v.name, len(v.deck), v.hand_size, v.players
    ('makao', 104, 7, (2, 5))
    >>> "reverse_on_nine" in v, "reverse_on_nine" in v.without("reverse_on_nine")
    (True, False)
    """

    def __init__(self, name: str, deck: Iterable[Card], hand_size: int, players: tuple[int, int],
                 rules: Iterable[Rule], *, title: str = "", options: dict[str, Any] | None = None,
                 changes: tuple[tuple[str, Any], ...] = (), call: str | None = None) -> None:
        self.name = name
        self.title = title or name
        self.deck = CardTuple(sorted(deck, key=lambda c: c.index))
        self.hand_size = hand_size
        self.players = players
        self.rules: tuple[Rule, ...] = tuple(rules)
        self.options = dict(options or {})
        #: The house rules applied to the named variant: ("without", name) or ("with", rule).
        self.changes = changes
        #: The variant's own call word (C-8: Makaó), else its announcement rule's (Mau, Macau).
        self._call = call
        self._hash: int | None = None
        names = [r.name for r in self.rules]
        if len(set(names)) != len(names):
            raise VariantError(f"two rules share a name in {name}: {sorted(names)}")
        self._compile()

    # --- what the engine reads --------------------------------------------------------------
    def _compile(self) -> None:
        """Precompute which rules act on which cards, so the hot path asks only those."""
        self.distinct_cards = tuple(sorted(set(self.deck), key=lambda c: c.index))
        self._hooks = {h: tuple(r for r in self.rules if overrides(r, h)) for h in HOOKS}
        self._extenders = self._hooks["extra_plays"]
        self._forcers = self._hooks["forces_play"]
        self._effects = self._by_card("on_play")
        self._last_card = self._by_card("on_last_card")
        self._wishers: dict[Card, Rule] = {}  # the rule that lets each card name a wish
        for card in self.distinct_cards:
            wisher = next((r for r in self._hooks["wish_kind"] if r.wish_kind(card) is not None), None)
            if wisher is not None:
                self._wishers[card] = wisher
        self._legal_cache: dict[tuple[Card, Suit | Rank | None, Pending | None, Memory], frozenset[Card]] = {}
        #: The plays of each playable card per table, without and with the announcement
        #: (``playable.plays_on``): by the top card where nothing else is on the table, else by the table.
        #: Each is a tuple by card index (``playable.CardPlays``), as legal moves walk a hand's bytes.
        self._plays_by_top: dict[Card, tuple[CardPlays, CardPlays]] = {}
        self._plays_cache: dict[tuple[Card, Suit | Rank | None, Pending | None, Memory],
                                tuple[CardPlays, CardPlays]] = {}
        #: The memory slots of the rules that remember, as they are at the deal.
        self.memory_at_deal: Memory = tuple((r, r.memory_at_deal) for r in self.rules if r.remembers)
        #: Where the locked seats (JM-9) sit in a state's memory, or -1: the hot path reads them there.
        self._lock_slot = lock_slot(self.memory_at_deal)
        self.after_draw = next((r.after_draw for r in self.rules if r.after_draw), "none")
        self.reshuffles = all(r.reshuffles for r in self.rules)  # C-6, unless a house rule says no
        self.extra_closer: Move = next(
            (r.closer for r in self.rules if r.closer is not None), Draw())
        self.announcement = next(iter(self._hooks["on_missing_announcement"]), None)
        # The variant's policies, each the rule that declares the role (or the core's default).
        # a rule declaring Role.SCORING has the Scoring interface (hand_scores, match_over, ...)
        self.scoring = cast(R.Scoring, next(iter(self.having(Role.SCORING)), R.Scoring()))
        self.upcard_rule = next(iter(self.having(Role.UPCARD)), None)
        self.join_and_leave = bool(self.having(Role.JOIN_AND_LEAVE))  # MK-14
        ranks = tuple(dict.fromkeys(c.rank for c in self.distinct_cards if c.rank is not None))
        plays = {card: self._plays_of(card, ranks) for card in self.distinct_cards}
        # _plays[mau][card]: the plays of one card, without and with the announcement.
        self._plays = ({c: p[0] for c, p in plays.items()}, {c: p[1] for c, p in plays.items()})

    def memory_with(self, values: Mapping[str, Hashable]) -> Memory:
        """The memory at the deal, with the slots of the rules named in ``values`` set."""
        names = [rule.name for rule, _ in self.memory_at_deal]
        for name in values:
            if name not in names:
                having = ", ".join(names) or "none"
                raise InvalidState(f"{self.name} has no rule {name!r} that remembers (rules with memory: {having})")
        return tuple((rule, values.get(rule.name, held)) for rule, held in self.memory_at_deal)

    def runde_memory(self, runde: tuple[Rank, int] | None) -> Memory:
        """The memory at the deal with the Runde (rank, opener) running (MR-8), for ``mm.position``
        and saved games, which name the Runde apart."""
        if runde is None:
            return self.memory_at_deal
        rule = next((r for r, _ in self.memory_at_deal if Role.RUNDE in r.roles), None)
        if rule is None:
            raise InvalidState(f"a Runde runs, but {self.name} has no runde rule (MR-8)")
        return self.memory_with({rule.name: runde})

    def lock_memory(self, memory: Memory, seats: Iterable[Any]) -> Memory:
        """``memory`` with the seats whose last card is locked (JM-9), for ``mm.position`` and saved
        games, which name the locked seats apart."""
        seats = list(seats)
        if not seats:
            return memory
        if not self.having(Role.LOCK):
            raise InvalidState(f"seats are locked, but {self.name} has no mau_lock rule (JM-9)")
        if any(type(seat) is not int for seat in seats) or len(set(seats)) != len(seats):
            raise InvalidState(f"locked must be different seat numbers, not {seats!r}")
        return with_locked(memory, set(seats))

    def having(self, role: Role) -> tuple[Rule, ...]:
        """The variant's rules that declare ``role``, in the variant's order."""
        return tuple(r for r in self.rules if role in r.roles)

    def _by_card(self, hook: str) -> dict[Card, tuple[Rule, ...]]:
        """The rules whose ``hook`` acts on each card: those whose ``affects`` says yes to it, and
        a rule that does not say (no ``affects`` of its own) for every card: its hook looks at
        the card itself."""
        table: dict[Card, tuple[Rule, ...]] = {}
        for card in self.distinct_cards:
            found = tuple(r for r in self._hooks[hook] if r.affects(card) or not overrides(r, "affects"))
            if found:
                table[card] = found
        return table

    def wish_kind(self, card: Card) -> type | None:
        """Suit or Rank if playing ``card`` names a wish in this variant (its wisher says which)."""
        wisher = self._wishers.get(card)
        return None if wisher is None else wisher.wish_kind(card)

    def _plays_of(self, card: Card, ranks: tuple[Rank, ...]) -> tuple[tuple[Play, ...], ...]:
        kind = self.wish_kind(card)
        wishes: tuple[Suit | Rank | None, ...] = (
            tuple(Suit) if kind is Suit else ranks if kind is Rank else (None,))
        return (tuple(Play(card, wish=w) for w in wishes),
                tuple(Play(card, wish=w, mau=True) for w in wishes))

    @property
    def call(self) -> str:
        """What a player says with the second-to-last card (C-8): Makaó, Macau or Mau."""
        if self._call is not None:
            return self._call
        announcement = self.announcement
        return (announcement.call if announcement is not None else None) or "Mau"

    # --- house rules ---------------------------------------------------------------------------
    def rule(self, name: str) -> Rule:
        for r in self.rules:
            if r.name == name:
                return r
        raise VariantError(f"{self.name} has no rule {name!r}; its rules are {self.rule_names()}")

    def rule_names(self) -> list[str]:
        return [r.name for r in self.rules]

    def __contains__(self, name: object) -> bool:
        return any(r.name == name for r in self.rules)

    def without(self, *names: str) -> Variant:
        """A new variant without the named rules (house rules)."""
        for name in names:
            self.rule(name)  # a clear error for an unknown name
        kept = [r for r in self.rules if r.name not in names]
        return self._derive(kept, tuple(("without", n) for n in names))

    def with_rules(self, *new: Rule) -> Variant:
        """A new variant with extra rules; a rule replaces one of the same name."""
        for rule in new:
            if not isinstance(rule, Rule):
                raise VariantError(f"with_rules takes Rule objects, not {rule!r}")
        names = {r.name for r in new}
        kept = [r for r in self.rules if r.name not in names]
        return self._derive(kept + list(new), tuple(("with", r) for r in new))

    def house_rules(self) -> str:
        """The changes to the named variant, e.g. "without reverse_on_nine"."""
        return ", ".join(f"{how} {what if how == 'without' else repr(what)}"
                         for how, what in self.changes)

    def _derive(self, rules: list[Rule], change: tuple[tuple[str, Any], ...]) -> Variant:
        return Variant(self.name, self.deck, self.hand_size, self.players, rules,
                       title=self.title, options=self.options, changes=self.changes + change,
                       call=self._call)

    # --- values and display ----------------------------------------------------------------------
    def _identity(self) -> tuple[str, tuple[Card, ...], int, tuple[int, int], tuple[Rule, ...]]:
        return (self.name, tuple(self.deck), self.hand_size, self.players, self.rules)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return isinstance(other, Variant) and self._identity() == other._identity()

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = self._hash = hash(self._identity())
        return h

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as what makes it, never its caches: a process pool pickles a variant in a thread
        of its own while this process plays on with it and fills them ("dictionary changed size
        during iteration"), and a learner's rule with memory can grow them to megabytes."""
        return (_remade, (type(self), self.name, tuple(self.deck), self.hand_size, self.players, self.rules,
                          self.title, self.options, self.changes, self._call))

    def __repr__(self) -> str:
        """``<Variant makao: 104 cards, 11 rules>`` in the course's language (the words are made
        above the core: a door up, asked only when a person looks)."""
        from ..text.rules_table import variant_repr

        return variant_repr(self)

    def describe(self) -> str:
        """The variant's rules as plain text (``maumau rules NAME``)."""
        lo, hi = self.players
        lines = [f"{self.title} ({self.name})",
                 f"{len(self.deck)} cards, {self.hand_size} each, {lo}-{hi} players", ""]
        lines += [f"- {r.name}: {r.summary}" for r in self.rules]
        if self.changes:
            lines += ["", "House rules: " + self.house_rules()]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        from ..text.rules_table import variant_html  # words are made above the core (a door up)

        return variant_html(self)


# --- the four variants of RULES.md ------------------------------------------------------------

def _remade(cls: type[Variant], name: str, deck: tuple[Card, ...], hand_size: int, players: tuple[int, int],
            rules: tuple[Rule, ...], title: str, options: dict[str, Any], changes: tuple[tuple[str, Any], ...],
            call: str | None) -> Variant:
    """A pickled variant made again (``Variant.__reduce__``), its caches empty."""
    return cls(name, deck, hand_size, players, rules, title=title, options=options, changes=changes, call=call)


def _lite_macau(points_to_win: int = 2) -> Variant:
    return Variant("lite_macau", make_deck(RANKS_52), 5, (2, 4), rulebook.lite_macau(points_to_win),
                   title="LITE Games Macau", options={"points_to_win": points_to_win})


def _mau_mau_runde(hands_to_win: int = 1) -> Variant:
    return Variant("mau_mau_runde", make_deck(RANKS_32), 5, (2, 4), rulebook.mau_mau_runde(hands_to_win),
                   title="Mau-Mau mit Runde", options={"hands_to_win": hands_to_win})


def _makao(limit: int = 100, strict: bool = False) -> Variant:
    return Variant("makao", make_deck(RANKS_52, copies=2), 7, (2, 5), rulebook.makao(limit, strict),
                   title="Makaó", options={"limit": limit, "strict": strict}, call="Makaó")


def _joker_mau_mau(jokers: int = 2, threshold: int = 100) -> Variant:
    if jokers < 0:
        raise VariantError(f"jokers must be 0 or more, not {jokers}")
    return Variant("joker_mau_mau", make_deck(RANKS_32, jokers=jokers), 5, (2, 5),
                   rulebook.joker_mau_mau(jokers == 0, threshold),
                   title="Mau-Mau mit Jokern", options={"jokers": jokers, "threshold": threshold})


_VARIANTS: dict[str, Callable[..., Variant]] = {
    "joker_mau_mau": _joker_mau_mau,
    "lite_macau": _lite_macau,
    "makao": _makao,
    "mau_mau_runde": _mau_mau_runde,
}
_CACHE: dict[tuple[str, tuple[tuple[str, Any], ...]], Variant] = {}


def variant_names() -> list[str]:
    """The names of the built-in variants, sorted."""
    return sorted(_VARIANTS)


def variant(name: str | Variant, **options: Any) -> Variant:
    """The named variant, with options as keyword arguments (e.g. ``jokers=0``)."""
    if isinstance(name, Variant):
        if options:
            raise VariantError("options go with a variant name, not a Variant object")
        return name
    make = _VARIANTS.get(name)
    if make is None:
        raise VariantError(f"unknown variant {name!r}: choose one of {', '.join(variant_names())}")
    key = (name, tuple(sorted(options.items())))
    found = _CACHE.get(key)
    if found is None:
        try:
            found = make(**options)
        except TypeError as err:
            raise VariantError(f"{name} has no such option: {err}") from None
        except VariantError:
            raise
        except ValueError as err:
            raise VariantError(f"{name}: {err}") from None
        _CACHE[key] = found
    return found
