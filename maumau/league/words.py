"""The league's words in English, German and Hungarian (the standings, the league page)."""

from __future__ import annotations

from typing import Any

from ..text.i18n import language

__all__ = ["WORDS", "say", "template", "LANGS"]

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
    "name": {"en": "Name", "de": "Name", "hu": "Név"},
    "token": {"en": "Token (from your first entry)", "de": "Token (von der ersten Anmeldung)",
              "hu": "Token (az első nevezésből)"},
    "personal": {"en": "Your personal code (from your teacher)", "de": "Dein persönlicher Code (von deiner Lehrkraft)",
                 "hu": "A személyes kódod (a tanárodtól)"},
    "source": {"en": "Your bot (Python, or the exercise-13 notebook)",
               "de": "Dein Bot (Python oder das Notebook von Aufgabe 13)",
               "hu": "A botod (Python vagy a 13. feladat notebookja)"},
    "send": {"en": "Enter", "de": "Anmelden", "hu": "Nevezés"},
    "entered": {"en": "Entered {name}, version {version}. Keep your token: {token}",
                "de": "{name} angemeldet, Version {version}. Bewahre dein Token auf: {token}",
                "hu": "{name} benevezve, {version}. változat. Őrizd meg a tokened: {token}"},
    "entered_own": {"en": "Entered {name}, version {version}: your one bot in this league (a new entry replaces it).",
                    "de": "{name} angemeldet, Version {version}: dein einziger Bot in dieser Liga "
                          "(eine neue Anmeldung ersetzt ihn).",
                    "hu": "{name} benevezve, {version}. változat: az egyetlen botod ebben a bajnokságban "
                          "(egy új nevezés lecseréli)."},
    "checking": {"en": "Checking your bot in its sandbox…", "de": "Dein Bot wird in seiner Sandbox geprüft…",
                 "hu": "A botod ellenőrzése a homokozójában…"},
    "prev": {"en": "Previous move", "de": "Vorheriger Zug", "hu": "Előző lépés"},
    "next": {"en": "Next move", "de": "Nächster Zug", "hu": "Következő lépés"},
    "deal": {"en": "The deal", "de": "Das Austeilen", "hu": "Az osztás"},
    "move_n": {"en": "Move {n} of {total}", "de": "Zug {n} von {total}", "hu": "{n}. lépés / {total}"},
    "top": {"en": "Top card", "de": "Oberste Karte", "hu": "Felső lap"},
    "stock": {"en": "Stock", "de": "Stapel", "hu": "Pakli"},
    "back": {"en": "Back to the league", "de": "Zurück zur Liga", "hu": "Vissza a bajnoksághoz"},
    "none": {"en": "no games yet", "de": "noch keine Spiele", "hu": "még nincs játszma"},
    "blocked": {"en": "none (blocked)", "de": "keiner (blockiert)", "hu": "nincs (elakadt)"},
    "players_n": {"en": "{players} players per game", "de": "{players} Spieler pro Spiel",
                  "hu": "{players} játékos játszmánként"},
    "hub_note": {"en": "On this JupyterHub, enter your bot from your notebook:",
                 "de": "Auf diesem JupyterHub meldest du deinen Bot aus deinem Notebook an:",
                 "hu": "Ezen a JupyterHubon a notebookodból nevezheted a botod:"},
    "language": {"en": "Language", "de": "Sprache", "hu": "Nyelv"},
    "not_working": {"en": "{name} is not a working bot: {problem}",
                    "de": "{name} ist kein funktionierender Bot: {problem}",
                    "hu": "{name} nem működő bot: {problem}"},
    "lesson": {"en": "game {game}, move {move}: {name} held {hand} on {top} and played {chosen} "
                     "(value {value_chosen}); the search player would play {better} (value {value_better}): "
                     "{loss} lost",
               "de": "Spiel {game}, Zug {move}: {name} hatte {hand} auf der Hand, oben lag {top}, und spielte {chosen} "
                     "(Wert {value_chosen}); der Suchspieler würde {better} spielen (Wert {value_better}): "
                     "{loss} verloren",
               "hu": "{game}. játszma, {move}. lépés: {name} kezében {hand} volt, a felső lap {top}, és ezt "
                     "játszotta: {chosen} (érték: {value_chosen}); a kereső játékos ezt játszaná: {better} "
                     "(érték: {value_better}): {loss} veszteség"},
}


def say(key: str, lang: str | None = None, **values: Any) -> str:
    """The league's word ``key`` in ``lang`` (None: the course's language; English where ``lang``
    is not one of LANGS)."""
    entry = WORDS[key]
    lang = lang or language()
    return entry.get(lang, entry["en"]).format(**values)


def template(key: str, lang: str | None = None) -> str:
    """The word ``key`` in ``lang`` with its ``{placeholders}`` (for a page's script to fill;
    None: the course's language)."""
    entry = WORDS[key]
    lang = lang or language()
    return entry.get(lang, entry["en"])
