"""maumau as an LTI 1.3 tool: an LMS (Moodle, Canvas, ...) launches the class server and the
launch signs the learner in with the LMS's identity (docs/howto/lti.md).

One idea per module:

- ``platforms``: the platforms the teacher registered (``lti.json``): issuer, client id,
  deployment ids, the platform's JWKS, login and token URLs.
- ``keys``: the tool's own RSA key pair, kept in the class server's database, rotatable; its JWKS.
- ``platform_keys``: the platform's public keys, fetched, cached, fetched again once for an unknown
  key id (the platform rotated its key).
- ``logins``: the OIDC login the platform starts: a one-time state (bound to the browser by a
  cookie) and a nonce, kept until the launch comes back.
- ``launch``: every check of the launch's id_token, in the order the spec gives them.
- ``learners``: who a launch signs in: the LMS user (issuer and subject) as a learner of the class
  server, their name from the token, and the sessions the pages and the hand-in see.
- ``contexts``: the LMS courses launches came from, with their grade and roster services' URLs,
  and who is in them.
- ``services``: the tool's access token (client credentials, a JWT signed by the tool's key) and
  its requests to the LMS's services, each with a timeout, each failure one sentence.
- ``line_items``: one grade column per exercise and course, found or made once, never twice.
- ``scores``: each learner's final score to their course's grade column (``maumau lti scores``).
- ``roster``: a course's members from the LMS (Names and Roles), named as launches name them;
  ``roster_page`` shows them on the teacher's course page.
- ``deep_linking``: an instructor adds exercises (with their grade columns) and the class tables
  to the LMS course; ``exercise_page`` is where a learner's launch of an exercise's link lands.
- ``frame``: a login asked for inside the LMS's frame: one link that opens maumau in a window.
- ``words``: the refusals of a login or a launch, in English, German and Hungarian.
- ``app``: the HTTP endpoints (login, launch, JWKS) on a small tornado app beside the websocket
  server, in the same process and loop.
- ``database``: the class server's SQLite file, one short transaction at a time.
- ``commands``: ``maumau lti keys|rotate|scores|roster``.

Install with ``pip install 'maumau[lti]'`` (PyJWT with its cryptography, tornado, requests).
"""

from __future__ import annotations

__all__ = ["LtiError"]


class LtiError(Exception):
    """A setting of the tool is wrong or missing (the registrations file, the key store): one
    sentence saying which and what to do; nothing was changed."""
