"""Hostile bots in the class league (maumau.league), written before the league.

Each hostile bot plays its first moves well (so that it passes ``League.enter``'s trial),
then attacks: it reads the server's files, opens a socket, forks, starts processes round the
audit hook, loops, prints megabytes, floods the wire with stale answers, imports another bot,
digs in its caller's frames for the state or the seed, plays another seat's cards, sleeps past
its limit, allocates 4 GB, answers on the wire itself with 4,000 nested brackets, a 60 KB
answer, a 4,000-digit number or its move padded with a different thousand-odd spaces each time,
answers every move just before its clock.  Each must get its fault or forfeit; the games of the
other bots must be the same as in a league without it; the league's database must hold the
same bots and settings, plus the recorded games; no bot process of this test may outlive the
games (another league's bots on the machine are not this test's); nothing the attack found may
be a secret (a canary file beside the database, another bot's source, the true hidden hands or
the seeds).
"""

from __future__ import annotations

import json
import socket
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time

import psutil
import pytest

import maumau as mm
from maumau import league
from maumau.core.moves import Play
from maumau.league import sandbox
from maumau.league.schedule import derive
from maumau.sandbox import jail

_JAIL, _WHY = jail.find_jail([])
needs_bwrap = pytest.mark.skipif(_JAIL is None, reason=f"no bubblewrap sandbox on this machine: {_WHY}")

# (honest bots wait ~0.2 s of wall time in a game of 500 moves: 4 s is far beyond it on a busy machine)
LIMITS = league.Limits(move_seconds=0.3, game_seconds=6, wall_factor=4, max_faults=3, game_wall_seconds=4)
SECRET = "canary-7f3a9c"          # in a file beside the database, and in anna's source
TRUSTY = "from maumau.players import Heuristic\nPLAYER = Heuristic\n# " + SECRET + "\n"
RANDOM = "from maumau.players import Random\nPLAYER = Random\n"

#: bot name: the attack, run on every decision after the trial's (``self.n > 8``)
ATTACKS = {
    "reader": """
        found = []
        for path in (DB, CANARY, DB + "-journal", "/etc/shadow"):
            with open(path, "rb") as f:
                found.append(f.read(200))
        with open(DB, "ab") as f:
            f.write(b"garbage")
        raise RuntimeError(f"read {found}")
    """,
    "socket": """
        import socket
        s = socket.create_connection(("127.0.0.1", PORT), timeout=0.2)
        s.sendall(b"hello from a bot")
    """,
    "forker": """
        import os, time
        if os.fork() == 0:
            while True:
                time.sleep(0.01)
        raise RuntimeError("forked")
    """,
    "spawner": """
        import os, subprocess
        r, w = os.pipe()
        for _ in range(20):  # round the audit hook: subprocess's own fork_exec (Python 3.11's arguments)
            subprocess._fork_exec([b"/bin/sleep", b"31.5"], [b"/bin/sleep"], True, (w,), None, None,
                                  -1, -1, -1, -1, -1, -1, r, w, True, False, -1, None, None, None, -1,
                                  None, False)
        while True:
            pass
    """,
    "looper": """
        while True:
            pass
    """,
    "printer": """
        import os
        print("x" * 3_000_000)
        for fd in range(0, 12):
            try:
                os.write(fd, b"z" * 2_000_000)
            except OSError:
                pass
    """,
    "importer": """
        import sys, os
        sys.path[:0] = [os.path.dirname(DB), "/"]
        import anna  # the other bot's file beside the database
        raise RuntimeError(open(anna.__file__).read())
    """,
    "snooper": """
        import gc, sys
        found = []
        frame = sys._getframe()
        while frame is not None:
            found += list(frame.f_locals.values())
            frame = frame.f_back
        found += gc.get_objects()
        states = []
        for o in found:
            try:
                if isinstance(o, type):  # a class (the pure-Python GameState's properties): no game
                    continue
                if type(o).__name__ == "GameState" or (hasattr(o, "hands") and hasattr(o, "stock")):
                    states.append(o)
            except Exception:
                pass
        other = 1 - view.seat
        shown = [" ".join(c.text for c in s.hands[other]) for s in states]
        raise RuntimeError(f"SEEN {len(states)} {shown} {[getattr(s, 'seed', None) for s in states]}")
    """,
    "other_seat": """
        mine = set(view.hand)
        stranger = next(c for c in view.unseen() if c not in mine)
        return mm.Play([stranger], mau=len(view.hand) == 2)
    """,
    "sleeper": """
        import time
        time.sleep(30)
    """,
    "flooder": """
        import os, time
        end = time.monotonic() + 20
        while time.monotonic() < end:  # stale answers, as fast as it can, on every descriptor
            for fd in range(3, 12):
                try:
                    os.write(fd, b'{"id": -1, "move": {"draw": true}}\\n' * 200)
                except OSError:
                    pass
    """,
    "hog": """
        block = bytearray(4 * 1024 ** 3)
        block[::4096] = b"x" * len(block[::4096])
    """,
    # on the wire itself (the runner's serve() is its caller): a line Python's JSON reader recurses
    # on 4,000 times (40 KB of them are over the answer's size as well: test_league's bounds test)
    "brackets": """
        import sys
        sys._getframe(1).f_locals["wire_out"].write(b"[" * 4_000 + b"\\n")
    """,
    "huge": """
        import json, sys
        caller = sys._getframe(1).f_locals
        answer = {"id": caller["request"]["id"], "move": self.fallback.choose(view).to_dict(), "pad": "x" * 60_000}
        caller["wire_out"].write(json.dumps(answer).encode() + b"\\n")
    """,
    "giant": """
        import json, sys
        caller = sys._getframe(1).f_locals
        answer = {"id": caller["request"]["id"], "move": self.fallback.choose(view).to_dict(), "n": int("9" * 4000)}
        caller["wire_out"].write(json.dumps(answer).encode() + b"\\n")
    """,
    "padder": """
        import json, sys
        caller = sys._getframe(1).f_locals
        move = self.fallback.choose(view).to_dict()
        if "play" not in move:  # a draw or a pass: a card of its hand instead
            move = {"play": view.hand[0].text}
        move["play"] += " " * (1000 + self.n)
        answer = {"id": caller["request"]["id"], "move": move}
        caller["wire_out"].write(json.dumps(answer).encode() + b"\\n")
    """,
    "slowpoke": """
        import time
        time.sleep(1.1)  # just under its clock (0.3 s x 4) on every move
    """,
}


def hostile_source(attack: str, db: str, canary: str, port: int) -> str:
    return (f"import maumau as mm\nDB = {db!r}\nCANARY = {canary!r}\nPORT = {port}\n\n"
            "class Hostile:\n"
            "    def __init__(self):\n"
            "        self.n = 0\n"
            "        self.fallback = mm.players.Heuristic()\n\n"
            "    def choose(self, view):\n"
            "        self.n += 1\n"
            "        if self.n > 8:\n"
            + textwrap.indent(textwrap.dedent(attack).strip("\n"), " " * 12) + "\n"
            "        return self.fallback.choose(view)\n")


class Listener:
    """A TCP server on the loopback that counts connections (a bot must never reach it)."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self.running = True
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while self.running:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connections += 1
            conn.close()

    def stop(self) -> None:
        self.running = False
        self.thread.join()
        self.sock.close()


def runner_processes(since: float) -> list[psutil.Process]:
    """This test process's bots' processes started since ``since`` (a time.time()) still alive,
    and what they started (the spawner's sleeps): those that carry this process's league mark
    in their environment (``MAUMAU_LEAGUE_RUN``, which a bot's children inherit).  Another
    league's bots on the machine (another session's tests, a teacher's league) carry another
    mark: not counted."""
    found = []
    for p in psutil.process_iter(["cmdline", "create_time"]):
        line = " ".join(p.info["cmdline"] or [])
        if ("maumau.league.runner" in line or line == "/bin/sleep 31.5") and (p.info["create_time"] or 0) >= since \
                and league_mark(p) == sandbox.RUN_MARK:
            found.append(p)
    return found


def league_mark(process: psutil.Process) -> str | None:
    """The league mark in a process's environment (None: none, or not ours to read)."""
    try:
        return process.environ().get(sandbox.RUN_ENV)
    except psutil.Error:
        return None


def make_league(folder, hostile: str | None, port: int = 1) -> league.League:
    db = folder / "league.sqlite"
    canary = folder / "canary.txt"
    canary.write_text(SECRET)
    (folder / "anna.py").write_text(TRUSTY)
    lg = league.League("makao", players=2, db=db, seed=11, limits=LIMITS)
    lg.enter("anna", folder / "anna.py")
    lg.enter("ben", RANDOM)
    if hostile is not None:
        lg.enter(hostile, hostile_source(ATTACKS[hostile], str(db), str(canary), port))
    return lg


def game_summary(lg: league.League, g: league.GameRow) -> tuple:
    return (g.names, g.deal, g.rotation, g.points, g.winner, g.faults, json.dumps(lg.store.record(g.id)))


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The games of anna and ben in a league without a hostile bot."""
    lg = make_league(tmp_path_factory.mktemp("reference"), None)
    lg.play(deals=1)
    return [game_summary(lg, g) for g in lg.games()]


@needs_bwrap
@pytest.mark.parametrize("hostile", sorted(ATTACKS))
def test_a_hostile_bot_gets_its_fault_and_changes_nothing_else(hostile, tmp_path, reference):
    started = time.time() - 1  # create_time is rounded: a second's margin
    listener = Listener()
    try:
        lg = make_league(tmp_path, hostile, listener.port)
        db = sqlite3.connect(tmp_path / "league.sqlite")
        bots_before = db.execute("SELECT * FROM bots ORDER BY name").fetchall()
        settings_before = dict(db.execute("SELECT * FROM league").fetchall())
        files_before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if not p.name.startswith("league.sqlite")}
        clock = time.monotonic()
        lg.play(deals=1)
        seconds = time.monotonic() - clock
    finally:
        listener.stop()
    games = lg.games()
    theirs = [g for g in games if hostile in g.names]
    # the hostile bot: a fault or a forfeit in every game it played
    assert len(theirs) == 4
    for g in theirs:
        seat = g.names.index(hostile)
        assert g.faults[seat] or g.forfeits[seat], (hostile, g)
        assert g.ranks[seat] == max(g.ranks) or not g.forfeits[seat]
    # nothing secret came out in what it said
    said = " ".join(f for g in theirs for seat_faults in g.faults for f in seat_faults)
    assert SECRET not in said
    if hostile == "snooper":
        assert_snooper_saw_nothing(lg, theirs)
    if hostile == "padder":  # the referee kept none of its texts (Play's cache keeps what it is made from)
        assert not [key for key in Play._interned if isinstance(key[0], str) and key[0].endswith(" " * 1000)]
    if hostile in SAID:  # the fault says what was wrong, in every game
        for g in theirs:
            seat = g.names.index(hostile)
            assert SAID[hostile] in " ".join(g.faults[seat]) + " " + g.forfeits[seat], (hostile, g)
    if hostile == "slowpoke":  # its games end in its budget, not after 1.1 s x its every move
        assert seconds < 20, seconds
    # the others' games are those of the league without it
    others = [game_summary(lg, g) for g in games if hostile not in g.names]
    assert others == reference
    # the database: the same bots and settings (but the next deal), the games recorded
    assert db.execute("SELECT * FROM bots ORDER BY name").fetchall() == bots_before
    settings_after = dict(db.execute("SELECT * FROM league").fetchall())
    assert {k: v for k, v in settings_after.items() if k != "next_deal"} == \
        {k: v for k, v in settings_before.items() if k != "next_deal"}
    assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (6,)
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if not p.name.startswith("league.sqlite")} \
        == files_before
    assert listener.connections == 0
    assert runner_processes(started) == []
    row = next(r for r in lg.standings() if r.name == hostile)
    assert row.faults > 0
    if hostile == "brackets":  # the league plays on after it
        assert len(lg.play(deals=1)) == 6 and len(lg.games()) == 12


#: what the fault or forfeit of a hostile bot says
SAID = {"brackets": "nested 4000 deep", "huge": "bytes; an answer has at most", "giant": "4000 digits",
        "padder": "illegal move play", "slowpoke": "wall seconds for the game"}


def assert_snooper_saw_nothing(lg: league.League, games: list[league.GameRow]) -> None:
    """The frame- and gc-snooping bot found no game state at all: only its View is in its process."""
    said = [f for g in games for f in g.faults[g.names.index("snooper")]]
    assert said and all("SEEN 0 [] []" in f for f in said), said
    for g in games:
        text = " ".join(said)
        assert str(derive(11, "deal", g.deal)) not in text and str(lg.game(g.id).start.seed) not in text


def test_without_bubblewrap_the_league_refuses_unless_told(tmp_path, monkeypatch):
    monkeypatch.setenv(jail.BWRAP_ENV, str(tmp_path / "no-such-bwrap"))
    with pytest.raises(league.LeagueError, match="unsandboxed"):
        league.League("makao", players=2, db=tmp_path / "l.sqlite", seed=1)
    lg = league.League("makao", players=2, db=tmp_path / "l.sqlite", seed=1, unsandboxed=True)
    assert not lg.sandbox.isolated
    lg.enter("ben", RANDOM)
    assert [b.name for b in lg.bots()] == ["ben"]


def test_unsandboxed_bots_still_have_their_limits(tmp_path):
    """With unsandboxed=True the runner's limits and audit hook remain: a fork is refused."""
    started = time.time() - 1
    lg = league.League("makao", players=2, db=tmp_path / "l.sqlite", seed=3, unsandboxed=True, limits=LIMITS)
    lg.enter("anna", TRUSTY)
    lg.enter("forker", hostile_source(ATTACKS["forker"], "", "", 1))
    lg.play(deals=1)
    said = [f for g in lg.games() for f in g.faults[g.names.index("forker")]]
    assert any("PermissionError" in f and "os.fork" in f for f in said), said
    assert runner_processes(started) == []
    assert isinstance(mm.players.Random(), mm.players.Random)


#: Another league in another process: it says its mark, then enters one bot that takes 2 s a
#: move again and again (its trial keeps a runner alive), until it is stopped.
OTHER_LEAGUE = """
import sys
from maumau import league
from maumau.league import sandbox
print(sandbox.RUN_MARK, flush=True)
SLOW = "import time\\nfrom maumau.players import Random\\nclass Slow(Random):\\n" \\
       "    def choose(self, view):\\n        time.sleep(2)\\n        return super().choose(view)\\n"
lg = league.League("makao", players=2, db=sys.argv[1], seed=5, limits=league.Limits(move_seconds=1, wall_factor=4))
while True:
    lg.enter("slow", SLOW)
"""


@needs_bwrap
def test_another_league_beside_this_one_is_not_counted_as_its_bots(tmp_path):
    """Two leagues on one machine: this one's verdict on its own bots' processes is not
    disturbed by the other's, which are alive all along (and whose marks are read: the count
    sees into the sandboxes)."""
    other = subprocess.Popen([sys.executable, "-c", OTHER_LEAGUE, str(tmp_path / "other.sqlite")],
                             stdout=subprocess.PIPE, text=True)
    started = time.time() - 1
    try:
        assert other.stdout is not None
        their_mark = other.stdout.readline().strip()
        assert their_mark and their_mark != sandbox.RUN_MARK
        theirs = wait_for_runners(other, 60)
        assert {league_mark(p) for p in theirs} == {their_mark}
        (tmp_path / "mine").mkdir()
        lg = make_league(tmp_path / "mine", None)
        bot = league.process.BotProcess(RANDOM, 1, lg.sandbox, LIMITS)  # one of this league's, alive
        try:
            bot.ready()
            assert bot.proc.pid in {p.pid for p in runner_processes(started)}
        finally:
            bot.close()
        lg.play(deals=1)
        assert len(lg.games()) == 2
        assert any(p.is_running() for p in theirs)            # the other league's bots are there
        assert runner_processes(started) == []                # and none of them is counted as this one's
    finally:
        other.kill()
        other.wait()


def wait_for_runners(other: subprocess.Popen, seconds: float) -> list[psutil.Process]:
    """The runners below process ``other`` once there are some (the other league's bots)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        found = [p for p in psutil.Process(other.pid).children(recursive=True)
                 if "maumau.league.runner" in " ".join(p.cmdline())]
        if found:
            return found
        assert other.poll() is None, "the other league stopped"
        time.sleep(0.1)
    raise AssertionError("the other league started no bot")
