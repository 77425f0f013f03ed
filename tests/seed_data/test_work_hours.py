"""Seeded times follow their authors' working weeks: the chat's history, the approval
asks and their answers, the trips' bookings and the CRM's activities fall on weekdays
between 9:00 and 18:00 in the author's own time zone (issue 22), and the history stays
in each channel's id order (pages list messages by id)."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from sqlalchemy import select

from officegym.apps.booking.models import FlightBooking, Reservation
from officegym.apps.crm.models import Activity
from officegym.apps.org.models import Person
from officegym.apps.slack.models import Channel, Message
from officegym.seed_data.scenario import load_scenario
from officegym.seed_data.support_inbox import CHANNEL as SUPPORT_INBOX
from officegym.seed_data.work_hours import is_working, nearest, pick, within, workday
from officegym.world import World, world_image

# This morning's posts (the CRM's requests, the broken-sheet reports and the approval
# asks that follow them in the same DMs) are written in the hours just before now, when
# most of the company is asleep: they are what the tasks act on, and stay as they are.
MORNING = dt.timedelta(hours=4)


@dataclass
class Stamps:
    """(time, author's time zone) of each kind of seeded row, and the chat's order."""

    history: list[tuple[dt.datetime, str]]
    asks: list[tuple[dt.datetime, str]]
    answers: list[tuple[dt.datetime, str]]
    bookings: list[tuple[dt.datetime, str]]
    activities: list[tuple[dt.datetime, str]]
    channels: dict[int, list[tuple[int, dt.datetime]]]  # top-level (id, time) per channel


def _stamps(scenario: str) -> Stamps:
    now = load_scenario(scenario).date
    w = World(world_image(scenario, 0))
    try:
        with w.session() as s:
            tz = {p.id: p.timezone for p in s.scalars(select(Person))}
            inbox = s.scalar(select(Channel.id).where(Channel.name == SUPPORT_INBOX))
            msgs = list(s.scalars(select(Message).order_by(Message.id)))
            books = [(r.created_at, tz[r.booked_by_id]) for r in s.scalars(select(Reservation))]
            flights = [(f.created_at, tz[f.booked_by_id]) for f in s.scalars(select(FlightBooking))]
            acts = [(a.created_at, tz[a.owner_id]) for a in s.scalars(select(Activity))]
    finally:
        w.close()
    asks, answers = _asks(msgs, now)
    history = [m for m in msgs if m.created_at < now - MORNING and m.channel_id != inbox]
    channels: dict[int, list[tuple[int, dt.datetime]]] = {}
    for m in history:
        if m.thread_parent_id is None:
            channels.setdefault(m.channel_id, []).append((m.id, m.created_at))
    return Stamps([(m.created_at, tz[m.user_id]) for m in history],
                  [(m.created_at, tz[m.user_id]) for m in asks],
                  [(m.created_at, tz[m.user_id]) for m in answers],
                  books + flights, acts, channels)  # fmt: skip


def _asks(msgs: list[Message], now: dt.datetime) -> tuple[list[Message], list[Message]]:
    """The approval asks and their answers (the manager's next message; a pending request
    has none), but for those after this morning's posts in their DM (nothing there can be
    in anyone's working hours)."""
    asks, answers = [], []
    by_channel: dict[int, list[Message]] = {}
    for m in msgs:
        by_channel.setdefault(m.channel_id, []).append(m)
    for m in msgs:
        if "travel policy cap" not in m.text:
            continue
        dm = by_channel[m.channel_id]
        i = dm.index(m)
        if any(x.created_at >= now - MORNING for x in dm[:i]):
            continue
        asks.append(m)
        answers += [x for x in dm[i + 1 : i + 2] if x.user_id != m.user_id]  # none if pending
    return asks, answers


@pytest.fixture(scope="module", params=["default", "startup"])
def stamps(request: pytest.FixtureRequest) -> Iterator[Stamps]:
    yield _stamps(request.param)


def _share(rows: list[tuple[dt.datetime, str]]) -> float:
    return sum(is_working(when, tz) for when, tz in rows) / len(rows)


def test_the_chat_history_is_written_in_working_hours(stamps: Stamps) -> None:
    # A channel's last posts of the history may run on into the last working evening: a
    # colleague further west posted late, and the channel's ids follow time.
    assert len(stamps.history) > 1000
    assert _share(stamps.history) >= 0.99


def test_the_history_keeps_each_channels_ids_in_time_order(stamps: Stamps) -> None:
    for posts in stamps.channels.values():
        times = [when for _, when in posts]
        assert times == sorted(times)


def test_approval_asks_and_answers_are_in_working_hours(stamps: Stamps) -> None:
    # the seeded requests (seed_data/approval_requests.py) still wait for their answer
    assert len(stamps.asks) >= 10 and len(stamps.answers) >= 10
    assert _share(stamps.asks) == 1.0
    assert _share(stamps.answers) == 1.0


def test_trips_are_booked_in_working_hours(stamps: Stamps) -> None:
    assert len(stamps.bookings) > 50
    assert _share(stamps.bookings) == 1.0


def test_crm_activities_are_logged_in_working_hours(stamps: Stamps) -> None:
    # An activity on a record created late on the last weekend (records keep their times)
    # has no working hour between the two: a handful of a few hundred.
    assert len(stamps.activities) > 80
    assert _share(stamps.activities) >= 0.98


def test_workday_keeps_the_day_and_moves_weekends_to_friday() -> None:
    ny = "America/New_York"
    monday_night = dt.datetime(2026, 2, 23, 3, 0)  # 22:00 on Sunday in New York
    moved = workday(monday_night, ny)
    assert moved.date() == monday_night.date() and is_working(moved, ny)
    saturday = dt.datetime(2026, 2, 28, 15, 0)
    assert workday(saturday, ny).date() == dt.date(2026, 2, 27)
    assert workday(saturday, ny, back=False).date() == dt.date(2026, 3, 2)
    at_work = dt.datetime(2026, 2, 25, 15, 0)
    assert workday(at_work, ny) == at_work
    # too early for the Friday before: the Monday after; neither fits: as it was
    assert within(saturday, ny, saturday, saturday + dt.timedelta(days=3)).weekday() == 0
    assert within(saturday, ny, saturday, saturday + dt.timedelta(hours=1)) == saturday


def test_picks_and_nearest_stay_in_working_hours() -> None:
    rng, tz = random.Random(7), "Europe/London"
    lo = dt.datetime(2026, 2, 20, 0, 0)
    for _ in range(50):
        when = pick(rng, lo, lo + dt.timedelta(days=9), tz)
        assert when is not None and is_working(when, tz)
    friday_night = dt.datetime(2026, 2, 27, 20, 0)
    assert nearest(friday_night, friday_night + dt.timedelta(days=1), tz) is None
    monday = nearest(friday_night, friday_night + dt.timedelta(days=4), tz)
    assert monday is not None and monday.weekday() == 0 and is_working(monday, tz)
