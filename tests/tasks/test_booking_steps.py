"""Booking step builders: each carries its act's call, checks and allowances, and the
allowances leave room for what the goal needs only (one payment a booking, change or
cancellation makes; the nights of the one reservation), so one stray write costs."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

import pytest

from officegym.tasks import make_task
from officegym.tasks.booking.steps import book_stay, cancel_stay, change_stay
from officegym.tasks.checks import Allow
from officegym.tasks.validate import replay
from officegym.tools import ToolCall
from officegym.world import World

DAY = dt.timedelta(days=1)
STAY = SimpleNamespace(id=7, code="HMX", listing_id=3, check_in=dt.date(2026, 3, 2),
                       check_out=dt.date(2026, 3, 5))  # fmt: skip


@pytest.fixture(scope="module")
def world(module_world: World) -> World:
    return module_world


def _limits(allowed: list[Allow], table: str) -> dict[tuple[str, ...], int | None]:
    return {a.kinds: a.limit for a in allowed if a.table == table}


def test_a_booking_allows_its_nights_and_one_charge() -> None:
    step = book_stay(4, 3, STAY.check_in, STAY.check_out, name="booked", where={"guest_id": 4})
    assert [c.name for c in step.calls] == ["booking_book_stay"]
    assert step.calls[0].arguments["check_in"] == "2026-03-02"
    assert _limits(list(step.allowed), "booking_night") == {("insert",): 3}
    assert _limits(list(step.allowed), "booking_payment") == {("insert",): 1}
    assert step.checks[0].where["guest_id"] == 4  # type: ignore[attr-defined]


def test_a_change_allows_the_nights_it_gives_up_and_takes_again() -> None:
    step = change_stay(STAY, "check_out", STAY.check_out + 2 * DAY, name="later", total=900)
    nights = _limits(list(step.allowed), "booking_night")
    assert nights == {("delete",): 3, ("insert",): 5}
    assert _limits(list(step.allowed), "booking_payment") == {("insert",): 1}
    assert [c.weight for c in step.checks] == [1.0, 0.5]


def test_a_cancellation_takes_no_night_again() -> None:
    step = cancel_stay(STAY, 1200)
    assert _limits(list(step.allowed), "booking_night") == {("delete",): 3}
    assert [c.name for c in step.calls] == ["booking_preview_cancellation", "booking_cancel_stay"]


def test_extending_in_two_changes_pays_twice_and_costs(world: World) -> None:
    task = make_task("booking.extend-stay", 0)  # seed 0 extends by two nights
    find, change = task.solution
    out = dt.date.fromisoformat(change.arguments["check_out"])
    first = ToolCall(change.name, {**change.arguments, "check_out": (out - DAY).isoformat()})
    graded, errors = replay(world, task, [find, first, change], task.answer)
    assert not errors
    assert not graded.passed
    assert any("booking_payment" in d for d in graded.collateral)
    reference, errors = replay(world, task, task.solution, task.answer)
    assert not errors and reference.passed and not reference.collateral
