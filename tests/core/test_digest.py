"""The engine's behaviour, pinned: a digest of 30,000 seeded random decisions.

Moves are chosen by a seeded generator from ``legal_moves()`` sorted by ``repr``, so the
choice depends only on what is legal, not on the order the engine lists it in.  After each
move the digest takes in the move and every field of the state a player or a rule can see
(pending effects by their rule's *name*, so a refactoring of the rule objects or of the events
does not move it).  Refactorings of the engine's inside (issue 13) must leave it unchanged;
a change of the rules must change it on purpose, with the new value and the reason in the
commit.
"""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys
from pathlib import Path

import maumau as mm

VARIANTS = ("makao", "lite_macau", "mau_mau_runde")
DECISIONS = 30_000

#: sha256 of the run below, computed by the engine of commit 8326aab (before issue 13).
PINNED = "ae2cd6a64e89a1e483990bdd667d787925b5cc63abe4d86ba3f4c51a6fba521c"


def _fingerprint(state: mm.GameState) -> str:
    pending = state.pending
    return repr((
        state.hands, state.stock, state.discard, state.to_move, state.direction, state.wish,
        None if pending is None else (pending.kind, pending.amount, pending.target, pending.rule.name,
                                      pending.resume),
        state.phase, state.drawn, state.runde, sorted(state.locked), state.active, state.winner,
        state.is_over,
    ))


def decisions_digest(decisions: int = DECISIONS) -> str:
    """The digest of ``decisions`` random decisions, shared evenly by the three variants."""
    digest = hashlib.sha256()
    rng = random.Random(2026)
    per_variant = decisions // len(VARIANTS)
    for name in VARIANTS:
        made, seed = 0, 0
        while made < per_variant:
            state = mm.deal(name, players=2 + seed % 3, seed=seed)
            seed += 1
            while not state.is_over and made < per_variant:
                move = rng.choice(sorted(state.legal_moves(), key=repr))
                state = state.apply(move)
                made += 1
                digest.update(f"{move!r}|{_fingerprint(state)}\n".encode())
    return digest.hexdigest()


def test_thirty_thousand_random_decisions_play_as_they_always_did():
    assert decisions_digest() == PINNED


def test_the_pure_python_engine_makes_the_same_decisions():
    here = Path(__file__).resolve().parent
    code = f"import sys; sys.path.insert(0, {str(here)!r}); import test_digest; print(test_digest.decisions_digest())"
    env = dict(os.environ, MAUMAU_PURE_PYTHON="1")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == PINNED
