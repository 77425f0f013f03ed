"""Access rules of the chat hold through the tool interface, with clear errors."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from officegym.apps.org.models import Person
from officegym.apps.slack.models import Message
from officegym.runner import CallOutcome, ToolRunner
from officegym.world import World
from tests.channels import member_of, outsider_of


def act(world: World, who: str, tool: str, **args: object) -> CallOutcome:
    runner = ToolRunner(world, who)
    try:
        return runner.call(tool, args)
    finally:
        runner.close()


def test_private_channel_is_invisible_to_non_members(world: World) -> None:
    stranger = outsider_of(world, "leadership")
    for tool in ("slack_read_channel", "slack_get_channel_info", "slack_list_pins"):
        out = act(world, stranger, tool, channel="leadership")
        assert (out.ok, out.code) == (False, "channel_not_found")
    listed = act(world, stranger, "slack_list_channels").result
    assert "leadership" not in {c["name"] for c in listed}
    found = act(world, stranger, "slack_search_messages", query="the", channel=None, limit=100)
    assert all(m["where"] != "#leadership" for m in found.result)


def test_posting_needs_membership_even_in_public_channels(world: World) -> None:
    stranger = outsider_of(world, "proj-apollo")
    out = act(world, stranger, "slack_post_message", channel="proj-apollo", text="hi")
    assert (out.ok, out.code) == (False, "not_in_channel")
    assert "join" in out.error
    assert act(world, stranger, "slack_join_channel", channel="proj-apollo").ok
    assert act(world, stranger, "slack_post_message", channel="proj-apollo", text="hi").ok


def test_only_the_author_edits_or_deletes(world: World) -> None:
    author = member_of(world, "general")
    other = next(
        h for h in (member_of(world, "random"), outsider_of(world, "leadership")) if h != author
    )
    mid = act(world, author, "slack_post_message", channel="general", text="original").result[
        "message_id"
    ]
    for tool, extra in (("slack_edit_message", {"text": "hacked"}), ("slack_delete_message", {})):
        out = act(world, other, tool, message_id=mid, **extra)
        assert not out.ok and out.code in ("cant_update_message", "cant_delete_message")
    with world.session() as s:
        msg = s.get(Message, mid)
        assert (msg.text, msg.is_deleted) == ("original", False)
    assert act(world, author, "slack_delete_message", message_id=mid).ok
    with world.session() as s:
        assert s.get(Message, mid).is_deleted  # the row stays for graders
    out = act(world, author, "slack_read_thread", message_id=mid)
    assert out.code == "message_not_found"


def test_archived_channels_are_read_only(world: World) -> None:
    member = member_of(world, "help-it")
    assert act(world, member, "slack_archive_channel", channel="help-it").ok
    out = act(world, member, "slack_post_message", channel="help-it", text="anyone?")
    assert (out.ok, out.code) == (False, "is_archived")
    assert act(world, member, "slack_read_channel", channel="help-it").ok


def test_direct_messages_are_private_to_their_members(world: World) -> None:
    a, b = member_of(world, "general"), outsider_of(world, "leadership")
    assert act(world, a, "slack_send_dm", people=[b], text="secret plan").ok
    third = next(
        h
        for h in (member_of(world, "random"), outsider_of(world, "proj-apollo"))
        if h not in (a, b)
    )
    hits = act(world, third, "slack_search_messages", query="secret plan").result
    assert hits == []
    seen = act(world, b, "slack_read_dm", people=[a]).result["messages"]
    assert seen[0]["text"] == "secret plan"


def test_mentions_are_recorded_and_bad_input_is_refused(world: World) -> None:
    a = member_of(world, "general")
    b = outsider_of(world, "leadership")
    out = act(world, a, "slack_post_message", channel="general", text=f"ping @{b}")
    assert out.ok
    with world.session() as s:
        from officegym.apps.slack.models import Mention

        mentioned = s.scalars(
            select(Mention.person_id).where(Mention.message_id == out.result["message_id"])
        ).all()
        assert mentioned == [s.scalars(select(Person.id).where(Person.handle == b)).one()]
    assert act(world, a, "slack_post_message", channel="general", text="   ").code == "no_text"
    assert act(world, a, "slack_create_channel", name="Bad Name").code == "invalid_name"
    assert act(world, a, "slack_create_channel", name="general").code == "name_taken"


@pytest.mark.parametrize("tool", ["slack_list_dms", "slack_list_channels", "slack_list_people"])
def test_listing_tools_work_without_arguments(world: World, tool: str) -> None:
    out = act(world, member_of(world, "general"), tool)
    assert out.ok and isinstance(out.result, list) and out.result


def test_a_deleted_thread_parent_shows_its_place_not_its_words(world: World) -> None:
    author = member_of(world, "general")
    parent = act(world, author, "slack_post_message", channel="general", text="secret plan")
    reply = act(
        world, author, "slack_reply_in_thread", message_id=parent.result["message_id"], text="ok"
    )
    assert act(world, author, "slack_delete_message", message_id=parent.result["message_id"]).ok
    thread = act(world, author, "slack_read_thread", message_id=reply.result["message_id"])
    assert thread.ok, thread.error
    shown = thread.result["parent"]
    assert shown["deleted"] is True and "secret plan" not in str(thread.result)
    assert [r["text"] for r in thread.result["replies"]] == ["ok"]
