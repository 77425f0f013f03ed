"""Building blocks of the Slack Web API subset (`officegym.apps.slack.api`): the
method registry, typed parameters, Slack ids and cursors, and the JSON objects
Slack returns.

Everything is read through the chat and directory services as the request's
actor (`g.actor`) on the request's session (`g.db`).
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import json
import re
from collections.abc import Callable, Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from flask import g

from officegym.apps.org import service as org
from officegym.apps.org.models import Person
from officegym.apps.slack import service as chat
from officegym.apps.slack.models import Channel, Message
from officegym.errors import Invalid, NotFound

__all__ = [
    "METHODS",
    "TEAM_ID",
    "TEAM_NAME",
    "WRITE_METHODS",
    "Handler",
    "Params",
    "cursor_position",
    "find_channel",
    "find_message",
    "find_person",
    "is_user_id",
    "method",
    "next_cursor",
    "page",
    "ts_key",
    "unix_time",
    "user_id",
]

TEAM_ID = "T0000001"
TEAM_NAME = "officegym"
USER_ID_RE = re.compile(r"^U(\d{1,12})$")
TS_RE = re.compile(r"^(\d{1,12})(?:\.(\d{1,18}))?$")  # row ids stay within SQL integers


Handler = Callable[["Params"], dict[str, Any]]
METHODS: dict[str, Handler] = {}
WRITE_METHODS: set[str] = set()  # methods that change state: POST only


def method(name: str, *, write: bool = False) -> Callable[[Handler], Handler]:
    """Register the handler of the Slack method `name` (e.g. ``chat.postMessage``);
    `write` marks a method that changes state (accepted only by POST)."""

    def register(fn: Handler) -> Handler:
        METHODS[name] = fn
        if write:
            WRITE_METHODS.add(name)
        return fn

    return register


def user_id(person_id: int) -> str:
    """A person's Slack user id: ``U`` + the zero-padded person id."""
    return f"U{person_id:07d}"


class Params:
    """Typed access to a request's parameters, failing with Slack's error codes."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data

    def text(self, key: str, *, missing: str | None = None) -> str:
        """A string parameter; '' if absent, or an error with code `missing`. A JSON object
        or list where a string belongs is ``invalid_arguments``."""
        value = self.data.get(key)
        if isinstance(value, dict | list):
            raise Invalid(f"'{key}' must be a string", code="invalid_arguments")
        value = "" if value is None else str(value).strip()
        if "\x00" in value:
            raise Invalid(f"'{key}' holds a NUL character", code="invalid_arguments")
        if not value and missing:
            raise Invalid(f"'{key}' is required", code=missing)
        return value

    def json(self, key: str) -> Any:
        """A structured parameter (``blocks``, ``files``): a JSON value, or JSON text as form
        fields carry it; None if absent."""
        value = self.data.get(key)
        if isinstance(value, str):
            try:
                return json.loads(value) if value.strip() else None
            except (ValueError, RecursionError):
                raise Invalid(f"'{key}' is not valid JSON", code="invalid_arguments") from None
        return value

    def number(self, key: str, default: int, lo: int, hi: int) -> int:
        raw = self.data.get(key)
        if raw in (None, ""):
            return default
        try:
            value = int(raw)
        except (TypeError, ValueError, OverflowError):
            raise Invalid(f"'{key}' must be an integer", code=f"invalid_{key}") from None
        return default if value == 0 else max(lo, min(value, hi))

    def flag(self, key: str, default: bool = False) -> bool:
        raw = self.data.get(key)
        if raw in (None, ""):
            return default
        return raw is True or str(raw).lower() in ("1", "true", "yes")


# ---------------------------------------------------------------- ids and cursors


def find_channel(p: Params, key: str = "channel") -> Channel:
    """The channel named by parameter `key` (a Slack id or a name) that the actor can see."""
    ref = p.text(key, missing="channel_not_found")
    return chat.get_channel(g.db, g.actor, ref)


def row_id(ref: Any, prefix: str, what: str, code: str) -> int:
    """The row id in a Slack object id (`prefix` then up to 12 digits, e.g. ``F12``);
    NotFound with `code` for anything else."""
    text = str(ref).strip() if isinstance(ref, str | int) else ""
    found = re.match(rf"^{prefix}(\d{{1,12}})$", text)
    if found is None:
        raise NotFound(f"no {what} {ref!r}", code=code)
    return int(found.group(1))


def is_user_id(ref: str) -> bool:
    """Whether `ref` is a Slack user id (``U0000012``) rather than a channel."""
    return USER_ID_RE.match(ref.strip()) is not None


def find_person(ref: str) -> Person:
    """A person by Slack user id (``U0000012``)."""
    match = USER_ID_RE.match(ref.strip())
    if match is None:
        raise NotFound(f"no user {ref!r}", code="user_not_found")
    return org.get_person(g.db, int(match.group(1)))


def ts_key(ts: str, code: str = "message_not_found") -> tuple[int, int]:
    """A ts as (seconds, row id); a plain time has row id 0."""
    match = TS_RE.match(ts.strip())
    if match is None:
        raise NotFound(f"no message with ts {ts!r}", code=code)
    return int(match.group(1)), int(match.group(2) or 0)


def find_message(
    p: Params,
    channel: Channel,
    key: str = "ts",
    *,
    code: str = "message_not_found",
    include_deleted: bool = False,
) -> Message:
    """The live message of `channel` with the ts in parameter `key` (or a deleted one, with
    `include_deleted`); NotFound with `code` if there is none."""
    ts = p.text(key, missing=code)
    try:
        msg = chat.get_message(g.db, g.actor, ts_key(ts, code)[1], include_deleted=include_deleted)
    except NotFound:
        msg = None
    if msg is None or msg.channel_id != channel.id or msg.ts != ts:
        raise NotFound(f"no message {ts} in this channel", code=code)
    return msg


def cursor_position(p: Params) -> int:
    """The position a cursor encodes (0 without one)."""
    raw = p.text("cursor")
    if not raw:
        return 0
    try:
        kind, _, value = base64.urlsafe_b64decode(raw.encode()).decode().partition(":")
        if kind == "next" and value.isascii() and value.isdecimal() and len(value) <= 12:
            return int(value)
    except (binascii.Error, UnicodeDecodeError, ValueError):
        pass
    raise Invalid("cursor is not one this server gave out", code="invalid_cursor")


def next_cursor(position: int | None) -> dict[str, str]:
    """Slack's ``response_metadata``: an opaque cursor to `position`, or '' at the end."""
    if position is None:
        return {"next_cursor": ""}
    return {"next_cursor": base64.urlsafe_b64encode(f"next:{position}".encode()).decode()}


def page(items: list[Any], p: Params, default: int, most: int) -> tuple[list[Any], dict]:
    """One page of `items` by offset cursor, and the metadata pointing at the next one."""
    start, size = cursor_position(p), p.number("limit", default, 1, most)
    end = start + size
    return items[start:end], next_cursor(end if end < len(items) else None)


def unix_time(p: Params, key: str, *, missing: str) -> dt.datetime:
    """A Unix time parameter (``post_at``) as a naive UTC datetime."""
    raw = p.text(key, missing=missing)
    try:
        value = Decimal(raw)
        if not value.is_finite() or not 0 <= value < 253402300800:
            raise InvalidOperation
    except InvalidOperation:
        raise Invalid(f"'{key}' must be a Unix time", code="invalid_time") from None
    return EPOCH + dt.timedelta(seconds=int(value))


EPOCH = dt.datetime(1970, 1, 1)
