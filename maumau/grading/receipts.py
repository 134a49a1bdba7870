"""Which notebook a class server's receipt belongs to: the exact bytes it stamped (SHA-256).

``maumau grade --handins class.sqlite`` grades each learner's last hand-in with the server's
receipt time; folder submissions may be graded beside it, and a learner may have both for one
exercise.  A receipt is given only to a notebook whose bytes are the ones the server received:
a folder copy that differs never inherits the server's time.  When a learner has both:

- the copy whose bytes the server stamped is graded, with the server's time (its clock is the
  only one a learner cannot set); a copy with the same bytes is the same notebook;
- a copy that differs is not graded: its row says so, and the graded row says which was graded
  and why, so the report never leaves the teacher to guess.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import TYPE_CHECKING

from .notebook import MAX_NOTEBOOK_BYTES, NotebookError
from .submissions import FOLDER, Submission, _read_beside

if TYPE_CHECKING:  # pragma: no cover
    from .handins import Stamp

__all__ = ["match_receipts"]


def _digest(sub: Submission) -> str | None:
    """The SHA-256 of a submission's bytes (read as the grader reads them), or None if unreadable."""
    try:
        return hashlib.sha256(_read_beside(sub, MAX_NOTEBOOK_BYTES)).hexdigest()
    except (NotebookError, OSError):
        return None


def match_receipts(subs: list[Submission], stamps: Mapping[tuple[str, str], Stamp]) -> list[Submission]:
    """``subs`` with each receipt of ``stamps`` (by learner folder and exercise) given to the
    submissions whose bytes it stamped, those first among their learner's copies of the exercise
    (the grader grades the first, the others are duplicates); ``Submission.note`` says which
    copy was graded and why wherever a learner has a copy that differs."""
    if not stamps:
        return subs
    stamped: dict[int, bool] = {}
    for sub in subs:
        stamp = stamps.get((sub.student, sub.exercise))
        if stamp is None or sub.exercise == FOLDER:
            continue
        stamped[id(sub)] = _digest(sub) == stamp.sha256
        if stamped[id(sub)]:
            sub.received = stamp.received
    first: dict[tuple[str, str], int] = {}
    for n, sub in enumerate(subs):
        first.setdefault((sub.student, sub.exercise), n)
    ordered = sorted(subs, key=lambda s: (first[(s.student, s.exercise)], not stamped.get(id(s), False)))
    for key, stamp in stamps.items():
        copies = [s for s in ordered if (s.student, s.exercise) == key]
        _explain(copies, stamp, stamped)
    return ordered


def _explain(copies: list[Submission], stamp: Stamp, stamped: dict[int, bool]) -> None:
    """The notes of one learner's copies of one exercise when one of them differs from the receipt."""
    differing = [s for s in copies if not stamped.get(id(s), False)]
    if not differing:
        return
    when = stamp.received.isoformat(timespec="seconds")
    receipt = f"the notebook the class server received at {when} (SHA-256 {stamp.sha256[:12]}…)"
    graded = next((s for s in copies if stamped.get(id(s), False)), None)
    if graded is not None:
        places = ", ".join(f"{s.path.parent.parent.name}/{s.path.parent.name}" for s in differing)
        graded.note = (f"graded: {receipt}, with the server's time; the copy in {places} differs from it and was "
                       f"not graded")
        for sub in differing:
            sub.note = f"not graded: it differs from {receipt}, which was graded with the server's time"
    else:  # the server's copy is not among them: the one graded (the first) says the receipt was not its
        differing[0].note = (f"the class server's receipt of {when} is for other bytes (SHA-256 "
                             f"{stamp.sha256[:12]}…) than this notebook: its time was not used")
