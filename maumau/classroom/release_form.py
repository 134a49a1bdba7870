"""The teacher's release buttons on the course page: each exercise's feedback, released or held back.

The course page runs no script, so each button is a small form that posts to
``/course/release?exercise=NAME&do=release|hold&form=TOKEN`` with an empty body (the class server
reads no request bodies).  ``TOKEN`` is the session's form token: an HMAC, under a key only this
server process holds, of the teacher's session cookie (the token login's or the hub login's).  A
page of another site cannot read it, and a learner's page of the same origin (a JupyterHub's
single-user servers share the hub's) cannot either: a post without it, or from another
``Origin``, changes nothing.  The answer sends the browser back to the course page.
"""

from __future__ import annotations

import hashlib
import hmac
import html
import secrets
from collections.abc import Iterable, Mapping
from datetime import datetime
from urllib.parse import quote

from ..grading.feedback_release import DEADLINE, HAND, FeedbackRelease, Release, when
from ..text.locale.feedback import said

__all__ = ["ReleaseForm", "RELEASE_PATH"]

RELEASE_PATH = "/course/release"


class ReleaseForm:
    """The release section of the course page and the posts of its buttons."""

    def __init__(self, releases: FeedbackRelease) -> None:
        self.releases = releases
        self._key = secrets.token_bytes(32)

    def token(self, session: str) -> str:
        """The form token of a teacher's session (its cookie's value)."""
        return hmac.new(self._key, session.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()

    def checked(self, session: str | None, sent: str) -> bool:
        """Whether ``sent`` is the form token of ``session``."""
        return session is not None and bool(sent) and hmac.compare_digest(sent, self.token(session))

    def change(self, exercise: str, do: str, now: datetime) -> Release:
        """Release (``do`` "release") or hold back ``exercise``; FeedbackReleaseError for a bad name."""
        return self.releases.release(exercise, now) if do == "release" else self.releases.hold(exercise, now)

    def section(self, exercises: Iterable[str], session: str, lang: str, now: datetime,
                titles: Mapping[str, str] | None = None) -> str:
        """The course page's section: each exercise (by its title in ``titles``, else its name), whether
        learners see its feedback, its button (which posts the name)."""
        known = self.releases.all()
        token = self.token(session)
        rows = []
        for name in exercises:
            release = known.get(name, Release(name))
            shown = release.visible(now)
            do = "hold" if shown or release.how == DEADLINE else "release"
            action = html.escape(f"course/release?exercise={quote(name, safe='')}&do={do}&lang={lang}&form={token}")
            title = (titles or {}).get(name, name)
            label = html.escape(f"{said(do, lang)}: {title}", quote=True)  # a screen reader hears which exercise
            left = '<td style="text-align:left">'  # words, not numbers: read from the left
            rows.append(f'<tr><th scope="row">{html.escape(title)}</th>{left}{html.escape(_state(release, lang, now))}'
                        f'</td>{left}<form method="post" action="{action}"><button type="submit" '
                        f'aria-label="{label}">{html.escape(said(do, lang))}</button></form></td></tr>')
        head = "".join(f'<th scope="col" style="text-align:left">{html.escape(said(w, lang))}</th>'
                       for w in ("exercise", "state", "action"))
        return (f'<section id="feedback-release" aria-labelledby="feedback-release-heading">'
                f'<h2 id="feedback-release-heading">{html.escape(said("section", lang))}</h2>'
                f"<p>{html.escape(said('intro', lang))}</p><table><caption>{html.escape(said('caption', lang))}"
                f"</caption><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></section>")


def _state(release: Release, lang: str, now: datetime) -> str:
    """Whether and since when learners see an exercise's feedback, in a few words."""
    if release.at is None or release.how not in (HAND, DEADLINE):
        return said("state_held", lang)
    if release.how == HAND:
        return said("state_hand", lang, when=when(release.at))
    return said("state_deadline" if release.visible(now) else "state_due", lang, when=when(release.at))
