"""Write tests/submissions/cheat_<kind>/02_skip_on_eight.ipynb: learners who leave the stub as
it is and try to change their grade instead (issue 12, item 1).

Every one of them must get what the honest stub gets: 0 points.  Run
``python tests/submissions/cheats.py`` after changing what the released exercise 02 shows
(running it again changes nothing); tests/grading/test_grader.py grades them.
"""
import os
import sys
import tempfile
import textwrap

import nbformat

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from maumau.grading.releaser import release  # noqa: E402

ROOT = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(ROOT))
EXERCISE = "02_skip_on_eight"


GOOD_SKIP = '''
class SkipOnEight(mm.Rule):
    """8: next(X) is skipped, there is no answer; with 2 players X moves again (MK-5)."""

    name = "skip_on_eight"
    rule_id = "MK-5"

    def affects(self, card):
        return card.rank is Rank.EIGHT

    def on_play(self, turn, card):
        turn.skip()
'''


def stub(exercise=EXERCISE):
    tmp = tempfile.mkdtemp()
    release(os.path.join(REPO, "exercises"), tmp)
    return nbformat.read(os.path.join(tmp, exercise + ".ipynb"), 4)


def cell(text, n):
    new = nbformat.v4.new_code_cell(textwrap.dedent(text).strip("\n"))
    new["id"] = f"cheat-cell-{n}"  # fixed, so that running this again changes nothing
    return new


def write(kind, text, where="after_solution", prefix="cheat", exercise=EXERCISE, solution=None):
    """The stub notebook with the cheat as a cell of the learner's own, placed after the
    solution cell (or first of all, before the instructor's setup cell), in
    tests/submissions/<prefix>_<kind>; ``solution`` replaces the stub of the solution cell."""
    nb = stub(exercise)
    ids = [c.get("id") for c in nb.cells]
    solution_id = next(i for i in ids if i and i.endswith("_solution"))
    if solution is not None:
        nb.cells[ids.index(solution_id)].source = textwrap.dedent(solution).strip("\n")
    at = 0 if where == "first" else ids.index(solution_id) + 1
    nb.cells.insert(at, cell(text, at))
    folder = os.path.join(ROOT, f"{prefix}_{kind}")
    os.makedirs(folder, exist_ok=True)
    nbformat.write(nb, os.path.join(folder, exercise + ".ipynb"))


# Checks that check nothing, and a scenario that swallows the stub's NotImplementedError.
QUIET = '''
class _Quiet:
    def __init__(self, *a, **k): pass
    def __enter__(self): return self
    def __exit__(self, *exc): return True
'''

write("rebind", QUIET + '''
check = check_moves = lambda *a, **k: None
scenario = _Quiet
''')

write("code", QUIET + '''
import contextlib
import maumau.grading.checks as c

def _nothing(*a, **k):
    return None

@contextlib.contextmanager
def _swallow(name):
    try:
        yield
    except Exception:
        pass

c.check.__code__ = _nothing.__code__
c.check_moves.__code__ = _nothing.__code__
c.scenario.__wrapped__.__code__ = _swallow.__wrapped__.__code__
''')

write("fake_module", QUIET + '''
import sys, types
fake = types.ModuleType("maumau.grading")
fake.check = fake.check_moves = fake.passed = lambda *a, **k: None
fake.scenario = _Quiet
sys.modules["maumau.grading"] = fake
import maumau
maumau.grading = fake
''', where="first")

write("transformer", '''
get_ipython().input_transformers_post.append(lambda lines: ["pass\\n"])
''')

write("post_run_hook", '''
def _forget(result):
    result.error_in_exec = None
    result.error_before_exec = None
get_ipython().events.register("post_run_cell", _forget)
''')

# Forged records (every check "True", or the seat 1) after the errors were swallowed.
write("forged_report", '''
def _forget(result):
    result.error_in_exec = None
get_ipython().events.register("post_run_cell", _forget)
import maumau.grading.checks as c
from IPython.display import display
def _report():
    guesses = [{"kind": "value", "scenario": [], "what": "x", "value": v, "repr": "", "hint": ""}
               for v in (True, 1, 2, 0, None)]
    display({c.REPORT_MIME: guesses}, raw=True)
c.report = _report
''')

# Exercise 13 (a player that beats Random): the kernel plays, the grader counts the wins.
# Hands made up with every hand "won": the grader plays them again and finds no moves.
write("fake_hands", '''
from maumau.grading.hands import Hands

def play_hands(player, variant="makao", players=2, games=100, seed=0):
    hands = Hands()
    for g in range(games):
        hands.setups.append({"variant": variant, "players": players, "seed": seed + g, "seat": g % players,
                             "opponents": [seed * 1000 + g * 10 + i for i in range(players)]})
        hands.moves.append([])
        hands.won.append(True)
    return hands

win_rate = lambda *args, **kwargs: 1.0
''', exercise="13_strategy")

# A player that plays at random, and opponents (Random, and the medium player of the tests) made to
# forget to say Mau (the penalty keeps them from ever going out): it wins every hand in the
# kernel, but its moves do not fit the real opponents' moves.
write("weak_opponents", '''
import maumau.players as _players

def _forget_mau(self, state):
    move = self.rng.choice(state.legal_moves())
    return move.replace(mau=False) if isinstance(move, mm.Play) else move

_players.Random.choose = _forget_mau
_players.Heuristic.choose = _forget_mau
_players.Heuristic.rng = __import__("random").Random(0)
''', exercise="13_strategy", solution='''
import random as _random


class MyPlayer:
    """Any legal move."""

    def __init__(self):
        self.rng = _random.Random(1)

    def choose(self, view):
        return self.rng.choice(view.legal_moves())
''')

# Issue 34: a player that sees more than its View.  The first legal card (42% against the medium
# player), except that it finds the real GameState (up the call stack, else with gc) and the table's
# players, and near the end of a hand plays each of its options to the end with them and takes the
# quickest win: 85% where it can see the state, 42% where it sees only its View.
write("clairvoyant", "# a cell of my own: nothing here", exercise="13_strategy", solution='''
import copy
import gc
import sys

import maumau as mm


def _fits(obj, view):
    try:
        return (type(obj).__name__ == "GameState" and obj.hands[view.seat] == view.hand
                and obj.discard == view.discard and obj.to_move == view.seat)
    except Exception:
        return None


def _clairvoyance(view):
    """The real GameState and the table's players: up the call stack, else among all objects."""
    state = players = None
    frame = sys._getframe(2)
    while frame is not None:
        for value in list(frame.f_locals.values()) + list(frame.f_globals.values()):
            if state is None and _fits(value, view):
                state = value
            if players is None and isinstance(value, list) and len(value) == len(view.hand_sizes) \
                    and all(callable(getattr(p, "choose", None)) for p in value):
                players = value
        frame = frame.f_back
    if state is None and len(view.discard) <= 2:  # (gc is slow: only at a hand's start)
        state = next((o for o in gc.get_objects() if _fits(o, view)), None)
    return state, players


def _first(moves):
    plays = [m for m in moves if isinstance(m, mm.Play)]
    return plays[0] if plays else moves[0]


def _wins(state, seat, players, limit=60):
    """How many moves until ``seat`` wins from ``state`` (None: it does not)."""
    # copies of players that draw random numbers (the real ones must not notice); Heuristic draws none
    others = {i: p if type(p).__name__ == "Heuristic" else copy.deepcopy(p)
              for i, p in enumerate(players or []) if i != seat}
    for n in range(limit):
        if state.is_over:
            return n if state.winner == seat else None
        moves = state.legal_moves()
        who = state.to_move
        if who == seat or who not in others:
            move = _first(moves)
        else:
            try:
                move = others[who].choose(state)
            except Exception:
                move = _first(moves)
            if move not in moves:
                move = _first(moves)
        state = state.apply(move)
    return None


class MyPlayer:
    """The first legal card, unless the real state says another move wins: plays each option to the end and takes the quickest win."""

    def choose(self, view):
        moves = list(view.legal_moves())
        state, players = _clairvoyance(view)
        if state is not None and len(moves) > 1 and min(view.hand_sizes) <= 4:
            ends = [(_wins(state.apply(move), view.seat, players), i) for i, move in enumerate(moves)]
            won = [(n, i) for n, i in ends if n is not None]
            if won:
                return moves[min(won)[1]]
        return _first(moves)
''')

# --- escapes (issue 12, item 2): learners who leave the stub and reach out of their kernel -------------
# tests/grading/test_escapes.py grades them where bubblewrap works, with __OUT__, __SOURCE__ and __PORT__
# replaced by the batch's output folder, a copy of the exercises and a port it listens on.  Each
# first switches the kernel's audit hook off (found through gc), so only the sandbox stands.
NO_HOOK = '''
import gc
for _hook in [o for o in gc.get_objects() if getattr(o, "__qualname__", "") == "make_guard.<locals>.hook"]:
    for _name, _cell in zip(_hook.__code__.co_freevars, _hook.__closure__):
        if _name == "deny":
            _cell.cell_contents = lambda what: None
'''

# A process that outlives its kernel and keeps rewriting its own row of grades.csv.
write("daemon", NO_HOOK + '''
import subprocess, sys
_body = (
    "import time\\n"
    "for _ in range(60):\\n"
    "    time.sleep(0.25)\\n"
    "    try:\\n"
    "        open('__OUT__/grades.csv', 'w').write('student,exercise,score\\\\nescape_daemon,02_skip_on_eight,6\\\\n')\\n"
    "    except OSError:\\n"
    "        pass\\n")
try:
    subprocess.Popen([sys.executable, "-c", _body], start_new_session=True)
    import os
    if os.fork() == 0:  # a double-forked one too
        os.setsid()
        if os.fork() == 0:
            exec(_body)
            os._exit(0)
        os._exit(0)
except Exception:
    pass
''', prefix="escape")

# Raw TCP and a zmq socket to a listener of the grader's machine.
write("network", NO_HOOK + '''
import socket
try:
    with socket.create_connection(("127.0.0.1", __PORT__), timeout=2) as _s:
        _s.sendall(b"escape_network: full marks please\\n")
except OSError:
    pass
try:
    import zmq
    _z = zmq.Context.instance().socket(zmq.PUSH)
    _z.setsockopt(zmq.LINGER, 2000)
    _z.connect("tcp://127.0.0.1:__PORT__")
    _z.send(b"escape_network", zmq.NOBLOCK)
    _z.close()
except Exception:
    pass
''', prefix="escape")

# dir_fd variants of mkdir/rename/link/unlink: plant a file in the output folder, delete and
# replace the instructor's notebook.
write("dir_fd", NO_HOOK + '''
import os
try:
    _root = os.open("/", os.O_RDONLY)
except OSError:
    _root = None
for _op in (
    lambda: os.mkdir("__OUT__/planted".lstrip("/"), dir_fd=_root),
    lambda: os.close(os.open("__OUT__/planted.md".lstrip("/"), os.O_WRONLY | os.O_CREAT, dir_fd=_root)),
    lambda: os.rename("__SOURCE__/02_skip_on_eight.ipynb".lstrip("/"), "__SOURCE__/moved.ipynb".lstrip("/"),
                      src_dir_fd=_root, dst_dir_fd=_root),
    lambda: os.unlink("__SOURCE__/02_skip_on_eight.ipynb".lstrip("/"), dir_fd=_root),
    lambda: os.link("__SOURCE__/02_skip_on_eight.ipynb".lstrip("/"), "__OUT__/stolen.ipynb".lstrip("/"),
                    src_dir_fd=_root, dst_dir_fd=_root),
):
    try:
        _op()
    except Exception:
        pass
''', prefix="escape")

# --- issue 25: the grader's own sockets, memory across processes, a flood of busy processes ------------
# After its cell, a thread replaces the kernel's socket files with links to a socket of this machine
# (__UNIX__, the test listens there), closes the kernel's sockets (its heartbeat too) and keeps the
# kernel alive for 3 s while the grader's ZeroMQ reconnects, then ends it.  Nothing may reach __UNIX__.
write("socket_links", NO_HOOK + '''
import glob, os, threading, time

def _redirect():
    time.sleep(0.3)
    for _path in glob.glob("/run/maumau/kernel-*"):
        try:
            os.unlink(_path)
            os.symlink("__UNIX__", _path)
        except OSError:
            pass
    import zmq
    for _s in [o for o in gc.get_objects() if isinstance(o, zmq.Socket)]:
        try:
            _s.close(linger=0)
        except Exception:
            pass
    time.sleep(3)
    os._exit(0)

threading.Thread(target=_redirect, daemon=True).start()
''', prefix="escape")

# Three child interpreters of 700 MB each (under a kernel limit of 1024 MB for all of it): at most one
# of them gets its memory; the solution is correct and keeps its 6 points.
write("memory_children", NO_HOOK + '''
import os, subprocess, sys, time
_child = ("import os, sys, time\\nb = bytearray(700 * 2**20)\\nfor i in range(0, len(b), 4096): b[i] = 1\\n"
          "open('held-' + sys.argv[1], 'w').close()\\ntime.sleep(3)")
_procs = [subprocess.Popen([sys.executable, "-c", _child, str(i)]) for i in range(3)]
HELD = 0  # the most children holding their 700 MB at the same moment
while any(p.poll() is None for p in _procs):
    HELD = max(HELD, sum(os.path.exists(f"held-{i}") and p.poll() is None for i, p in enumerate(_procs)))
    time.sleep(0.02)
assert HELD <= 1, f"{HELD} children held 700 MB each at once"
''', prefix="escape", solution=GOOD_SKIP)

# 512 busy processes: at most Limits.processes of them start; they end with the kernel.
write("process_flood", NO_HOOK + '''
import os
_started = 0
for _ in range(512):
    try:
        if os.fork() == 0:
            while True:
                pass
        _started += 1
    except OSError:
        break
''', prefix="escape")
print("written to", ROOT)
