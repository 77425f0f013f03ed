"""Who a request to a served world acts as: one policy for every door.

The web sign-in, the Slack API's tokens and MCP over HTTP all ask the same
`PersonaPolicy`. A world served for an agent under test is *locked* to its
persona: whatever door the agent knocks on, it cannot act as anyone else (read a
private channel through a colleague's token, sign in as a manager to edit their
records). Tokens name people (``xoxp-<handle>``), they do not authenticate: the
worlds are local sandboxes, and the lock is the guard.
"""

from __future__ import annotations

from dataclasses import dataclass

from officegym.errors import Forbidden

__all__ = ["TOKEN_PREFIX", "PersonaPolicy", "bearer_token", "handle_of_token", "token_for"]

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

    def acting(self, named: str | None) -> str:
        """Who acts when a request names `named` (or nobody): that person if admitted, else
        the default; `Forbidden` (``not_authed``) when neither is there."""
        if named is not None:
            return self.admit(named)
        if self.default is None:
            hint = "no persona: send 'Authorization: Bearer xoxp-<handle>'"
            raise Forbidden(hint, code="not_authed")
        return self.default
