"""The league's words in English, German and Hungarian (the standings, the league page)."""

from __future__ import annotations

from typing import Any

__all__ = ["WORDS", "say", "LANGS"]

LANGS = ("en", "de", "hu")

WORDS: dict[str, dict[str, str]] = {
    "title": {"en": "Class league", "de": "Klassenliga", "hu": "Osztálybajnokság"},
    "standings": {"en": "Standings", "de": "Tabelle", "hu": "Állás"},
    "caption": {"en": "Standings after {games} games, best first. Rating: the conservative estimate mu − 3 sigma.",
                "de": "Tabelle nach {games} Spielen, die Besten zuerst. "
                      "Wertung: die vorsichtige Schätzung mu − 3 sigma.",
                "hu": "Állás {games} játszma után, a legjobb elöl. Értékelés: az óvatos becslés, mu − 3 szigma."},
    "rank": {"en": "Place", "de": "Platz", "hu": "Hely"},
    "bot": {"en": "Bot", "de": "Bot", "hu": "Bot"},
    "ordinal": {"en": "Rating", "de": "Wertung", "hu": "Értékelés"},
    "skill": {"en": "mu ± sigma", "de": "mu ± sigma", "hu": "mu ± szigma"},
    "games": {"en": "Games", "de": "Spiele", "hu": "Játszmák"},
    "wins": {"en": "Wins (95% interval)", "de": "Siege (95%-Intervall)", "hu": "Győzelmek (95%-os intervallum)"},
    "points": {"en": "Points", "de": "Punkte", "hu": "Pontok"},
    "faults": {"en": "Faults", "de": "Fehler", "hu": "Hibák"},
    "forfeits": {"en": "Forfeits", "de": "Aufgegeben", "hu": "Feladott"},
    "apart": {"en": "Cannot be told apart yet from", "de": "Noch nicht zu unterscheiden von",
              "hu": "Még nem különböztethető meg ettől:"},
    "nobody": {"en": "—", "de": "—", "hu": "—"},
    "no_bots": {"en": "No bots have entered yet.", "de": "Noch keine Bots angemeldet.",
                "hu": "Még nincs benevezett bot."},
    "latest": {"en": "Latest games", "de": "Letzte Spiele", "hu": "Legutóbbi játszmák"},
    "game": {"en": "Game", "de": "Spiel", "hu": "Játszma"},
    "seats": {"en": "Seats", "de": "Plätze", "hu": "Helyek"},
    "winner": {"en": "Winner", "de": "Sieger", "hu": "Győztes"},
    "replay": {"en": "Replay", "de": "Wiederholung", "hu": "Visszajátszás"},
    "refresh": {"en": "Refresh", "de": "Aktualisieren", "hu": "Frissítés"},
    "submit": {"en": "Enter your bot", "de": "Bot anmelden", "hu": "Bot nevezése"},
}


def say(key: str, lang: str = "en", **values: Any) -> str:
    """The league's word ``key`` in ``lang`` (English where ``lang`` is not one of LANGS)."""
    entry = WORDS[key]
    return entry.get(lang, entry["en"]).format(**values)
