"""The platform's LTI Advantage services for the test LMS (``lms.Platform``): its token
endpoint, Assignment and Grade Services (line items, scores, results) and Names and Roles.

lti1p3platform has the logic but no HTTP endpoints: its ``LTI1P3PlatformConfAbstract.get_access_token``
checks the tool's client assertion against the tool's key set and signs the access token; its
``AssignmentsGradesService`` and ``NamesRoleProvisioningService`` check the bearer token and its
scopes and shape the answers, around storage it leaves abstract.  Here is the storage (a dict
under a lock, as an LMS's database) and the HTTP around them, the way Moodle serves them: a line
item's URL ends in ``/lineitem?type_id=N`` (the tool must keep that query when it adds
``/scores``), lists come a page at a time with a ``Link: <...>; rel="next"`` header.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

from lti1p3platform.exceptions import LineItemNotFoundException, LtiServiceException
from lti1p3platform.membership import Context
from lti1p3platform.request import Request
from lti1p3platform.score import UpdateScoreStatus
from lti1p3platform.service_connector import AssignmentsGradesService, NamesRoleProvisioningService, TPage

COURSE = "course-7"


@dataclass
class Fault:
    """The next request whose path holds ``where`` is answered ``status`` (0: answered right)
    after ``delay`` seconds, its next page ``link`` if given: a platform that fails, is slow or
    points elsewhere, once."""

    where: str
    status: int = 500
    delay: float = 0.0
    #: The answer's next page is this URL (a platform that sends the tool elsewhere).
    link: str = ""


@dataclass
class Store:
    """What the LMS keeps of its grade columns: line items by number, scores by (number, user)."""

    items: dict[int, dict[str, Any]] = field(default_factory=dict)
    scores: dict[tuple[int, str], dict[str, Any]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    created: int = 0  # line items created through the service

    def item_url(self, base: str, n: int) -> str:
        return f"{base}/courses/{COURSE}/lineitems/{n}/lineitem?type_id={n}"


class ServiceRequest(Request):
    """An HTTP request of the test server as lti1p3platform's ``Request``."""

    def build_metadata(self, request: Any) -> Any:
        method, path, query, headers, body = request
        return {"method": method, "form_data": {}, "get_data": query, "headers": headers,
                "content_type": headers.get("Content-Type"), "path": path, "json": body}


class Grades(AssignmentsGradesService):
    """lti1p3platform's AGS over the platform's ``Store``; the course's users are those it knows."""

    def __init__(self, request: Request, config: Any, platform: Any) -> None:
        super().__init__(request, config, platform.url + f"/courses/{COURSE}/lineitems")
        self.platform, self.store = platform, platform.store

    def find_lineitems(self, page: int = 1, limit: int | None = None, line_item_id: str | None = None,
                       resource_link_id: str | None = None, resource_id: str | None = None, tag: str | None = None,
                       **ignored: Any) -> TPage:
        with self.store.lock:
            found = [item for item in self.store.items.values()
                     if (resource_id is None or item.get("resourceId") == resource_id)
                     and (tag is None or item.get("tag") == tag)]
        size = limit or len(found) or 1
        return {"content": found[(page - 1) * size: page * size], "has_next": page * size < len(found)}

    def find_lineitem(self, line_item_id: str) -> Any:
        with self.store.lock:
            if int(line_item_id) not in self.store.items:
                raise LineItemNotFoundException()
            return self.store.items[int(line_item_id)]

    def create_lineitem(self, creation_data: Any) -> Any:
        if not isinstance(creation_data, dict) or not creation_data.get("label") or \
                not isinstance(creation_data.get("scoreMaximum"), (int, float)):
            raise LtiServiceException("a line item needs a label and a scoreMaximum", 400)
        with self.store.lock:
            n = max(self.store.items, default=0) + 1
            item = {**creation_data, "id": self.store.item_url(self.platform.url, n)}
            self.store.items[n] = item
            self.store.created += 1
        return item

    def update_lineitem(self, update_data: Any) -> Any:
        raise LtiServiceException("not served by the test LMS", 405)

    def delete_lineitem(self, line_item_id: str) -> None:
        with self.store.lock:
            if self.store.items.pop(int(line_item_id), None) is None:
                raise LineItemNotFoundException()

    def update_score(self, line_item_id: str, score: Any) -> UpdateScoreStatus:
        n = int(line_item_id)
        with self.store.lock:
            if n not in self.store.items:
                raise LineItemNotFoundException()
            if score.get("userId") not in {u.sub for u in self.platform.users.values()}:
                raise LtiServiceException(f"user {score.get('userId')} is not a member of this course", 422)
            old = self.store.scores.get((n, score["userId"]))
            if old is not None and old["timestamp"] >= score["timestamp"]:
                return UpdateScoreStatus.OLD_TIMESTAMP
            self.store.scores[(n, score["userId"])] = dict(score)
        return UpdateScoreStatus.SUCCESS

    def get_results(self, line_item_id: str, page: int = 1, limit: int | None = None, user_id: str | None = None,
                    **ignored: Any) -> TPage:
        n = int(line_item_id)
        with self.store.lock:
            if n not in self.store.items:
                raise LineItemNotFoundException()
            found = [{"id": f"{self.store.item_url(self.platform.url, n)}/results/{user}", "userId": user,
                      "resultScore": s.get("scoreGiven"), "resultMaximum": s.get("scoreMaximum"),
                      "scoreOf": self.store.items[n]["id"]}
                     for (item, user), s in self.store.scores.items() if item == n and user_id in (None, user)]
        return {"content": found, "has_next": False}


class Members(NamesRoleProvisioningService):
    """lti1p3platform's NRPS over the platform's users (each with their name, e-mail, roles)."""

    def __init__(self, request: Request, config: Any, platform: Any) -> None:
        super().__init__(request, config, platform.url + f"/courses/{COURSE}/memberships")
        self.platform = platform

    def get_member_data_page(self, page: int = 1, limit: int | None = None, role: str | None = None,
                             since: str | None = None, **ignored: Any) -> TPage:
        members = [{"user_id": u.sub, "roles": list(u.roles), "name": u.name, "email": f"{login}@school.example",
                    "status": "Active"} for login, u in sorted(self.platform.users.items())]
        members += list(self.platform.former)
        size = limit or len(members) or 1
        return {"content": members[(page - 1) * size: page * size], "has_next": page * size < len(members)}

    def get_context_by_id(self) -> Context:
        return Context(id=COURSE, label="M7b", title="Maths 7b")


def serve(platform: Any, config: Any, method: str, path: str, query: dict[str, Any], headers: Any,
          body: Any) -> tuple[int, dict[str, str], Any]:
    """The answer (status, headers, JSON) of a service request, after the platform's faults."""
    fault = next((f for f in platform.faults if f.where in path), None)
    if fault is not None:
        platform.faults.remove(fault)
        time.sleep(fault.delay)
        if fault.status:
            return fault.status, {}, {"error": "the test LMS is failing on purpose"}
    status, extra, answer = _serve(platform, config, method, path, query, headers, body)
    if fault is not None and fault.link:
        extra["Link"] = f'<{fault.link}>; rel="next"'
    return status, extra, answer


def _serve(platform: Any, config: Any, method: str, path: str, query: dict[str, Any], headers: Any,
           body: Any) -> tuple[int, dict[str, str], Any]:
    request = ServiceRequest((method, path, _ints(query), dict(headers), body))
    parts = path.strip("/").split("/")  # courses, course-7, lineitems[, N, lineitem[, scores|results]]
    if parts[2:3] == ["memberships"]:
        nrps = Members(request, config, platform)
        return _answer(nrps.handle_resp(nrps.handle_get_members), query, platform.url + path)
    ags = Grades(request, config, platform)
    if len(parts) == 3:
        handler = ags.handle_get_lineitems if method == "GET" else ags.handle_create_lineitem
        return _answer(ags.handle_resp(handler), query, platform.url + path)
    n, tail = parts[3], parts[5] if len(parts) > 5 else ""
    handler = {"scores": ags.handle_update_score, "results": ags.handle_get_results}.get(tail) or {
        "GET": ags.handle_get_lineitem, "DELETE": ags.handle_delete_lineitem}[method]
    return _answer(ags.handle_resp(handler, line_item_id=n), query, platform.url + path)


def _answer(response: Any, query: dict[str, Any], url: str) -> tuple[int, dict[str, str], Any]:
    """lti1p3platform's ``Response`` as HTTP: a page's content as the body, its next page as a
    Link header (lti1p3platform puts "next" in the body)."""
    from urllib.parse import urlencode

    if response.code >= 400:
        return response.code, {}, {"error": response.message}
    result, headers = response.result, {"Content-Type": response.media_type}
    if isinstance(result, dict) and "content" in result:
        if result.get("has_next"):
            page = int(query.get("page", 1)) + 1
            headers["Link"] = f'<{url}?{urlencode({**query, "page": page})}>; rel="next"'
        result = result["content"]
    elif isinstance(result, dict) and result.get("next"):
        headers["Link"] = f'<{result.pop("next")}>; rel="next"'
    return response.code, headers, result


def _ints(query: dict[str, Any]) -> dict[str, Any]:
    return {k: int(v) if k in ("page", "limit") else v for k, v in query.items()}
