"""Shared test helpers for the rule scenario tests, and the layout of tests/.

The tests mirror the package: tests/core, tests/core/rules, tests/widgets, tests/classroom, ... hold
the tests of maumau/core, maumau/core/rules, maumau/widgets, maumau/classroom (a module's or a stage's
tests in test_<module>.py where one module is tested; the rule scenarios by variant); what tests the project as a
whole (layers, sizes, the Makefile, notebooks) stays at the top.  Test modules share helpers by module
name (``from test_hub import Hub``), so every test folder is on the import path, as tests/ is; pytest
imports test files by their base name, so each name is used once in the whole tree.
"""

import sys
import time
from pathlib import Path

import pytest

import maumau as mm

TESTS = Path(__file__).resolve().parent
for _folder in sorted(p for p in TESTS.rglob("*") if p.is_dir() and "__pycache__" not in p.parts):
    if any(_folder.glob("test_*.py")) and str(_folder) not in sys.path:
        sys.path.insert(0, str(_folder))

import processes  # noqa: E402  (tests/processes.py, on the path from here on)

# --- the tests leave nothing running ------------------------------------------------------------------

_SESSION = pytest.StashKey[tuple[str, float]]()  # the session's mark and when it began
_FOLDERS = pytest.StashKey[list[str]]()  # the session's temporary folder
_LEFT = pytest.StashKey[list[str]]()  # what was still running at its end


def pytest_configure(config: pytest.Config) -> None:
    """Mark the session before any test starts a process: every process started from here inherits it."""
    config.stash[_SESSION] = (processes.mark_session(), time.time())


@pytest.fixture(autouse=True, scope="session")
def session_folder(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> None:
    """The session's temporary folder: a process whose command line names it was started by a test (a
    hub's service, which inherits neither the session's environment nor a parent that stays)."""
    request.config.stash[_FOLDERS] = [str(tmp_path_factory.getbasetemp())]


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """Fail the session if a process it started still runs (a server a fixture did not stop, the
    children of one that stopped alone); those processes are then ended, so none outlives the run."""
    token, since = session.config.stash[_SESSION]
    left = processes.left_running(token, since, session.config.stash.get(_FOLDERS, []))
    session.config.stash[_LEFT] = [processes.describe(p) for p in left]
    if left:
        processes.end(left)
        if session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    left = config.stash.get(_LEFT, [])
    if left:
        terminalreporter.section("processes the tests left running (now ended)", sep="!", red=True, bold=True)
        for line in left:
            terminalreporter.line(line, red=True)


@pytest.fixture(autouse=True, scope="session")
def graders_deals_seeded():
    """The grader's secret deals of exercise 13 from a seeded generator (the same 62-bit seeds in every run,
    no player can search them either): whether the instructor's solution passes never hangs on luck.
    Session-wide, so that the batches graded by module fixtures use it too."""
    import random

    from maumau.grading import hands

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(hands, "SECRET_SOURCE", lambda: random.Random(34))
        yield


def play_seq(state, *moves):
    """Apply ``moves`` in order and return the final state."""
    for move in moves:
        state = state.apply(move)
    return state


def cs(text):
    """Cards as a sorted list, for comparing hands."""
    return sorted(mm.cards(text))


def hand(s, seat):
    return sorted(s.hands[seat])


def snapshot(s):
    return (s.hands, s.stock, s.discard, s.to_move, s.direction, s.wish, s.pending, s.phase,
            s.runde, s.locked, s.active, s.is_over, s.winner)


def assert_illegal(s, move, *rule_ids):
    """The move is not listed, apply() raises IllegalMove naming the rule, nothing changes."""
    before = snapshot(s)
    assert move not in s.legal_moves()
    with pytest.raises(mm.IllegalMove) as err:
        s.apply(move)
    message = str(err.value)
    for rule_id in rule_ids:
        assert rule_id in message, message
    assert snapshot(s) == before
    assert s.explain(move) == message
    return message


def assert_sentence(s, move):
    text = s.explain(move)
    assert isinstance(text, str) and text.endswith(".") and len(text.split()) >= 3, text
    return text


def plays(s):
    return {m for m in s.legal_moves() if isinstance(m, mm.Play)}
