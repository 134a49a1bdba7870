"""What the similarity flags cost after grading: a class of learners × the course's exercises.

    python benchmarks/similarity.py                  # 30 learners × the 14 exercises
    python benchmarks/similarity.py --learners 60

Each learner hands in every exercise: the instructor's solution with the learner's own names and a
helper of their own (random statements, so no two learners' code is alike beyond the solution),
and a dozen wrong answers per exercise; learner01 copies learner00 (renamed, reordered) and
learner03 gives learner02's wrong answers.  Nothing runs in a kernel: this is the ``similar`` stage
of ``maumau grade`` alone (fingerprints, pairs, the page's section), which runs after the kernels.
Prints the time of each step, per notebook, and the pairs flagged (the two planted ones).
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from maumau.grading.exercise import SOLUTION, assemble, load_exercises, student_version  # noqa: E402
from maumau.grading.gradebook import Row, TestResult  # noqa: E402
from maumau.grading.similarity import answers_of, find_flags, solution_codes  # noqa: E402
from maumau.grading.similarity_page import similar_section  # noqa: E402

OPS = ("+", "-", "*", "//", "%")


def helper(rng: random.Random, n: int) -> str:
    """A learner's own helper: a few statements of random arithmetic and branches."""
    lines = [f"def helper_{n}(a, b):"]
    names = ["a", "b"]
    for i in range(rng.randint(4, 8)):
        target = f"v{i}"
        x, y = rng.choice(names), rng.choice(names)
        if rng.random() < 0.3:
            lines.append(f"    if {x} > {rng.randint(0, 9)}:\n        {x} = {y} {rng.choice(OPS)} {rng.randint(1, 9)}")
        lines.append(f"    {target} = {x} {rng.choice(OPS)} {y} {rng.choice(OPS)} {rng.randint(1, 99)}")
        names.append(target)
    lines.append(f"    return {' + '.join(rng.sample(names, 3))}")
    return "\n".join(lines) + "\n"


def learner_code(solution: str, n: int, rng: random.Random) -> str:
    """The instructor's solution as learner ``n`` writes it: their names, their helper."""
    renamed = re.sub(r"\b(state|graph|move|card|turn|seat|hand|queue|moves|plays|value)\b",
                     lambda m: f"{m.group()}_{n}", solution)
    return renamed + "\n\n" + helper(rng, n)


def copied(code: str) -> str:
    """``code`` copied: its names changed again, its two parts swapped."""
    first, _, second = code.rpartition("\n\n")
    return re.sub(r"_0\b", "_copy", second + "\n\n" + first)


def answers(rng: random.Random, exercise: str, n: int) -> list[dict[str, str]]:
    """A dozen wrong answers: the learner's own (their number in them), on the exercise's checks."""
    return [{"pos": f"{exercise}-{i}", "test": f"{exercise}_test{i % 3}", "scenario": f"scenario {i}",
             "what": "who moves next",
             "expected": "2", "got": str(rng.randint(0, 9)), "sig": f"{exercise}-{i}-{n}-{rng.random()}"}
            for i in range(12)]


def build(learners: int) -> tuple[list, list[Row]]:
    rng = random.Random(38)
    exercises = load_exercises(ROOT / "exercises")
    jobs, rows = [], []
    for exercise in exercises:
        solutions = {c.key: c.source for c in exercise.cells if c.role == SOLUTION}
        codes: dict[str, str] = {}
        for n in range(learners):
            notebook = student_version(exercise)
            for cell in notebook.cells:
                key = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
                if key in solutions and cell.cell_type == "code":
                    code = learner_code(solutions[key], n, rng) if n != 1 else copied(codes[key])
                    codes.setdefault(key, code)
                    cell.source = code
            cells, _ = assemble(exercise, notebook)
            row = Row(f"learner{n:02d}", exercise.name, tests=[TestResult("t", "t", 0, 1, False, False)])
            row.answers = answers(rng, exercise.name, n)
            if n == 3:  # learner03 gives learner02's wrong answers
                row.answers = [dict(a) for a in rows[-1].answers]
            jobs.append((row, exercise, cells, {}))
            rows.append(row)
    return jobs, rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--learners", type=int, default=30)
    args = parser.parse_args(argv)
    began = time.perf_counter()
    jobs, rows = build(args.learners)
    built = time.perf_counter()
    codes = solution_codes(jobs)
    printed = time.perf_counter()
    flags = find_flags(codes, answers_of(rows))
    paired = time.perf_counter()
    page = "\n".join(similar_section(flags, "en"))
    shown = time.perf_counter()
    notebooks = len(jobs)
    exercises = len(codes)
    print(f"{args.learners} learners × {exercises} exercises = {notebooks} notebooks "
          f"(made in {built - began:.2f} s, not counted)")
    print(f"fingerprints   {printed - built:6.3f} s  ({(printed - built) / notebooks * 1000:.2f} ms per notebook)")
    print(f"pairs          {paired - printed:6.3f} s  ({args.learners * (args.learners - 1) // 2} pairs of learners)")
    print(f"page section   {shown - paired:6.3f} s  ({len(page) // 1024} KiB)")
    print(f"total          {shown - built:6.3f} s")
    for flag in flags:
        print(f"flagged: {flag.learners[0]} and {flag.learners[1]}: code {flag.score:.0%} "
              f"({len(flag.code)} exercises), {len(flag.answers)} shared rare wrong answers")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
