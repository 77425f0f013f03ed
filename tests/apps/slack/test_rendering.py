"""Message text as the pages draw it: Slack emoji short names become emoji, mentions become
highlighted links to the person, everything else stays escaped; and the channel, thread
and search pages show it so, through the real Flask test client."""

from __future__ import annotations

import re

import pytest
from flask import url_for
from flask.testing import FlaskClient
from sqlalchemy.orm import Session

from officegym.apps.org import service as org
from officegym.apps.slack import service as chat
from officegym.apps.slack.rendering import emojize, rich_text

ACTOR = "kturner"


def draw(text: str, me: str = ACTOR) -> str:
    return str(
        rich_text(text, people={"kturner", "mchang"}, me=me, profile_url=lambda h: f"/p/{h}")
    )


@pytest.mark.parametrize(
    ("text", "html"),
    [
        (":tada: shipped :+1:", "🎉 shipped 👍"),
        ("ok :white_check_mark:", "ok ✅"),
        (":not_an_emoji: stays", ":not_an_emoji: stays"),
        ("at 10:30:45 sharp", "at 10:30:45 sharp"),
        ("<b>&</b> :fire:", "&lt;b&gt;&amp;&lt;/b&gt; 🔥"),
    ],
)
def test_emoji_short_names_are_drawn_and_text_escaped(text: str, html: str) -> None:
    assert draw(text) == html


def test_mentions_are_links_and_your_own_is_highlighted() -> None:
    assert draw("thanks @mchang!") == 'thanks <a class="mention" href="/p/mchang">@mchang</a>!'
    assert draw("@kturner can you") == (
        '<a class="mention mention-me" href="/p/kturner">@kturner</a> can you'
    )
    assert draw("@here standup") == '<span class="mention mention-broadcast">@here</span> standup'
    assert draw("ask @nobody or mail a@mchang.com") == "ask @nobody or mail a@mchang.com"


def test_emojize_alone_does_not_link() -> None:
    assert str(emojize("@mchang :eyes:")) == "@mchang 👀"


@pytest.fixture
def signed_in(client: FlaskClient) -> FlaskClient:
    assert client.get(f"/login/{ACTOR}").status_code == 302
    return client


def test_channel_thread_and_search_pages_draw_emoji_and_mentions(
    signed_in: FlaskClient, db: Session
) -> None:
    text = "lynxquartz launch :tada: thanks @mchang"
    assert signed_in.post("/slack/c/engineering/post", data={"text": text}).status_code == 302
    msg = chat.search_messages(db, org.find_person(db, ACTOR), query="lynxquartz")[0]
    react = signed_in.post(f"/slack/m/{msg.id}/react", data={"emoji": "eyes"})
    assert react.status_code == 302
    with signed_in.application.test_request_context():
        profile = url_for("slack.profile", handle="mchang")
    for url in ("/slack/c/engineering", f"/slack/m/{msg.id}"):
        html = signed_in.get(url).get_data(as_text=True)
        row = html.split(f'data-og-id="msg-{msg.id}"', 1)[1].split("</li>", 1)[0]
        assert f'lynxquartz launch 🎉 thanks <a class="mention" href="{profile}">@mchang</a>' in row
        assert 'aria-label=":eyes: 1, yours: click to remove">👀 1</button>' in row
        assert f'data-og-id="msg-{msg.id}-react-select"' in row  # ids unchanged
    found = signed_in.get("/slack/search?q=lynxquartz").get_data(as_text=True)
    assert "lynxquartz launch 🎉 thanks @mchang" in found


def test_the_actions_menu_is_closed_in_a_channel_and_open_on_the_messages_page(
    signed_in: FlaskClient,
) -> None:
    channel = signed_in.get("/slack/c/engineering").get_data(as_text=True)
    assert channel.count('<details class="actions">') >= 10
    assert '<details class="actions" open>' not in channel
    mid = re.findall(r'data-og-id="msg-(\d+)-menu"', channel)[0]
    page = signed_in.get(f"/slack/m/{mid}").get_data(as_text=True)
    assert '<details class="actions" open>' in page
    assert f'data-og-id="msg-{mid}-react-submit"' in page
