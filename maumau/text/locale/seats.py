"""How a screen names a seat (issue 24, item 5): the player's name where it has one, else its seat
("Seat 2", "Platz 2", "2. játékos"); the learner's own seat says "you" ("du", "te") with the seat
beside it, so that the table, the terminal and the class page read alike:

>>> seat_label(0, True, "en"), seat_label(0, True, "de"), seat_label(0, True, "hu")
('You (seat 0)', 'Du (Platz 0)', 'Te (0. játékos)')
>>> seat_label(2, False, "de"), seat_label(1, True, "en", name="Cleo")
('Platz 2', 'Cleo (you)')
>>> seat_label(0, True, "en", start=False)  # in the middle of a sentence
'you (seat 0)'

Sentences about what the learner does use the second person instead ("You play 7♥",
``locale/you.py``); this is the name on a seat's panel, in a list of players, in a standings row.
"""

from __future__ import annotations

__all__ = ["SEAT_WORDS", "seat_label", "seat_words"]

SEAT_WORDS: dict[str, dict[str, str]] = {
    "en": {"seat": "Seat {seat}", "seat.mid": "seat {seat}", "you": "You ({seat_words})",
           "you.mid": "you ({seat_words})", "you.named": "{name} (you)", "seat_words": "seat {seat}"},
    "de": {"seat": "Platz {seat}", "seat.mid": "Platz {seat}", "you": "Du ({seat_words})",
           "you.mid": "du ({seat_words})", "you.named": "{name} (du)", "seat_words": "Platz {seat}"},
    "hu": {"seat": "{seat}. játékos", "seat.mid": "{seat}. játékos", "you": "Te ({seat_words})",
           "you.mid": "te ({seat_words})", "you.named": "{name} (te)", "seat_words": "{seat}. játékos"},
}


def seat_label(seat: int, is_you: bool, lang: str, name: str | None = None, *, start: bool = True) -> str:
    """The name of ``seat`` on a screen in ``lang``: ``name`` (a player's own name) or the seat's
    number in words; the learner's seat (``is_you``) adds "you".  A name that is only the seat's
    default label ("Seat 0") counts as no name.  ``start=False``: for the middle of a sentence
    ("you (seat 0)", "seat 2"; German nouns keep their capital)."""
    words = SEAT_WORDS.get(lang, SEAT_WORDS["en"])
    defaults = {words["seat"].format(seat=seat), words["seat.mid"].format(seat=seat)}
    named = name is not None and name.strip() != "" and name not in defaults
    if is_you:
        if named:
            return words["you.named"].format(name=name)
        return words["you" if start else "you.mid"].format(seat_words=words["seat_words"].format(seat=seat))
    if named:
        return str(name)
    return words["seat" if start else "seat.mid"].format(seat=seat)


def seat_words(seat: int, lang: str, name: str | None = None) -> str:
    """Who sits at ``seat`` in a bracket after "Your turn" ("Your turn (seat 0)", "Du bist am Zug
    (Platz 0)"): the player's name, else the seat's number in words."""
    words = SEAT_WORDS.get(lang, SEAT_WORDS["en"])
    defaults = {words["seat"].format(seat=seat), words["seat.mid"].format(seat=seat)}
    if name is not None and name.strip() != "" and name not in defaults:
        return name
    return words["seat_words"].format(seat=seat)
