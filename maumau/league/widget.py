"""The standings as a Jupyter widget: an accessible table (caption, column headers) and a
Refresh button; the same HTML the class server's league page shows (``standings_html``)."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..text.i18n import language
from .standings import Row
from .words import say

if TYPE_CHECKING:  # pragma: no cover
    from .league import League

__all__ = ["StandingsView", "standings_html"]

_STYLE = ("<style>.mm-league td,.mm-league th{padding:2px 8px;text-align:right}"
          ".mm-league td.name,.mm-league th.name,.mm-league td.apart{text-align:left}"
          ".mm-league caption{text-align:left;font-weight:bold;padding-bottom:4px}</style>")


def standings_html(rows: Sequence[Row], games: int, lang: str | None = None, style: bool = True) -> str:
    """The standings as an HTML table (best first), in ``lang`` (None: the course's language;
    ``style``: with its CSS inline; a web page with a strict Content-Security-Policy links its own)."""
    lang = lang or language()
    if not rows:
        return f"<p>{html.escape(say('no_bots', lang))}</p>"
    heads = ["rank", "bot", "ordinal", "skill", "games", "wins", "points", "faults", "forfeits", "apart"]
    head = "".join(f'<th scope="col"{" class=name" if h == "bot" else ""}>{html.escape(say(h, lang))}</th>'
                   for h in heads)
    body = []
    for place, r in enumerate(rows, start=1):
        wins = f"{r.wins} ({r.win_low:.0%}–{r.win_high:.0%})"
        apart = ", ".join(r.tied_with) or say("nobody", lang)
        cells = [f"{r.ordinal:.1f}", f"{r.mu:.1f} ± {r.sigma:.1f}", str(r.games), wins, str(r.points),
                 str(r.faults), str(r.forfeits)]
        body.append(f'<tr><td>{place}</td><th scope="row" class="name">{html.escape(r.name)}</th>'
                    + "".join(f"<td>{html.escape(c)}</td>" for c in cells)
                    + f'<td class="apart">{html.escape(apart)}</td></tr>')
    caption = html.escape(say("caption", lang, games=games))
    return (f'{_STYLE if style else ""}<table class="mm-league"><caption>{caption}</caption>'
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>")


class StandingsView:
    """``lg.widget()``: the standings, refreshed by its button (or ``refresh()``) after more games."""

    def __init__(self, lg: League, lang: str | None = None) -> None:
        import ipywidgets as w

        self.league = lg
        self.lang = lang = lang or language()
        self.table = w.HTML()
        self.button = w.Button(description=say("refresh", lang), tooltip=say("refresh", lang))
        self.button.on_click(lambda _: self.refresh())
        self.box = w.VBox([self.table, self.button])
        self.refresh()

    def refresh(self) -> None:
        self.table.value = standings_html(self.league.standings(), len(self.league.games()), self.lang)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.box._repr_mimebundle_(**kwargs)
