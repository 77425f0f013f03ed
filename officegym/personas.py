"""Who a request to a served world acts as: one rule and one policy for every door.

`who_acts` is the rule, and every door calls it: the web pages (sign-in cookie), the
Slack API and the Sheets API (tokens) and MCP (bearer token over HTTP, none over
stdio). A token names a person one way, ``xoxp-<handle>`` with the directory's own
handle (not an email, a full name or ``@handle``); each door only chooses how the
token travels (Slack's ``token`` parameter, Google's ``access_token``, a Bearer
header). A request that names nobody acts as the server's persona if it was started
with one (``--persona``) and is refused (``not_authed``) otherwise. Cross-site
requests are refused before any of this by `officegym.web_guards.cross_site_reason`.

The doors share one `PersonaPolicy`. A world served for an agent under test is *locked* to its
persona: whatever door the agent knocks on, it cannot act as anyone else (read a
private channel through a colleague's token, sign in as a manager to edit their
records). Tokens name people (``xoxp-<handle>``), they do not authenticate: the
worlds are local sandboxes, and the lock is the guard.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.org.service import find_person, get_person
from officegym.errors import Forbidden, NotFound

__all__ = [
    "TOKEN_PREFIX",
    "PersonaPolicy",
    "bearer_token",
    "handle_of_token",
    "person_of_token",
    "token_for",
    "who_acts",
]

TOKEN_PREFIX = "xoxp-"


def token_for(handle: str) -> str:
    """The API token of the person with `handle`: ``xoxp-<handle>``."""
    return f"{TOKEN_PREFIX}{handle}"


def handle_of_token(token: str) -> str | None:
    """The handle a token names, or None if it is not one of ours."""
    handle = token.removeprefix(TOKEN_PREFIX) if token.startswith(TOKEN_PREFIX) else ""
    return handle or None


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, if there is one."""
    scheme, _, token = (authorization or "").strip().partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


@dataclass(frozen=True)
class PersonaPolicy:
    """`default` acts when a request names nobody; with `locked`, nobody else may act.

    Handles are the directory's own spelling (resolve them before building a policy).
    """

    default: str | None = None
    locked: bool = False

    def __post_init__(self) -> None:
        if self.locked and self.default is None:
            raise ValueError("a locked persona policy needs a default persona")

    def admits(self, handle: str) -> bool:
        """Whether a request may act as `handle`."""
        return not self.locked or handle == self.default

    def admit(self, handle: str) -> str:
        """`handle`, or a `Forbidden` (code ``persona_locked``) if the policy refuses it."""
        if not self.admits(handle):
            raise Forbidden(f"this server acts only as @{self.default}", code="persona_locked")
        return handle


def person_of_token(s: Session, token: str) -> Person:
    """The person `token` names: ``xoxp-<handle>`` spelled as the directory spells the
    handle. Anything else (an unknown handle, an email, a full name, another prefix) is
    `Forbidden` with code ``invalid_auth``."""
    handle = handle_of_token(token)
    try:
        person = find_person(s, handle) if handle else None
    except NotFound:
        person = None
    if person is None or person.handle != handle:
        raise Forbidden("the token matches nobody in this world", code="invalid_auth")
    return person


def who_acts(
    s: Session,
    policy: PersonaPolicy,
    token: str | None,
    *,
    signed_in: int | None = None,
    use_default: bool = True,
) -> Person:
    """Who acts for one request, at every door. In order:

    1. a `token` names its person (`person_of_token`), whom `policy` must admit
       (``persona_locked`` otherwise);
    2. else the person of a page sign-in (`signed_in`, a person id from the session
       cookie) if `policy` still admits them (a browser env relocks its server at every
       episode, voiding last episode's sign-in);
    3. else, with `use_default` (a page after sign-out passes False), the server's
       persona, when it was started with one;
    4. else `Forbidden` with code ``not_authed``.
    """
    if token is not None:
        person = person_of_token(s, token)
        policy.admit(person.handle)
        return person
    if signed_in is not None:
        try:
            person = get_person(s, signed_in)
        except NotFound:
            person = None
        if person is not None and policy.admits(person.handle):
            return person
    if use_default and policy.default is not None:
        return find_person(s, policy.default)
    raise Forbidden("no persona: send 'Authorization: Bearer xoxp-<handle>'", code="not_authed")
