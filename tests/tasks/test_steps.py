"""A spec's steps are its task's calls, checks, allowances and freedoms, in step order."""

from __future__ import annotations

from officegym.tasks.base import Spec
from officegym.tasks.checks import Allow, FieldEquals
from officegym.tasks.common import call
from officegym.tasks.freedom import Free
from officegym.tasks.steps import Step, flatten

SEARCH = call("booking_search_stays", city="paris-fr")
BOOK = call("booking_book_stay", listing_id=3)
BOOKED = FieldEquals(name="booked", table="booking_reservation", row_id=1, field="status",
                     value="confirmed")  # fmt: skip
ALLOW = Allow("booking_reservation")
FREE = Free("booking_reservation", ("note",), "any note")


def test_steps_join_in_order() -> None:
    spec = Spec(goal="g", persona="p", steps=[Step(calls=[SEARCH]), Step(calls=[BOOK],
                checks=[BOOKED], allowed=[ALLOW], free=[FREE])])  # fmt: skip
    work = spec.flat()
    assert work.calls == (SEARCH, BOOK)
    assert (work.checks, work.allowed, work.free) == ((BOOKED,), (ALLOW,), (FREE,))


def test_adding_steps_is_flattening_them() -> None:
    first, second = Step(calls=[SEARCH]), Step(calls=[BOOK], checks=[BOOKED])
    assert first + second == flatten([first, second])
    assert (first + second).calls == (SEARCH, BOOK)
    assert flatten([second, first]).calls == (BOOK, SEARCH)
