"""The Events API with the real slack_bolt: an unmodified Bolt app, served over HTTP,
passes Slack's url_verification, verifies the clone's signed requests with its own
code, and reacts to what people and agents post (through the API and through the
tools) and react with; its own posts do not wake it again. Deliveries that fail are
retried with X-Slack-Retry-Num; nothing is sent for conversations the bot is not in.
"""

from __future__ import annotations

import datetime as dt
import json
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask, request
from slack_bolt import App
from slack_bolt.adapter.wsgi import SlackRequestHandler
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.signature import SignatureVerifier
from sqlalchemy import select
from werkzeug.serving import make_server

from officegym.apps.slack import delivery
from officegym.apps.slack.models import App as AppRow
from officegym.apps.slack.models import Message
from officegym.runner import ToolRunner
from officegym.world import World
from tests.apps.slack.conftest import Quiet, uid_of

BOT, ME = "rgreen", "kturner"  # the bot acts as Ruth Green; Kristen is the agent


def serve_wsgi(app: Any) -> tuple[str, Callable[[], None]]:
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()

    def stop() -> None:
        server.shutdown()
        thread.join(5)

    return f"http://127.0.0.1:{server.server_port}", stop


def manifest(url: str = "", events: list[str] | None = None) -> dict[str, Any]:
    subscription = {"request_url": url, "bot_events": events or []}
    return {"display_information": {"name": "deploybot"},
            "settings": {"event_subscriptions": subscription}}  # fmt: skip


def wait_for(check: Callable[[], Any], timeout: float = 10.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    return check()


@pytest.fixture(scope="module")
def bolt(api_url: str, client_of: Callable[[str], WebClient]) -> Iterator[dict[str, Any]]:
    """A Bolt app acting as @rgreen: replies in thread to 'deploy', records reactions."""
    owner = client_of(BOT)
    created = owner.apps_manifest_create(manifest=manifest())
    seen: dict[str, Any] = {"reactions": [], "joins": []}
    app = App(
        client=WebClient(token=created["bot_token"], base_url=api_url),
        signing_secret=created["credentials"]["signing_secret"],
    )

    @app.message("deploy")
    def on_deploy(message: dict[str, Any], say: Callable[..., Any]) -> None:
        say(text=f"deploying now, <@{message['user']}>", thread_ts=message["ts"])

    @app.event("reaction_added")
    def on_reaction(event: dict[str, Any]) -> None:
        seen["reactions"].append(event)

    @app.event("member_joined_channel")
    def on_join(event: dict[str, Any]) -> None:
        seen["joins"].append(event)

    base, stop = serve_wsgi(SlackRequestHandler(app))
    url = f"{base}/slack/events"
    kinds = ["message.channels", "reaction_added", "member_joined_channel"]
    owner.apps_manifest_update(app_id=created["app_id"], manifest=manifest(url, kinds))
    yield {"app": created, "seen": seen, "url": url}
    stop()


def replies_to(world: World, ts: str) -> list[Message]:
    with world.session() as s:
        stmt = select(Message).where(Message.thread_parent_id == int(ts.split(".")[1]))
        return list(s.scalars(stmt))


def test_a_bolt_app_replies_to_what_a_person_posts(
    bolt: dict[str, Any], api_world: World, client_of: Callable[[str], WebClient]
) -> None:
    posted = client_of(ME).chat_postMessage(channel="general", text="can someone deploy api?")
    found = wait_for(lambda: replies_to(api_world, posted["ts"]))
    assert [m.text for m in found] == [f"deploying now, @{ME}"]
    assert found[0].user_id == int(uid_of(api_world, BOT)[1:])
    delivery.dispatcher().join()
    time.sleep(0.3)  # the bot's own reply says 'deploy' too: it must not answer itself
    assert len(replies_to(api_world, posted["ts"])) == 1


def test_an_agents_tool_call_wakes_the_bot_too(bolt: dict[str, Any], api_world: World) -> None:
    runner = ToolRunner(api_world, ME)
    try:
        done = runner.call("slack_post_message", {"channel": "general", "text": "deploy web pls"})
    finally:
        runner.close()
    with api_world.session() as s:
        ts = s.get_one(Message, done.result["message_id"]).ts
    assert wait_for(lambda: replies_to(api_world, ts))


def test_reactions_and_joins_reach_the_app(
    bolt: dict[str, Any], api_world: World, client_of: Callable[[str], WebClient]
) -> None:
    me = client_of(ME)
    ts = me.chat_postMessage(channel="general", text="react here")["ts"]
    me.reactions_add(channel="general", timestamp=ts, name="tada")
    reactions = wait_for(lambda: [e for e in bolt["seen"]["reactions"] if e["item"]["ts"] == ts])
    assert reactions[0]["reaction"] == "tada" and reactions[0]["user"] == uid_of(api_world, ME)
    assert reactions[0]["item_user"] == uid_of(api_world, ME)
    cid = client_of(BOT).conversations_create(name="events-join")["channel"]["id"]
    client_of(BOT).conversations_invite(channel=cid, users=uid_of(api_world, ME))
    joins = wait_for(lambda: [e for e in bolt["seen"]["joins"] if e["channel"] == cid])
    assert joins[0]["user"] == uid_of(api_world, ME)


def test_nothing_is_sent_where_the_bot_is_not_a_member(
    bolt: dict[str, Any], api_world: World, client_of: Callable[[str], WebClient]
) -> None:
    me = client_of(ME)
    members = set(me.conversations_members(channel="engineering")["members"])
    assert uid_of(api_world, BOT) not in members
    ts = me.chat_postMessage(channel="engineering", text="deploy the thing")["ts"]
    delivery.dispatcher().join()
    time.sleep(0.3)
    assert replies_to(api_world, ts) == []


def test_failed_deliveries_are_retried_with_slacks_headers(
    api_world: World, client_of: Callable[[str], WebClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A receiver that fails the first try gets the retry, signed and numbered, with the
    wall-clock timestamp Bolt checks and the simulated time as the event's."""
    got: list[dict[str, Any]] = []
    receiver = Flask("receiver")

    @receiver.post("/hook")
    def hook() -> tuple[str, int]:
        body = request.get_data()
        payload = json.loads(body)
        if payload.get("type") == "url_verification":
            return json.dumps({"challenge": payload["challenge"]}), 200
        got.append({"headers": dict(request.headers), "body": body, "payload": payload})
        return ("", 500) if len(got) == 1 else ("", 200)

    url, stop = serve_wsgi(receiver)
    monkeypatch.setattr(delivery.dispatcher(), "retry_delays", (0.05, 0.05, 0.05))
    owner = client_of("mchang")
    created = owner.apps_manifest_create(manifest=manifest(f"{url}/hook", ["reaction_added"]))
    try:
        ts = owner.chat_postMessage(channel="general", text="retry me")["ts"]
        owner.reactions_add(channel="general", timestamp=ts, name="eyes")
        assert wait_for(lambda: len(got) >= 2)
    finally:
        owner.apps_manifest_delete(app_id=created["app_id"])
        stop()
    first, second = got[0], got[1]
    assert "X-Slack-Retry-Num" not in first["headers"]
    assert second["headers"]["X-Slack-Retry-Num"] == "1"
    assert second["headers"]["X-Slack-Retry-Reason"] == "http_error"
    verifier = SignatureVerifier(created["credentials"]["signing_secret"])
    assert verifier.is_valid_request(second["body"], second["headers"])
    assert abs(int(second["headers"]["X-Slack-Request-Timestamp"]) - time.time()) < 60
    simulated = api_world.clock.peek().replace(tzinfo=dt.UTC).timestamp()
    assert abs(second["payload"]["event_time"] - simulated) < 600  # the world's time
    assert first["payload"]["event_id"] == second["payload"]["event_id"]


def test_request_urls_off_this_machine_are_refused(
    api_world: World, client_of: Callable[[str], WebClient]
) -> None:
    """An agent must not make a served world post to other hosts (nor follow redirects)."""
    for url in ("http://example.com/events", "http://10.0.0.8/events", "ftp://127.0.0.1/x"):
        with pytest.raises(SlackApiError) as refused:
            client_of(ME).apps_manifest_create(manifest=manifest(url, ["reaction_added"]))
        assert refused.value.response["error"] == "invalid_manifest"
    with api_world.session() as s:
        assert not s.scalars(select(AppRow).where(AppRow.request_url.contains("example"))).all()
