"""A hand at the class table's web page played with the keyboard alone (page.keyboard, no click).

The focus starts on the hand's one tab stop (where Tab puts it); the arrows find a card whose
name says "playable", Enter plays it (Enter again on the first choice when a card asks how), D
draws, P passes.  Every redraw replaces the hand's buttons: the focus must stay in the hand all
the same (never fall to the top of the page).
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

STATE = """() => {
  const active = document.activeElement;
  const banner = document.getElementById('banner');
  const chooser = document.getElementById('chooser');
  return {
    n: Number(document.getElementById('game').dataset.n),
    over: !!banner && !banner.hidden,
    chooser: !chooser.hidden,
    zone: !active ? 'none' : active.closest('#hand') ? 'hand' : active.closest('#chooser') ? 'chooser'
      : active.closest('.actions') ? 'actions' : active === document.body ? 'body' : active.id || active.tagName,
    label: active ? (active.getAttribute('aria-label') || '') : '',
    cards: Array.from(document.querySelectorAll('#hand .hand-card')).map((c) => c.getAttribute('aria-label')),
    stops: Array.from(document.querySelectorAll('#hand .hand-card')).filter((c) => c.tabIndex === 0).length,
    draw: !document.getElementById('draw').disabled,
    pass: !document.getElementById('pass').disabled && !document.getElementById('pass').hidden,
  };
}"""

READY = """(n) => {
  const banner = document.getElementById('banner');
  const fresh = Number(document.getElementById('game').dataset.n) !== n;
  const mine = document.querySelector('.hand-card.playable') || !document.getElementById('draw').disabled
    || !document.getElementById('pass').disabled;
  return (banner && !banner.hidden) || !document.getElementById('chooser').hidden || (fresh && mine);
}"""


def state(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(STATE)
    return found


def play_by_keys(page: Page) -> dict[str, int]:
    """Play the seat's hand to its end by keys; returns the counts."""
    page.wait_for_function(READY, arg=-1, timeout=30_000)
    page.locator('#hand .hand-card[tabindex="0"]').focus()  # where Tab lands: the hand has one tab stop
    done = {"plays": 0, "draws": 0, "passes": 0, "choices": 0}
    for _ in range(300):
        page.wait_for_timeout(80)
        s = state(page)
        if s["over"]:
            return done
        if s["cards"]:
            assert s["stops"] == 1, f"the hand has one tab stop: {s}"
        if s["chooser"]:
            assert s["zone"] == "chooser", f"a card that asks how has the focus on the choices: {s}"
            page.keyboard.press("Enter")
            done["choices"] += 1
        elif any(label.endswith(", playable") or ", playable," in label for label in s["cards"]):
            assert s["zone"] == "hand", f"the focus left the hand: {s}"
            for _ in range(len(s["cards"])):
                if ", playable" in state(page)["label"]:
                    break
                page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")
            done["plays"] += 1
        else:
            assert s["zone"] == "hand" or not s["cards"], f"the focus left the hand: {s}"
            page.keyboard.press("p" if s["pass"] else "d")
            done["passes" if s["pass"] else "draws"] += 1
        page.wait_for_function(READY, arg=s["n"], timeout=30_000)
    raise AssertionError(f"the hand did not end: {done}")
