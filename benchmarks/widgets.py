"""Click latency of the card table on the Python side (no browser, no kernel).

    python benchmarks/widgets.py              # makao, 3 opponents, about 400 learner clicks
    python benchmarks/widgets.py --variant lite_macau --opponents 2 --clicks 1000

Every number is the time from ``Button.click()`` until the handler returned, i.e. the
engine's work plus every widget update the click causes (what a kernel must do before the
browser can redraw).  Also counted: the widget messages a click sends, which is what the
views' "redraw only what changed" saves.  Kinds of click:

- ``play``: a legal card (or the wish button after a Jack, or draw/pass when nothing fits),
  in step mode so that only the learner's own move is measured;
- ``illegal``: a card that may not be played (explained, nothing changes);
- ``computer``: "Next move", one computer move and its redraw;
- ``play+replies``: a learner's move followed by every computer move up to the learner's
  next turn, as with ``delay=0``;
- ``replay``: a step of the replay view (board of open hands, explanation, move list).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ipywidgets as W  # noqa: E402

import maumau as mm  # noqa: E402
from maumau.widgets import ReplayView, TableView  # noqa: E402

TIMES: dict[str, list[float]] = defaultdict(list)
MESSAGES: dict[str, list[int]] = defaultdict(list)
_sent = [0]
_original_send = W.Widget._send


def _counting_send(self: W.Widget, msg: dict, buffers: list | None = None) -> None:
    _sent[0] += 1
    _original_send(self, msg, buffers)


def measure(kind: str, action) -> None:  # noqa: ANN001
    _sent[0] = 0
    began = time.perf_counter()
    action()
    TIMES[kind].append(time.perf_counter() - began)
    MESSAGES[kind].append(_sent[0])


def learner_move(table: TableView, rng: random.Random, kind: str) -> None:
    state = table.state
    moves = state.legal_moves()
    plays = [m for m in moves if isinstance(m, mm.Play) and len(m.cards) == 1 and not m.runde]
    if plays:
        move = rng.choice(plays)
        table.mau_button.value = move.mau
        if move.wish is not None:
            table.click(move.card)  # opens the wish picker
            measure(kind, table.wish.buttons[move.wish].click)
        else:
            measure(kind, lambda: table.click(move.card))
    else:
        button = table.draw_button if mm.Draw() in moves else table.pass_button
        measure(kind, button.click)


def illegal_click(table: TableView, rng: random.Random) -> None:
    state = table.state
    legal = {m.card for m in state.legal_moves() if isinstance(m, mm.Play)}
    bad = [c for c in state.hands[table.me] if c not in legal]
    if bad:
        card = rng.choice(bad)
        measure("illegal", lambda: table.click(card))
        assert table.state is state


def run(variant: str, opponents: int, clicks: int, seed: int) -> None:
    rng = random.Random(seed)
    W.Widget._send = _counting_send
    stepper = TableView(variant, opponents, seed=seed, delay=0, step=True)
    done = 0
    while done < clicks:
        if stepper.result is not None:
            stepper.next_hand() if not stepper.match.is_over else stepper.new_match()
            continue
        if stepper.state.to_move == stepper.me:
            illegal_click(stepper, rng)
            learner_move(stepper, rng, "play")
            done += 1
        else:
            measure("computer", stepper.next_button.click)
    flowing = TableView(variant, opponents, seed=seed + 1, delay=0)
    for _ in range(clicks // 4):
        if flowing.result is not None:
            flowing.next_hand() if not flowing.match.is_over else flowing.new_match()
            continue
        learner_move(flowing, rng, "play+replies")
    replay = ReplayView(stepper.game)
    for _ in range(min(clicks, 200)):
        measure("replay", replay.back_button.click if replay.index else replay.last_button.click)
    W.Widget._send = _original_send


def report() -> None:
    print(f"{'click':<14}{'n':>6}{'median ms':>11}{'p95 ms':>9}{'max ms':>9}{'messages (median)':>19}")
    for kind in ("play", "illegal", "computer", "play+replies", "replay"):
        times = sorted(TIMES[kind])
        if not times:
            continue
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(f"{kind:<14}{len(times):>6}{1000 * statistics.median(times):>11.2f}{1000 * p95:>9.2f}"
              f"{1000 * times[-1]:>9.2f}{statistics.median(MESSAGES[kind]):>19.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="makao")
    parser.add_argument("--opponents", type=int, default=3)
    parser.add_argument("--clicks", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    run(args.variant, args.opponents, args.clicks, args.seed)
    print(f"{args.variant}, {args.opponents} opponents, Python {sys.version.split()[0]}, "
          f"ipywidgets {W.__version__}")
    report()


if __name__ == "__main__":
    main()
