"""How the table looks: one style sheet, card faces and backs as HTML, cards as buttons.

Everything is plain HTML and CSS shipped with the package (no images, no web fonts, no
CDN).  A card in the learner's hand is an ipywidgets ``Button`` whose description is the
card's notation (``7♥``) and whose CSS classes make it a white playing card with suit
colours (``mm-card mm-red mm-s-H``), raised when legal (``mm-legal``) or chosen for a set
(``mm-selected``).
"""

from __future__ import annotations

import html

import ipywidgets as W

from ..core.cards import Card
from ..text.i18n import card_name, card_symbol, rank_letter
from .theme import THEME_CSS

__all__ = ["CSS", "style_sheet", "card_face", "card_backs", "card_button", "set_card", "colour_class"]

_RED, _BLACK, _JOKER = "#c62828", "#1a1a1a", "#6a1b9a"

CSS = """
.mm-table { background: radial-gradient(ellipse at 50% 40%, #2e8b57 0%, #1f6f43 55%, #155232 100%);
  border-radius: 18px; padding: 12px 16px 14px; color: #f3f3f3; font-family: "DejaVu Sans", Arial, sans-serif;
  box-shadow: inset 0 0 40px rgba(0,0,0,.45); border: 6px solid #6d4c2f; max-width: 980px; }
.mm-table .widget-html, .mm-table .widget-html-content, .mm-table .widget-label { color: #f3f3f3; }
.mm-head { font-size: 15px; font-weight: bold; letter-spacing: .02em; }
.mm-head .mm-sub, .mm-sub { font-weight: normal; opacity: .8; font-size: 12px; }
.mm-opponents { justify-content: space-around; }
.mm-seat { background: rgba(0,0,0,.18); border-radius: 12px; padding: 6px 10px; min-width: 150px;
  text-align: center; border: 2px solid transparent; }
.mm-seat.mm-turn { border-color: #ffd54f; box-shadow: 0 0 14px rgba(255,213,79,.6); }
.mm-seat.mm-gone { opacity: .45; }
.mm-name { font-weight: bold; font-size: 14px; }
.mm-fan { display: flex; justify-content: center; padding: 6px 0 2px 22px; min-height: 56px; flex-wrap: wrap; }
.mm-back { width: 36px; height: 52px; border-radius: 5px; margin-left: -22px; border: 2px solid #fafafa;
  background: repeating-linear-gradient(45deg, #b71c1c 0 3px, #8e0f0f 3px 7px);
  box-shadow: 1px 1px 3px rgba(0,0,0,.45); }
.mm-open { display: flex; flex-wrap: wrap; justify-content: center; gap: 3px; padding: 4px 0; }
.mm-count { font-size: 12px; opacity: .9; }
.mm-bubble { display: inline-block; background: #fff8e1; color: #6d4c00; border-radius: 10px; padding: 0 7px;
  font-size: 12px; font-weight: bold; margin-left: 4px; }
.mm-center { align-items: center; justify-content: center; gap: 34px; margin: 10px 0 6px; }
.mm-pile { text-align: center; }
.mm-label { font-size: 12px; text-transform: uppercase; letter-spacing: .08em; opacity: .85; margin-bottom: 4px; }
.mm-stack { position: relative; width: 96px; height: 132px; margin: 0 auto; }
.mm-stack > div { position: absolute; left: 0; top: 0; }
.mm-stockpile .mm-back { width: 84px; height: 120px; margin: 0; border-width: 4px; border-radius: 9px; }
.mm-face { background: #fff; border: 1px solid #9e9e9e; border-radius: 6px; position: relative;
  box-shadow: 1px 2px 4px rgba(0,0,0,.4); font-weight: bold; display: inline-block; }
.mm-face .mm-c1, .mm-face .mm-c2 { position: absolute; line-height: 1; text-align: center; }
.mm-face .mm-c1 { left: 4px; top: 4px; } .mm-face .mm-c2 { right: 4px; bottom: 4px; transform: rotate(180deg); }
.mm-face .mm-pip { position: absolute; left: 0; right: 0; top: 50%; transform: translateY(-50%);
  text-align: center; line-height: 1; }
.mm-lg { width: 84px; height: 120px; font-size: 17px; } .mm-lg .mm-pip { font-size: 46px; }
.mm-sm { width: 34px; height: 48px; font-size: 11px; border-radius: 4px; }
.mm-sm .mm-pip { font-size: 19px; top: 60%; } .mm-sm .mm-c2 { display: none; } .mm-sm .mm-c1 { left: 3px; top: 3px; }
.mm-red { color: #c62828 !important; } .mm-black { color: #1a1a1a !important; } .mm-jk { color: #6a1b9a !important; }
.mm-status { background: rgba(0,0,0,.22); border-radius: 12px; padding: 8px 12px; min-width: 230px;
  font-size: 13px; line-height: 1.55; }
.mm-status b { color: #ffe082; }
.mm-wishbadge { display: inline-block; background: #fff; border-radius: 50%; width: 30px; height: 30px;
  line-height: 30px; font-size: 20px; text-align: center; box-shadow: 0 0 0 3px #ffd54f; }
.mm-msg { min-height: 22px; }
.mm-msg .mm-error, .mm-msg .mm-info { display: inline-block; border-radius: 8px; padding: 4px 10px; font-size: 13px; }
.mm-msg .mm-error { background: #fff3e0; color: #8a3b00; border-left: 5px solid #ef6c00; }
.mm-msg .mm-info { background: rgba(255,255,255,.9); color: #1b3d2a; border-left: 5px solid #43a047; }
.mm-handlabel { font-weight: bold; font-size: 14px; margin-top: 4px; }
.mm-hand { flex-wrap: wrap; padding: 14px 6px 4px; min-height: 104px; align-items: flex-end; }
.jupyter-widgets.mm-card { width: 62px !important; height: 88px !important; min-width: 62px;
  background: #fff !important; border: 1px solid #8d8d8d !important; border-radius: 7px !important;
  box-shadow: 1px 2px 4px rgba(0,0,0,.45) !important; font-size: 20px !important; font-weight: bold !important;
  padding: 0 !important; margin: 0 5px 6px 0 !important; position: relative; transition: transform .12s;
  overflow: visible !important; line-height: 1 !important; }
.jupyter-widgets.mm-card::before, .jupyter-widgets.mm-card::after { position: absolute; font-size: 13px;
  line-height: 1; }
.jupyter-widgets.mm-card::before { left: 5px; top: 5px; }
.jupyter-widgets.mm-card::after { right: 5px; bottom: 5px; transform: rotate(180deg); }
.jupyter-widgets.mm-card.mm-s-H::before, .jupyter-widgets.mm-card.mm-s-H::after { content: "\\2665"; }
.jupyter-widgets.mm-card.mm-s-D::before, .jupyter-widgets.mm-card.mm-s-D::after { content: "\\2666"; }
.jupyter-widgets.mm-card.mm-s-C::before, .jupyter-widgets.mm-card.mm-s-C::after { content: "\\2663"; }
.jupyter-widgets.mm-card.mm-s-S::before, .jupyter-widgets.mm-card.mm-s-S::after { content: "\\2660"; }
.jupyter-widgets.mm-card.mm-s-X::before, .jupyter-widgets.mm-card.mm-s-X::after { content: "\\2605"; }
.jupyter-widgets.mm-card.mm-legal { transform: translateY(-12px);
  box-shadow: 0 0 0 3px #ffd54f, 0 6px 10px rgba(0,0,0,.5) !important; }
.jupyter-widgets.mm-card.mm-dim { filter: brightness(.86); }
.jupyter-widgets.mm-card.mm-selected { transform: translateY(-20px);
  box-shadow: 0 0 0 4px #42a5f5, 0 8px 12px rgba(0,0,0,.5) !important; }
.jupyter-widgets.mm-card:hover { transform: translateY(-16px); }
.mm-actions { flex-wrap: wrap; gap: 6px; margin-top: 6px; }
.mm-actions .jupyter-button, .mm-wishes .jupyter-button { border-radius: 8px; font-weight: bold; height: 34px; }
.mm-actions .jupyter-button:disabled { opacity: 1 !important; background: rgba(255,255,255,.14) !important;
  color: rgba(255,255,255,.55) !important; box-shadow: none !important; cursor: not-allowed;
  border: 1px dashed rgba(255,255,255,.4) !important; }
.mm-wishes { align-items: center; gap: 6px; background: rgba(255,255,255,.12); border-radius: 10px; padding: 6px 10px; }
.mm-wishes .mm-suitbtn { font-size: 18px !important; background: #fff !important; min-width: 96px; }
.mm-log { background: rgba(0,0,0,.25); border-radius: 10px; padding: 6px 10px; font-size: 12.5px;
  max-height: 150px; overflow-y: auto; line-height: 1.45; }
.mm-log .mm-mine { color: #ffe082; } .mm-log .mm-note { color: #b2dfdb; } .mm-log .mm-new { font-weight: bold; }
.mm-result { background: rgba(255,255,255,.94); color: #1a1a1a; border-radius: 12px; padding: 10px 14px; }
.mm-result table { border-collapse: collapse; margin-top: 6px; }
.mm-result td, .mm-result th { padding: 3px 10px; border-bottom: 1px solid #ddd; text-align: left; }
.mm-result .mm-win { color: #1b5e20; font-size: 15px; font-weight: bold; }
.mm-table .widget-slider .widget-readout { color: #f3f3f3; }
.mm-table .widget-inline-hbox .widget-label { color: #f3f3f3; }
.mm-table .widget-dropdown select, .mm-table .widget-text input { color: #1a1a1a; background: #fff; }
.mm-rules { background: rgba(255,255,255,.95); color: #1a1a1a; border-radius: 8px; padding: 6px 10px; font-size: 13px; }
.mm-rules .widget-html-content { color: #1a1a1a; }
.mm-rules td { padding: 2px 8px; vertical-align: top; }
.mm-checks .widget-checkbox label { font-family: monospace; font-size: 12.5px; }
.mm-checks .mm-summary { font-size: 12.5px; line-height: 1.35; padding-top: 4px; }
.mm-checks > .widget-hbox { border-bottom: 1px solid #e6e6e6; }
.mm-table .jupyter-button.mod-primary { background-color: #0d47a1 !important; color: #fff !important; }
.mm-table .jupyter-button.mod-success { background-color: #1b5e20 !important; color: #fff !important; }
.mm-table .jupyter-button.mod-info { background-color: #00586b !important; color: #fff !important; }
.mm-table .jupyter-button.mod-warning { background-color: #ffd54f !important; color: #3b2b00 !important; }
.mm-table .jupyter-button.mod-warning.mod-active { background-color: #ff8f00 !important; color: #1a1a1a !important;
  box-shadow: inset 0 0 0 3px #3b2b00 !important; }
.mm-table .jupyter-button.mod-warning.mod-active::before { content: "\\2713  " / ""; }
.mm-livelog .mm-log-lines { max-height: 150px; overflow-y: auto; }
.mm-table .mm-livelog.mm-log { max-height: none; overflow: visible; }
"""


def style_sheet() -> W.HTML:
    """The style sheet as a widget; every view shows one (showing it twice does no harm)."""
    return W.HTML(f"<style>{CSS}{THEME_CSS}</style>", layout=W.Layout(display="none"))


def colour_class(card: Card) -> str:
    return "mm-jk" if card.is_joker else "mm-red" if card.is_red else "mm-black"


def card_face(card: Card, size: str = "lg", lang: str | None = None, extra: str = "") -> str:
    """A face-up card as HTML: rank and suit in two corners, a big pip in the middle.

    ``size`` is ``"lg"`` (the top of the discard pile) or ``"sm"`` (open hands, scores)."""
    title = html.escape(card_name(card, lang))
    suit_class = _suit_class(card)
    if card.rank is None or card.suit is None:  # the joker (a card has both or neither)
        rank, suit = "★", "J"
        pip = "★"  # not 🃏: an emoji is an empty box where no emoji font is installed
    else:
        rank, suit = rank_letter(card.rank, lang), card.suit.symbol  # D♥ in German and Hungarian
        pip = suit if card.rank.value.isdigit() or size == "sm" else rank + suit
    corner = f"{rank}<br>{suit}" if size == "lg" else rank
    # role="img" with the card's name: a screen reader says "7 of Hearts", not the glyphs
    return (f'<div class="mm-face mm-{size} {colour_class(card)} {suit_class} {extra}" role="img" '
            f'aria-label="{title}" title="{title}">'
            f'<span class="mm-c1" aria-hidden="true">{corner}</span>'
            f'<span class="mm-pip" aria-hidden="true">{pip}</span>'
            f'<span class="mm-c2" aria-hidden="true">{corner}</span></div>')


def card_backs(n: int, limit: int = 14) -> str:
    """A fan of ``n`` face-down cards (at most ``limit`` drawn)."""
    return "".join('<div class="mm-back" aria-hidden="true"></div>' for _ in range(min(n, limit)))


def _suit_class(card: Card) -> str:
    return "mm-s-X" if card.suit is None else "mm-s-" + card.suit.value


def card_button(card: Card, lang: str | None = None) -> W.Button:
    """A clickable playing card."""
    button = W.Button(layout=W.Layout(width="62px", height="88px"))
    button.add_class("mm-card")
    button.add_class("mm-label-from-title")  # its name is the tooltip ("7 of Hearts, playable"), see access.js
    set_card(button, card, lang)
    return button


def set_card(button: W.Button, card: Card, lang: str | None = None) -> None:
    """Make ``button`` show ``card`` (buttons are reused as the hand changes)."""
    old = getattr(button, "card", None)
    if old is card:
        return
    if old is not None:
        button.remove_class(colour_class(old))
        button.remove_class(_suit_class(old))
    button.card = card
    button.description = card_symbol(card, lang)
    button.tooltip = card_name(card, lang)
    button.add_class(colour_class(card))
    button.add_class(_suit_class(card))
    button.style.text_color = _JOKER if card.is_joker else _RED if card.is_red else _BLACK
