"""Writers of a served SQLite file queue instead of failing: every transaction takes the
write lock when it begins (``BEGIN IMMEDIATE``, with a bounded wait), so chat posts
through the Slack API and CRM edits through the pages, sent by many HTTP clients at
once, all succeed and all land."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

from sqlalchemy import func, select

from officegym.apps.booking.models import Reservation
from officegym.apps.crm.models import Account
from officegym.apps.slack.models import Message
from officegym.mcp_wrappers.asgi import build_asgi_app
from officegym.web import create_app
from officegym.world import World, world_image
from tests.apps.booking.helpers import free_stay
from tests.servers import served

ME = "asmith"
WRITERS, EACH = 12, 4


def post(url: str, data: bytes, headers: dict[str, str]) -> int:
    request = urllib.request.Request(url, data, headers, method="POST")
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(request, timeout=60) as answer:
            body = answer.read()
            if answer.headers.get_content_type() == "application/json":
                return answer.status if json.loads(body)["ok"] else 599
            return answer.status
    except urllib.error.HTTPError as exc:
        return exc.code


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def test_many_writers_at_once_all_land(tmp_path: Path) -> None:
    world = World(world_image("default", 0), url=f"sqlite:///{tmp_path / 'w.sqlite'}")
    tag = uuid.uuid4().hex[:8]
    statuses: list[int] = []

    def chat(i: int) -> None:
        for j in range(EACH):
            body = json.dumps({"channel": "general", "text": f"load {tag} {i}.{j}"}).encode()
            headers = {"Authorization": f"Bearer xoxp-{ME}", "Content-Type": "application/json"}
            statuses.append(post(f"{url}/api/chat.postMessage", body, headers))

    with world.session() as s:
        before = s.scalar(select(func.max(Reservation.id)))
    with world.session() as s:  # a free stay per booking writer and round
        stays = {(i, j): free_stay(s, ahead=30 + 4 * (EACH * i + j), nights=2)
                 for i in range(WRITERS) for j in range(EACH) if i % 3 == 2}  # fmt: skip

    def book(i: int) -> None:
        for j in range(EACH):
            listing, ci, co = stays[i, j]
            form = urllib.parse.urlencode({"check_in": ci, "check_out": co, "guests": 1})
            path = f"{url}/booking/listings/{listing.id}/book"
            statuses.append(post(path, form.encode(), {"Origin": url}))

    def crm(i: int) -> None:
        for j in range(EACH):
            form = urllib.parse.urlencode({"name": f"Load {tag} {i}.{j}"}).encode()
            statuses.append(post(f"{url}/crm/accounts/new", form, {"Origin": url}))

    try:
        with served(build_asgi_app(world, create_app(world, persona=ME))) as url:
            kinds = [crm, chat, book]
            threads = [threading.Thread(target=kinds[i % 3], args=(i,)) for i in range(WRITERS)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(120)
        assert len(statuses) == WRITERS * EACH
        assert set(statuses) == {200, 302}, sorted(statuses)  # API posts 200, form saves 302
        third = WRITERS * EACH // 3
        with world.session() as s:
            posted = select(func.count()).where(Message.text.like(f"load {tag} %"))
            made = select(func.count()).where(Account.name.like(f"Load {tag} %"))
            booked = select(func.count()).where(Reservation.id > before)
            assert (s.scalar(posted), s.scalar(made), s.scalar(booked)) == (third, third, third)
    finally:
        world.close()
