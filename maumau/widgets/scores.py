"""Words and tables around the play: the end of a hand with its scores, and the rules panel."""

from __future__ import annotations

from typing import cast

from ..core.variants import Variant
from ..play.match import HandResult, Match
from ..text.i18n import rule_summary, t
from .common import Seating, esc, goal_text, score_word
from .style import card_face

__all__ = ["result_html", "rules_html", "winners_text", "house_rules_text"]


def house_rules_text(variant: Variant, lang: str, base: Variant | None = None) -> str:
    """"ohne MK-6, mit quiet_nine" (or "die Regeln wie geschrieben"): a rule of ``base`` by its id
    (the learner's screen shows no code names), a rule of one's own by its name."""
    ids = {r.name: r.rule_id for r in (base.rules if base is not None else ()) if r.rule_id}
    changes = [t("ui.without" if how == "without" else "ui.with", lang,
                 rule=ids.get(what, what) if how == "without" else what.name) for how, what in variant.changes]
    return ", ".join(changes) or t("ui.no_changes", lang)


def winners_text(match: Match, seating: Seating) -> str:
    """"The match is over: Anna wins." in the table's language ("" while it goes on)."""
    lang = seating.lang
    win = match.winner
    if win is None:
        return ""
    seats = win if isinstance(win, tuple) else (win,)
    names = " & ".join(seating.name(s) for s in seats)
    return t("ui.match_shared" if len(seats) > 1 else "ui.match_won", lang, names=names)


def result_html(result: HandResult, match: Match, seating: Seating) -> str:
    """Who went out, every hand left over, the points of this hand and the totals."""
    lang = seating.lang
    final = result.game.state
    if result.blocked:
        head = t("ui.blocked", lang)
    elif result.winner == seating.me:
        head = t("ui.won_you", lang)
    else:
        head = t("ui.won_other", lang, name=seating.name(cast(int, result.winner)))  # not blocked: someone won
    word = score_word(match.variant, lang)
    rows = []
    for hand_seat, seat in enumerate(result.seats):
        cards = "".join(card_face(c, "sm", lang) for c in final.hands[hand_seat])
        out = "" if match.alive[seat] else f" <i>({esc(t('ui.out', lang))})</i>"
        me = ' style="font-weight:bold"' if seat == seating.me else ""
        rows.append(f"<tr{me}><td>{esc(seating.label(seat))}{out}</td>"
                    f'<td><div style="display:flex;gap:2px;flex-wrap:wrap">{cards}</div></td>'
                    f"<td>{result.points[seat]}</td><td>{match.scores[seat]}</td></tr>")
    over = winners_text(match, seating)
    tail = f'<div class="mm-win">{esc(over)}</div>' if over else ""
    if not over and seating.me is not None and not match.alive[seating.me]:
        tail = f"<div>{esc(t('ui.you_are_out', lang))}</div>"
    return (f'<div class="mm-result"><div class="mm-win">{esc(head)}</div>'
            f"<table><tr><th>{esc(t('ui.player', lang))}</th><th>{esc(t('ui.cards_left', lang))}</th>"
            f"<th>{esc(t('ui.hand_points', lang))}</th><th>{esc(t('ui.total', lang))} ({esc(word)})</th></tr>"
            f"{''.join(rows)}</table><div style='margin-top:6px'>{esc(goal_text(match.variant, lang))}</div>"
            f"{tail}</div>")


def rules_html(variant: Variant, lang: str) -> str:
    """The "Spielregeln" panel: the variant's deck, goal and every rule in one line."""
    lo, hi = variant.players
    deck = t("ui.deck", lang, cards=len(variant.deck), hand=variant.hand_size, lo=lo, hi=hi)
    said = [(r.rule_id or r.name, rule_summary(r, lang, call=variant.call)) for r in variant.rules]
    rows = "".join(f"<tr><td><code>{esc(name)}</code></td><td>{esc(summary)}</td></tr>"
                   for name, summary in said)  # a built-in rule by its id, as its sentence is the learner's
    changes = ""
    if variant.changes:
        changes = f"<div><b>{esc(t('ui.house_rules', lang))}:</b> {esc(house_rules_text(variant, lang))}</div>"
    return (f'<div class="mm-rules"><div><b>{esc(variant.title)}</b>: {esc(deck)}</div>'
            f"<div>{esc(goal_text(variant, lang))}</div>{changes}<table>{rows}</table></div>")
