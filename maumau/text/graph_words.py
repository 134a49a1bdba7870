"""The words of the graph pictures (state graphs, phase machines) in the course's language: the
pictures are built in English, then each text is said in German or Hungarian just before it is
drawn (``graph_words``), longest phrases first; card letters as the language writes them."""

from __future__ import annotations

import re

from .i18n import RANK_LETTERS, language, number

__all__ = ["graph_words", "after_moves", "graph_sentence", "SENTENCES"]

#: "after 3 moves: ..." (the state chooser of ``gr.view``).
_AFTER = {"en": "after {n} moves: {rest}", "de": "nach {n} Zügen: {rest}", "hu": "{n} lépés után: {rest}"}


def after_moves(n: object, rest: str, lang: str | None = None) -> str:
    return _AFTER.get(lang or language(), _AFTER["en"]).format(n=n, rest=graph_words(rest, lang))

#: The longer sentences of the pictures drawn instead of a graph too big to read ({n}: numbers already
#: written in the language).
SENTENCES: dict[str, dict[str, str]] = {
    "en": {"too_many": "{n} states are too many to draw readably (limit {limit}), so here is how many states "
                       "each depth has.",
           "draw_part": "Draw a part: mm.graph.draw(mm.graph.around(G, state, radius=2)), or all of it: "
                        "mm.graph.draw(G, limit=None)",
           "too_long": "{title}: too long to draw as a path (limit {limit}), so here are the hand sizes and the "
                       "phases move by move",
           "cards_in_hand": "seat {seat}: cards in hand",
           "describe": "{states} states, {moves} moves, {levels} levels, {ends} ends of the hand",
           "cut_by": "cut by {bound}: {n} states not explored",
           "chance_states": "{n} states after a reshuffle (hidden order) not explored",
           "followed": "{n} moves reshuffle (the engine's seeded order was followed)",
           "complete": "complete",
           "table_head": "{variant}: {games} hands",
           "table_columns": "phase|decisions|share|branching|max",
           "machines": "phase machines: {a} vs {b}", "only_in": "only in {side}:",
           "kinds": "phase|step|effect", "example": "e.g. {example}", "nothing": "nothing",
           "trap": "{state}\n  natural move: {natural} → {natural_value}\n  best play: {best} → {value}"},
    "de": {"too_many": "{n} Zustände sind zu viele, um sie lesbar zu zeichnen (Grenze {limit}); hier steht, wie "
                       "viele Zustände jede Tiefe hat.",
           "draw_part": "Einen Teil zeichnen: mm.graph.draw(mm.graph.around(G, state, radius=2)), oder alles: "
                        "mm.graph.draw(G, limit=None)",
           "too_long": "{title}: zu lang, um es als Pfad zu zeichnen (Grenze {limit}); hier stehen die "
                       "Kartenzahlen und die Phasen Zug für Zug",
           "cards_in_hand": "Platz {seat}: Karten auf der Hand",
           "describe": "{states} Zustände, {moves} Züge, {levels} Ebenen, {ends} Spielenden",
           "cut_by": "abgeschnitten durch {bound}: {n} Zustände nicht erkundet",
           "chance_states": "{n} Zustände nach dem Mischen (Reihenfolge verborgen) nicht erkundet",
           "followed": "{n} Züge mischen (die festgelegte Reihenfolge der Engine wurde befolgt)",
           "complete": "vollständig",
           "table_head": "{variant}: {games} Spiele",
           "table_columns": "Phase|Entscheidungen|Anteil|Verzweigung|max.",
           "machines": "Phasenautomaten: {a} gegen {b}", "only_in": "nur in {side}:",
           "kinds": "Phase|Schritt|Wirkung", "example": "z. B. {example}", "nothing": "nichts",
           "trap": "{state}\n  naheliegender Zug: {natural} → {natural_value}\n  bestes Spiel: {best} → {value}"},
    "hu": {"too_many": "{n} állapot túl sok ahhoz, hogy olvashatóan rajzoljuk (határ: {limit}); itt az áll, hány "
                       "állapot van az egyes mélységekben.",
           "draw_part": "Egy részét rajzold: mm.graph.draw(mm.graph.around(G, state, radius=2)), vagy az egészet: "
                        "mm.graph.draw(G, limit=None)",
           "too_long": "{title}: túl hosszú ahhoz, hogy útként rajzoljuk (határ: {limit}); itt a kézben tartott "
                       "lapok száma és a fázisok lépésről lépésre",
           "cards_in_hand": "{seat}. játékos: lapok a kézben",
           "describe": "{states} állapot, {moves} lépés, {levels} szint, {ends} leosztásvég",
           "cut_by": "levágta: {bound}; {n} állapot nem bejárt",
           "chance_states": "{n} állapot keverés után (rejtett sorrend) nem bejárt",
           "followed": "{n} lépés keverést okoz (a motor rögzített sorrendjét követtük)",
           "complete": "teljes",
           "table_head": "{variant}: {games} leosztás",
           "table_columns": "fázis|döntés|arány|elágazás|max.",
           "machines": "fázisgépek: {a} és {b}", "only_in": "csak ebben: {side}",
           "kinds": "fázis|út|hatás", "example": "pl. {example}", "nothing": "semmi",
           "trap": "{state}\n  kézenfekvő lépés: {natural} → {natural_value}\n  legjobb játék: {best} → {value}"},
}


def graph_sentence(key: str, lang: str | None = None, **values: object) -> str:
    """One of ``SENTENCES`` in ``lang`` (default: the course's language); int values are written as
    the language writes numbers (12,406 · 12.406 · 12 406)."""
    lang = lang or language()
    said = {k: number(v, 0, lang) if isinstance(v, int) else v for k, v in values.items()}
    return SENTENCES.get(lang, SENTENCES["en"])[key].format(**said)


_DE: dict[str, str] = {
    "Phase machines of": "Phasenautomaten:", "steps of the normal turn": "Schritte des normalen Zugs",
    "the other steps": "die übrigen Schritte", "random hands": "zufällige Spiele", "decisions": "Entscheidungen",
    "normal turn": "normaler Zug", "wish active": "Wunsch gilt", "drawn-card choice": "gezogene Karte legen?",
    "Ace extra play": "Ass: noch eine Karte", "Runde running": "Runde läuft",
    "last card locked": "letzte Karte gesperrt",
    "hand over (colour: winner)": "Spiel vorbei (Farbe: Sieger)", "hand over": "Spiel vorbei",
    "blocked (void)": "blockiert (ungültig)", "penalty:": "Strafe:", "skip:": "Aussetzen:",
    "seven draws two": "7 zieht 2", "two three draw": "2/3 ziehen", "kings draw five": "König zieht 5",
    "eight skips summed": "8 setzt aus", "four skips": "4 setzt aus", "joker draws four": "Joker zieht 4",
    "entered by:": "hinein mit:", "of decisions": "der Entscheidungen", "moves to choose": "Züge zur Wahl",
    "take penalty": "Strafe nehmen", "sit out": "aussetzen", "opens Runde": "eröffnet Runde",
    "Runde ends": "Runde endet", "reverse": "Richtung", "cancel": "hebt auf", "no Mau": "ohne Mau",
    "skip": "setzt aus", "draw": "ziehen", "pass": "passen", "wish": "Wunsch",
    "with best play": "bei bestem Spiel", "nobody wins": "niemand gewinnt", "move of best play": "Zug bei bestem Spiel",
    "after a reshuffle (not explored)": "nach dem Mischen (nicht erkundet)",
    "not explored (bound)": "nicht erkundet (Grenze)",
    "the hand of the player to move (one line per seat)": "die Hand dessen, der dran ist (eine Zeile je Platz)",
    "the top card, then a wish or what is pending": "die oberste Karte, dann ein Wunsch oder was offen ist",
    "ends of the hand": "Spielenden", "states": "Zustände", "moves": "Züge", "levels": "Ebenen",
    "complete": "vollständig", "a played hand": "ein gespieltes Spiel", "blocked": "blockiert",
    "around this state (red)": "rund um diesen Zustand (rot)", "◀ back": "◀ zurück", "▲ parent": "▲ davor",
    "state": "Zustand", "depth": "Tiefe", "phase:": "Phase:", "no moves: the hand is over": "keine Züge: das Spiel "
    "ist vorbei", "reached by a reshuffle: the new stock order is hidden, not explored further": "nach dem Mischen "
    "erreicht: die neue Reihenfolge ist verborgen, nicht weiter erkundet", "not explored (a bound cut the graph "
    "here)": "nicht erkundet (hier endet der Graph)", "went out": "ist fertig",
    "decision": "Entscheidung", "after a reshuffle": "nach dem Mischen", "explored": "erkundet",
    "seat to move (or the winner)": "wer dran ist (oder gewonnen hat)", "no (a bound)": "nein (Grenze)",
    "yes": "ja", "depth (moves from the start)": "Tiefe (Züge vom Start)", "moves played": "gespielte Züge",
    "times taken": "wie oft", "step": "Schritt", "phase": "Phase",
}
_HU: dict[str, str] = {
    "Phase machines of": "Fázisgépek:", "steps of the normal turn": "a normál lépés útjai",
    "the other steps": "a többi út", "random hands": "véletlen leosztás", "decisions": "döntés",
    "normal turn": "normál lépés", "wish active": "kívánság él", "drawn-card choice": "húzott lap: rakod?",
    "Ace extra play": "ász: még egy lap", "Runde running": "Runde folyik", "last card locked": "utolsó lap zárolva",
    "hand over (colour: winner)": "leosztás vége (szín: győztes)", "hand over": "leosztás vége",
    "blocked (void)": "elakadt (érvénytelen)", "penalty:": "büntetés:", "skip:": "kimaradás:",
    "seven draws two": "7-es: 2 lap", "two three draw": "2/3: húzás", "kings draw five": "király: 5 lap",
    "eight skips summed": "8-as: kimarad", "four skips": "4-es: kimarad", "joker draws four": "joker: 4 lap",
    "entered by:": "belépés:", "of decisions": "a döntésekből", "moves to choose": "választható lépés",
    "take penalty": "büntetés felvétele", "sit out": "kimarad", "opens Runde": "Rundét nyit",
    "Runde ends": "Runde vége", "reverse": "irányváltás", "cancel": "megszüntet", "no Mau": "Mau nélkül",
    "skip": "kimarad", "draw": "húz", "pass": "passz", "wish": "kívánság",
    "with best play": "legjobb játékkal", "nobody wins": "senki sem nyer", "move of best play": "legjobb lépés",
    "after a reshuffle (not explored)": "keverés után (nem bejárt)", "not explored (bound)": "nem bejárt (határ)",
    "the hand of the player to move (one line per seat)": "a soron lévő játékos lapjai (helyenként egy sor)",
    "the top card, then a wish or what is pending": "a felső lap, aztán a kívánság vagy ami függőben van",
    "ends of the hand": "leosztásvég", "states": "állapot", "moves": "lépés", "levels": "szint",
    "complete": "teljes", "a played hand": "egy lejátszott leosztás", "blocked": "elakadt",
    "around this state (red)": "az állapot környéke (piros)", "◀ back": "◀ vissza", "▲ parent": "▲ előző",
    "state": "állapot", "depth": "mélység", "phase:": "fázis:", "no moves: the hand is over": "nincs lépés: vége "
    "a leosztásnak", "reached by a reshuffle: the new stock order is hidden, not explored further": "keverés után: "
    "az új sorrend rejtett, nem bejárt", "not explored (a bound cut the graph here)": "nem bejárt (itt a határ)",
    "went out": "kész",
    "decision": "döntés", "after a reshuffle": "keverés után", "explored": "bejárva",
    "seat to move (or the winner)": "ki lép (vagy ki nyert)", "no (a bound)": "nem (határ)",
    "yes": "igen", "depth (moves from the start)": "mélység (lépés a kezdettől)", "moves played": "megtett lépések",
    "times taken": "hányszor", "step": "lépés", "phase": "fázis",
}
_PHRASES = {"de": _DE, "hu": _HU}
_SEAT = {"de": ("Platz {n} gewinnt", "Platz {n} ist dran", "P. {n} fertig", "Platz {n}"),
         "hu": ("{n}. játékos nyer", "{n}. játékos lép", "{n}. kész", "{n}. játékos")}
_PATTERNS: dict[str, re.Pattern[str]] = {
    lang: re.compile("|".join(re.escape(k) for k in sorted(words, key=len, reverse=True))
                     + r"|\bseat (\d+)( wins| to move| out)?"
                     r"|(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+\.\d+)(?![\w])|(?<![\w♥♦♣♠])([JQA])(?=[♥♦♣♠]|\b)|(?<=\d)%")
    for lang, words in _PHRASES.items()}


def graph_words(text: str, lang: str | None = None) -> str:
    """``text`` of a graph picture in ``lang`` (default: the course's language)."""
    lang = lang or language()
    if lang not in _PHRASES:
        return text
    words, seat = _PHRASES[lang], _SEAT[lang]

    def say(found: re.Match[str]) -> str:
        if found.group(1) is not None:  # seat N ...
            kind = {" wins": 0, " to move": 1, " out": 2}.get(found.group(2) or "", 3)
            return seat[kind].format(n=found.group(1))
        if found.group(3) is not None:  # 12,406 or 3.5
            raw = found.group(3).replace(",", "")
            return number(float(raw), len(raw.split(".")[1]) if "." in raw else 0, lang)
        if found.group(4) is not None:  # a card letter
            return RANK_LETTERS[lang].get(found.group(4), found.group(4))
        if found.group(0) == "%":  # 54 %
            return "\u00a0%"
        return words.get(found.group(0), found.group(0))
    return _PATTERNS[lang].sub(say, text)
