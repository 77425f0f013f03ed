"""chat.* through the real slack_sdk clients: Slack's markup in and out (a ``<@U…>``
mention is the same mention as ``@handle``, in the database and for graders),
reply_broadcast, posts made of blocks or attachments, permalinks, ephemeral messages,
and scheduled messages that post at their time on the simulated clock."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable

import pytest
from slack_sdk import WebClient
from slack_sdk.web.async_client import AsyncWebClient
from sqlalchemy import select

from officegym.apps.slack.models import Ephemeral, Mention, Message, ScheduledMessage
from officegym.tasks.statements import Says
from officegym.world import World
from tests.apps.slack.conftest import error_of, uid_of

ME, OTHER = "kturner", "mchang"


def stored(world: World, ts: str) -> Message:
    with world.session() as s:
        return s.get_one(Message, int(ts.split(".")[1]))


def test_markup_mentions_are_stored_as_handles_and_returned_as_markup(
    api_world: World, client_of: Callable[[str], WebClient]
) -> None:
    me, other = client_of(ME), uid_of(api_world, OTHER)
    text = f"Thanks <@{other}>! cc <!here>, see <#C0000001|general> &amp; 1 &lt; 2"
    posted = me.chat_postMessage(channel="general", text=text)
    row = stored(api_world, posted["ts"])
    assert row.text == f"Thanks @{OTHER}! cc @here, see #general & 1 < 2"
    assert posted["message"]["text"] == text
    with api_world.session() as s:
        mentioned = s.scalars(select(Mention.person_id).where(Mention.message_id == row.id)).all()
    assert [f"U{m:07d}" for m in mentioned] == [other]
    # the graders' reading of the text sees the mention as written with a handle
    assert Says(all_of=[[f"@{OTHER}"]]).judge(row.text)[0]


def test_a_mention_ending_a_sentence_is_a_mention(
    api_world: World, client_of: Callable[[str], WebClient]
) -> None:
    posted = client_of(ME).chat_postMessage(channel="general", text=f"Over to @{OTHER}.")
    with api_world.session() as s:
        rows = s.scalars(
            select(Mention).where(Mention.message_id == stored(api_world, posted["ts"]).id)
        )
        assert len(rows.all()) == 1
    assert posted["message"]["text"] == f"Over to <@{uid_of(api_world, OTHER)}>."


def test_an_escaped_mention_stays_literal_text(
    api_world: World, client_of: Callable[[str], WebClient]
) -> None:
    posted = client_of(ME).chat_postMessage(channel="general", text="type &lt;@U0000001&gt; here")
    assert stored(api_world, posted["ts"]).text == "type <@U0000001> here"


def test_a_broadcast_reply_is_in_the_thread_and_the_channel(
    client_of: Callable[[str], WebClient],
) -> None:
    me = client_of(ME)
    parent = me.chat_postMessage(channel="general", text="Broadcast parent")["ts"]
    quiet = me.chat_postMessage(channel="general", text="quiet reply", thread_ts=parent)
    loud = me.chat_postMessage(channel="general", text="loud reply", thread_ts=parent,
                               reply_broadcast=True)  # fmt: skip
    top = [m["text"] for m in me.conversations_history(channel="general", limit=3)["messages"]]
    assert top[:2] == ["loud reply", "Broadcast parent"] and "quiet reply" not in top
    assert loud["message"]["subtype"] == "thread_broadcast"
    thread = me.conversations_replies(channel="general", ts=parent)["messages"]
    assert [m["ts"] for m in thread] == [parent, quiet["ts"], loud["ts"]]


@pytest.mark.filterwarnings("ignore:The top-level `text` argument is missing")
def test_blocks_or_attachments_without_text_give_the_text(
    api_world: World, client_of: Callable[[str], WebClient]
) -> None:
    me = client_of(ME)
    blocks = [
        {"type": "header", "text": {"type": "plain_text", "text": "Deploy done"}},
        {"type": "section", "fields": [{"type": "mrkdwn", "text": "*Service* api"}]},
    ]
    posted = me.chat_postMessage(channel="general", blocks=blocks)
    assert stored(api_world, posted["ts"]).text == "Deploy done\n*Service* api"
    attached = me.chat_postMessage(channel="general", attachments=[{"fallback": "Build #12 green"}])
    assert stored(api_world, attached["ts"]).text == "Build #12 green"
    assert error_of(lambda: me.chat_postMessage(channel="general", blocks=[])) == "no_text"


def test_permalinks_open_the_messages_page(
    client_of: Callable[[str], WebClient], api_url: str
) -> None:
    me = client_of(ME)
    ts = me.chat_postMessage(channel="general", text="link me")["ts"]
    link = me.chat_getPermalink(channel="general", message_ts=ts)["permalink"]
    row_id = int(ts.split(".")[1])
    assert link == f"{api_url.removesuffix('/api/')}/slack/m/{row_id}#msg-{row_id}"


def test_an_ephemeral_message_reaches_only_its_member(
    api_world: World, client_of: Callable[[str], WebClient]
) -> None:
    me = client_of(ME)
    assert me.chat_postEphemeral(channel="general", user=uid_of(api_world, OTHER), text="psst")[
        "ok"
    ]
    with api_world.session() as s:
        row = s.scalars(select(Ephemeral).where(Ephemeral.text == "psst")).one()
    assert f"U{row.recipient_id:07d}" == uid_of(api_world, OTHER)
    history = me.conversations_history(channel="general", limit=5)["messages"]
    assert "psst" not in [m["text"] for m in history]
    members = set(me.conversations_members(channel="hiring-committee")["members"])
    outsider = next(f"U{i:07d}" for i in range(1, 60) if f"U{i:07d}" not in members)
    shown = lambda: me.chat_postEphemeral(  # noqa: E731
        channel="hiring-committee", user=outsider, text="x"
    )
    assert error_of(shown) == "user_not_in_channel"


def test_a_scheduled_message_posts_at_its_time_on_the_simulated_clock(
    api_world: World, client_of: Callable[[str], WebClient]
) -> None:
    me = client_of(ME)
    now = api_world.clock.peek().replace(tzinfo=dt.UTC)
    post_at = int(now.timestamp()) + 30
    made = me.chat_scheduleMessage(channel="general", text="Standup in 5", post_at=post_at)
    listed = me.chat_scheduledMessages_list()["scheduled_messages"]
    assert [(m["id"], m["post_at"]) for m in listed] == [(made["scheduled_message_id"], post_at)]
    assert "Standup in 5" not in [
        m["text"] for m in me.conversations_history(channel="general")["messages"]
    ]
    api_world.clock.set(api_world.clock.peek() + dt.timedelta(seconds=60))
    newest = me.conversations_history(channel="general", limit=50)["messages"]
    posted = next(m for m in newest if m["text"] == "Standup in 5")
    assert int(posted["ts"].split(".")[0]) == post_at
    assert me.chat_scheduledMessages_list()["scheduled_messages"] == []
    with api_world.session() as s:
        row = s.scalars(
            select(ScheduledMessage).where(ScheduledMessage.text == "Standup in 5")
        ).one()
        assert row.message_id == int(posted["ts"].split(".")[1])


def test_a_scheduled_message_can_be_cancelled_and_past_times_are_refused(
    api_world: World, client_of: Callable[[str], WebClient]
) -> None:
    me = client_of(ME)
    now = int(api_world.clock.peek().replace(tzinfo=dt.UTC).timestamp())
    made = me.chat_scheduleMessage(channel="general", text="never", post_at=now + 3600)
    cancel = me.chat_deleteScheduledMessage(
        channel="general", scheduled_message_id=made["scheduled_message_id"]
    )
    assert cancel["ok"] and me.chat_scheduledMessages_list()["scheduled_messages"] == []
    late = lambda: me.chat_scheduleMessage(channel="general", text="x", post_at=now - 10)  # noqa: E731
    assert error_of(late) == "time_in_past"
    again = lambda: me.chat_deleteScheduledMessage(  # noqa: E731
        channel="general", scheduled_message_id=made["scheduled_message_id"]
    )
    assert error_of(again) == "invalid_scheduled_message_id"


def test_the_async_client_posts_and_pages_the_same_way(api_url: str) -> None:
    async def go() -> tuple[list[str], str]:
        client = AsyncWebClient(token=f"xoxp-{ME}", base_url=api_url)
        posted = await client.chat_postMessage(channel="general", text="async hello")
        pages = []
        async for page in await client.conversations_list(limit=5, types="public_channel"):
            pages.append([c["name"] for c in page["channels"]])
            if len(pages) == 3:
                break
        return [n for p in pages for n in p], posted["message"]["text"]

    names, text = asyncio.run(go())
    assert text == "async hello"
    assert len(names) == 15 and len(set(names)) == 15 and names == sorted(names)
