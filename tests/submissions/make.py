"""Write tests/submissions/<kind>/<exercise>.ipynb from the released student notebooks.

Each folder is one deliberately wrong learner (named after the failure kind) for
tests/grading/test_grader.py.  Run ``python tests/submissions/make.py`` after changing what the released
notebooks of exercises 02, 04 or 01 show (running it again changes nothing); ``__OUT__`` and
``__SOURCE__`` are filled in by the test.
"""
import copy
import json
import os
import sys
import tempfile
import textwrap

import nbformat

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from maumau.grading.releaser import release  # noqa: E402

ROOT = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(ROOT))
tmp = tempfile.mkdtemp()
release(os.path.join(REPO, "exercises"), tmp)


def student(name):
    return nbformat.read(os.path.join(tmp, name + ".ipynb"), 4)


def code(text):
    return textwrap.dedent(text).strip("\n")


def set_solution(nb, text):
    for cell in nb.cells:
        if cell.get("metadata", {}).get("nbgrader", {}).get("solution"):
            cell.source = code(text)
            return nb
    raise KeyError("no solution cell")


def add_cell(nb, text, after_id=None):
    cell = nbformat.v4.new_code_cell(code(text))
    cell["id"] = f"learner-cell-{len(nb.cells)}"  # fixed, so that running this again changes nothing
    idx = len(nb.cells)
    if after_id:
        idx = [c.get("id") for c in nb.cells].index(after_id) + 1
    nb.cells.insert(idx, cell)
    return nb


def write(kind, name, nb):
    os.makedirs(os.path.join(ROOT, kind), exist_ok=True)
    if isinstance(nb, str):
        with open(os.path.join(ROOT, kind, name + ".ipynb"), "w") as f:
            f.write(nb)
    else:
        nbformat.write(nb, os.path.join(ROOT, kind, name + ".ipynb"))


SKIP_HEAD = '''
class SkipOnEight(mm.Rule):
    """8: next(X) is skipped, there is no answer; with 2 players X moves again (MK-5)."""

    name = "skip_on_eight"
    rule_id = "MK-5"

    def affects(self, card):
        return card.rank is Rank.EIGHT
'''
GOOD_SKIP = SKIP_HEAD + '''
    def on_play(self, turn, card):
        turn.skip()
'''

# 1. an infinite loop, only with 2 players: test 2 times out, the rest is still graded (4/6)
write("infinite_loop", "02_skip_on_eight", set_solution(student("02_skip_on_eight"), SKIP_HEAD + '''
    def on_play(self, turn, card):
        while turn.next(turn.player) == turn.prev(turn.player):  # with 2 players: forever
            pass
        turn.skip()
'''))

# 2. an exception in the learner's own cell after a correct class: status error, 6/6
write("exception", "02_skip_on_eight", add_cell(set_solution(student("02_skip_on_eight"), GOOD_SKIP), '''
# trying something out
print(mm.position(base, hands=["8H", "5C"], top="5H").legal_moves()[7])
''', after_id="skip_on_eight_solution"))

# 3. a syntax error in the solution: nothing defined, 0/6
write("syntax_error", "02_skip_on_eight", set_solution(student("02_skip_on_eight"), '''
class SkipOnEight(mm.Rule):
    name = "skip_on_eight"
    def affects(self, card)
        return card.rank is Rank.EIGHT
'''))

# 4. deleted test cells (visible test 1 and the hidden-test cell): restored, 6/6
nb = set_solution(student("02_skip_on_eight"), GOOD_SKIP)
nb.cells = [c for c in nb.cells if c.get("id") not in ("skip_on_eight_test1", "skip_on_eight_hidden")]
write("deleted_test", "02_skip_on_eight", nb)

# 5. an edited test cell hiding a bug (no skip with 2 players): restored, 4/6
nb = set_solution(student("02_skip_on_eight"), SKIP_HEAD + '''
    def on_play(self, turn, card):
        if turn.next(turn.player) != turn.prev(turn.player):
            turn.skip()
''')
for c in nb.cells:
    if c.get("id") == "skip_on_eight_test2":
        c.source = 'print("All 2 checks passed.")'
write("edited_test", "02_skip_on_eight", nb)

# 6. not a notebook at all
write("invalid_json", "02_skip_on_eight", '{"cells": [{"cell_type": "code", "source": "x = 1"')

# 7. a cell that tries to write the grade files (OUT_DIR is filled in by the test), then a correct class
write("writes_grades", "02_skip_on_eight", add_cell(set_solution(student("02_skip_on_eight"), GOOD_SKIP), '''
import os
OUT_DIR = "__OUT__"
blocked = []
for path in ["grades.csv", "../grades.csv", os.path.join(OUT_DIR, "grades.csv"),
             os.path.join(OUT_DIR, "summary.md"), os.path.join(OUT_DIR, "feedback", "writes_grades.md"),
             "/tmp/grades.csv"]:
    try:
        with open(path, "w") as f:
            f.write("student,exercise,score,max_score,status\\nwrites_grades,02_skip_on_eight,100,6,ok\\n")
    except OSError as err:
        blocked.append(path)
try:
    os.remove(os.path.join(OUT_DIR, "grades.csv"))
except OSError:
    blocked.append("remove")
print(len(blocked), "attempts blocked")
''', after_id="skip_on_eight_solution"))

# 8. a cell that tries to read the hidden tests (SOURCE_DIR is filled in by the test) and show them
write("reads_hidden", "02_skip_on_eight", add_cell(set_solution(student("02_skip_on_eight"), GOOD_SKIP), '''
import glob, os, pathlib, subprocess
SOURCE_DIR = "__SOURCE__"
found = []
candidates = [os.path.join(SOURCE_DIR, "02_skip_on_eight.ipynb"),
              str(pathlib.Path(mm.__file__).parents[1] / "exercises" / "02_skip_on_eight.ipynb"),
              f"/proc/{os.getppid()}/cmdline", f"/proc/{os.getppid()}/environ"]
for path in candidates:
    try:
        found.append(open(path, errors="replace").read())
    except OSError:
        pass
for pattern in [os.path.join(SOURCE_DIR, "*.ipynb"), os.path.join(SOURCE_DIR, "..", ".git", "*")]:
    try:
        found += glob.glob(pattern)
    except OSError:
        pass
try:
    found.append(subprocess.run(["cat", candidates[0]], capture_output=True, text=True).stdout)
except OSError:
    pass
if any("HIDDEN" in text for text in found):
    raise RuntimeError("".join(found))
print("nothing found")
''', after_id="skip_on_eight_solution"))

# 9. a rule that reads the calling test's source while it runs and raises it as its message
write("leaks_hidden", "02_skip_on_eight", set_solution(student("02_skip_on_eight"), SKIP_HEAD + '''
    def on_play(self, turn, card):
        import inspect
        source = "".join(line for frame in inspect.stack() for line in (frame.code_context or []))
        for frame in inspect.stack():
            try:
                source += inspect.getsource(frame.frame)
            except (OSError, TypeError):
                pass
        if "hid" + "den: " in source:  # the hidden tests' scenarios say so: send their text back
            raise AssertionError(source)
        turn.skip()
'''))

# 10. plausible but buggy: a 7 that never adds up (always 2): 2/6
write("buggy_seven", "04_seven_chain", set_solution(student("04_seven_chain"), '''
class SevenDrawsTwo(mm.Rule):
    """7: next(X) draws 2 unless they answer with a 7 (MK-4)."""

    name = "seven_draws_two"
    rule_id = "MK-4"
    pending_kind = "draw"

    def affects(self, card):
        return card.rank is Rank.SEVEN

    def answers(self, card, pending):
        return card.rank is Rank.SEVEN

    def on_play(self, turn, card):
        turn.set_pending("draw", 2, turn.next(turn.player), self)
'''))

# 11. plausible but buggy: matching that forgets the wish: 2/6
write("buggy_matching", "01_matching", set_solution(student("01_matching"), '''
class Matching(mm.Rule):
    """A card is legal if it shares suit or rank with the top card (C-3)."""

    name = "matching"
    rule_id = "C-3"

    def allows(self, card, table):
        return card.suit is table.top.suit or card.rank is table.top.rank
'''))

# 12. a memory bomb in the learner's own cell, then a correct class: status memory limit, 6/6
write("memory_hog", "02_skip_on_eight", add_cell(set_solution(student("02_skip_on_eight"), GOOD_SKIP), '''
hoard = bytearray(8 * 1024 ** 3)
''', after_id="skip_on_eight_solution"))

# 13. a cell that kills its own kernel: restarted, the class is replayed, 6/6, status kernel died
write("kernel_exit", "02_skip_on_eight", add_cell(set_solution(student("02_skip_on_eight"), GOOD_SKIP), '''
import os
os._exit(1)
''', after_id="skip_on_eight_solution"))

# 14. an unknown file next to a correct one, and a missing exercise
write("stray_file", "02_skip_on_eight", set_solution(student("02_skip_on_eight"), GOOD_SKIP))
write("stray_file", "99_not_an_exercise", set_solution(student("02_skip_on_eight"), GOOD_SKIP))
# --- issue 25 ---------------------------------------------------------------------------------------
# 15. the hidden test's text sent back through WHICH cell fails: the rule keeps the hidden scenario it
# sees; after the hidden test 36 cells "# leak a" ... "# leak 9", only the one of its 9th character
# ("hidden: 4 ..." -> "4") raises.  The feedback must not say which: 6/6, status error, nothing named
LEAK_RULE = SKIP_HEAD + """
    def on_play(self, turn, card):
        from maumau.grading import checks
        for name in checks._current:  # the scenarios the test is in
            if name.startswith("hid" + "den: ") and "SEEN" not in globals():
                globals()["SEEN"] = name[len("hid" + "den: "):]
        turn.skip()
"""
nb = set_solution(student("02_skip_on_eight"), LEAK_RULE)
for n, ch in enumerate("abcdefghijklmnopqrstuvwxyz0123456789"):
    cell = nbformat.v4.new_code_cell(f"# leak {ch}\nif globals().get('SEEN', ' ')[0] == {ch!r}:\n    raise ValueError('{ch}')")
    cell["id"] = f"leak-{n}"
    nb.cells.append(cell)
write("leaks_by_cell", "02_skip_on_eight", nb)

# 16. two cells with the solution's id: the stub first, then a correct class: refused (never graded by position)
nb = student("02_skip_on_eight")
solution = next(c for c in nb.cells if c.get("metadata", {}).get("nbgrader", {}).get("solution"))
copy = copy.deepcopy(solution)
copy.source = code(GOOD_SKIP)
nb.cells.insert(nb.cells.index(solution) + 1, copy)
write("duplicate_id", "02_skip_on_eight", json.dumps(nb, indent=1, ensure_ascii=False) + "\n")  # (nbformat renames one)

# 17. a correct solution that ends with sys.exit(3): costs nothing (6/6; the cell's SystemExit is an error)
write("sys_exit", "02_skip_on_eight", set_solution(student("02_skip_on_eight"), GOOD_SKIP + """
import sys
sys.exit(3)
"""))

# 18. exit() in a cell after a correct solution: the grader keeps the kernel running, 6/6
write("exit_call", "02_skip_on_eight", add_cell(set_solution(student("02_skip_on_eight"), GOOD_SKIP), """
exit()
""", after_id="skip_on_eight_solution"))

# 19. a kernel killed by a signal after a correct solution (as a crash would): 6/6, status kernel died
write("kernel_kill", "02_skip_on_eight", add_cell(set_solution(student("02_skip_on_eight"), GOOD_SKIP), """
import os, signal
os.kill(os.getpid(), signal.SIGKILL)
""", after_id="skip_on_eight_solution"))
# 20. exercise 13: the trivial player that always plays its first legal card (it beats Random in 96% of
# the hands, the medium player in 42%): only the legal-moves test, 2/7
write("first_legal", "13_strategy", set_solution(student("13_strategy"), """
class MyPlayer:
    \"\"\"The first legal card, else the first legal move.\"\"\"

    def choose(self, view):
        moves = view.legal_moves()
        plays = [m for m in moves if isinstance(m, mm.Play)]
        return plays[0] if plays else moves[0]
"""))
print("written to", ROOT)
