"""The learning environments' words for people, in English, German ("du") and Hungarian ("te"):
the text table, the actions and the features as labels, the learning curve's axes and legend.

The identifiers code uses stay English and stable (``str(move)``, ``FEATURES``, the curve's
columns); these are the labels shown beside them.  ``say(key, lang)``: None is the course's
language (``mm.set_language``).
"""

from __future__ import annotations

from typing import Any

from ..text.i18n import check_language

__all__ = ["WORDS", "FEATURE_WORDS", "say"]

WORDS: dict[str, dict[str, str]] = {
    # the text table (render)
    "void": {"en": "the hand is blocked (void)", "de": "das Spiel ist blockiert (ungültig)",
             "hu": "a kör elakadt (érvénytelen)"},
    "went_out": {"en": "seat {seat} went out", "de": "Platz {seat} ist fertig",
                 "hu": "{seat}. játékosnak elfogytak a lapjai"},
    "to_move": {"en": "seat {seat} to move", "de": "Platz {seat} ist am Zug", "hu": "{seat}. játékos következik"},
    "drawn": {"en": "may play the drawn card", "de": "darf die gezogene Karte legen",
              "hu": "kijátszhatja a húzott lapot"},
    "pending_for": {"en": "{pending} for seat {seat}", "de": "{pending} für Platz {seat}",
                    "hu": "{pending} ({seat}. játékos)"},
    "wish": {"en": "wish {wish}", "de": "Wunsch {wish}", "hu": "kérés: {wish}"},
    "runde": {"en": "Runde of {rank} opened by seat {seat}", "de": "Runde mit {rank}, eröffnet von Platz {seat}",
              "hu": "{rank} Runde, nyitotta: {seat}. játékos"},
    "counter": {"en": "counter-clockwise", "de": "gegen den Uhrzeigersinn",
                "hu": "az óramutató járásával ellentétesen"},
    "top": {"en": "top", "de": "oben", "hu": "felső lap"},
    "stock": {"en": "stock", "de": "Nachziehstapel", "hu": "talon"},
    "pile": {"en": "pile", "de": "Ablage", "hu": "dobópakli"},
    "you": {"en": " (you)", "de": " (du)", "hu": " (te)"},
    "face_down": {"en": "{cards}, face down", "de": "{cards}, verdeckt", "hu": "{cards}, lefordítva"},
    # the actions
    "draw": {"en": "draw", "de": "ziehen", "hu": "húzás"},
    "play": {"en": "play {cards}", "de": "lege {cards}", "hu": "kijátssza: {cards}"},
    "play_wish": {"en": " wish {wish}", "de": ", Wunsch {wish}", "hu": ", kérés: {wish}"},
    "play_runde": {"en": " runde", "de": ", eröffnet eine Runde", "hu": ", Rundét nyit"},
    "play_mau": {"en": " mau", "de": ", sagt {call}", "hu": ", bemondja: {call}"},
    # the learning curve
    "curve_title": {"en": "Learning curve", "de": "Lernkurve", "hu": "Tanulási görbe"},
    "generation": {"en": "generation", "de": "Generation", "hu": "generáció"},
    "win_rate": {"en": "win rate of seat 0", "de": "Siegquote von Platz 0", "hu": "a 0. játékos nyerési aránya"},
    "check": {"en": "mean weights, fixed check hands", "de": "mittlere Gewichte, feste Prüfspiele",
              "hu": "átlagos súlyok, rögzített ellenőrző körök"},
    "elite": {"en": "elite, this generation's hands", "de": "Elite, Spiele dieser Generation",
              "hu": "elit, ennek a generációnak a körei"},
    "random": {"en": "a random player", "de": "ein Zufallsspieler", "hu": "egy véletlen játékos"},
}

#: The features' labels by their stable names (``agent.FEATURES``); "rank X" is made from the rank.
FEATURE_WORDS: dict[str, dict[str, str]] = {
    "draw": {"de": "ziehen", "hu": "húzás"},
    "pass": {"de": "passen", "hu": "passz"},
    "play": {"de": "legen", "hu": "kijátszás"},
    "rank": {"de": "Wert {rank}", "hu": "{rank} érték"},
    "rank joker": {"de": "Joker", "hu": "joker"},
    "cards shed": {"de": "abgelegte Karten", "hu": "letett lapok"},
    "names a wish": {"de": "wünscht sich etwas", "hu": "kér valamit"},
    "opens a Runde": {"de": "eröffnet eine Runde", "hu": "Rundét nyit"},
    "suit still held": {"de": "Farbe noch auf der Hand", "hu": "a szín még a kézben"},
    "rank still held": {"de": "Wert noch auf der Hand", "hu": "az érték még a kézben"},
    "wish fits hand": {"de": "Wunsch passt zur Hand", "hu": "a kérés illik a kézhez"},
    "cards left": {"de": "Karten übrig", "hu": "megmaradt lapok"},
    "draw under penalty": {"de": "ziehen unter Strafe", "hu": "húzás büntetéskor"},
    "draw when a play is legal": {"de": "ziehen, obwohl Legen erlaubt ist",
                                  "hu": "húzás, bár lehetne lapot tenni"},
}



def say(key: str, lang: str | None = None, **values: Any) -> str:
    """Word ``key`` in ``lang`` (None: the course's language)."""
    entry = WORDS[key]
    return entry.get(check_language(lang), entry["en"]).format(**values)
