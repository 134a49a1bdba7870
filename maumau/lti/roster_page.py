"""The LMS courses' members on the teacher's course page (``/course``): who launched maumau
from each course or is on its roster (``maumau lti roster``), with their name, e-mail, role and
status, so the teacher sees the class the grades will go to.  In English, German or Hungarian
(the course page's language).
"""

from __future__ import annotations

import html
from pathlib import Path

from .contexts import Courses
from .roster import Member

__all__ = ["roster_section", "WORDS"]

WORDS: dict[str, dict[str, object]] = {
    "en": {"title": "LMS course {course}", "caption": "Its members, from launches and the LMS's roster "
                                                      "(maumau lti roster)",
           "columns": ("Learner", "Name", "E-mail", "Role", "Status"), "teacher": "instructor", "learner": "learner",
           "Active": "active", "Inactive": "inactive", "Deleted": "deleted"},
    "de": {"title": "LMS-Kurs {course}", "caption": "Seine Mitglieder, aus den Starts und der Teilnehmerliste des "
                                                    "LMS (maumau lti roster)",
           "columns": ("Lernende", "Name", "E-Mail", "Rolle", "Status"), "teacher": "Lehrkraft",
           "learner": "Lernende", "Active": "aktiv", "Inactive": "inaktiv", "Deleted": "gelöscht"},
    "hu": {"title": "{course} LMS-kurzus", "caption": "A tagjai, az indításokból és az LMS névsorából "
                                                      "(maumau lti roster)",
           "columns": ("Tanuló", "Név", "E-mail", "Szerep", "Állapot"), "teacher": "oktató", "learner": "tanuló",
           "Active": "aktív", "Inactive": "inaktív", "Deleted": "törölt"},
}


def roster_section(db: str | Path, lang: str) -> str:
    """One table per LMS course with members (empty when no launch came from one)."""
    words = WORDS.get(lang, WORDS["en"])
    courses = Courses(db)
    parts = []
    for course in courses.all():
        members = courses.members(course)
        if not members:
            continue
        head = "".join(f'<th scope="col">{html.escape(str(w))}</th>' for w in words["columns"])  # type: ignore[attr-defined]
        rows = []
        for m in members:
            member = Member(m["learner"], m["sub"], m["name"], m["email"], tuple(m["roles"]), m["status"])
            role = words["teacher" if member.teacher else "learner"]
            status = words.get(member.status, member.status)
            rows.append(f'<tr><th scope="row">{html.escape(member.learner)}</th><td>{html.escape(member.name)}</td>'
                        f"<td>{html.escape(member.email)}</td><td>{html.escape(str(role))}</td>"
                        f"<td>{html.escape(str(status))}</td></tr>")
        title = str(words["title"]).format(course=course.title or course.context_id)
        parts.append(f"<h2>{html.escape(title)}</h2><table><caption>{html.escape(str(words['caption']))}</caption>"
                     f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")
    return "\n".join(parts)
