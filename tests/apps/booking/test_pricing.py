"""The money rules, checked against arithmetic done by hand in each test: nights at
weekday, weekend and seasonal rates, length-of-stay discounts, fees and taxes rounded to
whole dollars; refunds by policy at each boundary; fare prices, changes and refunds."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pytest

from officegym.apps.booking import pricing
from officegym.errors import Forbidden, Invalid

D = dt.date


@dataclass
class Rates:
    nightly: int = 10_000
    weekend: int = 15_000
    cleaning_fee: int = 5_000
    weekly_discount: int = 10
    monthly_discount: int = 25


@dataclass
class Season:
    label: str
    start: dt.date
    end: dt.date
    nightly: int
    weekend: int


def test_weekday_and_weekend_nights_then_fees_and_taxes() -> None:
    # Thu 2026-03-05 to Sun 2026-03-08: Thu night weekday, Fri and Sat nights weekend.
    q = pricing.quote(Rates(), [], D(2026, 3, 5), D(2026, 3, 8), tax_rate=1000)
    assert [n.label for n in q.nights] == ["weekday", "weekend", "weekend"]
    assert q.accommodation == 100_00 + 2 * 150_00
    taxable = 400_00 + 50_00
    assert q.service_fee == 63_00  # 14% of $450
    assert q.taxes == 45_00  # 10% of $450
    assert q.total == taxable + 63_00 + 45_00
    assert q.lines()[-1] == ("Total", q.total)
    assert q.average_nightly == 133_00  # $400 / 3 rounded


def test_a_season_overrides_the_rates_and_a_week_takes_the_weekly_discount() -> None:
    season = Season("Spring break", D(2026, 3, 9), D(2026, 3, 11), 20_000, 25_000)
    q = pricing.quote(Rates(), [season], D(2026, 3, 8), D(2026, 3, 15), tax_rate=0)
    rates = [n.rate for n in q.nights]  # Sun, Mon*, Tue*, Wed, Thu, Fri, Sat
    assert rates == [10_000, 20_000, 20_000, 10_000, 10_000, 15_000, 15_000]
    assert q.discount == 10_000  # 10% of $1,000
    assert q.discount_label.startswith("Weekly discount")
    assert q.service_fee == pricing.share(100_000 - 10_000 + 5_000, 1400)


def test_rounding_is_half_up_to_whole_dollars() -> None:
    assert pricing.share(10_050, 10_000) == 10_100  # $100.50 -> $101
    assert pricing.share(10_049, 10_000) == 10_000
    assert pricing.money(123_400) == "$1,234" and pricing.money(-500) == "-$5"


def test_check_out_must_follow_check_in() -> None:
    with pytest.raises(Invalid):
        pricing.quote(Rates(), [], D(2026, 3, 5), D(2026, 3, 5), tax_rate=0)


@dataclass
class Paid:
    check_in: dt.date
    check_out: dt.date
    policy: str
    accommodation: int = 400_00
    discount: int = 0
    cleaning_fee: int = 50_00
    service_fee: int = 63_00
    taxes: int = 45_00
    total: int = 558_00
    created_at: dt.datetime = dt.datetime(2026, 2, 1, 12)


def at(day: str, hour: int = 9) -> dt.datetime:
    return dt.datetime.fromisoformat(day).replace(hour=hour)


def test_flexible_full_until_the_day_before_then_all_but_the_first_night() -> None:
    r = Paid(D(2026, 3, 10), D(2026, 3, 14), "flexible")
    assert pricing.stay_refund(r, at("2026-03-09")).amount == 558_00
    # on the day: 3 of 4 nights ($300) + cleaning ($50), and their share of taxes (45 * 350/450)
    assert pricing.stay_refund(r, at("2026-03-10")).amount == 300_00 + 50_00 + 35_00
    with pytest.raises(Forbidden):
        pricing.stay_refund(r, at("2026-03-11"))


def test_moderate_full_five_days_ahead_then_half_of_the_nights_after_the_first() -> None:
    r = Paid(D(2026, 3, 10), D(2026, 3, 14), "moderate")
    assert pricing.stay_refund(r, at("2026-03-05")).amount == 558_00
    # 50% of $300 = $150, + $50 cleaning, + taxes 45 * 200/450 = $20
    assert pricing.stay_refund(r, at("2026-03-06")).amount == 150_00 + 50_00 + 20_00


def test_strict_grace_period_half_a_week_ahead_then_nothing() -> None:
    booked = dt.datetime(2026, 2, 20, 9)
    r = Paid(D(2026, 3, 10), D(2026, 3, 14), "strict", created_at=booked)
    assert pricing.stay_refund(r, booked + dt.timedelta(hours=47)).amount == 558_00
    # 50% of $400 = $200, + $50, + taxes 45 * 250/450 = $25
    assert pricing.stay_refund(r, at("2026-03-03")).amount == 200_00 + 50_00 + 25_00
    assert pricing.stay_refund(r, at("2026-03-04")).amount == 0


def test_refund_rules_keep_their_words() -> None:
    r = Paid(D(2026, 3, 10), D(2026, 3, 14), "moderate")
    assert pricing.stay_refund(r, at("2026-03-05")).rule == "Moderate policy: full refund"
    assert pricing.stay_refund(r, at("2026-03-06")).rule == (
        "Moderate policy, cancelled less than 5 days ahead: 50% of the nights after the "
        "first, the cleaning fee and their taxes"
    )
    flexible = Paid(D(2026, 3, 10), D(2026, 3, 14), "flexible")
    assert pricing.stay_refund(flexible, at("2026-03-10")).rule.startswith(
        "Flexible policy, cancelled on the check-in day: 100% of the nights after the first"
    )
    strict = Paid(D(2026, 3, 10), D(2026, 3, 14), "strict")
    assert pricing.stay_refund(strict, at("2026-03-04")).rule == (
        "Strict policy, cancelled less than 7 days ahead: no refund"
    )


@pytest.mark.parametrize("policy", sorted(pricing.POLICIES))
def test_the_schedule_a_page_shows_is_the_refund_each_day_gets(policy: str) -> None:
    """On every day before check-in, the row of `policy_terms` whose dates hold that day
    says what `stay_refund` gives (booked long before: no grace period)."""
    r = Paid(D(2026, 3, 20), D(2026, 3, 24), policy)
    terms = pricing.policy_terms(policy, r.check_in)
    dated = [t for t in terms if "(" in t.when]
    for ahead in range(0, 20):
        day = r.check_in - dt.timedelta(days=ahead)
        got = pricing.stay_refund(r, at(day.isoformat()))
        row = next(t for t in dated if _holds(t.when, day, r.check_in))
        assert row.back.split(";")[0].lower() in got.rule.lower(), (ahead, row, got)
    assert terms[-1].when == "Once the stay has begun"


def _holds(when: str, day: dt.date, check_in: dt.date) -> bool:
    """Whether `day` falls in a row's dates: "(by Mar 15)", "(Mar 16 to Mar 20)", "(Mar 20)"."""
    inside = when[when.index("(") + 1 : -1].removeprefix("by ")
    ends = [dt.datetime.strptime(f"{e} {check_in.year}", "%b %d %Y").date()
            for e in inside.split(" to ")]  # fmt: skip
    if when.endswith(f"(by {inside})"):
        return day <= ends[0]
    return ends[0] <= day <= ends[-1]


@dataclass
class FareX:
    brand: str
    base: int
    refundable: bool
    change_fee: int | None


def test_fare_price_rises_as_departure_nears_and_on_fridays_and_sundays() -> None:
    fare = FareX("Main", 200_00, False, 99_00)
    today = D(2026, 3, 2)  # a Monday
    assert pricing.fare_price(fare, D(2026, 3, 24), today) == 200_00  # Tue, 22 days
    assert pricing.fare_price(fare, D(2026, 3, 18), today) == 230_00  # Wed, 16 days: +15%
    assert pricing.fare_price(fare, D(2026, 3, 13), today) == 290_00  # Fri, 11 days: +35% +10%
    assert pricing.fare_price(fare, D(2026, 3, 4), today) == 320_00  # Wed, 2 days: +60%


def test_basic_economy_cannot_change_and_main_pays_fee_plus_rise() -> None:
    with pytest.raises(Forbidden, match="no changes allowed"):
        pricing.flight_change(FareX("Basic Economy", 1, False, None), 100, 200, 1, False)
    change = pricing.flight_change(FareX("Main", 1, False, 99_00), 200_00, 260_00, 2, False)
    assert (change.fee, change.difference, change.due) == (198_00, 120_00, 318_00)
    cheaper = pricing.flight_change(FareX("Main", 1, False, 99_00), 200_00, 150_00, 1, False)
    assert cheaper.difference == 0


def test_flight_refunds_follow_refundability_and_the_24_hour_rule() -> None:
    booked = dt.datetime(2026, 3, 1, 10)
    basic = FareX("Basic Economy", 1, False, None)
    assert pricing.flight_refund(basic, 300_00, booked, D(2026, 3, 20), booked).amount == 300_00
    later = booked + dt.timedelta(hours=25)
    assert pricing.flight_refund(basic, 300_00, booked, D(2026, 3, 20), later).amount == 0
    flex = FareX("Flex", 1, True, 0)
    assert pricing.flight_refund(flex, 300_00, booked, D(2026, 3, 20), later).amount == 300_00
