"""Colour vision and contrast: the four-colour deck, the high-contrast theme, a focus ring that shows.

``colours="four"`` paints diamonds blue and clubs green (hearts stay red, spades black), so that no
two suits share a colour; ``contrast="high"`` puts the table on black with white text and thick
outlines.  Both are CSS classes on the view's root (``mm-four``, ``mm-high``): the style sheet is one
for every view on the page, and each view chooses by its own classes.  Nothing is told by colour
alone anywhere: every card shows its suit symbol, a playable card is raised and outlined (and says
so to a screen reader), the player to move has a ▶ before the name.
"""

from __future__ import annotations

__all__ = ["COLOURS", "CONTRASTS", "check_colours", "check_contrast", "theme_classes", "THEME_CSS", "SUIT_COLOURS"]

COLOURS = ("two", "four")
CONTRASTS = ("normal", "high")

#: The suits' colours in the four-colour deck (each at least 4.5:1 on a white card, WCAG AA).
SUIT_COLOURS = {"S": "#1a1a1a", "H": "#c62828", "D": "#0b57b0", "C": "#1b6e2a"}


def check_colours(colours: str) -> str:
    if colours not in COLOURS:
        raise ValueError(f"unknown colours {colours!r}: choose one of {', '.join(COLOURS)}")
    return colours


def check_contrast(contrast: str) -> str:
    if contrast not in CONTRASTS:
        raise ValueError(f"unknown contrast {contrast!r}: choose one of {', '.join(CONTRASTS)}")
    return contrast


def theme_classes(colours: str, contrast: str) -> list[str]:
    """The root classes of a view for these options (checked)."""
    classes = []
    if check_colours(colours) == "four":
        classes.append("mm-four")
    if check_contrast(contrast) == "high":
        classes.append("mm-high")
    return classes


_FOUR = "".join(
    f".mm-four .mm-s-{suit}, .mm-four .jupyter-widgets.mm-card.mm-s-{suit}, .mm-four .mm-wishes .mm-s-{suit} "
    f"{{ color: {colour} !important; }}\n" for suit, colour in SUIT_COLOURS.items())

THEME_CSS = _FOUR + """
.mm-table .jupyter-button:focus-visible, .mm-table .mm-card:focus-visible, .mm-table [tabindex]:focus-visible,
.mm-table select:focus-visible, .mm-table input:focus-visible {
  outline: 4px solid #fff !important; outline-offset: 2px !important; box-shadow: 0 0 0 8px #000 !important; }
.mm-table .jupyter-widgets.mm-card:focus-visible { z-index: 2; }
.mm-table .mm-hand { padding-top: 20px; padding-left: 10px; }
.mm-sr { position: absolute !important; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
  white-space: nowrap; }
.mm-keys { font-size: 12px; opacity: 1; margin-top: 4px; }
.mm-keys kbd { background: #fff; color: #1a1a1a; border-radius: 3px; padding: 0 4px; font-family: inherit;
  font-weight: bold; box-shadow: 0 1px 0 #777; }
.mm-high { background: #000 !important; border-color: #fff !important; box-shadow: none !important; color: #fff; }
.mm-high .widget-html, .mm-high .widget-html-content, .mm-high .widget-label, .mm-high .mm-sub,
.mm-high .mm-count, .mm-high .mm-label { color: #fff !important; opacity: 1 !important; }
.mm-high .mm-seat, .mm-high .mm-status, .mm-high .mm-log { background: #000 !important; border: 2px solid #fff; }
.mm-high .mm-seat.mm-turn { border: 4px solid #ffeb3b; box-shadow: none; }
.mm-high .mm-status b, .mm-high .mm-log .mm-mine { color: #ffeb3b !important; }
.mm-high .mm-log .mm-note { color: #b2ebf2 !important; }
.mm-high .mm-face, .mm-high .jupyter-widgets.mm-card { border: 2px solid #fff !important; }
.mm-high .jupyter-widgets.mm-card.mm-legal { box-shadow: 0 0 0 4px #ffeb3b, 0 0 0 7px #000 !important; }
.mm-high .jupyter-widgets.mm-card.mm-dim { filter: none; opacity: .7; }
.mm-high .mm-back { background: repeating-linear-gradient(45deg, #fff 0 3px, #000 3px 7px); }
.mm-high .mm-actions .jupyter-button:enabled, .mm-high .mm-wishes .jupyter-button,
.mm-high .mm-result-box .jupyter-button {
  background: #fff !important; color: #000 !important; border: 2px solid #ffeb3b !important; }
.mm-high .mm-actions .jupyter-button.mod-active { background: #ffeb3b !important; }
.mm-high .mm-actions .jupyter-button:disabled { color: #fff !important; border: 2px dashed #fff !important; }
.mm-high .mm-msg .mm-error, .mm-high .mm-msg .mm-info { background: #fff; color: #000; border-left-width: 8px; }
.mm-high .mm-wishbadge { box-shadow: 0 0 0 3px #fff; }
.mm-high .mm-rules, .mm-high .mm-result { background: #000 !important; color: #fff !important; border: 2px solid #fff; }
.mm-high .mm-rules .widget-html-content, .mm-high .mm-rules .widget-checkbox label, .mm-high .mm-result td,
.mm-high .mm-result th { color: #fff !important; }
.mm-high .mm-result .mm-win { color: #ffeb3b !important; }
.mm-high .jupyter-widget-Collapse-header { background: #000 !important; color: #fff !important;
  border: 2px solid #fff !important; }
.mm-high .jupyter-widget-Collapse-contents { background: #000 !important; }
"""
