"""The class table's own sentences in German and Hungarian: the refusals a seat reads.

A refusal (``TableError``, ``ProtocolError``) is raised with its English sentence, the one the
wire and the tests have always carried; ``refusal_words(err, lang)`` says it in ``lang`` for the
connection that asked (its page's or notebook's language).  The catalogue is keyed by the English
sentence (a template with ``{names}`` where the refusal carries ``values``); a sentence missing
here stays English, as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["refusal_words", "REFUSALS", "GUEST"]

#: The name of a learner who joins from Python without one.
GUEST = {"en": "Guest", "de": "Gast", "hu": "Vendég"}

#: English sentence (template) -> {"de": ..., "hu": ...}.  German "du", Hungarian "te".
REFUSALS: dict[str, dict[str, str]] = {
    "it is not this seat's turn": {
        "de": "dieser Platz ist nicht am Zug",
        "hu": "nem ez a játékos következik"},
    "every seat at this table is taken": {
        "de": "jeder Platz an diesem Tisch ist besetzt",
        "hu": "ennél az asztalnál minden hely foglalt"},
    "the table has started already": {
        "de": "an diesem Tisch wird schon gespielt",
        "hu": "ennél az asztalnál már elkezdődött a játék"},
    "the table has changed since action {seen} (now {now}): look again": {
        "de": "der Tisch hat sich seit Aktion {seen} geändert (jetzt {now}): schau noch einmal hin",
        "hu": "az asztal megváltozott a(z) {seen}. művelet óta (most {now}.): nézd meg újra"},
    "no seat at this table has that token": {
        "de": "kein Platz an diesem Tisch hat dieses Token",
        "hu": "ennél az asztalnál egyik helynek sincs ilyen tokenje"},
    "seat {seat} has no learner": {
        "de": "an Platz {seat} sitzt niemand aus der Klasse",
        "hu": "a(z) {seat}. helyen nem ül tanuló"},
    "the hand is still being played": {
        "de": "das Spiel läuft noch",
        "hu": "a kör még tart"},
    "the match is over": {
        "de": "die Partie ist vorbei",
        "hu": "a játszmának vége"},
    "the match is still being played: restart it when it is over": {
        "de": "die Partie läuft noch: starte sie neu, wenn sie vorbei ist",
        "hu": "a játszma még tart: akkor indítsd újra, ha vége"},
    "too many tries from here: wait a minute": {
        "de": "zu viele Versuche von hier: warte eine Minute",
        "hu": "túl sok próbálkozás innen: várj egy percet"},
    "join a table first": {
        "de": "setz dich zuerst an einen Tisch",
        "hu": "előbb ülj le egy asztalhoz"},
    "this connection is at a table already": {
        "de": "diese Verbindung sitzt schon an einem Tisch",
        "hu": "ez a kapcsolat már egy asztalnál ül"},
    "there is no open table with the code {code}": {
        "de": "es gibt keinen offenen Tisch mit dem Code {code}",
        "hu": "nincs nyitott asztal ezzel a kóddal: {code}"},
    "only the teacher may do that (the teacher token is wrong)": {
        "de": "das darf nur die Lehrkraft (das Token der Lehrkraft ist falsch)",
        "hu": "ezt csak a tanár teheti meg (a tanári token hibás)"},
    "table {code} has {most} projectors already": {
        "de": "Tisch {code} hat schon {most} Beamer",
        "hu": "a(z) {code} asztalnak már {most} kivetítője van"},
    "you watch table {code} on {most} projectors already: close one first": {
        "de": "du schaust Tisch {code} schon auf {most} Beamern zu: schließ zuerst einen",
        "hu": "már {most} kivetítőn nézed a(z) {code} asztalt: előbb zárj be egyet"},
    "the server could not do that": {
        "de": "das konnte der Server nicht tun",
        "hu": "ezt a szerver nem tudta megtenni"},
    "the connection closed: {why}": {
        "de": "die Verbindung wurde geschlossen: {why}",
        "hu": "a kapcsolat megszakadt: {why}"},
}



def refusal_words(message: str, lang: str, values: Mapping[str, Any] | None = None) -> str:
    """The refusal ``message`` (English, filled from its template with ``values``) in ``lang``;
    the English ``message`` itself where the catalogue has no such sentence."""
    if lang == "en":
        return message
    for english, said in REFUSALS.items():
        if lang not in said:
            continue
        if values is None:
            if english == message:
                return said[lang]
        else:
            try:
                if english.format(**values) == message:
                    return said[lang].format(**values)
            except (KeyError, IndexError, ValueError):
                continue
    return message
