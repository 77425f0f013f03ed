"""Slack's search syntax in the chat service and through the search tool: each modifier
narrows what is found, modifiers mix with words and phrases, unknown ``name:value`` text is
searched as a word, and a bad date is a clear error."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.org import service as org
from officegym.apps.org.models import Person
from officegym.apps.slack import service as chat
from officegym.apps.slack.models import Message
from officegym.apps.slack.search_syntax import parse
from officegym.errors import Invalid, NotFound
from officegym.runner import ToolRunner
from officegym.world import World

WORD = "wombatquill"


@pytest.fixture
def s(world: World) -> Iterator[Session]:
    with world.session() as session:
        yield session


def post(s: Session, who: str, where: str, text: str, day: str) -> Message:
    """A message by `who` in `where` (a channel, or '@handle' for a DM) dated `day` 10:00."""
    actor = org.find_person(s, who)
    if where.startswith("@"):
        channel = chat.open_dm(s, actor, [org.find_person(s, where)])
    else:
        channel = chat.get_channel(s, actor, where)
        if not chat.is_member(s, actor, channel):
            chat.join_channel(s, actor, channel)
    msg = chat.post_message(s, actor, channel, text)
    msg.created_at = dt.datetime.fromisoformat(f"{day} 10:00")
    s.flush()
    return msg


@pytest.fixture
def posts(s: Session) -> dict[str, Message]:
    """Five messages with the same rare word, by two people, in three places, on four days."""
    return {
        "a": post(s, "kturner", "general", f"{WORD} budget review", "2026-03-02"),
        "b": post(s, "mchang", "general", f"{WORD} budget is final", "2026-03-09"),
        "c": post(s, "kturner", "engineering", f"{WORD} see https://wiki.example/b", "2026-03-10"),
        "d": post(s, "mchang", "@kturner", f"{WORD} final budget numbers", "2026-03-11"),
        "e": post(s, "kturner", "general", f"{WORD} april plans", "2026-04-01"),
    }


def found(s: Session, posts: dict[str, Message], query: str, who: str = "kturner") -> set[str]:
    """The keys of `posts` that `who`'s search for `query` finds."""
    hits = {m.id for m in chat.search_messages(s, org.find_person(s, who), query=query, limit=200)}
    return {key for key, m in posts.items() if m.id in hits}


def test_plain_words_still_all_have_to_appear(s: Session, posts: dict[str, Message]) -> None:
    assert found(s, posts, WORD) == set("abcde")
    assert found(s, posts, f"budget {WORD}") == set("abd")


@pytest.mark.parametrize(
    ("query", "keys"),
    [
        (f"from:@kturner {WORD}", "ace"),
        (f"from:mchang {WORD}", "bd"),
        (f"from:@kturner from:@mchang {WORD}", "abcde"),
        (f"{WORD} in:#general", "abe"),
        (f"{WORD} in:engineering", "c"),
        (f"{WORD} in:@mchang", "d"),
        (f"{WORD} before:2026-03-09", "a"),
        (f"{WORD} after:2026-03-09", "cde"),
        (f"{WORD} on:2026-03-09", "b"),
        (f"{WORD} after:2026-03-01 before:2026-03-11", "abc"),
        (f"{WORD} during:2026-04", "e"),
        (f"{WORD} during:2026", "abcde"),
        (f"{WORD} has:link", "c"),
        (f'"budget is" {WORD}', "b"),
        (f'"final budget" {WORD}', "d"),
        (f"from:@mchang in:#general budget {WORD}", "b"),
        (f'{WORD} "budget" before:2026-03-10 from:@kturner', "a"),
    ],
)
def test_each_modifier_narrows_the_search(
    s: Session, posts: dict[str, Message], query: str, keys: str
) -> None:
    assert found(s, posts, query) == set(keys)


def test_pins_and_reactions_are_searchable(s: Session, posts: dict[str, Message]) -> None:
    me = org.find_person(s, "kturner")
    chat.pin_message(s, me, posts["a"])
    chat.add_reaction(s, me, posts["b"], "tada")
    assert found(s, posts, f"{WORD} has:pin") == {"a"}
    assert found(s, posts, f"{WORD} has:reaction") == {"b"}


def test_modifiers_alone_are_a_query(s: Session, posts: dict[str, Message]) -> None:
    assert found(s, posts, "in:@mchang on:2026-03-11") == {"d"}


def test_a_dm_is_found_only_by_its_members(s: Session, posts: dict[str, Message]) -> None:
    handles = s.scalars(select(Person.handle).order_by(Person.id))
    third = next(h for h in handles if h not in {"kturner", "mchang"})
    assert found(s, posts, WORD, who=third) == set("abce")
    assert found(s, posts, f"{WORD} in:@mchang", who=third) == set()


def test_unknown_modifiers_are_searched_as_words(s: Session, posts: dict[str, Message]) -> None:
    extra = post(s, "kturner", "general", f"{WORD} ticket status:blocked", "2026-03-12")
    hits = chat.search_messages(s, org.find_person(s, "kturner"), query=f"{WORD} status:blocked")
    assert [m.id for m in hits] == [extra.id]
    assert parse("has:coffee x").terms == ("has:coffee", "x")


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("budget before:2026-13-01", "before:2026-13-01 is not a date"),
        ("budget on:yesterday", "on:yesterday is not a date"),
        ("budget during:2026-00", "during:2026-00 is not a month"),
    ],
)
def test_a_bad_date_is_a_clear_error(s: Session, query: str, message: str) -> None:
    with pytest.raises(Invalid, match=message):
        chat.search_messages(s, org.find_person(s, "kturner"), query=query)


def test_unknown_people_and_channels_are_not_found(s: Session) -> None:
    me = org.find_person(s, "kturner")
    with pytest.raises(NotFound):
        chat.search_messages(s, me, query="budget from:@nobody-here")
    with pytest.raises(NotFound):
        chat.search_messages(s, me, query="budget in:#no-such-channel")


def test_the_search_tool_reads_the_syntax(world: World) -> None:
    with world.session() as s:
        posts_ = {
            "a": post(s, "kturner", "general", f"{WORD} budget review", "2026-03-02"),
            "b": post(s, "mchang", "general", f"{WORD} budget is final", "2026-03-09"),
        }
        s.commit()
        ids = {key: m.id for key, m in posts_.items()}
    runner = ToolRunner(world, "kturner")
    try:
        out = runner.call("slack_search_messages", {"query": f'from:@mchang "{WORD} budget"'})
        bad = runner.call("slack_search_messages", {"query": f"{WORD} after:March"})
    finally:
        runner.close()
    assert [m["message_id"] for m in out.result] == [ids["b"]]
    assert (bad.ok, "after:March is not a date" in (bad.error or "")) == (False, True)
