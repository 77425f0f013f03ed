"""The conversations.* methods a bot uses every day, through the real slack_sdk client:
opening DMs, joining, leaving, renaming, kicking, unarchiving, topics and purposes,
read markers, and the caller's own conversations, with Slack's errors."""

from __future__ import annotations

from collections.abc import Callable

from slack_sdk import WebClient
from sqlalchemy import select

from officegym.apps.slack.models import Channel, Membership
from officegym.world import World
from tests.apps.slack.conftest import error_of, uid_of

ME, OTHER = "kturner", "mchang"


def test_conversations_open_finds_or_opens_one_dm(
    api_world: World, client_of: Callable[[str], WebClient]
) -> None:
    me, other = client_of(ME), uid_of(api_world, "rgreen")
    first = me.conversations_open(users=other)
    again = client_of("rgreen").conversations_open(users=uid_of(api_world, ME), return_im=True)
    assert first["channel"]["id"] == again["channel"]["id"] and again.get("already_open")
    assert again["channel"]["is_im"] and again["channel"]["user"] == uid_of(api_world, ME)
    group = me.conversations_open(users=f"{other},{uid_of(api_world, OTHER)}")["channel"]
    assert group["id"].startswith("G") and group["is_mpim"]
    assert error_of(lambda: me.conversations_open(users="nobody")) == "user_not_found"


def test_join_leave_and_the_callers_conversations(
    api_world: World, client_of: Callable[[str], WebClient]
) -> None:
    me = client_of(ME)
    mine = lambda: {  # noqa: E731
        c["name"]
        for page in me.users_conversations(types="public_channel,private_channel", limit=4)
        for c in page["channels"]
    }
    assert "sales" not in mine() and "hiring-committee" in mine()
    joined = me.conversations_join(channel="sales")
    assert joined["channel"]["is_member"] and "warning" not in joined
    assert me.conversations_join(channel="sales")["warning"] == "already_in_channel"
    assert "sales" in mine()
    assert me.conversations_leave(channel="sales")["ok"] and "sales" not in mine()
    assert me.conversations_leave(channel="sales")["not_in_channel"]
    assert error_of(lambda: me.conversations_leave(channel="general")) == "cant_leave_general"
    assert error_of(lambda: me.conversations_join(channel="leadership")) == "channel_not_found"


def test_topics_purposes_and_renames_with_slacks_rules(
    api_world: World, client_of: Callable[[str], WebClient]
) -> None:
    me, other = client_of(ME), client_of(OTHER)
    cid = me.conversations_create(name="conv-rules")["channel"]["id"]
    me.conversations_invite(channel=cid, users=uid_of(api_world, OTHER))
    assert me.conversations_setTopic(channel=cid, topic="Q3 plans")["channel"]["topic"][
        "value"
    ] == ("Q3 plans")
    assert (
        me.conversations_setPurpose(channel=cid, purpose="Plan Q3")["channel"]["purpose"]["value"]
        == "Plan Q3"
    )
    assert error_of(lambda: me.conversations_setTopic(channel=cid, topic="x" * 251)) == "too_long"
    assert (
        error_of(lambda: other.conversations_rename(channel=cid, name="mine")) == "not_authorized"
    )
    assert me.conversations_rename(channel=cid, name="conv-renamed")["channel"]["name"] == (
        "conv-renamed"
    )
    assert error_of(lambda: me.conversations_rename(channel=cid, name="general")) == "name_taken"
    assert error_of(lambda: me.conversations_rename(channel=cid, name="Bad!")) == (
        "invalid_name_specials"
    )
    with api_world.session() as s:
        row = s.get_one(Channel, int(cid[1:]))
        assert (row.name, row.topic, row.purpose) == ("conv-renamed", "Q3 plans", "Plan Q3")


def test_kick_and_unarchive(api_world: World, client_of: Callable[[str], WebClient]) -> None:
    me = client_of(ME)
    cid = me.conversations_create(name="conv-kick")["channel"]["id"]
    other = uid_of(api_world, OTHER)
    me.conversations_invite(channel=cid, users=other)
    assert me.conversations_kick(channel=cid, user=other)["ok"]
    assert other not in me.conversations_members(channel=cid)["members"]
    assert error_of(lambda: me.conversations_kick(channel=cid, user=other)) == "not_in_channel"
    assert error_of(lambda: me.conversations_kick(channel=cid, user=uid_of(api_world, ME))) == (
        "cant_kick_self"
    )
    me.conversations_archive(channel=cid)
    assert me.conversations_unarchive(channel=cid)["ok"]
    assert error_of(lambda: me.conversations_unarchive(channel=cid)) == "not_archived"
    assert me.chat_postMessage(channel=cid, text="back again")["ok"]


def test_mark_moves_the_read_marker(
    api_world: World, client_of: Callable[[str], WebClient]
) -> None:
    me = client_of(ME)
    ts = me.chat_postMessage(channel="general", text="mark me")["ts"]
    assert me.conversations_mark(channel="general", ts=ts)["ok"]
    with api_world.session() as s:
        marker = s.scalars(
            select(Membership.last_read_id).where(
                Membership.channel_id == 1, Membership.person_id == int(uid_of(api_world, ME)[1:])
            )
        ).one()
    assert marker == int(ts.split(".")[1])
    assert error_of(lambda: me.conversations_mark(channel="general", ts="1.000001")) == (
        "invalid_timestamp"
    )
