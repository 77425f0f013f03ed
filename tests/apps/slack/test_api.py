"""The Slack Web API subset through the real `slack_sdk.WebClient`, against a real
server on 127.0.0.1: every listed method round-trips, errors carry Slack's codes,
and cursors page through lists without gaps or repeats.

Kristen Turner (@kturner) calls unless a test says otherwise: she is in #general and
#engineering, in the private #hiring-committee, not in #sales nor #leadership.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from slack_sdk import WebClient
from sqlalchemy import func, select

from officegym.apps.org.models import Person
from officegym.apps.slack.api import METHODS, WRITE_METHODS
from officegym.apps.slack.models import Membership, Message, Pin
from officegym.tools import ToolContext, call_tool, load_tools
from officegym.web import create_app
from officegym.world import World
from tests.apps.slack.conftest import error_of, serving

ME, OTHER = "kturner", "mchang"


@pytest.fixture(scope="module")
def world(api_world: World) -> World:
    """One served world for the module; tests only add to it, in places of their own."""
    return api_world


@pytest.fixture(scope="module")
def me(client_of: Callable[[str], WebClient]) -> WebClient:
    return client_of(ME)


def person(world: World, handle: str) -> Person:
    with world.session() as s:
        return s.scalars(select(Person).where(Person.handle == handle)).one()


def uid(world: World, handle: str) -> str:
    return f"U{person(world, handle).id:07d}"


def channel_id(me: WebClient, name: str) -> str:
    return me.conversations_info(channel=name)["channel"]["id"]


def raw(url: str, *, method: str = "POST", headers: dict[str, str] | None = None) -> tuple:
    """One plain HTTP request (as a browser would send it): its status and JSON answer."""
    data = b"" if method == "POST" else None
    request = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def seconds_of(ts: str) -> int:
    return int(ts.split(".")[0])


def count_texts(world: World, text: str) -> int:
    with world.session() as s:
        return s.scalar(select(func.count()).select_from(Message).where(Message.text == text))


# ---------------------------------------------------------------- auth


def test_auth_test_names_the_token_owner(world: World, me: WebClient, api_url: str) -> None:
    answer = me.auth_test()
    assert (answer["user"], answer["user_id"]) == (ME, uid(world, ME))
    by_field = WebClient(base_url=api_url).api_call("auth.test", params={"token": f"xoxp-{ME}"})
    assert by_field["user"] == ME


def test_no_token_is_not_authed_and_a_wrong_one_invalid_auth(api_url: str) -> None:
    assert error_of(WebClient(base_url=api_url).auth_test) == "not_authed"
    for token in ("xoxp-nobody-here", "xoxb-kturner", "Kristen Turner"):
        assert error_of(WebClient(token=token, base_url=api_url).auth_test) == "invalid_auth"


def test_a_server_locked_to_a_persona_refuses_everyone_elses_token(world: World) -> None:
    """An agent under test cannot read or write as a colleague through the API."""
    with serving(create_app(world, persona=ME, lock_persona=True)) as url:
        assert WebClient(token=f"xoxp-{ME}", base_url=url).auth_test()["user"] == ME
        other = WebClient(token=f"xoxp-{OTHER}", base_url=url)
        assert error_of(other.auth_test) == "persona_locked"
        post = partial(other.chat_postMessage, channel="general", text="as someone else")
        assert error_of(post) == "persona_locked"
    with world.session() as s:
        posted = select(func.count()).select_from(Message).where(Message.text == "as someone else")
        assert s.scalar(posted) == 0


def test_a_web_sign_in_never_stands_in_for_a_token(world: World) -> None:
    browser = create_app(world).test_client()
    assert browser.get(f"/login/{OTHER}").status_code == 302
    answer = browser.post("/api/auth.test").get_json()
    assert answer["ok"] is False and answer["error"] == "not_authed"


def test_with_no_token_only_a_server_started_with_a_persona_acts_as_it(world: World) -> None:
    """The rule of every door (`who_acts`): no token is the server's --persona, if any."""
    browser = create_app(world, persona=OTHER).test_client()
    assert browser.get(f"/login/{ME}").status_code == 302  # the sign-in still does not count
    assert browser.post("/api/auth.test").get_json()["user"] == OTHER


def test_unknown_methods_and_forged_cursors_are_refused(me: WebClient) -> None:
    assert error_of(lambda: me.api_call("files.upload.v9")) == "unknown_method"
    bad = lambda: me.conversations_list(cursor="not-a-cursor")  # noqa: E731
    assert error_of(bad) == "invalid_cursor"


# ---------------------------------------------------------------- conversations


def test_conversations_list_pages_by_cursor_without_gaps(me: WebClient) -> None:
    types = "public_channel,private_channel"
    whole = [c["name"] for c in me.conversations_list(types=types, limit=1000)["channels"]]
    pages = [p["channels"] for p in me.conversations_list(types=types, limit=4)]
    assert [c["name"] for page in pages for c in page] == whole
    assert len(pages) == -(-len(whole) // 4) and all(len(p) == 4 for p in pages[:-1])
    assert "hiring-committee" in whole and "leadership" not in whole
    public = {c["name"] for c in me.conversations_list(limit=1000)["channels"]}
    assert "hiring-committee" not in public and {"general", "sales"} <= public


def test_conversations_info_and_members_agree(me: WebClient, world: World) -> None:
    info = me.conversations_info(channel="engineering", include_num_members=True)["channel"]
    assert info["name"] == "engineering" and info["is_member"] and info["id"].startswith("C")
    pages = me.conversations_members(channel=info["id"], limit=7)
    members = [m for page in pages for m in page["members"]]
    assert len(members) == len(set(members)) == info["num_members"]
    assert uid(world, ME) in members
    assert me.conversations_info(channel="hiring-committee")["channel"]["is_private"]


def test_private_channels_of_others_are_channel_not_found(me: WebClient) -> None:
    assert error_of(lambda: me.conversations_info(channel="leadership")) == "channel_not_found"
    assert error_of(lambda: me.conversations_history(channel="G9999999")) == ("channel_not_found")


def test_history_pages_back_through_a_channel(me: WebClient) -> None:
    cid = channel_id(me, "engineering")
    first15 = [m["ts"] for m in me.conversations_history(channel=cid, limit=15)["messages"]]
    paged: list[str] = []
    for page in me.conversations_history(channel=cid, limit=5):
        paged += [m["ts"] for m in page["messages"]]
        assert page["has_more"] == bool(page["response_metadata"]["next_cursor"])
        if len(paged) >= 15:
            break
    assert paged[:15] == first15
    assert first15 == sorted(first15, key=lambda ts: int(ts.split(".")[1]), reverse=True)
    window = me.conversations_history(channel=cid, latest=first15[2], oldest=first15[6])
    assert [m["ts"] for m in window["messages"]] == first15[3:6] and not window["has_more"]


def test_history_takes_plain_unix_times_as_latest_and_oldest(me: WebClient) -> None:
    """Real clients send times, not message ids: "1772381616" or "1772381616.5"."""
    cid = channel_id(me, "engineering")
    top = [m["ts"] for m in me.conversations_history(channel=cid, limit=12)["messages"]]
    newest_first = lambda **kw: [  # noqa: E731
        m["ts"] for m in me.conversations_history(channel=cid, **kw)["messages"]
    ]
    second = str(seconds_of(top[2]))
    assert newest_first(latest=second, limit=5) == top[3:8]
    assert newest_first(latest=second, inclusive=True, limit=5) == top[2:7]
    assert newest_first(latest=f"{second}.5", limit=5) == top[2:7]
    window = newest_first(latest=second, oldest=str(seconds_of(top[6])))
    assert window == top[3:6]
    both_ends = newest_first(latest=second, oldest=str(seconds_of(top[6])), inclusive=True)
    assert both_ends == top[2:7]
    exact = newest_first(latest=top[2], oldest=top[6], inclusive=True)
    assert exact == top[2:7]
    assert newest_first(oldest=f"{seconds_of(top[1])}.5") == top[:1]


def test_history_pages_a_time_window_exactly(me: WebClient) -> None:
    cid = channel_id(me, "engineering")
    top = [m["ts"] for m in me.conversations_history(channel=cid, limit=12)["messages"]]
    window = {"latest": str(seconds_of(top[1])), "oldest": str(seconds_of(top[6]))}
    pages = [  # a SlackResponse pages in place: read each page as it comes
        ([m["ts"] for m in page["messages"]], page["has_more"])
        for page in me.conversations_history(channel=cid, limit=2, **window)
    ]
    assert pages == [(top[2:4], True), (top[4:6], False)]


def test_history_refuses_times_that_are_not_numbers(me: WebClient) -> None:
    cid = channel_id(me, "engineering")
    late = lambda: me.conversations_history(channel=cid, latest="yesterday")  # noqa: E731
    assert error_of(late) == "invalid_ts_latest"
    early = lambda: me.conversations_history(channel=cid, oldest="1.2.3")  # noqa: E731
    assert error_of(early) == "invalid_ts_oldest"


def test_history_limit_goes_up_to_slacks_999(me: WebClient, world: World) -> None:
    sales = channel_id(me, "sales")
    with world.session() as s:
        top_level = (
            select(func.count())
            .select_from(Message)
            .where(
                Message.channel_id == int(sales[1:]),
                Message.thread_parent_id.is_(None),
                Message.is_deleted.is_(False),
            )
        )
        total = s.scalar(top_level)
    assert total > 199
    answer = me.conversations_history(channel=sales, limit=999)
    assert len(answer["messages"]) == total and not answer["has_more"]


def test_post_reply_read_update_delete_round_trip(me: WebClient) -> None:
    cid = channel_id(me, "engineering")
    parent = me.chat_postMessage(channel=cid, text="Round trip via slack_sdk")
    assert parent["channel"] == cid and parent["message"]["text"] == "Round trip via slack_sdk"
    reply = me.chat_postMessage(channel=cid, text="a reply", thread_ts=parent["ts"])
    assert reply["message"]["thread_ts"] == parent["ts"]
    thread = me.conversations_replies(channel=cid, ts=parent["ts"])["messages"]
    assert [m["text"] for m in thread] == ["Round trip via slack_sdk", "a reply"]
    assert thread[0]["reply_count"] == 1
    newest = me.conversations_history(channel=cid, limit=1)["messages"][0]
    assert newest["ts"] == parent["ts"]  # replies stay out of the channel history
    edited = me.chat_update(channel=cid, ts=parent["ts"], text="Round trip, edited")
    assert edited["text"] == "Round trip, edited" and "edited" in edited["message"]
    assert me.chat_delete(channel=cid, ts=reply["ts"])["ts"] == reply["ts"]
    thread = me.conversations_replies(channel=cid, ts=parent["ts"])["messages"]
    assert [m["text"] for m in thread] == ["Round trip, edited"]
    gone = lambda: me.chat_update(channel=cid, ts=reply["ts"], text="x")  # noqa: E731
    assert error_of(gone) == "message_not_found"


def test_replies_outlive_their_deleted_parent(me: WebClient, world: World) -> None:
    """Search, edit and thread reads of a live reply work as through the tools, and the
    thread lists under a tombstone, as Slack shows it."""
    cid = channel_id(me, "engineering")
    parent = me.chat_postMessage(channel=cid, text="Orphan-to-be parent")["ts"]
    reply = me.chat_postMessage(channel=cid, text="quokkaflux orphan reply", thread_ts=parent)
    me.chat_delete(channel=cid, ts=parent)
    found = me.search_messages(query="quokkaflux")["messages"]["matches"]
    assert [(m["ts"], m["thread_ts"]) for m in found] == [(reply["ts"], parent)]
    edited = me.chat_update(channel=cid, ts=reply["ts"], text="quokkaflux orphan, edited")
    assert edited["message"]["thread_ts"] == parent
    for ts in (parent, reply["ts"]):
        thread = me.conversations_replies(channel=cid, ts=ts)["messages"]
        assert [m["ts"] for m in thread] == [parent, reply["ts"]]
        assert thread[0]["subtype"] == "tombstone" and thread[0]["reply_count"] == 1
        assert "Orphan-to-be" not in thread[0]["text"]
    via_tools = _tool(world, "slack_search_messages", query="quokkaflux")
    assert [(m["text"], m["thread_parent_id"]) for m in via_tools] == [
        ("quokkaflux orphan, edited", int(parent.split(".")[1]))
    ]
    me.chat_delete(channel=cid, ts=reply["ts"])
    gone = lambda: me.conversations_replies(channel=cid, ts=parent)  # noqa: E731
    assert error_of(gone) == "thread_not_found"


def _tool(world: World, name: str, **arguments: object) -> Any:
    """What the same call answers through the tools (as Kristen)."""
    load_tools()
    with world.session() as s:
        return call_tool(ToolContext(session=s, actor_id=person(world, ME).id), name, arguments)


@pytest.mark.filterwarnings("ignore:The top-level `text` argument is missing")
def test_posting_where_you_are_not_a_member_is_not_in_channel(me: WebClient) -> None:
    sales = channel_id(me, "sales")
    assert error_of(lambda: me.chat_postMessage(channel=sales, text="hi")) == "not_in_channel"
    assert error_of(lambda: me.chat_postMessage(channel="C7777777", text="hi")) == (
        "channel_not_found"
    )
    general = channel_id(me, "general")
    assert error_of(lambda: me.chat_postMessage(channel=general, text="  ")) == "no_text"


def test_only_the_author_may_update_or_delete(me: WebClient, client_of) -> None:
    cid = channel_id(me, "general")
    theirs = client_of(OTHER).chat_postMessage(channel=cid, text="Mine, not Kristen's")["ts"]
    assert error_of(lambda: me.chat_update(channel=cid, ts=theirs, text="x")) == (
        "cant_update_message"
    )
    assert error_of(lambda: me.chat_delete(channel=cid, ts=theirs)) == "cant_delete_message"


def test_reactions_and_pins(me: WebClient, world: World) -> None:
    cid = channel_id(me, "engineering")
    ts = me.chat_postMessage(channel=cid, text="React to me")["ts"]
    assert me.reactions_add(channel=cid, timestamp=ts, name="rocket")["ok"]
    again = lambda: me.reactions_add(channel=cid, timestamp=ts, name="rocket")  # noqa: E731
    assert error_of(again) == "already_reacted"
    shown = me.conversations_replies(channel=cid, ts=ts)["messages"][0]["reactions"]
    assert shown == [{"name": "rocket", "users": [uid(world, ME)], "count": 1}]
    assert me.reactions_remove(channel=cid, timestamp=ts, name="rocket")["ok"]
    assert "reactions" not in me.conversations_replies(channel=cid, ts=ts)["messages"][0]
    undo = lambda: me.reactions_remove(channel=cid, timestamp=ts, name="rocket")  # noqa: E731
    assert error_of(undo) == "no_reaction"
    assert me.pins_add(channel=cid, timestamp=ts)["ok"]
    assert error_of(lambda: me.pins_add(channel=cid, timestamp=ts)) == "already_pinned"
    with world.session() as s:
        pinned = select(Pin.channel_id).where(Pin.message_id == int(ts.split(".")[1]))
        assert s.scalar(pinned) == int(cid[1:])


def test_create_invite_archive_a_channel(me: WebClient, world: World) -> None:
    created = me.conversations_create(name="api-launch", is_private=True)["channel"]
    assert created["name"] == "api-launch" and created["is_private"] and created["is_member"]
    invitees = [uid(world, OTHER), uid(world, "rgreen")]
    assert me.conversations_invite(channel=created["id"], users=",".join(invitees))["ok"]
    members = me.conversations_members(channel=created["id"])["members"]
    assert set(members) == {uid(world, ME), *invitees}
    twice = lambda: me.conversations_invite(channel=created["id"], users=invitees[0])  # noqa: E731
    assert error_of(twice) == "already_in_channel"
    assert error_of(lambda: me.conversations_create(name="api-launch")) == "name_taken"
    assert me.conversations_archive(channel=created["id"])["ok"]
    assert error_of(lambda: me.conversations_archive(channel=created["id"])) == ("already_archived")
    post = lambda: me.chat_postMessage(channel=created["id"], text="late")  # noqa: E731
    assert error_of(post) == "is_archived"
    assert error_of(lambda: me.conversations_archive(channel="general")) == ("cant_archive_general")


def test_inviting_yourself_or_a_member_fails_the_whole_call(me: WebClient, world: World) -> None:
    cid = me.conversations_create(name="api-invites")["channel"]["id"]
    member, newcomer = uid(world, OTHER), uid(world, "rgreen")
    assert me.conversations_invite(channel=cid, users=member)["ok"]
    invite = partial(me.conversations_invite, channel=cid)
    assert error_of(partial(invite, users=f"{newcomer},{member}")) == "already_in_channel"
    assert error_of(partial(invite, users=f"{newcomer},{uid(world, ME)}")) == "cant_invite_self"
    with world.session() as s:
        members = select(func.count()).where(Membership.channel_id == int(cid[1:]))
        assert s.scalar(members) == 2  # Kristen and Mei, nobody else
    assert me.conversations_invite(channel=cid, users=newcomer)["ok"]


def test_channel_names_fail_with_slacks_specific_codes(me: WebClient) -> None:
    create = lambda name: lambda: me.conversations_create(name=name)  # noqa: E731
    assert error_of(create("x" * 81)) == "invalid_name_maxlength"
    assert error_of(create("Bad Name!")) == "invalid_name_specials"
    assert error_of(create("UPPER")) == "invalid_name_specials"
    assert error_of(create("---")) == "invalid_name_specials"
    assert me.conversations_create(name="x" * 80)["ok"]


def test_replies_of_an_unknown_or_missing_ts_are_thread_not_found(me: WebClient) -> None:
    cid = channel_id(me, "engineering")
    for ts in ("1772381616.999999", "9.000001", "not-a-ts", "1.9999999999999999999999"):
        unknown = lambda ts=ts: me.conversations_replies(channel=cid, ts=ts)  # noqa: E731
        assert error_of(unknown) == "thread_not_found"
    missing = lambda: me.api_call("conversations.replies", params={"channel": cid})  # noqa: E731
    assert error_of(missing) == "thread_not_found"


def test_pinning_a_thread_reply_is_not_pinnable(me: WebClient) -> None:
    cid = channel_id(me, "engineering")
    parent = me.chat_postMessage(channel=cid, text="Pin my reply?")["ts"]
    reply = me.chat_postMessage(channel=cid, text="a reply to pin", thread_ts=parent)["ts"]
    assert error_of(lambda: me.pins_add(channel=cid, timestamp=reply)) == "not_pinnable"


def test_posting_to_a_user_id_opens_a_direct_message(me: WebClient, world: World) -> None:
    posted = me.chat_postMessage(channel=uid(world, "rgreen"), text="A direct hello")
    assert posted["channel"].startswith("D")
    ims = me.conversations_list(types="im", limit=1000)["channels"]
    assert {"id": posted["channel"], "user": uid(world, "rgreen")}.items() <= next(
        c for c in ims if c["id"] == posted["channel"]
    ).items()


# ---------------------------------------------------------------- users, search


def test_users_list_pages_through_everyone_once(me: WebClient, world: World) -> None:
    ids = [u["id"] for page in me.users_list(limit=7) for u in page["members"]]
    with world.session() as s:
        assert len(ids) == len(set(ids)) == s.scalar(select(func.count()).select_from(Person))
    user = me.users_info(user=uid(world, OTHER))["user"]
    assert (user["name"], user["profile"]["email"]) == (OTHER, person(world, OTHER).email)
    assert error_of(lambda: me.users_info(user="U9999999")) == "user_not_found"
    assert error_of(lambda: me.users_info(user="mchang")) == "user_not_found"


def test_search_finds_words_narrows_by_channel_and_author_and_pages(me: WebClient) -> None:
    for channel in ("general", "engineering", "engineering"):
        me.chat_postMessage(channel=channel_id(me, channel), text=f"zebracorn drill in {channel}")
    found = me.search_messages(query="zebracorn drill")["messages"]
    assert found["total"] == 3 and found["matches"][0]["username"] == ME
    narrowed = me.search_messages(query="zebracorn in:#engineering")["messages"]
    assert {m["channel"]["name"] for m in narrowed["matches"]} == {"engineering"}
    assert narrowed["total"] == 2
    assert me.search_messages(query=f"zebracorn from:@{OTHER}")["messages"]["total"] == 0
    second = me.search_messages(query="zebracorn", count=2, page=2)["messages"]
    assert len(second["matches"]) == 1 and second["paging"]["pages"] == 2
    assert second["pagination"] == {
        "total_count": 3,
        "page": 2,
        "per_page": 2,
        "page_count": 2,
        "first": 3,
        "last": 3,
    }
    assert found["matches"][0]["permalink"].startswith("http://127.0.0.1:")
    assert error_of(lambda: me.search_messages(query='  "" ')) == "no_query"


def test_search_reads_slacks_syntax_with_markup_and_dates(me: WebClient, world: World) -> None:
    """Modifiers alone are a query (Slack's own search allows ``in:#general``); ``from:`` and
    ``in:`` take Slack markup as clients send it; dates and phrases narrow; a bad date is
    ``invalid_arguments``."""
    general = channel_id(me, "general")
    me.chat_postMessage(channel=general, text="kiwiplex budget is final")
    me.chat_postMessage(channel=channel_id(me, "engineering"), text="kiwiplex final budget")
    only_general = me.search_messages(query="in:#general")["messages"]
    assert only_general["total"] >= 1
    assert {m["channel"]["name"] for m in only_general["matches"]} == {"general"}
    marked = f'"budget is" kiwiplex from:<@{uid(world, ME)}> in:<#{general}|general>'
    assert [m["text"] for m in me.search_messages(query=marked)["messages"]["matches"]] == [
        "kiwiplex budget is final"
    ]
    assert me.search_messages(query="kiwiplex before:2000-01-01")["messages"]["total"] == 0
    assert me.search_messages(query="kiwiplex after:2000-01-01")["messages"]["total"] == 2
    assert error_of(lambda: me.search_messages(query="kiwiplex on:2026-02-30")) == (
        "invalid_arguments"
    )


# ---------------------------------------------------------------- wire formats


def test_form_and_json_bodies_and_the_token_field_all_work(api_url: str, me: WebClient) -> None:
    general = channel_id(me, "general")
    form = f"token=xoxp-{ME}&channel=general&text=form+encoded+post".encode()
    as_json = json.dumps({"channel": general, "text": "json body post"}).encode()
    requests = [
        urllib.request.Request(api_url + "chat.postMessage", data=form),
        urllib.request.Request(
            api_url + "chat.postMessage",
            data=as_json,
            headers={"Content-Type": "application/json", "Authorization": f"Bearer xoxp-{ME}"},
        ),
    ]
    for request in requests:
        with urllib.request.urlopen(request, timeout=10) as response:
            answer = json.load(response)
        assert response.status == 200 and answer["ok"] and answer["channel"] == general
    newest = me.conversations_history(channel=general, limit=2)["messages"]
    assert [m["text"] for m in newest] == ["json body post", "form encoded post"]


# ---------------------------------------------------------------- cross-site requests

WRITES = {
    "apps.manifest.create",
    "apps.manifest.delete",
    "apps.manifest.update",
    "bookmarks.add",
    "bookmarks.edit",
    "bookmarks.remove",
    "chat.delete",
    "chat.deleteScheduledMessage",
    "chat.meMessage",
    "chat.postEphemeral",
    "chat.postMessage",
    "chat.scheduleMessage",
    "chat.update",
    "conversations.archive",
    "conversations.close",
    "conversations.create",
    "conversations.invite",
    "conversations.join",
    "conversations.kick",
    "conversations.leave",
    "conversations.mark",
    "conversations.open",
    "conversations.rename",
    "conversations.setPurpose",
    "conversations.setTopic",
    "conversations.unarchive",
    "files.completeUploadExternal",
    "files.delete",
    "files.getUploadURLExternal",
    "pins.add",
    "pins.remove",
    "reactions.add",
    "reactions.remove",
    "users.profile.set",
}


def test_exactly_the_state_changing_methods_are_write_methods() -> None:
    assert WRITE_METHODS == WRITES and set(METHODS) > WRITES


@pytest.mark.parametrize("name", sorted(WRITES))
def test_write_methods_refuse_get(api_url: str, name: str) -> None:
    """An <img src=".../api/chat.postMessage?token=..."> on any page must change nothing."""
    status, answer = raw(f"{api_url}{name}?token=xoxp-{ME}&channel=general", method="GET")
    assert (status, answer["ok"], answer["error"]) == (405, False, "invalid_request")


def test_a_get_post_carries_out_nothing(api_url: str, world: World) -> None:
    query = f"token=xoxp-{ME}&channel=general&text=posted+by+an+img+tag"
    status, _ = raw(f"{api_url}chat.postMessage?{query}", method="GET")
    assert status == 405 and count_texts(world, "posted by an img tag") == 0
    status, answer = raw(f"{api_url}conversations.history?{query}", method="GET")
    assert status == 200 and answer["ok"]  # reads stay available by GET


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://evil.example"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site"},
    ],
)
def test_cross_site_requests_are_refused_for_every_method(
    api_url: str, world: World, headers: dict[str, str]
) -> None:
    query = f"token=xoxp-{ME}&channel=general&text=posted+cross+site"
    for name, method in (("chat.postMessage", "POST"), ("auth.test", "GET")):
        status, answer = raw(f"{api_url}{name}?{query}", method=method, headers=headers)
        assert (status, answer["error"]) == (403, "access_denied")
    assert count_texts(world, "posted cross site") == 0


def test_the_servers_own_pages_may_call_the_api(api_url: str, world: World) -> None:
    own = api_url.removesuffix("/api/")
    headers = {"Origin": own, "Sec-Fetch-Site": "same-origin"}
    query = f"token=xoxp-{ME}&channel=general&text=posted+same+origin"
    status, answer = raw(f"{api_url}chat.postMessage?{query}", headers=headers)
    assert (status, answer["ok"]) == (200, True)
    assert count_texts(world, "posted same origin") == 1
