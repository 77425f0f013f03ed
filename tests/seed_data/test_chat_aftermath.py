"""The chat's aftermath: an archived channel, edited and deleted posts — present in the
default world, read-only or hidden as the rules say, and never in the CRM's channels."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import func, select

from officegym.apps.org.models import Person
from officegym.apps.slack.models import Channel, Message
from officegym.errors import ConfigError
from officegym.runner import ToolRunner
from officegym.seed_data import build_image
from officegym.seed_data.chat_aftermath import kept_channels
from officegym.seed_data.scenario import load_scenario
from officegym.world import World

GOOD = (Path(__file__).parents[2] / "seed_data" / "scenarios" / "default.toml").read_text()


def test_the_default_world_has_edited_deleted_and_archived_chat(world: World) -> None:
    params = load_scenario("default").slack
    with world.session() as s:
        edited = s.scalars(select(Message).where(Message.edited_at.is_not(None))).all()
        deleted = s.scalar(select(func.count()).where(Message.is_deleted.is_(True)))
        archived = s.scalars(select(Channel.name).where(Channel.is_archived.is_(True))).all()
        places = {m.channel.name for m in edited}
    assert archived == params.archived
    assert len(edited) >= 10 and deleted >= 10
    assert all("(edit:" in m.text and m.edited_at > m.created_at for m in edited)
    assert not places & set(kept_channels(load_scenario("default")))
    assert kept_channels(load_scenario("default")) == ("sales", "customer-support")


def test_an_archived_channel_reads_but_refuses_posts(world: World) -> None:
    with world.session() as s:
        channel = s.scalars(select(Channel).where(Channel.is_archived.is_(True))).first()
        member = s.get_one(Person, channel.created_by_id).handle
    runner = ToolRunner(world, member)
    try:
        assert runner.call("slack_read_channel", {"channel": channel.name}).ok
        post = runner.call("slack_post_message", {"channel": channel.name, "text": "hello?"})
        assert not post.ok and post.code == "is_archived"
    finally:
        runner.close()


def test_a_deleted_post_is_hidden_from_search(world: World) -> None:
    with world.session() as s:
        gone = s.scalars(select(Message).where(Message.is_deleted.is_(True))).first()
        words = " ".join(gone.text.split()[:4])
        author = s.get_one(Person, gone.user_id).handle
    runner = ToolRunner(world, author)
    try:
        found = runner.call("slack_search_messages", {"query": words, "limit": 50})
        assert found.ok and gone.id not in {m["message_id"] for m in found.result}
    finally:
        runner.close()


def test_archiving_a_channel_the_world_lacks_names_the_file_and_field(tmp_path: Path) -> None:
    small = GOOD.replace("people = 60", "people = 12").replace("messages = 3500", "messages = 120")
    small = small.replace('archived = ["proj-fjord"]', 'archived = ["proj-nowhere"]')
    for key in ("accounts", "contacts", "leads", "opportunities", "activities", "cases"):
        small = small.replace(f"\n{key} = ", f"\n{key} = 0 #")
    path = tmp_path / "small.toml"
    path.write_text(small)
    with pytest.raises(ConfigError) as err:
        build_image(str(path), 0)
    assert (err.value.file, err.value.field) == (str(path), "slack.archived")
    assert "proj-nowhere" in err.value.reason
