"""Browser reference steps of the chat clone: each Slack tool call as actions on its pages.

`steps(call, world, persona)` gives the action strings that do through the web UI what the
tool call does, addressing elements by their stable ids (see apps/README.md). A write
opens the page with the form and submits it; a read opens the page that shows the same
information: a direct conversation is opened from the sidebar, which lists every DM
and group DM. Message operations use the message's own page, ``/slack/m/<id>``, which
works for any message, however old. `world` (a read-only session on the task's initial
world) and `persona` (the handle of the task's persona) are used only to find the DM a
read names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.browser_steps import act, goto, path_part
from officegym.apps.org.models import Person
from officegym.apps.slack import service as chat
from officegym.web import stable_id

__all__ = ["STEPS"]

Args = Mapping[str, Any]
Make = Callable[[Args], list[str]]
Look = Callable[[Args, Session, Person], list[str]]


def _channel(ref: str) -> str:
    return f"/slack/c/{path_part(ref.strip().lstrip('#'))}"


def _details(ref: str) -> str:
    return f"{_channel(ref)}/details"


def _message(message_id: int) -> str:
    return f"/slack/m/{int(message_id)}"


def _picked(refs: list[str]) -> str:
    """What a person types into a people picker for these people (handles, emails or
    names, as the tool takes them), comma-separated."""
    return ", ".join(r.strip() for r in refs)


def _msg_id(message_id: int, part: str) -> str:
    return stable_id("msg", int(message_id), part)


# ---------------------------------------------------------------- writes


def _post_message(a: Args) -> list[str]:
    return [goto(_channel(a["channel"])), *_compose(a["text"])]


def _compose(text: str) -> list[str]:
    return _fill_and_click("composer-text", text, "composer-send")


def _fill_and_click(field: str, text: str, button: str) -> list[str]:
    """Type `text` into the field `field` and press the button `button`."""
    return [act("fill", field, text), act("click", button)]


def _reply_in_thread(a: Args) -> list[str]:
    reply = _fill_and_click("thread-reply-text", a["text"], "thread-reply-send")
    return [goto(_message(a["message_id"])), *reply]


def _send_dm(a: Args) -> list[str]:
    pick = _fill_and_click("new-dm-people", _picked(a["people"]), "new-dm-submit")
    return [goto("/slack/dm/new"), *pick, *_compose(a["text"])]


def _add_reaction(a: Args) -> list[str]:
    mid, emoji = a["message_id"], a["emoji"].strip(":")
    return [
        goto(_message(mid)),
        act("select_option", _msg_id(mid, "react-select"), emoji),
        act("click", _msg_id(mid, "react-submit")),
    ]


def _remove_reaction(a: Args) -> list[str]:
    mid, emoji = a["message_id"], a["emoji"].strip(":")
    return [goto(_message(mid)), act("click", stable_id("msg", int(mid), "reaction", emoji))]


def _edit_message(a: Args) -> list[str]:
    mid = a["message_id"]
    return [
        goto(_message(mid)),
        act("click", _msg_id(mid, "edit")),
        *_fill_and_click("edit-text", a["text"], "edit-save"),
    ]


def _on_message(part: str) -> Make:
    """Open the message's page and click one of its buttons (delete, pin, unpin)."""

    def make(a: Args) -> list[str]:
        return [goto(_message(a["message_id"])), act("click", _msg_id(a["message_id"], part))]

    return make


def _create_channel(a: Args) -> list[str]:
    out = [goto("/slack/new"), act("fill", "create-channel-name", a["name"])]
    if a.get("topic"):
        out.append(act("fill", "create-channel-topic", a["topic"]))
    if a.get("private"):
        out.append(act("check", "create-channel-private"))
    return [*out, act("click", "create-channel-submit")]


def _invite_to_channel(a: Args) -> list[str]:
    invite = _fill_and_click("invite-people", _picked(a["people"]), "invite-submit")
    return [goto(_details(a["channel"])), *invite]


def _on_details(button: str) -> Make:
    """Open the channel's details page and click one of its buttons (leave, archive)."""

    def make(a: Args) -> list[str]:
        return [goto(_details(a["channel"])), act("click", button)]

    return make


def _set_channel_topic(a: Args) -> list[str]:
    return [goto(_details(a["channel"])), *_fill_and_click("topic-text", a["topic"], "topic-save")]


def _set_status(a: Args) -> list[str]:
    text, emoji = a["text"], a.get("emoji", "").strip(":")
    if not text and not emoji:
        return [goto("/slack/status"), act("click", "status-clear")]
    return [
        goto("/slack/status"),
        act("fill", "status-text", text),
        act("select_option", "status-emoji", emoji),
        act("click", "status-save"),
    ]


# ---------------------------------------------------------------- reads


def _reads() -> dict[str, Make]:
    """Each read tool as the one page that shows the same information."""
    return {
        "slack_list_channels": lambda a: [
            goto(
                "/slack/browse",
                q=a.get("query"),
                mine=1 if a.get("member_only") else None,
                archived=1 if a.get("include_archived") else None,
            )
        ],
        "slack_get_channel_info": lambda a: [goto(_details(a["channel"]))],
        "slack_read_channel": lambda a: [
            goto(_channel(a["channel"]), before=a.get("before_message_id"))
        ],
        "slack_read_thread": lambda a: [goto(_message(a["message_id"]))],
        "slack_search_messages": lambda a: [
            goto("/slack/search", q=a["query"], channel=a.get("channel"), author=a.get("author"))
        ],
        "slack_list_pins": lambda a: [goto(_details(a["channel"]))],
        "slack_list_people": lambda a: [
            goto("/slack/people", q=a.get("query"), team=a.get("team"))
        ],
        "slack_get_person": lambda a: [goto(f"/slack/people/{path_part(a['person'])}")],
        # The sidebar of every chat page lists the DMs and group DMs, with who is in each.
        "slack_list_dms": lambda a: [goto("/slack/")],
    }


def _read_dm(a: Args, world: Session, actor: Person) -> list[str]:
    """Open the conversation from the sidebar (the sidebar alone if there is none: the
    tool then reads no messages)."""
    people = chat.resolve_people(world, a["people"])
    if chat.find_dm(world, actor, people) is None:
        return [goto("/slack/")]
    key = "-".join(sorted(p.handle for p in people if p.id != actor.id)) or actor.handle
    return [goto("/slack/"), act("click", stable_id("sidebar-dm", key))]


def _writes() -> dict[str, Make]:
    """Each write tool as the form that does it."""
    return {
        "slack_post_message": _post_message,
        "slack_reply_in_thread": _reply_in_thread,
        "slack_send_dm": _send_dm,
        "slack_add_reaction": _add_reaction,
        "slack_remove_reaction": _remove_reaction,
        "slack_edit_message": _edit_message,
        "slack_delete_message": _on_message("delete"),
        "slack_pin_message": _on_message("pin"),
        "slack_unpin_message": _on_message("unpin"),
        "slack_create_channel": _create_channel,
        "slack_invite_to_channel": _invite_to_channel,
        "slack_join_channel": lambda a: [
            goto(_channel(a["channel"])),
            act("click", "channel-join"),
        ],
        "slack_leave_channel": _on_details("channel-leave"),
        "slack_set_channel_topic": _set_channel_topic,
        "slack_archive_channel": _on_details("channel-archive"),
        "slack_set_status": _set_status,
    }


def _pure(makers: dict[str, Make]) -> dict[str, Look]:
    """Steps that need no look-up in the world."""
    return {name: (lambda a, w, me, make=make: make(a)) for name, make in makers.items()}


STEPS: dict[str, Look] = {**_pure(_reads()), **_pure(_writes()), "slack_read_dm": _read_dm}
