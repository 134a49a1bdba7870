"""The visible checks of a course, as the live view knows them: each check is a scenario of a
visible test cell, found by its name in the learner's language, and the RULES.md ids behind it.

The learner's kernel reports a check by its scenario's name (``with scenario("3 players, seat 0
plays 8♥"):``), the only thing it knows of it.  The server reads every exercise's test cells as
learners get them (hidden tests gone), in English and in each translation, and gives each
scenario an id: its cell's stable id and its place in the cell (``skip_on_eight_test1#0``), the
same in every language, so a German and an English learner's checks count together and the
teacher reads each in their own language.  A name made at run time (an f-string) is matched as a
pattern.  A name that is no visible check of the exercise (a learner's own scenario, a hidden
test's) is not the teacher's to see: it is left out.

With the course key (``maumau serve --variants``) each learner's test cells name their cards
relabeled (``learner_variants``: "seat 0 plays 8♠" where the common cells say 8♥): the learner's
names are read from their own draw of the exercise (``ExerciseChecks.drawn``), and have the same
ids, so the same check counts together across learners whatever cards each of them sees.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..grading.course_page import rule_ids
from ..grading.exercise import TEST, Exercise, load_exercises, student_cell_source
from ..grading.learner_variants import Relabeling, for_learner

__all__ = ["CheckInfo", "ExerciseChecks", "course_checks", "rule_sentence"]


@dataclass
class CheckInfo:
    """One visible check: its id, its name by language, the RULES.md ids it checks."""
    id: str
    names: dict[str, str]
    rules: tuple[str, ...]

    def name(self, lang: str) -> str:
        return self.names.get(lang) or self.names.get("en") or next(iter(self.names.values()))


@dataclass
class ExerciseChecks:
    """The visible checks of one exercise, in notebook order; ``titles``: what pages call the exercise,
    by language ("02 Skip on 8 (MK-5)"); ``exercise``: its instructor notebook (a learner's draw of it)."""
    name: str
    checks: list[CheckInfo] = field(default_factory=list)
    titles: dict[str, str] = field(default_factory=dict)
    exercise: Exercise | None = field(default=None, repr=False, compare=False)
    _drawn: dict[str, ExerciseChecks] = field(default_factory=dict, repr=False, compare=False)
    _exact: dict[str, str] = field(default_factory=dict)
    _patterns: list[tuple[re.Pattern[str], str]] = field(default_factory=list)
    _shapes: set[str] = field(default_factory=set)

    def id_of(self, scenario: str) -> str | None:
        """The id of the check named ``scenario`` in any of the course's languages, or None."""
        found = self._exact.get(scenario)
        if found is not None:
            return found
        return next((check_id for pattern, check_id in self._patterns if pattern.fullmatch(scenario)), None)

    def knows(self, scenario: str) -> bool:
        """Whether ``scenario`` is one of these checks with some learner's cards (which exercise a
        report is of, before the learner's own draw is read)."""
        return self.id_of(scenario) is not None or _shape(scenario) in self._shapes

    def by_id(self) -> dict[str, CheckInfo]:
        return {c.id: c for c in self.checks}

    def title(self, lang: str) -> str:
        """The exercise's title in ``lang`` (English where it has no translation; its name without a heading)."""
        return self.titles.get(lang) or self.titles.get("en") or self.name

    def drawn(self, relabeling: Relabeling) -> ExerciseChecks:
        """These checks as a learner with ``relabeling`` runs them: the same ids, the names of their own
        cards (read once per draw: learners who share a draw share it)."""
        if relabeling.is_common or self.exercise is None:
            return self
        found = self._drawn.get(relabeling.name)
        if found is None:
            found = self._drawn[relabeling.name] = _exercise_checks(for_learner(self.exercise, relabeling))
            found.exercise = None  # its names are all it needs: the relabeled notebook is let go
        return found


def _names(source: str) -> list[str | re.Pattern[str]]:
    """The scenario names of a cell's source in order: a text, or a pattern for an f-string."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    found: list[tuple[int, int, str | re.Pattern[str]]] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "scenario"
                and node.args):
            continue
        arg = node.args[0]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            found.append((node.lineno, node.col_offset, arg.value))
        elif isinstance(arg, ast.JoinedStr):  # the parts filled in at run time match anything
            parts = [re.escape(v.value) if isinstance(v, ast.Constant) and isinstance(v.value, str) else ".+?"
                     for v in arg.values]
            found.append((node.lineno, node.col_offset, re.compile("".join(parts), re.DOTALL)))
    return [name for _, _, name in sorted(found, key=lambda f: (f[0], f[1]))]


def _exercise_checks(exercise: Exercise) -> ExerciseChecks:
    """The visible checks of ``exercise`` and of its translations (the same cells, the same places)."""
    languages = {"en": exercise, **exercise.translations}
    result = ExerciseChecks(exercise.name, titles={lang: e.title for lang, e in languages.items()}, exercise=exercise)
    rules = rule_ids(exercise)
    for cell in exercise.cells:
        if cell.role != TEST or not cell.key:
            continue
        by_lang = {}
        for lang, version in languages.items():
            own = version.by_key().get(cell.key)
            if own is not None:
                by_lang[lang] = _names(student_cell_source(own, lang))
        for place in range(len(by_lang.get("en", []))):
            check_id = f"{cell.key}#{place}"
            names: dict[str, str] = {}
            for lang, found in by_lang.items():
                if place < len(found):
                    each = found[place]
                    names[lang] = each if isinstance(each, str) else _readable(each)
                    if isinstance(each, str):
                        result._exact.setdefault(each, check_id)
                        result._shapes.add(_shape(each))
                    else:
                        result._patterns.append((each, check_id))
            result.checks.append(CheckInfo(check_id, names, rules.get(cell.key, ())))
    return result


#: A card as the test cells write it (``8H``, ``8♥``) or a suit on its own: what a learner's draw relabels.
_CARD = re.compile(r"(?<![\w])(?:10|[2-9TJQKA])[CDHS♣♦♥♠](?![\w])|[♣♦♥♠]")


def _shape(name: str) -> str:
    """A check's name with every card left blank: the same for every learner's draw of it."""
    return _CARD.sub("\x00", name)


def _readable(pattern: re.Pattern[str]) -> str:
    """How a pattern's check is named on the page: its fixed words, ``…`` for the parts filled in."""
    return re.sub(r"\\(.)", r"\1", pattern.pattern.replace(".+?", "…"))


def course_checks(source: str | Path) -> dict[str, ExerciseChecks]:
    """Every exercise of the course in ``source`` and its visible checks, by exercise name (read
    again only when a notebook of it changed: a restarted server starts at once)."""
    folder = Path(source).resolve()
    stamp = tuple(sorted((str(p), p.stat().st_mtime_ns) for p in folder.rglob("*.ipynb")))
    found = _read.get(folder)
    if found is None or found[0] != stamp:
        found = _read[folder] = (stamp, {e.name: _exercise_checks(e) for e in load_exercises(folder)})
    return found[1]


def rule_sentence(rule: str, lang: str) -> str:
    """What the RULES.md rule ``rule`` says, in ``lang`` (as RULES.md does; "" for an id no variant has)."""
    if (rule, lang) not in _sentences:
        from ..core.variants import variant, variant_names
        from ..text.i18n import rule_summary

        said: dict[str, None] = {}  # an id two variants' rules share (LM-4): both sentences, once each
        for name in variant_names():
            game = variant(name)
            for each in game.rules:
                if each.rule_id == rule:
                    said.setdefault(rule_summary(each, lang, call=game.call))
        _sentences[(rule, lang)] = " / ".join(said)
    return _sentences[(rule, lang)]


_sentences: dict[tuple[str, str], str] = {}
_read: dict[Path, tuple[tuple[tuple[str, int], ...], dict[str, ExerciseChecks]]] = {}
