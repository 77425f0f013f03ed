"""Per-session memo of look-ups by natural key (a channel's name, a membership's pair)
to primary keys, so repeated look-ups skip SQL and hit the identity map.

Only sessions that opt in with `enable(session)` memoize: `ToolRunner` does, because
it owns its world for its lifetime (nobody else writes meanwhile), so the memo can
outlive commits. It stays exact for the session's own writes: a kind is dropped
whenever the session flushes a new, changed or deleted row of a model it watches,
and everything is dropped on rollback. Other sessions (web requests, tests) just run
the look-up.

Every session also notes whether its open transaction wrote rows through these hooks
(`wrote`): a cache shared between sessions (`apps/sheets/shelf.py`) trusts only what a
session reads before it writes anything of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session, UOWTransaction

__all__ = ["changed", "enable", "forget", "recall", "watch", "wrote"]

_INFO_KEY = "memo"
_WROTE = "og_wrote"  # session.info: the open transaction wrote rows
_WATCHED: dict[type, set[str]] = {}  # model class -> memo kinds that depend on it
_MISSING = object()


def watch(kind: str, *models: type) -> None:
    """Declare that memo `kind` is stale once rows of `models` are added, changed or deleted."""
    for model in models:
        _WATCHED.setdefault(model, set()).add(kind)


def enable(s: Session) -> None:
    """Let `s` memoize look-ups (only for sessions whose world nobody else writes)."""
    s.info.setdefault(_INFO_KEY, {})


def recall(s: Session, kind: str, key: Any, load: Callable[[], Any]) -> Any:
    """The memoized value of `key` (e.g. a primary key or None), else `load()` remembered."""
    memos = s.info.get(_INFO_KEY)
    if memos is None:
        return load()
    memo = memos.setdefault(kind, {})
    value = memo.get(key, _MISSING)
    if value is _MISSING:
        value = memo[key] = load()
    return value


def forget(s: Session, kind: str | None = None) -> None:
    """Drop one kind of memo, or all of them."""
    memos = s.info.get(_INFO_KEY)
    if memos:
        if kind is None:
            memos.clear()
        else:
            memos.pop(kind, None)


def wrote(s: Session) -> bool:
    """Whether the session's open transaction has written rows (through `officegym.writes`,
    an app's bulk writes that report to `changed`, or an ORM flush)."""
    return _WROTE in s.info


def changed(s: Session, model: type) -> None:
    """Rows of `model` were written: drop the kinds of memo that depend on them."""
    s.info[_WROTE] = True
    if s.info.get(_INFO_KEY):
        for kind in _WATCHED.get(model, ()):
            forget(s, kind)


@event.listens_for(Session, "after_flush")
def _after_flush(s: Session, _flush: UOWTransaction) -> None:
    if s.new or s.dirty or s.deleted:
        s.info[_WROTE] = True
    if not s.info.get(_INFO_KEY):
        return
    for instance in (*s.new, *s.dirty, *s.deleted):
        changed(s, type(instance))


@event.listens_for(Session, "after_commit")
def _after_commit(s: Session) -> None:
    s.info.pop(_WROTE, None)


@event.listens_for(Session, "after_soft_rollback")
def _after_rollback(s: Session, previous: Any) -> None:
    forget(s)
    if previous.parent is None:  # the whole transaction (not a savepoint) was rolled back
        s.info.pop(_WROTE, None)
