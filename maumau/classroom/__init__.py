"""The class table: learners play each other at tables a server holds (docs: howto/class-table).

>>> from maumau import classroom
>>> server = classroom.Server(db=":memory:", port=0).start()     # doctest: +SKIP
>>> code = server.create_table("makao", seats=3, computers=1)    # doctest: +SKIP
>>> seat = classroom.join(server.url, code, name="Anna")         # doctest: +SKIP

Needs the ``websockets`` package (in the default install: ``pip install maumau``).
"""

from .client import ClassroomError, Seat, join
from .course import Course
from .feedback_client import Feedback, feedback
from .handin_client import fetch_exercise, hand_in
from .league_client import enter_league
from .live_client import Sharing, share_progress
from .server import Server, ServerError
from .spec import TableError, TableSpec
from .table import ClassTable

__all__ = ["Server", "ServerError", "join", "Seat", "ClassroomError", "ClassTable", "TableSpec", "TableError",
           "Course", "hand_in", "fetch_exercise", "feedback", "Feedback", "enter_league", "share_progress",
           "Sharing"]
