"""Double bookings raced from two real sessions on two threads, on a SQLite file world
and on the local PostgreSQL: one booking lands, the other is a Conflict, and no night is
held twice."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select

from officegym.apps.booking.models import BookedNight, Reservation
from officegym.runner import CallOutcome, ToolRunner
from officegym.world import World, world_image
from tests.postgres import postgres_world

from .helpers import free_stay, person


def race(world: World, rounds: int = 3) -> None:
    with world.session() as s:
        handles = [person(s).handle, person(s, with_manager=False).handle]
        stays = [free_stay(s, ahead=20 + 9 * i) for i in range(rounds)]
    for listing, ci, co in stays:
        args = {"listing_id": listing.id, "check_in": ci.isoformat(), "check_out": co.isoformat()}
        outcomes: list[CallOutcome] = []
        start = threading.Barrier(2)

        def book(
            handle: str,
            args: dict = args,
            outcomes: list = outcomes,
            start: threading.Barrier = start,
        ) -> None:
            runner = ToolRunner(world, handle)
            start.wait()
            outcomes.append(runner.call("booking_book_stay", args))
            runner.close()

        threads = [threading.Thread(target=book, args=(h,)) for h in handles]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert sorted(o.ok for o in outcomes) == [False, True], outcomes
        [lost] = [o for o in outcomes if not o.ok]
        assert lost.code == "not_available", lost
        with world.session() as s:
            live = select(func.count()).where(
                Reservation.listing_id == listing.id, Reservation.status == "confirmed",
                Reservation.check_in < co, Reservation.check_out > ci,
            )  # fmt: skip
            held = select(func.count(BookedNight.id), func.count(BookedNight.night.distinct()))
            held = held.where(BookedNight.listing_id == listing.id)
            assert s.scalar(live) == 1
            n, distinct = s.execute(held).one()
            assert n == distinct


def test_a_race_on_a_sqlite_file_books_once(tmp_path: Path) -> None:
    world = World(world_image("default", 0), url=f"sqlite:///{tmp_path / 'race.sqlite'}")
    try:
        race(world)
    finally:
        world.close()


@pytest.fixture(scope="module")
def pg_world() -> Iterator[World]:
    with postgres_world() as world:
        yield world


@pytest.mark.postgres
def test_a_race_on_postgresql_books_once(pg_world: World) -> None:
    race(pg_world)
