"""A real LTI 1.3 platform on loopback, for the tests: ``lti1p3platform`` builds its OIDC login
initiation and its signed launch (the message, the id_token), and a small HTTP server serves what
an LMS serves: its key set (``/jwks``) and its authorization endpoint (``/auth``), which answers
the tool's redirect with the auto-submitting launch form, as Moodle and Canvas do.

``Browser`` is what a learner's browser does with it: it follows redirects, keeps cookies per host
(not per port, as browsers do), and posts the form.  It reads every response; it is no mock of the
tool: the tool under test is the class server's real LTI app, spoken to over real HTTP.
"""

from __future__ import annotations

import html
import http.client
import json
import threading
import time
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import jwt
from jwcrypto.jwk import JWK
from lti1p3platform.ltiplatform import LTI1P3PlatformConfAbstract
from lti1p3platform.message_launch import LTIAdvantageMessageLaunchAbstract
from lti1p3platform.oidc_login import OIDCLoginAbstract
from lti1p3platform.registration import Registration
from lti1p3platform.request import Request

from .lms_services import COURSE, Fault, Store, serve

LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"


def new_key() -> str:
    """A new RSA private key, PEM."""
    return str(JWK.generate(kty="RSA", size=2048).export_to_pem(private_key=True, password=None).decode())


def public_pem(private_pem: str) -> str:
    return str(JWK.from_pem(private_pem.encode()).export_to_pem().decode())


@dataclass
class User:
    sub: str
    name: str
    roles: list[str]


class _Config(LTI1P3PlatformConfAbstract):
    """The platform's registration of the tool (lti1p3platform's abstract configuration)."""

    def init_platform_config(self, **kwargs: Any) -> None:
        self.registration: Registration = kwargs["registration"]

    def get_registration_by_params(self, **kwargs: Any) -> Registration:
        return self.registration


class _Login(OIDCLoginAbstract):
    def set_lti_message_hint(self, **kwargs: Any) -> None:
        self._lti_message_hint = kwargs["hint"]

    def get_redirect(self, url: str) -> str:
        return url


class _Request(Request):
    def build_metadata(self, request: Any) -> Any:
        return {"method": "GET", "form_data": {}, "get_data": request, "headers": {}, "content_type": None,
                "path": "/auth", "json": None}


class _Launch(LTIAdvantageMessageLaunchAbstract):
    def render_launch_form(self, launch_data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return launch_data


@dataclass
class Platform:
    """An LMS with one registration of the tool (see the module docstring)."""

    tool_login: str = ""
    tool_launch: str = ""
    client_id: str = "maumau-client"
    deployment_id: str = "1"
    users: dict[str, User] = field(default_factory=dict)
    #: Claims the next launches carry on top of the platform's own (a wrong audience, ...).
    extra: dict[str, Any] = field(default_factory=dict)
    #: Seconds added to the time the next launches are issued at (iat and exp move together).
    clock: float = 0.0
    #: How long a launch's token is valid.
    lifetime: int = 300
    #: The key the next launches are signed with (None: the platform's published key).
    sign_with: str | None = None
    #: The tool's key set as the teacher pasted it into the LMS (None: fetched from ``tool_jwks``).
    tool_key_set: dict[str, Any] | None = None
    tool_jwks: str = ""
    #: Whether launches offer the course's grade and roster services.
    services: bool = True
    #: The faults of the next service requests (``lms_services.Fault``).
    faults: list[Fault] = field(default_factory=list)
    #: Members the roster lists beyond the users (left the course: status Inactive, ...).
    former: list[dict[str, Any]] = field(default_factory=list)
    #: The page size of the roster the launches name (Names and Roles pages through it).
    roster_page: int = 1
    #: The links deep linking added to the course: link id -> content item.
    links: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: What the last deep linking answer sent back as its opaque data.
    returned_data: Any = None

    def __post_init__(self) -> None:
        self.key = new_key()
        self.published = [self.key]
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self.issuer = self.url
        self.store = Store()
        self.token_requests = 0
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    # --- what the teacher pastes into the tool's registrations ----------------------------------------------
    def registration_entry(self, name: str = "lms") -> dict[str, Any]:
        return {"name": name, "issuer": self.issuer, "client_id": self.client_id,
                "deployment_ids": [self.deployment_id], "jwks_url": self.url + "/jwks",
                "login_url": self.url + "/auth", "token_url": self.url + "/token"}

    def rotate(self) -> str:
        """A new key signs from now on and only it is published; the old one is returned."""
        old, self.key = self.key, new_key()
        self.published = [self.key]
        return old

    # --- the platform's steps ----------------------------------------------------------------------------
    def _registration(self) -> Registration:
        reg = Registration()
        reg.set_iss(self.issuer).set_client_id(self.client_id).set_deployment_id(self.deployment_id)
        reg.set_oidc_login_url(self.tool_login).set_launch_url(self.tool_launch)
        reg.set_platform_private_key(self.sign_with or self.key).set_platform_public_key(public_pem(self.key))
        reg.set_deeplink_launch_url(self.tool_launch)
        if self.tool_key_set is not None:
            reg.set_tool_key_set(self.tool_key_set)  # type: ignore[arg-type]
        else:
            reg.set_tool_key_set_url(self.tool_jwks)
        return reg

    @property
    def lineitems_url(self) -> str:
        return f"{self.url}/courses/{COURSE}/lineitems"

    @property
    def memberships_url(self) -> str:
        return f"{self.url}/courses/{COURSE}/memberships"

    def deep_link_return(self, form: dict[str, str]) -> tuple[int, str]:
        """The deep linking answer: lti1p3platform checks the tool's signed response (against the
        tool's key set) and returns its items; each becomes a link, and a link with a line item
        gets its grade column, made by the LMS (not by the tool's service calls)."""
        config = _Config(registration=self._registration())
        config.get_registration()
        try:
            items = config.validate_deeplinking_resp(form)
        except Exception as err:  # noqa: BLE001  a refused answer
            return 400, f"refused: {type(err).__name__}: {err}"
        self.returned_data = jwt.decode(form["JWT"], options={"verify_signature": False}).get(
            "https://purl.imsglobal.org/spec/lti-dl/claim/data")
        for item in items:
            link = f"dl-{len(self.links) + 1}"
            self.links[link] = item
            if isinstance(item.get("lineItem"), dict):
                with self.store.lock:
                    n = max(self.store.items, default=0) + 1
                    self.store.items[n] = {**item["lineItem"], "id": self.store.item_url(self.url, n),
                                           "resourceLinkId": link}
        return 200, f"added {len(items)}"

    def token(self, form: dict[str, str]) -> tuple[int, dict[str, Any]]:
        """The token endpoint: lti1p3platform checks the tool's signed assertion and signs a token."""
        self.token_requests += 1
        config = _Config(registration=self._registration())
        config.get_registration()
        try:
            return 200, dict(config.get_access_token(form))
        except Exception as err:  # noqa: BLE001  any refusal of lti1p3platform's: invalid_client
            return 401, {"error": "invalid_client", "error_description": f"{type(err).__name__}: {err}"}

    def launch_link(self, login_hint: str, link: str = "link-1") -> str:
        """The URL the LMS sends the browser to when the user opens the tool's link: the tool's
        login initiation (lti1p3platform's ``prepare_preflight_url``)."""
        login = _Login(None, _Config(registration=self._registration()))
        login.set_lti_message_hint(hint=link)
        return str(login.initiate_login(login_hint))

    def authorize(self, query: dict[str, str]) -> dict[str, Any]:
        """The authorization endpoint: the launch form (id_token, state, the tool's launch URL) for
        the user of ``login_hint``; lti1p3platform builds and signs the message."""
        user = self.users[query["login_hint"]]
        config = _Config(registration=self._registration())
        launch = _Launch(_Request(query), config)
        launch.set_user_data(user.sub, user.roles, full_name=user.name)
        link = query.get("lti_message_hint") or "link-1"
        if link == "deep-link":  # the instructor's "add an activity": a deep linking request
            launch.set_dl(self.url + "/deep_link_return", title="Add an activity", accept_types={"ltiResourceLink"},
                          extra_data={"session": "dl-7"})
        else:
            launch.set_resource_link_claim(link, title="Mau-Mau")
        if link in self.links and self.links[link].get("custom"):
            launch.set_custom_parameters_claim(dict(self.links[link]["custom"]))
        launch.set_launch_context_claim(COURSE, context_title="Maths 7b")
        if self.services:
            launch.set_ags(lineitems_url=self.lineitems_url, allow_creating_lineitems=True)
            launch.set_nrps(f"{self.memberships_url}?limit={self.roster_page}")
        if self.extra:
            launch.set_extra_claims(dict(self.extra))
        if self.clock:  # a platform whose clock is off: the message, signed by the platform's key, at that time
            launch._registration = config.get_registration()
            launch.validate_preflight_response(query)
            message, state = launch.get_launch_data()
            now = int(time.time() + self.clock)
            message.update(iat=now, exp=now + self.lifetime)
            token = launch._registration.platform_encode_and_sign(message)
            return {"id_token": token, "state": state, "launch_url": query["redirect_uri"]}
        launch.set_id_token_expiration(self.lifetime)
        return dict(launch.lti_launch())

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        platform = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802
                parts = urlsplit(self.path)
                if parts.path == "/jwks":
                    body = json.dumps({"keys": [Registration.get_jwk(public_pem(k)) for k in platform.published]})
                    self._send(200, "application/json", body)
                elif parts.path == "/auth":
                    form = platform.authorize(dict(parse_qsl(parts.query)))
                    self._send(200, "text/html", launch_form(form))
                elif parts.path.startswith("/courses/"):
                    self.service("GET", parts)
                else:
                    self._send(404, "text/plain", "not found")

            def do_POST(self) -> None:  # noqa: N802
                parts = urlsplit(self.path)
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode()
                if parts.path == "/token":
                    status, answer = platform.token(dict(parse_qsl(body)))
                    self._send(status, "application/json", json.dumps(answer))
                elif parts.path == "/deep_link_return":
                    status, text = platform.deep_link_return(dict(parse_qsl(body)))
                    self._send(status, "text/plain", text)
                elif parts.path.startswith("/courses/"):
                    self.service("POST", parts, json.loads(body) if body else None)
                else:
                    self._send(404, "text/plain", "not found")

            def do_DELETE(self) -> None:  # noqa: N802
                self.service("DELETE", urlsplit(self.path))

            def service(self, method: str, parts: Any, body: Any = None) -> None:
                config = _Config(registration=platform._registration())
                config.get_registration()
                try:
                    status, headers, answer = serve(platform, config, method, parts.path,
                                                    dict(parse_qsl(parts.query)), self.headers, body)
                except Exception as err:  # noqa: BLE001  lti1p3platform refuses a bad token by raising
                    status, headers, answer = 401, {}, {"error": f"{type(err).__name__}: {err}"}
                data = json.dumps(answer).encode() if answer is not None else b""
                self.send_response(status)
                for name, value in {"Content-Type": "application/json", **headers}.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _send(self, status: int, kind: str, body: str) -> None:
                data = body.encode()
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler


def launch_form(form: dict[str, Any]) -> str:
    """The auto-submitting form an LMS answers its authorization request with."""
    e = html.escape
    return (f'<!DOCTYPE html><form method="POST" action="{e(form["launch_url"])}" id="form">'
            f'<input type="hidden" name="id_token" value="{e(form["id_token"])}">'
            f'<input type="hidden" name="state" value="{e(form["state"])}"></form>'
            f'<script>document.getElementById("form").submit();</script>')


class _FormReader(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.action, self.fields = "", {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "form":
            self.action = found.get("action") or ""
        elif tag == "input" and found.get("name"):
            self.fields[str(found["name"])] = found.get("value") or ""


@dataclass
class Response:
    status: int
    headers: list[tuple[str, str]]
    body: str

    def header(self, name: str) -> str | None:
        return next((v for k, v in self.headers if k.lower() == name.lower()), None)


class Browser:
    """A browser's part (see the module docstring): cookies by host, with their paths."""

    def __init__(self) -> None:
        self.cookies: dict[tuple[str, str, str], str] = {}  # (host, path, name) -> value

    def request(self, method: str, url: str, form: dict[str, str] | list[tuple[str, str]] | None = None,
                upload: tuple[str, str, bytes] | None = None, origin: str | None = None) -> Response:
        """``method`` ``url`` with the browser's cookies: a form, or a file ``upload`` (field, file
        name, bytes) as a page's file input sends it; ``origin``: the page's site (a form's post)."""
        parts = urlsplit(url)
        conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=20)
        headers = {"Cookie": self.cookie_header(url)} if self.cookie_header(url) else {}
        if origin is not None:
            headers["Origin"] = origin
        body: str | bytes | None = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if upload is not None:
            field_name, filename, data = upload
            boundary = "maumau-test-boundary"
            head = (f'--{boundary}\r\nContent-Disposition: form-data; name="{field_name}"; filename="{filename}"\r\n'
                    f"Content-Type: application/octet-stream\r\n\r\n")
            body = head.encode() + data + f"\r\n--{boundary}--\r\n".encode()
            headers["Content-Type"] = f"multipart/form-data; boundary={boundary}"
        conn.request(method, parts.path + (f"?{parts.query}" if parts.query else ""), body=body, headers=headers)
        answer = conn.getresponse()
        response = Response(answer.status, answer.getheaders(), answer.read().decode("utf-8", "replace"))
        conn.close()
        for name, value in response.headers:
            if name.lower() == "set-cookie":
                self._keep(parts.hostname or "", value)
        return response

    def _keep(self, host: str, header: str) -> None:
        first, *attributes = [p.strip() for p in header.split(";")]
        name, _, value = first.partition("=")
        attrs = {k.lower(): v for k, _, v in (a.partition("=") for a in attributes)}
        key = (host, attrs.get("path", "/"), name)
        if attrs.get("max-age") == "0":
            self.cookies.pop(key, None)
        else:
            self.cookies[key] = value

    def cookie_header(self, url: str) -> str:
        parts = urlsplit(url)
        return "; ".join(f"{name}={value}" for (host, path, name), value in self.cookies.items()
                         if host == parts.hostname and parts.path.startswith(path))

    def follow(self, url: str) -> Response:
        """GET ``url`` and follow its redirects (at most 10)."""
        response = self.request("GET", url)
        for _ in range(10):
            location = response.header("Location")
            if response.status not in (301, 302, 303, 307) or location is None:
                return response
            response = self.request("GET", location)
        raise AssertionError("too many redirects")

    def submit(self, page: Response) -> Response:
        """POST the form of ``page`` (the platform's launch form), as its script does."""
        reader = _FormReader()
        reader.feed(page.body)
        return self.request("POST", reader.action, reader.fields)


def form_of(page: Response) -> dict[str, str]:
    reader = _FormReader()
    reader.feed(page.body)
    return {"action": reader.action, **reader.fields}


def tampered(id_token: str, **changes: Any) -> str:
    """``id_token`` with its claims changed and its signature kept (what a learner could forge)."""
    header, _, signature = id_token.split(".")
    claims = jwt.decode(id_token, options={"verify_signature": False})
    claims.update(changes)
    body = jwt.utils.base64url_encode(json.dumps(claims).encode()).decode()
    return f"{header}.{body}.{signature}"
