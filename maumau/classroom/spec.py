"""What a teacher chooses for a class table, checked, and the part of it anyone may know.

The seed of a table's match decides every deal: whoever knows it knows every hand.  So a table
the teacher gives no seed gets one from the operating system's secure source, and it never
leaves the server; a teacher who wants a reproducible deal (a lesson, a tournament replayed)
gives one explicitly (``fixed_seed``), and only the teacher's table list shows it.  Clients
learn the rules (``public_rules``), never the spec itself.
"""

from __future__ import annotations

import secrets
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ..core.variants import Variant, VariantError, variant
from ..players import strength_names
from .messages import ProtocolError

__all__ = ["TableSpec", "TableError", "random_seed"]

#: The longest turn clock a teacher may set (seconds): a lesson, not a day.
LONGEST_CLOCK = 3600.0


class TableError(ProtocolError):
    """Something this table does not allow now (a full table, a move out of turn, ...)."""


def random_seed() -> int:
    """A seed nobody can guess (63 bits from ``secrets``)."""
    return secrets.randbits(63)


@dataclass(frozen=True)
class TableSpec:
    """The variant (with house rules taken out), the seats, how many of them computers hold and
    how strong they are, the match's seed (``None``: a secret random one), the table's language,
    and the turn clock: seconds a connected learner may think before a computer moves for them
    (``None``: no clock)."""

    variant: str = "makao"
    seats: int = 4
    computers: int = 0
    strength: str = "medium"
    without: tuple[str, ...] = ()
    seed: int | None = None
    lang: str = "en"
    options: dict[str, Any] = field(default_factory=dict)  # the variant's options (limit=50, jokers=0)
    clock: float | None = None
    fixed_seed: bool = False  # the teacher gave the seed (and may see it); else it is the server's secret

    def make_variant(self) -> Variant:
        return variant(self.variant, **self.options).without(*self.without)

    def check(self) -> TableSpec:
        """This spec with its seed settled (a given seed is the teacher's, a missing one a secret
        random one), or TableError saying what is wrong with it."""
        try:
            v = self.make_variant()
        except (VariantError, ValueError, TypeError) as err:
            raise TableError("bad_table", str(err)) from None
        lo, hi = v.players
        if type(self.seats) is not int or not lo <= self.seats <= hi:
            raise TableError("bad_table", f"{v.name} is played by {lo} to {hi} players, not {self.seats!r}")
        if type(self.computers) is not int or not 0 <= self.computers <= self.seats:
            raise TableError("bad_table", f"computers must be 0 to {self.seats}, not {self.computers!r}")
        if self.strength not in strength_names():
            raise TableError("bad_table", f"strength must be one of {', '.join(strength_names())}")
        if self.seed is not None and (type(self.seed) is not int or not 0 <= self.seed < 2 ** 63):
            raise TableError("bad_table", "seed is a whole number from 0 to 2**63 - 1 (or none: a random one)")
        if self.lang not in ("en", "de", "hu"):
            raise TableError("bad_table", "lang is en, de or hu")
        clock = self.clock
        if clock is not None and (type(clock) not in (int, float) or not 0 < clock <= LONGEST_CLOCK):
            raise TableError("bad_table", f"clock is seconds, more than 0 and at most {LONGEST_CLOCK:.0f}, or none")
        if self.seed is None:
            return replace(self, seed=random_seed(), fixed_seed=False)
        return self

    @property
    def match_seed(self) -> int:
        assert self.seed is not None, "a checked spec has a seed"
        return self.seed

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableSpec:
        """A spec from JSON (the teacher's ``create`` or the database): a seed given and not said
        to be the server's own is the teacher's explicit seed."""
        allowed = set(cls.__dataclass_fields__)
        unknown = set(data) - allowed
        if unknown:
            raise TableError("bad_table", f"a table has no setting {str(sorted(unknown)[0])[:40]!r}")
        without = data.get("without", ())
        if not isinstance(without, (list, tuple)) or not all(isinstance(n, str) for n in without):
            raise TableError("bad_table", "without lists rule names")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise TableError("bad_table", "options map a variant's option names to values")
        fixed = data.get("fixed_seed", data.get("seed") is not None)
        if type(fixed) is not bool:
            raise TableError("bad_table", "fixed_seed is true or false")
        try:
            spec = cls(**{**data, "without": tuple(without), "options": dict(options), "fixed_seed": fixed})
        except TypeError as err:
            raise TableError("bad_table", str(err)) from None
        return spec.check()

    def to_json(self) -> dict[str, Any]:
        """Everything, the seed too: for the database only."""
        return {**asdict(self), "without": list(self.without), "options": dict(self.options)}

    def public_rules(self) -> dict[str, Any]:
        """What every client may know: the rules played (to build the same Variant), no seed."""
        return {"variant": self.variant, "options": dict(self.options), "without": list(self.without)}

    def for_teacher(self) -> dict[str, Any]:
        """What the teacher's table list shows: the settings, and the seed only if they chose it."""
        shown = {**self.public_rules(), "seats": self.seats, "computers": self.computers,
                 "strength": self.strength, "lang": self.lang, "clock": self.clock}
        if self.fixed_seed:
            shown["seed"] = self.seed
        return shown
