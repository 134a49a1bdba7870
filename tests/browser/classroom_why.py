"""The seat page tells why (issue 23): an illegal card clicked on the class table's seat page
shows the engine's own sentence, in the page's language, sent by the server; after the next
accepted move it is gone.  Used by drive_classroom.py, once each for en, de and hu; screenshots
``why-LANG.png`` (the sentence) and ``why-LANG-gone.png`` (after the legal move)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

NAMES = {"en": "Anna", "de": "Jonas", "hu": "Bori"}
MY_TURN = """() => document.querySelector('.hand-card.playable') || !document.getElementById('draw').disabled
                   || !document.getElementById('pass').disabled"""


def shown_n(page: Page) -> int:
    return int(page.get_attribute("#game", "data-n") or -1)


def legal_move(page: Page) -> None:
    """One legal move by click (a playable card, or Draw, or Pass); waits until the server has it."""
    before = shown_n(page)
    playable = page.locator(".hand-card.playable")
    if playable.count():
        playable.first.click()
        if page.locator("#chooser").is_visible():
            page.locator("#chooser .option:not(.cancel)").first.click()
    elif page.locator("#draw").is_enabled():
        page.click("#draw")
    else:
        page.click("#pass")
    page.wait_for_function("(n) => Number(document.getElementById('game').dataset.n) > n", arg=before,
                           timeout=20_000)


def illegal_card_is_explained(context: Any, server: Any, out: Path, lang: str) -> str:
    """Sit down at a fresh table in ``lang``, click a card that may not be played now, check the
    sentence against the engine's, play a legal move, check it is gone.  Returns the sentence."""
    import maumau as mm
    from maumau.text.i18n import use_language

    code = server.create_table("mau_mau_runde", seats=2, computers=1, strength="easy")
    page = context.new_page()
    page.goto(f"{server.url}/t/{code}?lang={lang}")
    page.wait_for_selector("#join:not([hidden])")
    page.fill("#join-name", NAMES[lang])
    page.click("#join-button")
    page.wait_for_selector(".hand-card")
    deadline = time.monotonic() + 60
    while True:  # until it is this seat's turn with a card in hand that may not be played
        assert time.monotonic() < deadline, "no turn with an unplayable card came"
        page.wait_for_function(MY_TURN, timeout=30_000)
        table = server.table(code)
        if page.locator(".hand-card.unplayable").count() and shown_n(page) == table.n:
            break
        legal_move(page)
    card = page.locator(".hand-card.unplayable").first
    name = card.get_attribute("data-card") or ""
    with use_language(lang):
        expected = table.state.why_illegal(mm.Play(name))
    assert expected, f"{name} is legal after all"
    card.click(force=True)  # aria-disabled, yet a finger or a mouse can press it: it must answer why
    page.wait_for_selector("#status.error")
    shown = page.inner_text("#status")
    assert shown == expected, f"{lang}: the page says {shown!r}, the engine {expected!r}"
    page.screenshot(path=str(out / f"why-{lang}.png"))
    time.sleep(0.5)  # it stays while nothing is played
    assert page.inner_text("#status") == expected
    legal_move(page)
    page.wait_for_function("(text) => document.getElementById('status').textContent !== text", arg=expected,
                           timeout=10_000)
    assert "error" not in (page.get_attribute("#status", "class") or "")
    page.screenshot(path=str(out / f"why-{lang}-gone.png"))
    page.close()
    return expected
