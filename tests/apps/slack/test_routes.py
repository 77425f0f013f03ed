"""The chat pages through the real Flask test client: they render, change state, keep access rules.

Kristen Turner (@kturner, Staff Engineer) acts unless a test says otherwise; she is in
#engineering and a few private channels, not in #leadership.
"""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.org import service as org
from officegym.apps.org.models import Person
from officegym.apps.slack import service as chat
from officegym.apps.slack.models import Channel, Membership, Message, Pin, Reaction
from tests.apps.pages import assert_addressable

ACTOR = "kturner"


@pytest.fixture
def me(client: FlaskClient, db: Session) -> Person:
    """Sign the client in as Kristen and return her."""
    assert client.get(f"/login/{ACTOR}").status_code == 302
    return org.find_person(db, ACTOR)


def _reload(db: Session, obj: object) -> None:
    db.expire_all()
    db.refresh(obj)


def _newest(db: Session, actor: Person, channel: str) -> Message:
    db.expire_all()
    ch = chat.get_channel(db, actor, channel)
    return chat.history(db, actor, ch, limit=1, mark_read=False)[0]


def _by_other(db: Session, actor: Person, channel: str) -> Message:
    ch = chat.get_channel(db, actor, channel)
    msgs = chat.history(db, actor, ch, limit=50, mark_read=False)
    return next(m for m in msgs if m.user_id != actor.id)


def _own(db: Session, actor: Person) -> Message:
    return chat.search_messages(db, actor, query="the", author=actor, limit=1)[0]


def _foreign_dm(db: Session, actor: Person) -> Channel:
    """A DM the actor is not part of."""
    for person in org.list_people(db, limit=100):
        for c in chat.list_conversations_of(db, person):
            if not chat.is_member(db, actor, c):
                return c
    raise AssertionError("the seeded world has no DM without the actor")


def _public_not_joined(db: Session, actor: Person) -> Channel:
    mine = {c.id for c in chat.list_channels(db, actor, member_only=True)}
    return next(c for c in chat.list_channels(db, actor) if c.id not in mine)


# ---------------------------------------------------------------- every page renders


def _pages(db: Session, actor: Person) -> list[tuple[str, list[str]]]:
    """Every chat page a member can open, with element ids it must contain."""
    parent = next(
        m
        for m in chat.history(db, actor, chat.get_channel(db, actor, "engineering"), limit=50)
        if chat.reply_counts(db, [m.id])
    )
    own = _own(db, actor)
    dm = chat.list_conversations_of(db, actor)[0]
    return [
        ("/slack/c/engineering", ["composer-text", "composer-send", "sidebar-channel-general"]),
        (f"/slack/c/{dm.slack_id}", ["composer-text", "sidebar-new-dm"]),
        ("/slack/c/engineering/details", ["topic-text", "invite-people", "channel-archive"]),
        (f"/slack/m/{parent.id}", [f"msg-{parent.id}", "thread-reply-text", "thread-reply-send"]),
        (f"/slack/m/{own.id}/edit", ["edit-text", "edit-save", "edit-cancel"]),
        ("/slack/browse", ["browse-query", "browse-submit", "browse-channel-general"]),
        ("/slack/new", ["create-channel-name", "create-channel-private", "create-channel-submit"]),
        ("/slack/search?q=deploy", ["search-query", "search-submit"]),
        ("/slack/people", ["people-query", "people-team", "person-mchang"]),
        ("/slack/people/mchang", ["profile-message"]),
        (f"/slack/people/{ACTOR}", ["profile-set-status"]),
        ("/slack/status", ["status-text", "status-emoji", "status-save", "status-clear"]),
        ("/slack/dm/new", ["new-dm-people", "new-dm-submit"]),
    ]


def test_every_page_renders_with_its_key_element_ids(
    client: FlaskClient, db: Session, me: Person
) -> None:
    for url, ids in _pages(db, me):
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.get_data(as_text=True)
        for element_id in [*ids, "nav-slack", "sidebar-browse", "sidebar-search-query"]:
            assert f'id="{element_id}" data-og-id="{element_id}"' in html, (url, element_id)


def test_every_interactive_element_is_addressable_and_labelled(
    client: FlaskClient, db: Session, me: Person
) -> None:
    for url, _ in _pages(db, me):
        assert_addressable(client.get(url).get_data(as_text=True), url)


def test_channel_page_shows_messages_with_ids_and_reactions(
    client: FlaskClient, db: Session, me: Person
) -> None:
    msg = _newest(db, me, "engineering")
    html = client.get("/slack/c/engineering").get_data(as_text=True)
    assert f'data-og-id="msg-{msg.id}"' in html
    assert f'data-og-id="msg-{msg.id}-react-select"' in html
    assert f'data-og-id="msg-{msg.id}-thread"' in html
    assert msg.text.split("'")[0] in html


def test_older_link_pages_back_through_history(
    client: FlaskClient, db: Session, me: Person
) -> None:
    ch = chat.get_channel(db, me, "general")
    msgs = chat.history(db, me, ch, limit=25, mark_read=False)
    first = client.get("/slack/c/general").get_data(as_text=True)
    assert f'data-og-id="msg-{msgs[0].id}"' in first
    assert f'data-og-id="msg-{msgs[22].id}"' not in first
    older = client.get(f"/slack/c/general?before={msgs[19].id}").get_data(as_text=True)
    assert 'data-og-id="history-older"' in first
    assert f'data-og-id="msg-{msgs[22].id}"' in older
    assert 'data-og-id="history-latest"' in older


def test_sidebar_bolds_unread_channels_until_read(
    client: FlaskClient, db: Session, me: Person
) -> None:
    unread = chat.unread_counts(db, me)
    general = chat.get_channel(db, me, "general")
    assert unread.get(general.id, 0) > 0
    page = client.get("/slack/people").get_data(as_text=True)
    assert f'aria-label="{unread[general.id]} unread"' in page
    client.get("/slack/c/general")
    db.expire_all()
    assert chat.unread_counts(db, me).get(general.id, 0) == 0


def test_dms_are_named_by_the_other_people(client: FlaskClient, db: Session, me: Person) -> None:
    dm = chat.list_conversations_of(db, me)[0]
    others = [p for p in chat.members(db, me, dm) if p.id != me.id]
    html = client.get("/slack/people").get_data(as_text=True)
    key = "-".join(sorted(p.handle for p in others))
    assert f'data-og-id="sidebar-dm-{key}"' in html
    assert others[0].name in html


# ---------------------------------------------------------------- forms change state


def test_posting_from_the_composer_adds_a_message(
    client: FlaskClient, db: Session, me: Person
) -> None:
    response = client.post("/slack/c/engineering/post", data={"text": "Ship it on Friday"})
    assert response.status_code == 302
    msg = _newest(db, me, "engineering")
    assert (msg.text, msg.user_id) == ("Ship it on Friday", me.id)
    assert "Ship it on Friday" in client.get(response.location).get_data(as_text=True)


def test_posting_empty_text_is_flashed_and_adds_nothing(
    client: FlaskClient, db: Session, me: Person
) -> None:
    before = _newest(db, me, "engineering").id
    response = client.post("/slack/c/engineering/post", data={"text": "  "}, follow_redirects=True)
    assert response.status_code == 200
    assert "message text is empty" in response.get_data(as_text=True)
    assert _newest(db, me, "engineering").id == before


def test_replying_in_a_thread(client: FlaskClient, db: Session, me: Person) -> None:
    parent = _by_other(db, me, "engineering")
    response = client.post(f"/slack/m/{parent.id}/reply", data={"text": "On it"})
    assert response.location.startswith(f"/slack/m/{parent.id}")
    replies = chat.replies(db, me, parent)
    assert (replies[-1].text, replies[-1].user_id) == ("On it", me.id)
    page = client.get(f"/slack/m/{parent.id}").get_data(as_text=True)
    assert f'data-og-id="msg-{replies[-1].id}"' in page


def _my_reactions(db: Session, me: Person, msg: Message) -> set[str]:
    db.expire_all()
    rows = db.scalars(select(Reaction).where(Reaction.message_id == msg.id))
    return {r.emoji for r in rows if r.person_id == me.id}


def test_reacting_then_clicking_the_reaction_toggles_it(
    client: FlaskClient, db: Session, me: Person
) -> None:
    msg = _by_other(db, me, "engineering")
    client.post(f"/slack/m/{msg.id}/react", data={"emoji": "rocket"})
    assert "rocket" in _my_reactions(db, me, msg)
    page = client.get("/slack/c/engineering").get_data(as_text=True)
    assert f'data-og-id="msg-{msg.id}-reaction-rocket"' in page
    client.post(f"/slack/m/{msg.id}/toggle", data={"emoji": "rocket"})
    assert "rocket" not in _my_reactions(db, me, msg)
    client.post(f"/slack/m/{msg.id}/toggle", data={"emoji": "rocket"})
    assert "rocket" in _my_reactions(db, me, msg)


def test_react_returns_to_the_page_it_came_from(
    client: FlaskClient, db: Session, me: Person
) -> None:
    msg = _by_other(db, me, "engineering")
    data = {"emoji": "eyes", "next": f"/slack/m/{msg.id}"}
    assert client.post(f"/slack/m/{msg.id}/react", data=data).location == f"/slack/m/{msg.id}"


def test_editing_own_message(client: FlaskClient, db: Session, me: Person) -> None:
    msg = _own(db, me)
    response = client.post(f"/slack/m/{msg.id}/edit", data={"text": "Corrected text"})
    assert response.status_code == 302
    _reload(db, msg)
    assert msg.text == "Corrected text"
    assert msg.edited_at is not None


def test_deleting_own_message(client: FlaskClient, db: Session, me: Person) -> None:
    msg = _own(db, me)
    assert client.post(f"/slack/m/{msg.id}/delete").status_code == 302
    _reload(db, msg)
    assert msg.is_deleted


@pytest.mark.parametrize("action", ["edit", "delete"])
def test_changing_someone_elses_message_is_403_and_leaves_it(
    client: FlaskClient, db: Session, me: Person, action: str
) -> None:
    msg = _by_other(db, me, "engineering")
    text = msg.text
    response = client.post(f"/slack/m/{msg.id}/{action}", data={"text": "hijacked"})
    assert response.status_code == 403
    _reload(db, msg)
    assert (msg.text, msg.is_deleted, msg.edited_at) == (text, False, None)


def test_edit_page_of_someone_elses_message_is_403(
    client: FlaskClient, db: Session, me: Person
) -> None:
    msg = _by_other(db, me, "engineering")
    assert client.get(f"/slack/m/{msg.id}/edit").status_code == 403


def test_pin_and_unpin(client: FlaskClient, db: Session, me: Person) -> None:
    msg = _by_other(db, me, "engineering")
    client.post(f"/slack/m/{msg.id}/pin")
    db.expire_all()
    assert db.scalars(select(Pin).where(Pin.message_id == msg.id)).first() is not None
    assert f'data-og-id="msg-{msg.id}-unpin"' in client.get("/slack/c/engineering").text
    client.post(f"/slack/m/{msg.id}/unpin")
    db.expire_all()
    assert db.scalars(select(Pin).where(Pin.message_id == msg.id)).first() is None


@pytest.mark.parametrize(("private", "kind"), [(False, "public"), (True, "private")])
def test_creating_a_channel(
    client: FlaskClient, db: Session, me: Person, private: bool, kind: str
) -> None:
    data = {"name": "budget-2026", "topic": "Numbers"} | ({"private": "on"} if private else {})
    response = client.post("/slack/new", data=data)
    assert response.location == "/slack/c/budget-2026"
    ch = chat.get_channel(db, me, "budget-2026")
    assert (ch.kind, ch.topic, ch.created_by_id) == (kind, "Numbers", me.id)
    assert chat.is_member(db, me, ch)


def test_creating_a_channel_with_a_bad_name_is_flashed(
    client: FlaskClient, db: Session, me: Person
) -> None:
    response = client.post("/slack/new", data={"name": "Bad Name!"})
    assert (response.status_code, response.location) == (422, None)  # values stay off the URL
    assert "invalid channel name" in response.get_data(as_text=True)
    assert 'value="Bad Name!"' in response.get_data(as_text=True)
    assert db.scalars(select(Channel).where(Channel.name == "Bad Name!")).first() is None


def test_inviting_people(client: FlaskClient, db: Session, me: Person) -> None:
    ch = chat.get_channel(db, me, "engineering")
    outsiders = [
        p for p in org.list_people(db, limit=100) if not chat.is_member(db, p, ch) and p.id != me.id
    ][:2]
    data = {"people": [p.handle for p in outsiders]}
    response = client.post("/slack/c/engineering/invite", data=data, follow_redirects=True)
    assert outsiders[0].name in response.get_data(as_text=True)
    db.expire_all()
    assert all(chat.is_member(db, p, ch) for p in outsiders)


def test_joining_from_browse_and_leaving(client: FlaskClient, db: Session, me: Person) -> None:
    ch = _public_not_joined(db, me)
    browse = client.get("/slack/browse").get_data(as_text=True)
    assert f'data-og-id="browse-join-{ch.name}"' in browse
    client.post(f"/slack/c/{ch.name}/join")
    db.expire_all()
    assert chat.is_member(db, me, ch)
    client.post(f"/slack/c/{ch.name}/leave")
    db.expire_all()
    assert not chat.is_member(db, me, ch)


def test_setting_the_topic(client: FlaskClient, db: Session, me: Person) -> None:
    client.post("/slack/c/engineering/topic", data={"topic": "Release week"})
    db.expire_all()
    assert chat.get_channel(db, me, "engineering").topic == "Release week"


def test_archived_channel_refuses_posts_and_hides_the_composer(
    client: FlaskClient, db: Session, me: Person
) -> None:
    client.post("/slack/c/engineering/archive")
    db.expire_all()
    assert chat.get_channel(db, me, "engineering").is_archived
    before = _newest(db, me, "engineering").id
    assert client.post("/slack/c/engineering/post", data={"text": "hello?"}).status_code == 403
    assert _newest(db, me, "engineering").id == before
    page = client.get("/slack/c/engineering").get_data(as_text=True)
    assert 'id="composer-text"' not in page
    assert "archived" in page


def test_setting_and_clearing_status(client: FlaskClient, db: Session, me: Person) -> None:
    client.post("/slack/status", data={"text": "Focus time", "emoji": "headphones"})
    db.expire_all()
    status = chat.get_status(db, me)
    assert status is not None
    assert (status.text, status.emoji) == ("Focus time", "headphones")
    assert "Focus time" in client.get(f"/slack/people/{ACTOR}").get_data(as_text=True)
    client.post("/slack/status", data={"action": "clear", "text": "x"})
    db.expire_all()
    status = chat.get_status(db, me)
    assert status is not None
    assert (status.text, status.emoji) == ("", "")


def test_message_button_opens_a_dm(client: FlaskClient, db: Session, me: Person) -> None:
    response = client.post("/slack/people/mchang/message")
    ceo = org.find_person(db, "mchang")
    dm = chat.open_dm(db, me, [ceo])
    assert response.location == f"/slack/c/{dm.slack_id}"
    assert {p.id for p in chat.members(db, me, dm)} == {me.id, ceo.id}
    client.post(f"/slack/c/{dm.slack_id}/post", data={"text": "Hi Megan"})
    assert _newest(db, me, dm.slack_id).text == "Hi Megan"


def test_new_group_dm(client: FlaskClient, db: Session, me: Person) -> None:
    response = client.post("/slack/dm/new", data={"people": ["mchang", "rgreen"]})
    ref = response.location.rsplit("/", 1)[1]
    dm = chat.get_channel(db, me, ref)
    assert dm.kind == "mpdm"
    assert {p.handle for p in chat.members(db, me, dm)} == {ACTOR, "mchang", "rgreen"}


def test_search_finds_a_posted_message(client: FlaskClient, db: Session, me: Person) -> None:
    client.post("/slack/c/engineering/post", data={"text": "zebra migration plan"})
    msg = _newest(db, me, "engineering")
    html = client.get("/slack/search?q=zebra+migration").get_data(as_text=True)
    assert f'data-og-id="search-result-{msg.id}"' in html
    assert f'href="/slack/m/{msg.id}#msg-{msg.id}"' in html


def test_search_narrows_to_a_channel_and_an_author(
    client: FlaskClient, db: Session, me: Person
) -> None:
    client.post("/slack/c/engineering/post", data={"text": "okapi rollout notes"})
    client.post("/slack/c/general/post", data={"text": "okapi rollout notes"})
    here, there = _newest(db, me, "engineering"), _newest(db, me, "general")

    def found(query: str) -> set[str]:
        html = client.get(f"/slack/search?q=okapi+rollout{query}").get_data(as_text=True)
        return {m for m in (str(here.id), str(there.id)) if f"search-result-{m}" in html}

    assert found("") == {str(here.id), str(there.id)}
    assert found("&channel=engineering") == {str(here.id)}
    assert found(f"&author={ACTOR}&channel=%23general") == {str(there.id)}
    assert found("&author=mchang") == set()
    assert client.get("/slack/search?q=x&channel=no-such-channel").status_code == 404


def test_browse_filters_to_my_channels_and_shows_archived_on_request(
    client: FlaskClient, db: Session, me: Person
) -> None:
    client.post("/slack/new", data={"name": "old-project", "topic": "done"})
    chat.archive_channel(db, me, chat.get_channel(db, me, "old-project"))
    db.commit()
    everyone = client.get("/slack/browse").get_data(as_text=True)
    mine = client.get("/slack/browse?mine=1").get_data(as_text=True)
    archived = client.get("/slack/browse?mine=1&archived=1").get_data(as_text=True)
    outside = _public_not_joined(db, me)
    assert f"browse-channel-{outside.name}" in everyone
    assert f"browse-channel-{outside.name}" not in mine
    assert "browse-channel-old-project" not in mine
    assert "browse-channel-old-project" in archived and "archived</span>" in archived


# ---------------------------------------------------------------- access rules


def test_private_channel_is_404_for_a_non_member(
    client: FlaskClient, db: Session, me: Person
) -> None:
    leadership = db.scalars(select(Channel).where(Channel.name == "leadership")).one()
    assert not chat.is_member(db, me, leadership)
    msg = db.scalars(select(Message).where(Message.channel_id == leadership.id)).first()
    assert msg is not None
    for url in ["/slack/c/leadership", "/slack/c/leadership/details", f"/slack/m/{msg.id}"]:
        assert client.get(url).status_code == 404, url
    assert client.post("/slack/c/leadership/post", data={"text": "hi"}).status_code == 404
    db.expire_all()
    count = len(db.scalars(select(Membership).where(Membership.channel_id == leadership.id)).all())
    assert client.post("/slack/c/leadership/join").status_code == 404
    db.expire_all()
    after = len(db.scalars(select(Membership).where(Membership.channel_id == leadership.id)).all())
    assert after == count


def test_someone_elses_dm_is_404(client: FlaskClient, db: Session, me: Person) -> None:
    dm = _foreign_dm(db, me)
    assert client.get(f"/slack/c/{dm.slack_id}").status_code == 404
    assert client.post(f"/slack/c/{dm.slack_id}/post", data={"text": "hi"}).status_code == 404


def test_non_member_sees_join_button_instead_of_composer(
    client: FlaskClient, db: Session, me: Person
) -> None:
    ch = _public_not_joined(db, me)
    html = client.get(f"/slack/c/{ch.name}").get_data(as_text=True)
    assert 'data-og-id="channel-join"' in html
    assert 'id="composer-text"' not in html


@pytest.mark.parametrize(
    ("method", "url"),
    [("get", "/slack/c/general"), ("post", "/slack/c/general/post"), ("get", "/slack/people")],
)
def test_unauthenticated_requests_redirect_to_login(
    client: FlaskClient, db: Session, method: str, url: str
) -> None:
    before = db.scalar(select(Message.id).order_by(Message.id.desc()).limit(1))
    response = getattr(client, method)(url, data={"text": "anonymous"})
    assert response.status_code == 302
    assert response.location.startswith("/login?next=")
    db.expire_all()
    assert db.scalar(select(Message.id).order_by(Message.id.desc()).limit(1)) == before


# ---------------------------------------------------------------- files, ephemerals, bookmarks


def test_files_ephemerals_and_bookmarks_show_on_the_pages(
    client: FlaskClient, db: Session, me: Person
) -> None:
    ch = chat.get_channel(db, me, "engineering")
    f = chat.reserve_upload(db, me, filename="plan.txt", length=4)
    chat.write_upload(db, f.id, f.upload_key, b"plan")
    chat.complete_upload(db, me, [(f, "The plan")], channel=ch, comment="Plan attached")
    other = next(p for p in chat.members(db, me, ch) if p.id != me.id)
    chat.post_ephemeral(db, other, ch, me, "only Kristen sees this")
    chat.add_bookmark(db, me, ch, title="Runbook", link="https://wiki.example/run")
    db.commit()
    page = client.get("/slack/c/engineering").get_data(as_text=True)
    assert f'data-og-id="file-{f.id}"' in page and "The plan" in page
    assert "only Kristen sees this" in page and "Only visible to you" in page
    assert client.get(f"/slack/files/{f.id}").data == b"plan"
    details = client.get("/slack/c/engineering/details").get_data(as_text=True)
    assert "Runbook" in details and f'data-og-id="channel-file-{f.id}"' in details
    client.get(f"/login/{other.handle}")
    assert "only Kristen sees this" not in client.get("/slack/c/engineering").get_data(as_text=True)
