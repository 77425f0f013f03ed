"""reactions.*, pins.*, bookmarks.* and search.messages through slack_sdk: reading
reactions back, listing and removing pins, bookmarks with Slack's ids and errors, and
search totals that count every match, not one page."""

from __future__ import annotations

from collections.abc import Callable

from slack_sdk import WebClient

from officegym.world import World
from tests.apps.slack.conftest import error_of, uid_of

ME = "kturner"


def test_reactions_read_back_by_message_and_by_person(
    api_world: World, client_of: Callable[[str], WebClient]
) -> None:
    me = client_of(ME)
    ts = me.chat_postMessage(channel="general", text="react and read")["ts"]
    me.reactions_add(channel="general", timestamp=ts, name="rocket")
    client_of("mchang").reactions_add(channel="general", timestamp=ts, name="rocket")
    got = me.reactions_get(channel="general", timestamp=ts)["message"]["reactions"]
    assert got == [{"name": "rocket", "count": 2,
                    "users": [uid_of(api_world, ME), uid_of(api_world, "mchang")]}]  # fmt: skip
    newest = me.reactions_list(limit=1)["items"][0]
    assert newest["message"]["ts"] == ts and newest["channel"] == "C0000001"


def test_pins_list_and_remove(client_of: Callable[[str], WebClient]) -> None:
    me = client_of(ME)
    ts = me.chat_postMessage(channel="general", text="pin, list, unpin")["ts"]
    me.pins_add(channel="general", timestamp=ts)
    listed = [i["message"]["ts"] for i in me.pins_list(channel="general")["items"]]
    assert ts in listed
    assert me.pins_remove(channel="general", timestamp=ts)["ok"]
    assert ts not in [i["message"]["ts"] for i in me.pins_list(channel="general")["items"]]
    assert error_of(lambda: me.pins_remove(channel="general", timestamp=ts)) == "no_pin"


def test_bookmarks_add_edit_list_remove(client_of: Callable[[str], WebClient]) -> None:
    me = client_of(ME)
    added = me.bookmarks_add(channel_id="engineering", title="Runbook", type="link",
                             link="https://wiki.example/runbook")["bookmark"]  # fmt: skip
    assert added["id"].startswith("Bk") and added["title"] == "Runbook"
    again = lambda: me.bookmarks_add(  # noqa: E731
        channel_id="engineering", title="Dup", type="link", link="https://wiki.example/runbook"
    )
    assert error_of(again) == "already_exists"
    edited = me.bookmarks_edit(
        channel_id="engineering", bookmark_id=added["id"], title="Ops runbook"
    )
    assert edited["bookmark"]["title"] == "Ops runbook"
    listed = me.bookmarks_list(channel_id="engineering")["bookmarks"]
    assert [(b["id"], b["title"]) for b in listed] == [(added["id"], "Ops runbook")]
    assert me.bookmarks_remove(channel_id="engineering", bookmark_id=added["id"])["ok"]
    assert me.bookmarks_list(channel_id="engineering")["bookmarks"] == []
    bad = lambda: me.bookmarks_add(  # noqa: E731
        channel_id="engineering", title="x", type="link", link="javascript:alert(1)"
    )
    assert error_of(bad) == "invalid_link"


def test_search_totals_count_every_match(client_of: Callable[[str], WebClient]) -> None:
    me = client_of(ME)
    for i in range(3):
        me.chat_postMessage(channel="general", text=f"quasarblip number {i}")
    common = me.search_messages(query="the", count=5)["messages"]
    total = common["total"]
    assert total > 200 and common["pagination"]["page_count"] == -(-total // 5)
    pages = -(-total // 100)
    last = me.search_messages(query="the", count=100, page=pages)["messages"]
    assert len(last["matches"]) == total - (pages - 1) * 100
    assert me.search_messages(query="quasarblip")["messages"]["total"] == 3
