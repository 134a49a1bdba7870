"""A bot's source: a Python file's text, a path to one, or an exercise-13 notebook.

Only text is read and compiled here, nothing is run: the code runs in the bot's sandbox
(``runner``).  A source that cannot be read, parsed or compiled (too large, nested too deep for
Python's compiler, a syntax error, a null byte, text that is not UTF-8) is a ``LeagueError``
with a sentence, whatever Python's compiler raised.
From a notebook, the code cells before its tests are taken (the cells nbgrader grades, and
everything after the first of them or after a "## Tests" heading, are left out), without
IPython's ``%magic`` and ``!shell`` lines.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from .errors import LeagueError

__all__ = ["read_source", "MAX_SOURCE"]

#: The largest bot source taken (a learner's player is a few kilobytes).
MAX_SOURCE = 512 * 1024


def read_source(source: str | os.PathLike[str]) -> str:
    """The Python text of a bot given as text, a ``.py`` path or an ``.ipynb`` path; LeagueError
    when it is none of these or not Python."""
    text, where = _text_of(source)
    if len(text) > MAX_SOURCE:
        raise LeagueError(f"{where} is {len(text)} characters long; a bot may have at most {MAX_SOURCE}")
    if where.endswith(".ipynb") or _looks_like_notebook(text):
        text = _notebook_code(text, where)
    _compile(text, where)
    return text


def _compile(text: str, where: str) -> None:
    """Compile ``text`` (not run it); LeagueError saying why it cannot be."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:
        raise LeagueError(f"{where} is not UTF-8 text: character {err.start} is a lone surrogate") from None
    try:
        compile(text, "league_bot.py", "exec", dont_inherit=True)
    except SyntaxError as err:
        raise LeagueError(f"{where} is not Python: {err.msg} (line {err.lineno})") from None
    except ValueError as err:  # a null byte (older Pythons)
        raise LeagueError(f"{where} is not Python: {err}") from None
    except (RecursionError, MemoryError):  # Python's parser and compiler stop at a depth of nesting
        raise LeagueError(f"{where} nests expressions too deeply for Python's compiler") from None


def _text_of(source: str | os.PathLike[str]) -> tuple[str, str]:
    if isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source
                                           and source.strip().endswith((".py", ".ipynb"))):
        path = Path(source)
        try:
            if path.stat().st_size > MAX_SOURCE * 4:
                raise LeagueError(f"{path} is too large for a bot ({path.stat().st_size} bytes)")
            return path.read_text(encoding="utf-8"), str(path)
        except FileNotFoundError:
            raise LeagueError(f"there is no file {path}") from None
        except UnicodeDecodeError as err:
            raise LeagueError(f"{path} is not UTF-8 text: byte {err.start} is not UTF-8") from None
        except OSError as err:
            raise LeagueError(f"cannot read {path}: {err}") from None
    if not isinstance(source, str):
        raise LeagueError(f"a bot is Python source text or a path to a .py or .ipynb file, not {type(source).__name__}")
    return source, "the source"


def _looks_like_notebook(text: str) -> bool:
    head = text.lstrip()[:200]
    return head.startswith("{") and '"cells"' in text[:100_000] and '"nbformat"' in text


def _notebook_code(text: str, where: str) -> str:
    try:
        cells = json.loads(text)["cells"]
    except (ValueError, KeyError, TypeError, RecursionError):  # (JSON nested too deep: RecursionError)
        raise LeagueError(f"{where} is not a readable notebook") from None
    code: list[str] = []
    for cell in cells if isinstance(cells, list) else []:
        if not isinstance(cell, dict):
            continue
        body = _joined(cell.get("source", ""))
        grader = (cell.get("metadata") or {}).get("nbgrader") or {}
        if cell.get("cell_type") == "markdown" and body.lstrip().lower().startswith("## tests"):
            break
        if cell.get("cell_type") != "code":
            continue
        if grader.get("grade") is True and grader.get("solution") is not True:
            break  # the tests begin
        code.append("\n".join(line for line in body.splitlines() if not line.lstrip().startswith(("%", "!"))))
    if not code:
        raise LeagueError(f"{where} has no code cells before its tests")
    return "\n\n".join(code) + "\n"


def _joined(source: Any) -> str:
    return "".join(source) if isinstance(source, list) else str(source)
