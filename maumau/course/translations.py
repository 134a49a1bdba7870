"""The course in three languages: each translated notebook kept in step with its English source.

The English notebooks are the source (``notebooks/*.ipynb``, ``exercises/*.ipynb``); a translation
sits beside its source in a folder named after its language, under the same file name
(``notebooks/de/01_start_here.ipynb``). It holds the source's cells in the same order, with the same
ids, types and grading metadata, and the same code: only Markdown, comments, docstrings and the
strings meant for people differ. Each translated cell records the fingerprint of the English cell it
was translated from (``metadata.maumau.translated_from``), so when the English cell changes, the
translation reads as outdated until a translator brings it in step and stamps it again.

    python -m maumau.course.translations check             # every translation of the course
    python -m maumau.course.translations sync hu           # new English cells into the hu notebooks
    python -m maumau.course.translations stamp notebooks/de/01_start_here.ipynb [--cell ID]

``check`` exits 1 and lists each problem (a missing, extra or moved cell, code that differs, a cell
never translated or translated from an older English text); ``tests/course/test_translations.py``
runs it over the whole course.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

#: The languages the course is translated into (English is the source).
TRANSLATED = ("de", "hu")
#: The folders whose notebooks are the course's sources.
COURSE_FOLDERS = ("notebooks", "exercises")
#: Comment lines the grader reads (they mark the regions a learner never gets): kept verbatim.
MARKERS = ("### BEGIN SOLUTION", "### END SOLUTION", "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS")

Notebook = dict[str, Any]
Cell = dict[str, Any]
Kind = Literal["missing", "extra", "order", "type", "metadata", "code", "markers", "language",
               "untranslated", "outdated"]

#: What each kind of problem means, for the report.
MEANING: dict[str, str] = {
    "missing": "the English cell has no translation",
    "extra": "the cell is not in the English source",
    "order": "the cell stands elsewhere than in the English source",
    "type": "the cell's type differs from the English source",
    "metadata": "the cell's grading metadata differs from the English source",
    "code": "the code differs from the English source (only comments and strings may)",
    "markers": "the solution or hidden-test markers differ from the English source",
    "language": "the notebook does not say its language",
    "untranslated": "the cell is not translated yet",
    "outdated": "the English cell changed after it was translated",
}


@dataclass(frozen=True)
class Problem:
    """One way a translation is out of step with its source."""

    path: Path
    cell: str
    kind: Kind
    detail: str = ""

    def __str__(self) -> str:
        if self.cell == "notebook" and self.detail:
            return f"{self.path}: {self.detail}"
        detail = f": {self.detail}" if self.detail else ""
        return f"{self.path} [{self.cell}] {self.kind}: {MEANING[self.kind]}{detail}"


def source_of(cell: Cell) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def fingerprint(source: str) -> str:
    """The short hash by which a translated cell names the English text it was made from."""
    return hashlib.sha256(source.encode("utf-8")).hexdigest()[:12]


def translation_path(source: Path, lang: str) -> Path:
    """Where the translation of ``source`` into ``lang`` lies: beside it, in a folder ``lang``."""
    return source.parent / lang / source.name


def course_sources(root: Path) -> list[Path]:
    """The English notebooks of the course under ``root`` (a clone or a course folder)."""
    return [p for folder in COURSE_FOLDERS for p in sorted((root / folder).glob("*.ipynb"))]


def read(path: Path) -> Notebook:
    notebook: Notebook = json.loads(path.read_text(encoding="utf-8"))
    return notebook


def write(path: Path, notebook: Notebook) -> None:
    """Written as Jupyter writes it (one-space indent, UTF-8), so diffs stay small."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


# --- what must stay the same: the code ------------------------------------------------------------


def _python(source: str) -> str:
    """The cell as plain Python: IPython's magics (``%time``, ``!ls``) turned into calls."""
    try:
        from IPython.core.inputtransformer2 import TransformerManager
    except ImportError:  # without IPython the cell is read as it is
        return source
    return str(TransformerManager().transform_cell(source))


class _PeopleWords(ast.NodeTransformer):
    """Blanks what a translator may change: every string, and the words around an f-string's
    fields (the fields themselves stay, in any order, since a sentence may need another order)."""

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        return ast.Constant("") if isinstance(node.value, str) else node

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.AST:
        fields = [self.visit(v) for v in node.values if isinstance(v, ast.FormattedValue)]
        fields.sort(key=ast.dump)
        return ast.JoinedStr(values=fields)


def code_shape(source: str) -> str:
    """The code of a cell with its comments and the strings meant for people taken out: two cells
    of the same shape do the same, whatever language their words are in. A cell that does not parse
    is compared as it is (its comments and strings then count)."""
    try:
        tree = ast.parse(_python(source))
    except SyntaxError:
        return source
    return ast.dump(_PeopleWords().visit(tree))


def markers(source: str) -> list[str]:
    return [line.strip() for line in source.splitlines() if line.strip() in MARKERS]


def _languages_said(source: str) -> Iterator[str]:
    """The languages a cell chooses with ``set_language("..")``."""
    try:
        tree = ast.parse(_python(source))
    except SyntaxError:
        return
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None))
                == "set_language" and node.args and isinstance(node.args[0], ast.Constant)):
            yield str(node.args[0].value)


# --- checking a translation --------------------------------------------------------------------


def _stamp_of(cell: Cell) -> str | None:
    stamp = cell.get("metadata", {}).get("maumau", {}).get("translated_from")
    return stamp if isinstance(stamp, str) else None


def _untranslated(cell: Cell) -> bool:
    return bool(cell.get("metadata", {}).get("maumau", {}).get("untranslated"))


def _grading(cell: Cell) -> Any:
    return cell.get("metadata", {}).get("nbgrader")


def cell_problems(path: Path, english: Cell, translated: Cell, lang: str) -> Iterator[Problem]:
    """What is wrong with one translated cell, compared with its English cell."""
    cid = str(english.get("id"))
    if english["cell_type"] != translated["cell_type"]:
        yield Problem(path, cid, "type", f"{translated['cell_type']} instead of {english['cell_type']}")
        return
    if _grading(english) != _grading(translated):
        yield Problem(path, cid, "metadata")
    ours, theirs = source_of(english), source_of(translated)
    if english["cell_type"] == "code":
        if code_shape(ours) != code_shape(theirs):
            yield Problem(path, cid, "code")
        if markers(ours) != markers(theirs):
            yield Problem(path, cid, "markers")
        said = set(_languages_said(theirs))
        if said - {lang}:
            yield Problem(path, cid, "language", f"set_language({sorted(said - {lang})[0]!r}) in a {lang} notebook")
    stamp = _stamp_of(translated)
    if _untranslated(translated) or stamp is None:
        yield Problem(path, cid, "untranslated")
    elif stamp != fingerprint(ours):
        yield Problem(path, cid, "outdated")


def problems(source: Notebook, translation: Notebook, lang: str, path: Path) -> list[Problem]:
    """Every way ``translation`` (into ``lang``, read from ``path``) is out of step with ``source``."""
    found: list[Problem] = []
    if translation.get("metadata", {}).get("maumau", {}).get("language") != lang:
        found.append(Problem(path, "notebook", "language", f'metadata maumau.language is not "{lang}"'))
    english = {str(c.get("id")): c for c in source["cells"]}
    translated = {str(c.get("id")): c for c in translation["cells"]}
    found += [Problem(path, cid, "missing") for cid in english if cid not in translated]
    found += [Problem(path, cid, "extra") for cid in translated if cid not in english]
    shared = [cid for cid in english if cid in translated]
    if shared != [cid for cid in translated if cid in english]:
        found.append(Problem(path, "notebook", "order", "the cells are not in the English order"))
    for cid in shared:
        found += cell_problems(path, english[cid], translated[cid], lang)
    code = [c for c in translation["cells"] if c["cell_type"] == "code"]
    if code and lang not in set(_languages_said(source_of(code[0]))):
        found.append(Problem(path, str(code[0].get("id")), "language",
                             f'the first code cell does not call set_language("{lang}")'))
    return found


def course_problems(root: Path, languages: Sequence[str] = TRANSLATED) -> list[Problem]:
    """Every problem of every translation of the course under ``root`` (a missing notebook too)."""
    found: list[Problem] = []
    for source in course_sources(root):
        for lang in languages:
            path = translation_path(source, lang)
            if not path.exists():
                found.append(Problem(path.relative_to(root), "notebook", "missing",
                                     f"no {lang} translation of {source.relative_to(root)}"))
                continue
            found += problems(read(source), read(path), lang, path.relative_to(root))
    for folder in COURSE_FOLDERS:
        for lang in languages:
            for path in sorted((root / folder / lang).glob("*.ipynb")):
                if not (root / folder / path.name).exists():
                    found.append(Problem(path.relative_to(root), "notebook", "extra",
                                         "no English notebook of that name"))
    return found


# --- keeping a translation in step ---------------------------------------------------------------


def _maumau_meta(cell_or_nb: dict[str, Any]) -> dict[str, Any]:
    meta: dict[str, Any] = cell_or_nb.setdefault("metadata", {}).setdefault("maumau", {})
    return meta


def stamp(source: Notebook, translation: Notebook, lang: str, cells: Iterable[str] | None = None) -> list[str]:
    """Record that the translated cells ``cells`` (default: those never stamped) now say what their
    English cells say; set the notebook's language. Returns the ids stamped."""
    english = {str(c.get("id")): c for c in source["cells"]}
    _maumau_meta(translation)["language"] = lang
    wanted = set(cells) if cells is not None else None
    done = []
    for cell in translation["cells"]:
        cid = str(cell.get("id"))
        if cid not in english:
            continue
        if wanted is None and _stamp_of(cell) is not None and not _untranslated(cell):
            continue
        if wanted is not None and cid not in wanted:
            continue
        meta = _maumau_meta(cell)
        meta["translated_from"] = fingerprint(source_of(english[cid]))
        meta.pop("untranslated", None)
        done.append(cid)
    return done


def sync(source: Notebook, translation: Notebook, lang: str) -> Notebook:
    """The translation with the source's cells, in the source's order: a cell new in English comes in
    English, marked untranslated; a cell gone from English goes; grading metadata follows the
    source; translated text stays (``check`` says which cells are outdated)."""
    translated = {str(c.get("id")): c for c in translation["cells"]}
    cells = []
    for english in source["cells"]:
        cid = str(english.get("id"))
        cell = translated.get(cid)
        if cell is None or cell["cell_type"] != english["cell_type"]:
            cell = json.loads(json.dumps(english))
            _maumau_meta(cell)["untranslated"] = True
            _maumau_meta(cell).pop("translated_from", None)
        elif _grading(english) is not None:
            cell["metadata"]["nbgrader"] = json.loads(json.dumps(_grading(english)))
        cells.append(cell)
    result = dict(translation, cells=cells)
    _maumau_meta(result)["language"] = lang
    return result


# --- the command line --------------------------------------------------------------------------


def _english_of(path: Path) -> tuple[Path, str]:
    """The English source and the language of a translation's path."""
    lang = path.parent.name
    if lang not in TRANSLATED:
        raise SystemExit(f"{path} is not in a language folder ({', '.join(TRANSLATED)})")
    source = path.parent.parent / path.name
    if not source.exists():
        raise SystemExit(f"{path}: no English source {source}")
    return source, lang


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m maumau.course.translations",
                                     description="Keep the course's translations in step with the English notebooks.")
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="list every problem of the translations (exit 1 if any)")
    c.add_argument("paths", nargs="*", type=Path, help="translated notebooks (default: the whole course)")
    c.add_argument("--root", type=Path, default=Path.cwd(), help="the course folder (default: here)")
    s = sub.add_parser("stamp", help="mark translated cells as up to date with their English cells")
    s.add_argument("paths", nargs="+", type=Path)
    s.add_argument("--cell", action="append", help="only this cell id (repeatable); default: cells never stamped")
    s.add_argument("--all", action="store_true", help="every cell")
    y = sub.add_parser("sync", help="bring the translations' cells in step with the English notebooks")
    y.add_argument("languages", nargs="*", default=list(TRANSLATED))
    y.add_argument("--root", type=Path, default=Path.cwd())
    args = parser.parse_args(argv)
    if args.command == "check":
        if args.paths:
            found = [p for path in args.paths for p in problems(read(_english_of(path)[0]), read(path),
                                                                  _english_of(path)[1], path)]
        else:
            found = course_problems(args.root)
        for problem in found:
            print(problem)
        print(f"{len(found)} problem(s)" if found else "every translation is in step with its source")
        return 1 if found else 0
    if args.command == "stamp":
        for path in args.paths:
            source, lang = _english_of(path)
            translation = read(path)
            cells = None if not args.all else [str(c.get("id")) for c in translation["cells"]]
            done = stamp(read(source), translation, lang, args.cell or cells)
            write(path, translation)
            print(f"{path}: {len(done)} cell(s) stamped")
        return 0
    for source in course_sources(args.root):
        for lang in args.languages:
            path = translation_path(source, lang)
            before = read(path) if path.exists() else {**read(source), "cells": []}
            after = sync(read(source), before, lang)
            if after != before:
                write(path, after)
                print(f"{path}: brought in step")
    return 0


if __name__ == "__main__":
    sys.exit(main())
