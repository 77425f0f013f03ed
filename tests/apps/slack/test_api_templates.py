"""Every chat template can be finished through the Slack Web API alone: each template's
reference solution is played through the real slack_sdk client instead of the tools
(each tool call translated to the API calls a bot would make, mentions written as Slack
writes them, ``<@U…>``), answers are read from the API's answers, and the grade is 1.0.

`FINISHED_BY` lists, as data, the API methods that finish each of the 21 templates.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from slack_sdk import WebClient
from sqlalchemy import select

from officegym.apps.org.models import Person
from officegym.apps.slack.models import Channel, Message
from officegym.tasks import load_templates, make_task
from officegym.tasks.base import Task
from officegym.tasks.grading import grade
from officegym.tasks.slack.lookup import FACTS
from officegym.tools import ToolCall
from officegym.web import create_app
from officegym.world import World, world_image
from tests.apps.slack.conftest import serving

FINISHED_BY: dict[str, set[str]] = {
    "slack.count-members": {"conversations.info", "conversations.members"},
    "slack.create-channel": {"conversations.list", "conversations.create",
                             "conversations.setTopic"},
    "slack.delete-own-message": {"search.messages", "chat.delete"},
    "slack.dm-by-name": {"users.list", "conversations.open", "chat.postMessage"},
    "slack.edit-own-message": {"search.messages", "chat.update"},
    "slack.invite-team": {"users.list", "conversations.info", "conversations.members",
                          "conversations.invite", "chat.postMessage"},
    "slack.join-and-post": {"conversations.info", "conversations.members",
                            "conversations.join", "chat.postMessage"},
    "slack.latest-update": {"search.messages"},
    "slack.lookup-manager": {"users.list", "users.info"},
    "slack.no-access-request": {"conversations.list", "users.list", "conversations.open",
                                "chat.postMessage"},
    "slack.onboard-new-hire": {"users.list", "users.info", "conversations.list",
                               "conversations.create", "conversations.setTopic",
                               "conversations.invite", "chat.postMessage", "pins.add",
                               "pins.list", "conversations.open"},
    "slack.pin-message": {"search.messages", "pins.add"},
    "slack.post-channel": {"chat.postMessage"},
    "slack.private-churn-request": {"conversations.history", "users.list",
                                    "conversations.open", "chat.postMessage"},
    "slack.private-deck-progress-request": {"conversations.history", "users.list",
                                            "conversations.open", "chat.postMessage"},
    "slack.private-due-day-request": {"conversations.history", "users.list",
                                      "conversations.open", "chat.postMessage"},
    "slack.private-hiring-request": {"conversations.history", "users.list",
                                     "conversations.open", "chat.postMessage"},
    "slack.react-message": {"conversations.history", "search.messages", "reactions.add"},
    "slack.reply-thread": {"search.messages", "chat.postMessage"},
    "slack.set-status": {"users.profile.set"},
    "slack.triage-help-requests": {"conversations.history", "conversations.replies",
                                   "chat.postMessage", "reactions.add"},
}  # fmt: skip
# Ask-the-requester templates need the simulated requester of the envs and of validate
# (officegym.tasks.responders); a bot on the Web API talks to real people, so they are not here.
CHAT_TEMPLATES = sorted(
    t for t in load_templates() if t.startswith("slack.") and make_task(t, 0).hidden is None
)


def test_the_list_covers_every_chat_template() -> None:
    assert sorted(FINISHED_BY) == CHAT_TEMPLATES and len(CHAT_TEMPLATES) == 21


class Bot:
    """Plays tool calls as Slack API calls, as a person's slack_sdk client; records the
    methods it called and what answers a question."""

    def __init__(self, client: WebClient, world: World) -> None:
        self.client, self.world = client, world
        self.used: set[str] = set()
        self.answer: str | None = None
        self.counts: list[int] = []
        self.managers: list[str] = []
        client.api_call = self._counting(client.api_call)  # type: ignore[method-assign]

    def _counting(self, call: Callable[..., Any]) -> Callable[..., Any]:
        def counted(api_method: str, **kwargs: Any) -> Any:
            self.used.add(api_method)
            return call(api_method, **kwargs)

        return counted

    # -- ids a bot learns from earlier answers (the harness looks them up directly)

    def uid(self, ref: str) -> str:
        """A person's user id from their handle, email or name, through users.list."""
        for page in self.client.users_list(limit=200):
            for u in page["members"]:
                names = (u["name"], u["real_name"], u["profile"]["email"], "@" + u["name"])
                if ref in names:
                    return u["id"]
        raise LookupError(ref)

    def where(self, message_id: int) -> tuple[str, str]:
        with self.world.session() as s:
            msg = s.get_one(Message, message_id)
            return msg.channel.slack_id, msg.ts

    def markup(self, text: str) -> str:
        """Text as a bot writes it: people as <@U…>, channels as <#C…|name>."""
        with self.world.session() as s:
            handles = dict(s.execute(select(Person.handle, Person.id)).all())
            channels = {
                n: (k, i) for n, k, i in s.execute(select(Channel.name, Channel.kind, Channel.id))
            }

        def person(m: re.Match[str]) -> str:
            pid = handles.get(m.group(1).rstrip("."))
            return (
                m.group(0)
                if pid is None
                else f"<@U{pid:07d}>" + m.group(1)[len(m.group(1).rstrip(".")) :]
            )

        def channel(m: re.Match[str]) -> str:
            found = channels.get(m.group(1))
            if found is None:
                return m.group(0)
            kind, cid = found
            return f"<#{'C' if kind == 'public' else 'G'}{cid:07d}|{m.group(1)}>"

        text = re.sub(r"@([a-z0-9]+)", person, text)
        return re.sub(r"#([a-z0-9][a-z0-9_-]*)", channel, text)

    # -- the tools, translated

    def play(self, call: ToolCall) -> None:
        getattr(self, call.name.removeprefix("slack_"))(**call.arguments)

    def list_channels(self, query: str | None = None, **_: Any) -> None:
        self.client.conversations_list(types="public_channel,private_channel", limit=1000)

    def get_channel_info(self, channel: str) -> None:
        info = self.client.conversations_info(channel=channel)["channel"]
        members = [
            m for p in self.client.conversations_members(channel=info["id"]) for m in p["members"]
        ]
        self.counts.append(len(members))  # one channel's count, or how many more than another
        self.answer = str(self.counts[0] - sum(self.counts[1:]))

    def read_channel(self, channel: str, limit: int = 20, **_: Any) -> None:
        self.client.conversations_history(channel=channel, limit=limit)

    def read_thread(self, message_id: int) -> None:
        cid, ts = self.where(message_id)
        self.client.conversations_replies(channel=cid, ts=ts)

    def search_messages(self, query: str, channel: str | None = None,
                        author: str | None = None, limit: int = 20) -> None:  # fmt: skip
        q = query + (f" in:#{channel}" if channel else "") + (f" from:@{author}" if author else "")
        found = self.client.search_messages(query=q, count=min(limit, 100))["messages"]["matches"]
        for pattern, _ in FACTS:  # a question about the latest statement of a fact
            values = [m.group(2) for r in found if (m := pattern.search(r["text"]))]
            if values:
                self.answer = values[0]

    def list_pins(self, channel: str) -> None:
        self.client.pins_list(channel=channel)

    def list_people(self, query: str | None = None, team: str | None = None, **_: Any) -> None:
        self.client.users_list(limit=200)

    def get_person(self, person: str) -> None:
        user = self.client.users_info(user=self.uid(person))["user"]
        manager = user["profile"]["fields"].get("Xf00MANAGR")
        if manager:  # one colleague's manager, or two colleagues' managers
            self.managers.append(self.client.users_info(user=manager["value"])["user"]["real_name"])
            self.answer = " and ".join(dict.fromkeys(self.managers))

    def post_message(self, channel: str, text: str) -> None:
        self.client.chat_postMessage(channel=channel, text=self.markup(text))

    def reply_in_thread(self, message_id: int, text: str) -> None:
        cid, ts = self.where(message_id)
        self.client.chat_postMessage(channel=cid, thread_ts=ts, text=self.markup(text))

    def send_dm(self, people: list[str], text: str) -> None:
        users = ",".join(self.uid(p) for p in people)
        dm = self.client.conversations_open(users=users)["channel"]["id"]
        self.client.chat_postMessage(channel=dm, text=self.markup(text))

    def add_reaction(self, message_id: int, emoji: str) -> None:
        cid, ts = self.where(message_id)
        self.client.reactions_add(channel=cid, timestamp=ts, name=emoji)

    def edit_message(self, message_id: int, text: str) -> None:
        cid, ts = self.where(message_id)
        self.client.chat_update(channel=cid, ts=ts, text=self.markup(text))

    def delete_message(self, message_id: int) -> None:
        cid, ts = self.where(message_id)
        self.client.chat_delete(channel=cid, ts=ts)

    def pin_message(self, message_id: int) -> None:
        cid, ts = self.where(message_id)
        self.client.pins_add(channel=cid, timestamp=ts)

    def create_channel(self, name: str, private: bool = False, topic: str = "") -> None:
        cid = self.client.conversations_create(name=name, is_private=private)["channel"]["id"]
        if topic:
            self.client.conversations_setTopic(channel=cid, topic=topic)

    def invite_to_channel(self, channel: str, people: list[str]) -> None:
        users = ",".join(self.uid(p) for p in people)
        self.client.conversations_invite(channel=channel, users=users)

    def join_channel(self, channel: str) -> None:
        self.client.conversations_join(channel=channel)

    def set_status(self, text: str, emoji: str = "") -> None:
        profile = {"status_text": text, "status_emoji": f":{emoji}:" if emoji else ""}
        self.client.users_profile_set(profile=profile)


@pytest.fixture
def served_world(tmp_path: Path) -> Iterator[tuple[World, str]]:
    world = World(world_image("default", 0), url=f"sqlite:///{tmp_path / 'world.sqlite'}")
    with serving(create_app(world)) as url:
        yield world, url
    world.close()


@pytest.mark.parametrize("template_id", sorted(FINISHED_BY))
def test_the_reference_solution_through_slack_sdk_scores_one(
    template_id: str, served_world: tuple[World, str]
) -> None:
    world, url = served_world
    task: Task = make_task(template_id, 1)
    bot = Bot(WebClient(token=f"xoxp-{task.persona}", base_url=url), world)
    for call in task.solution:
        bot.play(call)
    answer = bot.answer if task.answer is not None else None
    with world.initial_connection() as before, world.engine.connect() as after:
        graded = grade(task, before, after, answer)
    assert (graded.reward, graded.passed) == (1.0, True), graded
    assert bot.used == FINISHED_BY[template_id]
