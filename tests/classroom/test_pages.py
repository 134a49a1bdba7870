"""The class table page (issue 27): its words come from the catalogue in the page's language, in a
data block no browser runs; the page's script holds no word list and no move logic of its own."""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest

from maumau.classroom.messages import PROTOCOL_VERSION
from maumau.classroom.pages import PAGES, table_page
from maumau.text.locale.page import PAGE


@pytest.mark.parametrize("lang", ["en", "de", "hu"])
def test_a_table_page_carries_its_words_in_its_language(lang: str) -> None:
    page = table_page(lang).decode("utf-8")
    assert f'<html lang="{lang}">' in page
    block = re.search(r'<script type="application/json" id="words">(.*?)</script>', page, re.S)
    assert block is not None and json.loads(block.group(1)) == PAGE[lang]
    assert page.count("<script") == 2  # the words (data) and table.js
    assert f'<meta name="maumau-protocol" content="{PROTOCOL_VERSION}">' in page  # the messages it speaks


def test_no_word_of_the_catalogue_can_close_the_data_block() -> None:
    for lang, words in PAGE.items():
        block = table_page(lang).decode("utf-8").split('id="words">', 1)[1].split("</script>", 1)[0]
        assert "<" not in block and json.loads(block) == words
        assert set(words) == set(PAGE["en"])  # every language has every word


def test_the_page_script_has_no_word_list_and_no_move_logic() -> None:
    script = resources.files("maumau.classroom").joinpath("pages/table.js").read_text("utf-8")
    code = re.sub(r"//[^\n]*|/\*.*?\*/", "", script, flags=re.S)  # what runs, not what the comments say
    for english in ("Your turn", "cannot be played", "Waiting for", "wish {wish}", "Clubs"):
        assert english not in code, english
    assert "legal" not in code  # it reads the model's choices, not the legal moves
    assert "/table-words.js" not in PAGES
