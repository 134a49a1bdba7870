"""Every check of a launch's id_token, in the order the spec gives them (LTI 1.3 core, "Message
security"; IMS Security Framework 5.1.3), after the state was matched (``logins``):

1. signed (RS256 only) by a key of the registered platform's key set (``platform_keys``): a
   token changed by anyone (a learner who made themselves Instructor) does not verify;
2. ``iss`` the platform of this login, ``aud`` holding the tool's client id, and with several
   audiences ``azp`` the tool's client id (an ``azp`` present is always the client id);
3. ``exp`` not passed and ``iat`` not in the future, with ``LEEWAY`` seconds for the clocks of
   two machines, and not before the login started;
4. ``nonce`` the one this login sent (it is used once: the login is gone after it);
5. a registered deployment id, LTI version ``1.3.0``, a resource link launch with its link id
   and a user (``sub``), or a deep linking request (an instructor adds maumau's activities to the
   course, ``deep_linking``) with the URL its answer goes back to.

A refused launch is one sentence (``LaunchRefused``); nothing is signed in.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from .logins import PendingLogin
from .platform_keys import KeyRefused, PlatformKeys
from .platforms import Platform
from .words import LtiRefusal

__all__ = ["Launch", "LaunchRefused", "check_launch", "LEEWAY", "CLAIM", "DL_CLAIM", "INSTRUCTOR_ROLES",
           "RESOURCE_LINK", "DEEP_LINKING"]

#: Seconds the platform's clock and ours may differ.
LEEWAY = 30
#: The LTI claims' common prefix.
CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
#: The deep linking claims' common prefix.
DL_CLAIM = "https://purl.imsglobal.org/spec/lti-dl/claim/"
RESOURCE_LINK, DEEP_LINKING = "LtiResourceLinkRequest", "LtiDeepLinkingRequest"
#: The context roles that make a launch the teacher's (the course's instructors and administrators).
INSTRUCTOR_ROLES = frozenset({
    "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor",
    "http://purl.imsglobal.org/vocab/lis/v2/membership#Administrator",
})


class LaunchRefused(LtiRefusal):
    """A launch that does not pass a check: the sentence says which."""


@dataclass(frozen=True)
class Launch:
    """A launch that passed every check: who, in which course, from which link."""

    platform: Platform
    sub: str
    name: str
    email: str
    roles: tuple[str, ...]
    deployment_id: str
    context_id: str
    context_title: str
    resource_link_id: str
    target_link_uri: str
    claims: dict[str, Any]
    message_type: str = RESOURCE_LINK

    @property
    def custom(self) -> dict[str, str]:
        """The link's custom parameters (deep linking gave an exercise's link ``exercise``)."""
        found = self.claims.get(CLAIM + "custom")
        return {str(k): str(v) for k, v in found.items()} if isinstance(found, dict) else {}

    @property
    def deep_linking(self) -> dict[str, Any]:
        """A deep linking request's settings (its return URL, what it accepts), else empty."""
        found = self.claims.get(DL_CLAIM + "deep_linking_settings")
        return found if self.message_type == DEEP_LINKING and isinstance(found, dict) else {}

    @property
    def teacher(self) -> bool:
        """The launch of an instructor (or administrator) of the course in the LMS."""
        return any(role in INSTRUCTOR_ROLES for role in self.roles)


def check_launch(id_token: str, login: PendingLogin, keys: PlatformKeys, leeway: float = LEEWAY) -> Launch:
    """The launch of ``id_token`` for ``login``, checked; LaunchRefused saying why not."""
    platform = login.platform
    claims = _verified(id_token, platform, keys, leeway)
    _check_audience(claims, platform.client_id)
    if claims["iat"] < login.started - leeway:
        raise LaunchRefused("the token was issued before this login started: it belongs to another launch")
    if not isinstance(claims["nonce"], str) or not secrets.compare_digest(claims["nonce"], login.nonce):
        raise LaunchRefused("the token's nonce is not the one this login sent: a launch is used once")
    return _launch(claims, platform)


def _verified(id_token: str, platform: Platform, keys: PlatformKeys, leeway: float) -> dict[str, Any]:
    """The token's claims once its signature, issuer, audience and times are checked."""
    import jwt

    try:
        header = jwt.get_unverified_header(id_token)
    except jwt.PyJWTError:
        raise LaunchRefused("the launch's id_token is not a signed token (JWT)") from None
    if header.get("alg") != "RS256" or not isinstance(header.get("kid"), str):
        raise LaunchRefused("the launch's id_token must be signed with RS256 and name its key (kid)")
    try:
        key = keys.key(platform, header["kid"])
    except KeyRefused as err:
        raise LaunchRefused(err.template, **err.values) from None
    try:
        claims: dict[str, Any] = jwt.decode(
            id_token, key.key, algorithms=["RS256"], audience=platform.client_id, issuer=platform.issuer,
            leeway=leeway, options={"require": ["iss", "aud", "sub", "exp", "iat", "nonce"]})
    except jwt.ExpiredSignatureError:
        raise LaunchRefused("the launch's token has expired: open the link in the LMS again") from None
    except jwt.ImmatureSignatureError:
        raise LaunchRefused("the launch's token was issued in the future: the LMS's clock or the token is "
                            "wrong") from None
    except jwt.InvalidAudienceError:
        raise LaunchRefused("the launch's token is meant for another tool (its audience is not this "
                            "registration's client id)") from None
    except jwt.InvalidIssuerError:
        raise LaunchRefused("the launch's token comes from another issuer than the LMS this login "
                            "started with") from None
    except jwt.InvalidSignatureError:
        raise LaunchRefused("the launch's token does not match its signature: it was changed after the LMS "
                            "signed it") from None
    except jwt.MissingRequiredClaimError as err:
        raise LaunchRefused("the launch's token has no {claim}", claim=repr(str(err.claim)[:40])) from None
    except jwt.PyJWTError as err:
        raise LaunchRefused("the launch's token is not valid ({why})", why=str(err)[:200]) from None
    if not isinstance(claims["iat"], (int, float)):
        raise LaunchRefused("the launch's token has no {claim}", claim="valid 'iat'")
    return claims


def _check_audience(claims: dict[str, Any], client_id: str) -> None:
    """With several audiences the authorized party must be named and be this tool; a named one
    is always this tool."""
    audiences = claims["aud"] if isinstance(claims["aud"], list) else [claims["aud"]]
    azp = claims.get("azp")
    if len(audiences) > 1 and azp is None:
        raise LaunchRefused("the launch's token has several audiences and names no authorized party (azp)")
    if azp is not None and azp != client_id:
        raise LaunchRefused("the launch's token is authorized for another tool (azp)")


def _launch(claims: dict[str, Any], platform: Platform) -> Launch:
    """The LTI claims of a resource link launch, checked (deployment, version, type, link, user)."""
    deployment = claims.get(CLAIM + "deployment_id")
    if not isinstance(deployment, str) or deployment not in platform.deployment_ids:
        raise LaunchRefused("deployment {deployment} of this LMS is not registered with this maumau: the teacher "
                            "adds it to the registration's deployment_ids", deployment=repr(str(deployment)[:80]))
    if claims.get(CLAIM + "version") != "1.3.0":
        raise LaunchRefused("this is not an LTI 1.3.0 launch")
    kind = claims.get(CLAIM + "message_type")
    if kind not in (RESOURCE_LINK, DEEP_LINKING):
        raise LaunchRefused("maumau takes resource link launches and deep linking requests; a {kind} message is "
                            "not served", kind=repr(str(kind)[:60]))
    link, context = claims.get(CLAIM + "resource_link"), claims.get(CLAIM + "context") or {}
    if kind == DEEP_LINKING:
        _check_deep_linking(claims)
        link = {"id": ""}
    elif not isinstance(link, dict) or not isinstance(link.get("id"), str) or not link["id"]:
        raise LaunchRefused("the launch names no resource link (its id)")
    sub, roles = claims["sub"], claims.get(CLAIM + "roles")
    if not isinstance(sub, str) or not sub.strip():
        raise LaunchRefused("an anonymous launch (no user) cannot sign a learner in")
    if not isinstance(roles, list) or not all(isinstance(r, str) for r in roles):
        raise LaunchRefused("the launch's roles are not a list of role URIs")
    if not isinstance(context, dict):
        context = {}
    return Launch(platform=platform, sub=sub, name=_name(claims), email=str(claims.get("email") or ""),
                  roles=tuple(roles), deployment_id=deployment, context_id=str(context.get("id") or ""),
                  context_title=str(context.get("title") or ""), resource_link_id=link["id"],
                  target_link_uri=str(claims.get(CLAIM + "target_link_uri") or ""), claims=claims,
                  message_type=kind)


def _check_deep_linking(claims: dict[str, Any]) -> None:
    """A deep linking request says where its answer goes (an http(s) URL) and accepts resource links."""
    from urllib.parse import urlsplit

    settings = claims.get(DL_CLAIM + "deep_linking_settings")
    back = settings.get("deep_link_return_url") if isinstance(settings, dict) else None
    if not isinstance(back, str) or urlsplit(back).scheme not in ("https", "http") or not urlsplit(back).netloc:
        raise LaunchRefused("the deep linking request has no URL to answer to (deep_link_return_url)")
    accepted = settings.get("accept_types") if isinstance(settings, dict) else None
    if isinstance(accepted, list) and "ltiResourceLink" not in accepted:
        raise LaunchRefused("the LMS asks for content maumau does not make: maumau adds LTI resource links "
                            "(ltiResourceLink)")


def _name(claims: dict[str, Any]) -> str:
    """The user's name as the LMS gives it: ``name``, else given and family name, else none."""
    name = claims.get("name")
    if isinstance(name, str) and name.strip():
        return name.strip()
    parts = [claims.get(k) for k in ("given_name", "family_name")]
    return " ".join(p.strip() for p in parts if isinstance(p, str) and p.strip())


