"""The league's pages on the class server, rendered on the server: the league at
``/league/CODE`` (standings, latest games, the form to enter a bot) and a game's replay at
``/league/CODE/game/ID`` (every hand open, move by move).  Plain HTML in en/de/hu; the
scripts (``pages/league.js``) only send a bot and step through a replay, so the pages read
without them, and a screen reader hears the table's caption, headers and each step."""

from __future__ import annotations

import html
import json
from typing import Any

from ..league.replay import seat_names
from ..league.standings import standings
from ..league.store import GameRow, Store
from ..league.widget import standings_html
from ..league.words import LANGS, say, template
from ..play.game import Game

__all__ = ["league_page", "replay_page", "LATEST"]

#: How many of the latest games the league page lists.
LATEST = 30


def _head(title: str, lang: str) -> str:
    return (f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html.escape(title)}</title>\n<link rel=\"icon\" href=\"data:,\">\n"
            '<link rel="stylesheet" href="/style.css">\n<link rel="stylesheet" href="/league.css">\n'
            '<script src="/league.js" defer></script>\n</head>\n')


def _languages(base: str, lang: str) -> str:
    links = " ".join(f'<a href="{base}?lang={code}" lang="{code}" hreflang="{code}"'
                     f'{" aria-current=page" if code == lang else ""}>{code}</a>' for code in LANGS)
    return f'<nav class="langs" aria-label="{html.escape(say("language", lang))}">{links}</nav>'


def _winner(g: GameRow, lang: str) -> str:
    return g.names[g.winner] if g.winner is not None else say("blocked", lang)


def _games_table(code: str, games: list[GameRow], lang: str) -> str:
    if not games:
        return f"<p>{html.escape(say('none', lang))}</p>"
    heads = "".join(f'<th scope="col">{html.escape(say(k, lang))}</th>'
                    for k in ("game", "seats", "winner", "points", "faults", "replay"))
    rows = []
    for g in games:
        faults = sum(len(f) for f in g.faults)
        rows.append(f"<tr><td>{g.id}</td><td>{html.escape(' – '.join(g.names))}</td>"
                    f"<td>{html.escape(_winner(g, lang))}</td><td>{html.escape(', '.join(map(str, g.points)))}</td>"
                    f"<td>{faults}</td><td><a href=\"/league/{code}/game/{g.id}?lang={lang}\">"
                    f"{html.escape(say('replay', lang))} {g.id}</a></td></tr>")
    return (f'<table class="mm-league"><caption>{html.escape(say("latest", lang))}</caption>'
            f"<thead><tr>{heads}</tr></thead><tbody>{''.join(rows)}</tbody></table>")


def _form(code: str, lang: str, hub: bool, roster: bool = False) -> str:
    """The form to enter a bot: a name and its token, or with a roster a name and the learner's
    personal code (the bot is theirs, whatever its name); on the hub a note to enter from a notebook."""
    if hub:  # the page has no hub login (as the table's): learners enter from their hub notebooks
        call = f'classroom.enter_league(url, "{code}", "my_bot.py")'
        return (f'<section class="panel" id="enter"><h2>{html.escape(say("submit", lang))}</h2>'
                f"<p>{html.escape(say('hub_note', lang))} <code>{html.escape(call)}</code></p></section>")
    proof = (f'<label class="field"><span>{html.escape(say("personal", lang))}</span>'
             '<input id="bot-personal" name="personal" required autocomplete="off" spellcheck="false" '
             'maxlength="40"></label>' if roster else
             f'<label class="field"><span>{html.escape(say("token", lang))}</span>'
             '<input id="bot-token" name="token" autocomplete="off" spellcheck="false"></label>')
    name = (f'<label class="field"><span>{html.escape(say("name", lang))}</span>'
            f'<input id="bot-name" name="name" maxlength="40" required autocomplete="off"></label>{proof}')
    words = json.dumps({"checking": template("checking", lang),
                        "entered": template("entered_own" if roster else "entered", lang)})
    return (f'<form class="panel" id="enter" data-code="{code}" data-words="{html.escape(words)}">'
            f'<h2>{html.escape(say("submit", lang))}</h2>{name}'
            f'<label class="field"><span>{html.escape(say("source", lang))}</span>'
            '<textarea id="bot-source" name="source" rows="8" required spellcheck="false"></textarea></label>'
            '<input type="file" id="bot-file" accept=".py,.ipynb" aria-label="file">'
            f'<button type="submit" class="primary">{html.escape(say("send", lang))}</button>'
            '<p id="enter-status" role="status" aria-live="polite"></p></form>')


def league_page(code: str, store: Store, lang: str, hub: bool = False, roster: bool = False) -> str:
    """The page of league ``code`` (``roster``: its server knows its learners by personal codes)."""
    games = store.games()
    rows = standings(store.bots(), games)
    settings = store.settings()
    title = f"{say('title', lang)} {code}"
    return (_head(title, lang) + '<body class="league-page"><header class="topbar"><span class="brand">Mau-Mau</span>'
            f'{_languages(f"/league/{code}", lang)}</header><main class="league">'
            f"<h1>{html.escape(title)}</h1><p>{html.escape(str(settings.get('game')))}: "
            f"{html.escape(say('players_n', lang, players=settings.get('players')))}</p>"
            f'<section aria-labelledby="standings-h"><h2 id="standings-h">{html.escape(say("standings", lang))}</h2>'
            f"{standings_html(rows, len(games), lang, style=False)}</section>"
            f'<section aria-labelledby="latest-h"><h2 id="latest-h">{html.escape(say("latest", lang))}</h2>'
            f"{_games_table(code, list(reversed(games))[:LATEST], lang)}</section>"
            f"{_form(code, lang, hub, roster)}</main></body></html>\n")


def _steps(game: Game, names: list[str]) -> list[dict[str, Any]]:
    sentences = ["", *game.explanations()]
    steps = []
    for i, state in enumerate(game.states):
        steps.append({"say": sentences[i], "top": state.top.text, "stock": state.stock_size,
                      "hands": [" ".join(c.text for c in hand) for hand in state.hands],
                      "who": names[game.history[i - 1][0].to_move] if i else ""})
    return steps


def replay_page(code: str, store: Store, game_id: int, lang: str) -> str:
    """The replay of game ``game_id`` of league ``code``: every hand open, step by step."""
    row = store.game(game_id)
    game = Game.from_dict(store.record(game_id))
    names = seat_names(row.names)
    steps = _steps(game, names)
    words = {k: template(k, lang) for k in ("deal", "move_n", "top", "stock")}
    data = json.dumps({"names": names, "steps": steps, "words": words}).replace("</", "<\\/")
    title = f"{say('title', lang)} {code} · {say('game', lang)} {game_id}"
    moves = "".join(f"<li>{html.escape(s['who'])}: {html.escape(s['say'])}</li>" for s in steps[1:])
    return (_head(title, lang) + '<body class="league-page"><header class="topbar"><span class="brand">Mau-Mau</span>'
            f'{_languages(f"/league/{code}/game/{game_id}", lang)}</header><main class="league">'
            f"<h1>{html.escape(title)}</h1><p><a href=\"/league/{code}?lang={lang}\">"
            f"{html.escape(say('back', lang))}</a></p>"
            f'<p>{html.escape(", ".join(f"{n}: {p}" for n, p in zip(names, row.points, strict=True)))}</p>'
            '<section class="panel" id="replay" aria-label="replay">'
            f'<div class="steps"><button type="button" id="prev">{html.escape(say("prev", lang))}</button>'
            f'<button type="button" id="next">{html.escape(say("next", lang))}</button></div>'
            '<p id="step" role="status" aria-live="polite"></p><div id="board"></div></section>'
            f'<script type="application/json" id="replay-data">{data}</script>'
            f"<h2>{html.escape(say('replay', lang))}</h2><ol class=\"moves\">{moves}</ol></main></body></html>\n")
