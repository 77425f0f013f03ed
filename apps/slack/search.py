"""Searching messages with Slack's syntax (`search_syntax`): the one place that turns a
query into SQL. Routes, tools and the Web API's ``search.messages`` call it through
`service`; only what the actor may read is ever found."""

from __future__ import annotations

import functools
import re
from typing import Any, NamedTuple

from sqlalchemy import Select, bindparam, func, or_, select
from sqlalchemy.orm import Session, joinedload

from officegym.apps.org.models import Person
from officegym.apps.org.service import find_person_id, profile
from officegym.apps.slack.access import Someone, can_read, check_length, clamp, get_channel
from officegym.apps.slack.channels import find_dm
from officegym.apps.slack.models import Channel, Membership, Message, Pin, Reaction
from officegym.apps.slack.search_syntax import SearchQuery, parse
from officegym.errors import Invalid, NotFound

__all__ = ["count_matches", "search_messages"]

USER_REF_RE = re.compile(r"^@?U(\d{1,12})$")
NOWHERE = 0  # a channel id no row has: `in:@handle` without a conversation finds nothing


class _Shape(NamedTuple):
    """What varies between search statements (each shape is built once)."""

    terms: int
    in_channel: bool
    by_author: bool
    authors: int
    channels: int
    since: bool
    until: bool
    has: frozenset[str]
    sqlite: bool


def search_messages(
    s: Session,
    actor: Person,
    *,
    query: str,
    channel: Channel | None = None,
    author: Someone | None = None,
    limit: int = 20,
    offset: int = 0,
) -> list[Message]:
    """Live messages matching `query` (Slack's syntax: words and "phrases" that must all
    appear, at most 20, 500 characters; ``from:``, ``in:``, ``before:``, ``after:``,
    ``on:``, ``during:``, ``has:``) in conversations the actor can read, newest first.
    `channel` and `author` narrow it further; `offset` skips that many."""
    stmt, params = _search_of(s, actor, query, channel, author)
    return list(s.scalars(stmt, params | {"n": clamp(limit), "o": max(0, offset)}))


def count_matches(
    s: Session,
    actor: Person,
    *,
    query: str,
    channel: Channel | None = None,
    author: Someone | None = None,
) -> int:
    """How many messages `search_messages` finds in all (not one page: a real total)."""
    stmt, params = _search_of(s, actor, query, channel, author)
    counted = select(func.count()).select_from(
        stmt.limit(None).offset(None).order_by(None).options().subquery()
    )
    return int(s.scalar(counted, params) or 0)


def _search_of(
    s: Session, actor: Person, query: str, channel: Channel | None, author: Someone | None
) -> tuple[Select[Any], dict[str, Any]]:
    """The search statement of a query and its parameters (checks the query and access)."""
    parsed = parse(check_length(query, 500, "search query"))
    if parsed.is_empty():
        raise Invalid("search query is empty")
    if len(parsed.terms) > 20:
        raise Invalid("search query has more than 20 words; search with fewer")
    if channel is not None and not can_read(s, actor, channel):
        raise NotFound("no such channel", code="channel_not_found")
    authors = [_person_id(s, ref) for ref in parsed.authors]
    channels = [_channel_id(s, actor, ref) for ref in parsed.channels]
    sqlite = s.get_bind().dialect.name == "sqlite"
    stmt = _search(_shape_of(parsed, channel is not None, author is not None, sqlite))
    params: dict[str, Any] = {f"w{i}": _like_pattern(w) for i, w in enumerate(parsed.terms)}
    params |= {"p": actor.id, "c": channel.id if channel else None}
    params |= {"a": author.id if author else None, "as": authors, "cs": channels}
    params |= {"since": parsed.since, "until": parsed.until}
    return stmt, params


def _shape_of(parsed: SearchQuery, in_channel: bool, by_author: bool, sqlite: bool) -> _Shape:
    return _Shape(
        terms=len(parsed.terms),
        in_channel=in_channel,
        by_author=by_author,
        authors=len(parsed.authors),
        channels=len(parsed.channels),
        since=parsed.since is not None,
        until=parsed.until is not None,
        has=parsed.has,
        sqlite=sqlite,
    )


def _person_id(s: Session, ref: str) -> int:
    """A ``from:`` person: a handle, email or name (``@`` optional) or a Slack user id."""
    found = USER_REF_RE.match(ref)
    return profile(s, int(found.group(1))).id if found else find_person_id(s, ref)


def _channel_id(s: Session, actor: Person, ref: str) -> int:
    """An ``in:`` conversation: a channel the actor can read, or (``@handle``) their DM."""
    if not ref.startswith("@"):
        return get_channel(s, actor, ref).id
    other = profile(s, _person_id(s, ref))
    dm = find_dm(s, actor, [other]) if other.id != actor.id else None
    return dm.id if dm is not None else NOWHERE


@functools.cache
def _search(shape: _Shape) -> Select[Any]:
    """The statement of one search shape, built once."""
    stmt = select(Message).where(*_text_tests(shape), Message.is_deleted.is_(False))
    if shape.in_channel:
        stmt = stmt.where(Message.channel_id == bindparam("c"))
    if shape.channels:  # each was checked readable when resolved
        stmt = stmt.where(Message.channel_id.in_(bindparam("cs", expanding=True)))
    if not (shape.in_channel or shape.channels):
        mine = select(Membership.channel_id).where(Membership.person_id == bindparam("p"))
        readable = select(Channel.id).where(or_(Channel.kind == "public", Channel.id.in_(mine)))
        # `+ 0` keeps SQLite from collecting every readable message through the channel
        # index and sorting them; scanning newest-first stops at `limit` (2.5x faster).
        stmt = stmt.where((Message.channel_id + 0).in_(readable))
    stmt = _narrowed(stmt, shape)
    # Results name their channel: load it with the rows, not one by one.
    stmt = stmt.options(joinedload(Message.channel))
    return stmt.order_by(Message.id.desc()).limit(bindparam("n")).offset(bindparam("o"))


def _narrowed(stmt: Select[Any], shape: _Shape) -> Select[Any]:
    """`stmt` narrowed by author, dates and ``has:``."""
    if shape.by_author:
        stmt = stmt.where(Message.user_id == bindparam("a"))
    if shape.authors:
        stmt = stmt.where(Message.user_id.in_(bindparam("as", expanding=True)))
    if shape.since:
        stmt = stmt.where(Message.created_at >= bindparam("since"))
    if shape.until:
        stmt = stmt.where(Message.created_at < bindparam("until"))
    if "link" in shape.has:
        links = [Message.text.contains(p, autoescape=True) for p in ("http://", "https://")]
        stmt = stmt.where(or_(*links))
    if "pin" in shape.has:
        stmt = stmt.where(Message.id.in_(select(Pin.message_id)))
    if "reaction" in shape.has:
        stmt = stmt.where(Message.id.in_(select(Reaction.message_id)))
    return stmt


def _text_tests(shape: _Shape) -> list[Any]:
    """One LIKE per word or phrase (bound as ``w0``, ``w1``…)."""
    # SQLite's LIKE already ignores ASCII case; `ilike` would wrap every row in lower().
    return [
        Message.text.like(bindparam(f"w{i}"), escape="\\")
        if shape.sqlite
        else Message.text.ilike(bindparam(f"w{i}"), escape="\\")
        for i in range(shape.terms)
    ]


def _like_pattern(word: str) -> str:
    """A LIKE pattern matching `word` anywhere, with LIKE's wildcards escaped."""
    return "%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
