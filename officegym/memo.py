"""Per-session memo of look-ups by natural key (a channel's name, a membership's pair)
to primary keys, so repeated look-ups skip SQL and hit the identity map.

Only sessions that opt in with `enable(session)` memoize: `ToolRunner` does, because
it owns its world for its lifetime (nobody else writes meanwhile), so the memo can
outlive commits. It stays exact for the session's own writes: a kind is dropped
whenever the session flushes a new, changed or deleted row of a model it watches,
and everything is dropped on rollback. Other sessions (web requests, tests) just run
the look-up.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session, UOWTransaction

__all__ = ["changed", "enable", "forget", "recall", "watch"]

_INFO_KEY = "memo"
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


def changed(s: Session, model: type) -> None:
    """Rows of `model` were written: drop the kinds of memo that depend on them."""
    if s.info.get(_INFO_KEY):
        for kind in _WATCHED.get(model, ()):
            forget(s, kind)


@event.listens_for(Session, "after_flush")
def _after_flush(s: Session, _flush: UOWTransaction) -> None:
    if not s.info.get(_INFO_KEY):
        return
    for instance in (*s.new, *s.dirty, *s.deleted):
        changed(s, type(instance))


@event.listens_for(Session, "after_soft_rollback")
def _after_rollback(s: Session, _previous: Any) -> None:
    forget(s)
