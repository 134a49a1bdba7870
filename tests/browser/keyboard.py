"""A hand of the card table played with the keyboard alone (page.keyboard, no click), in real Chromium.

The learner's focus starts on the hand (where Tab puts it); then only keys: the arrows find a card
that the screen reader would call "playable", Enter or Space plays it (Enter on the wish picker's
first suit), M announces before the second-to-last card, D draws, P passes.  After every move the
focus must still be in the table (not lost to the top of the page), and once the hand is over it is
on "Next hand", which Enter presses.  The log is a live region (role=log, aria-live=polite) and must
have told the computers' moves.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import ElementHandle, Locator, Page

STATE = """(root) => {
  const seen = (n) => !!n && n.getClientRects().length > 0;
  const log = root.querySelector('[role=log]');
  const active = document.activeElement;
  const zone = !active || !root.contains(active) ? 'outside' : active.closest('.mm-hand') ? 'hand'
    : active.closest('.mm-wishes') ? 'wish' : active.closest('.mm-actions') ? 'actions'
    : active.closest('.mm-result-box') ? 'result' : 'other';
  const pass = Array.from(root.querySelectorAll('.mm-actions button'))
    .find((b) => /^(Pass|Sit out)$/.test(b.textContent.trim()));
  return {
    status: (root.querySelector('.mm-status') || {}).innerText || '',
    n: log ? Number(log.dataset.n || -1) : -1,
    live: log ? [log.getAttribute('role'), log.getAttribute('aria-live')] : [],
    lines: log ? Array.from(log.children).map((r) => r.textContent) : [],
    zone,
    label: active ? (active.getAttribute('aria-label') || active.textContent.trim()) : '',
    cards: Array.from(root.querySelectorAll('.mm-hand .mm-card')).filter(seen)
      .map((c) => c.getAttribute('aria-label') || ''),
    wish: Array.from(root.querySelectorAll('.mm-wishes button')).filter(seen).length,
    over: seen(root.querySelector('.mm-result-box')),
    pass: !!pass && !pass.disabled && seen(pass),
  };
}"""

READY = """([root, n]) => {
  const seen = (e) => !!e && e.getClientRects().length > 0;
  const log = root.querySelector('[role=log]');
  const status = root.querySelector('.mm-status');
  const fresh = log && Number(log.dataset.n || -1) > n;
  const wish = Array.from(root.querySelectorAll('.mm-wishes button')).some(seen);
  const over = seen(root.querySelector('.mm-result-box'));
  return over || wish || (fresh && status && status.innerText.includes('Your turn'));
}"""


def state(root: ElementHandle) -> dict[str, Any]:
    found: dict[str, Any] = root.evaluate(STATE)
    return found


def wait_ready(page: Page, root: ElementHandle, n: int) -> dict[str, Any]:
    """Until the learner may act again after log line ``n`` (or a wish is asked, or the hand is over)."""
    page.wait_for_function(READY, arg=[root, n], timeout=30_000)
    page.wait_for_timeout(120)  # the focus helper runs on the next animation frame
    return state(root)


def choose_playable(page: Page, root: ElementHandle, s: dict[str, Any]) -> dict[str, Any]:
    """Arrow right until the focused card says it is playable."""
    for _ in range(len(s["cards"]) + 1):
        if s["zone"] == "hand" and s["label"].endswith(", playable"):
            return s
        page.keyboard.press("ArrowRight")
        s = state(root)
    raise AssertionError(f"the arrows found no playable card: {s}")


def play_hand_by_keys(page: Page, table: Locator, say: Any, shot: str = "", at_end: Any = None) -> dict[str, Any]:
    """Play the learner's side of the hand at ``table`` by keys; returns what was counted.  ``shot``: a
    screenshot of the table after the third move; ``at_end()`` runs once the hand is over."""
    root = table.element_handle()
    s = wait_ready(page, root, -1)
    assert s["live"] == ["log", "polite"], s["live"]
    # Chromium's own accessibility names, as a screen reader gets them (not just the attributes we set)
    assert table.get_by_role("button", name=re.compile(r"^(9 of Clubs|Jack of Spades), playable$")).count() == 2
    assert table.get_by_role("button", name="Queen of Diamonds, not playable").count() == 1
    assert table.get_by_role("group", name="Your hand").count() == 1
    assert table.get_by_role("log", name="Moves").count() == 1 and table.get_by_role("status").count() >= 1
    table.locator('.mm-hand .mm-card[tabindex="0"]').focus()  # where Tab from the page above lands
    page.keyboard.press("Tab")
    assert state(root)["zone"] == "actions", "Tab from the hand goes to the actions"
    page.keyboard.press("Shift+Tab")
    s = state(root)
    assert s["zone"] == "hand", f"Shift+Tab goes back to the hand: {s}"
    if shot:
        page.wait_for_timeout(300)
        table.screenshot(path=shot.replace(".png", "-start.png"))
    moves, computer_lines, announced = 0, 0, False
    for _ in range(400):
        if s["over"]:
            break
        assert s["zone"] in ("hand", "wish", "actions"), f"the focus left the hand after move {moves}: {s}"
        n = s["n"]
        if moves % 7 == 6 and not s["wish"] and s["zone"] == "hand":  # the learner who hits Tab after a move
            page.keyboard.press("Tab")
            assert state(root)["zone"] == "actions", f"Tab from the hand after move {moves}: {state(root)}"
            page.keyboard.press("Shift+Tab")
            s = state(root)
            assert s["zone"] == "hand", f"Shift+Tab back to the hand after move {moves}: {s}"
        if s["wish"]:
            assert s["zone"] == "wish", f"the wish picker has the focus: {s}"
            page.keyboard.press("Enter")
        elif any(label.endswith(", playable") for label in s["cards"]):
            s = choose_playable(page, root, s)
            if len(s["cards"]) == 2:
                page.keyboard.press("m")
                announced = True
            page.keyboard.press("Enter" if moves % 2 else "Space")
        else:
            page.keyboard.press("p" if s["pass"] else "d")
        moves += 1
        s = wait_ready(page, root, n)
        if moves == 3 and shot:
            table.screenshot(path=shot)
        fresh = s["lines"][-(s["n"] - n):] if s["n"] > n else []  # the lines since the move (and its answers)
        computer_lines += sum(1 for line in fresh if line.startswith(("Ann ", "Ben ")))
    else:
        raise AssertionError("the hand did not end in 400 moves")
    page.wait_for_timeout(300)
    s = state(root)
    assert s["zone"] == "result", f"at the end of the hand the focus is on 'Next hand': {s}"
    say(f"keyboard only: the hand ended after {moves} learner moves; {computer_lines} computer moves "
        f"were in the live region; announced: {announced}")
    assert computer_lines > 0, "the live region told no computer move"
    if at_end is not None:
        at_end()
    page.keyboard.press("Enter")
    page.wait_for_function("(root) => root.querySelector('[role=log]').innerText.includes('Hand 2:')",
                           arg=root, timeout=20_000)
    return {"moves": moves, "computer_lines": computer_lines, "announced": announced}
