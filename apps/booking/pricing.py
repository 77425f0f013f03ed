"""The booking site's money rules, as pure functions: the one place a price is computed.

The service, the pages, the tools, the seeders and the graders all call these, with the
listing (or fare), the dates and the simulated today; nothing here reads the database
or the clock. Amounts are integer cents, rounded half up to whole dollars as the sites
show US prices ("$1,234").

Stays (`quote`): each night costs the listing's weekday rate (Sunday-Thursday nights) or
weekend rate (Friday and Saturday nights), unless a price rule (a season, a holiday)
covers it. Stays of 7+ nights take the weekly discount, of 28+ nights the monthly one,
off the nights. Then a cleaning fee once, a service fee of 14% and the city's occupancy
tax, both on (nights - discount + cleaning). "Cheapest" means the lowest total.

Cancelling a stay (`stay_refund`) refunds by the listing's policy and the days left
before check-in, nothing once the stay has begun. The schedules are data (`POLICIES`), and
`policy_terms` words them for the pages: flexible gives all back until a day ahead, moderate
until 5 days ahead, strict within 48 hours of booking (14+ days ahead), then half the nights
until 7 days ahead; later, part of the nights, the cleaning fee and their taxes, or nothing.

Flights (`fare_price`, `flight_change`, `flight_refund`): a fare's price per traveller is
its base 3+ weeks ahead, more as departure nears, +10% on Fridays and Sundays. A change
costs the fare's change fee plus any rise in price (a fall is not refunded); Basic
Economy cannot be changed. Cancelling refunds a refundable fare in full; other fares
refund nothing, except under the 24-hour rule (cancelled within 24 hours of booking, a
week or more before departure).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from officegym.errors import Forbidden, Invalid

__all__ = [
    "POLICIES",
    "SERVICE_FEE_BP",
    "CancellationPolicy",
    "FlightChange",
    "Night",
    "Quote",
    "Refund",
    "Term",
    "Tier",
    "dollars",
    "fare_price",
    "flight_change",
    "flight_refund",
    "money",
    "policy_terms",
    "quote",
    "share",
    "stay_refund",
]

SERVICE_FEE_BP = 1400  # 14%, in basis points
WEEKLY_NIGHTS, MONTHLY_NIGHTS = 7, 28
DAY = dt.timedelta(days=1)


class Rates(Protocol):
    """What a quote reads of a listing (a `Listing` row or anything shaped like it)."""

    nightly: int
    weekend: int
    cleaning_fee: int
    weekly_discount: int
    monthly_discount: int


class Rule(Protocol):
    label: str
    start: dt.date
    end: dt.date
    nightly: int
    weekend: int


def dollars(cents: int | float) -> int:
    """`cents` rounded half up to whole dollars (still in cents)."""
    return int((cents + 50) // 100) * 100


def share(amount: int, numerator: int, denominator: int = 10_000) -> int:
    """amount x numerator / denominator (basis points by default), rounded to dollars."""
    return (amount * numerator * 2 + denominator * 100) // (denominator * 200) * 100


def money(cents: int | None) -> str:
    """An amount as people read it: $1,234 (with cents only when there are some)."""
    if cents is None:
        return ""
    sign, cents = ("-", -cents) if cents < 0 else ("", cents)
    whole, rest = divmod(cents, 100)
    return f"{sign}${whole:,}" + (f".{rest:02d}" if rest else "")


@dataclass(frozen=True)
class Night:
    day: dt.date
    rate: int
    label: str  # "weekday", "weekend" or a price rule's label


@dataclass(frozen=True)
class Quote:
    """A stay's price, line by line."""

    check_in: dt.date
    check_out: dt.date
    nights: tuple[Night, ...]
    accommodation: int
    discount: int
    discount_label: str
    cleaning_fee: int
    service_fee: int
    taxes: int
    total: int

    @property
    def average_nightly(self) -> int:
        """The nights after discount, per night (what the travel policy caps)."""
        return share(self.accommodation - self.discount, 1, len(self.nights))

    def rate_lines(self) -> list[tuple[str, int, int]]:
        """(what, nights, rate) groups in first-night order: '3 nights x $120 (weekday)'."""
        groups: dict[tuple[str, int], int] = {}
        for n in self.nights:
            groups[(n.label, n.rate)] = groups.get((n.label, n.rate), 0) + 1
        return [(label, count, rate) for (label, rate), count in groups.items()]

    def lines(self) -> list[tuple[str, int]]:
        """The receipt: (line, amount) from the nights to the total."""
        out = [(f"{c} night{'s' * (c > 1)} x {money(r)} ({label})", c * r)
               for label, c, r in self.rate_lines()]  # fmt: skip
        if self.discount:
            out.append((self.discount_label, -self.discount))
        out += [("Cleaning fee", self.cleaning_fee), ("Service fee", self.service_fee),
                ("Taxes", self.taxes), ("Total", self.total)]  # fmt: skip
        return out


def night_rate(listing: Rates, rules: Sequence[Rule], day: dt.date) -> Night:
    """What one night costs: a price rule covering it, else the weekday or weekend rate."""
    weekend = day.weekday() in (4, 5)  # Friday and Saturday nights
    for rule in rules:
        if rule.start <= day < rule.end:
            return Night(day, rule.weekend if weekend else rule.nightly, rule.label)
    if weekend:
        return Night(day, listing.weekend, "weekend")
    return Night(day, listing.nightly, "weekday")


def quote(
    listing: Rates, rules: Sequence[Rule], check_in: dt.date, check_out: dt.date, tax_rate: int
) -> Quote:
    """The price of staying from `check_in` to `check_out` (`tax_rate` in basis points)."""
    count = (check_out - check_in).days
    if count < 1:
        raise Invalid("check-out must be after check-in")
    nights = tuple(night_rate(listing, rules, check_in + i * DAY) for i in range(count))
    accommodation = sum(n.rate for n in nights)
    pct, label = 0, ""
    if count >= MONTHLY_NIGHTS and listing.monthly_discount:
        pct, label = listing.monthly_discount, f"Monthly discount ({listing.monthly_discount}%)"
    elif count >= WEEKLY_NIGHTS and listing.weekly_discount:
        pct, label = listing.weekly_discount, f"Weekly discount ({listing.weekly_discount}%)"
    discount = share(accommodation, pct, 100)
    taxable = accommodation - discount + listing.cleaning_fee
    service, taxes = share(taxable, SERVICE_FEE_BP), share(taxable, tax_rate)
    return Quote(check_in, check_out, nights, accommodation, discount, label,
                 listing.cleaning_fee, service, taxes, taxable + service + taxes)  # fmt: skip


# ---------------------------------------------------------------- cancelling a stay


class Paid(Protocol):
    """What a refund reads of a reservation (its quote's amounts)."""

    check_in: dt.date
    check_out: dt.date
    policy: str
    accommodation: int
    discount: int
    cleaning_fee: int
    service_fee: int
    taxes: int
    total: int
    created_at: dt.datetime


@dataclass(frozen=True)
class Refund:
    amount: int
    rule: str  # the policy's rule that applied, in words


@dataclass(frozen=True)
class Tier:
    """One step of a refund schedule: cancelled `days` or more before check-in (and fewer
    than the step before), what comes back."""

    days: int
    pct: int  # share of the nights back, with the cleaning fee and their taxes; 0: nothing
    whole: bool = False  # the whole total back, service fee included
    skip_first: bool = False  # the first night is kept


@dataclass(frozen=True)
class CancellationPolicy:
    """A listing's cancellation policy: its tiers (most days first, the last at 0) and a
    grace period: a full refund within `grace_hours` of booking if check-in is at least
    `grace_days` away."""

    tiers: tuple[Tier, ...]
    grace_hours: int = 0
    grace_days: int = 0


POLICIES: dict[str, CancellationPolicy] = {
    "flexible": CancellationPolicy((Tier(1, 100, whole=True), Tier(0, 100, skip_first=True))),
    "moderate": CancellationPolicy((Tier(5, 100, whole=True), Tier(0, 50, skip_first=True))),
    "strict": CancellationPolicy((Tier(7, 50), Tier(0, 0)), grace_hours=48, grace_days=14),
}


def _when(tiers: Sequence[Tier], i: int) -> str:
    """When tier `i` applies, in words: 'cancelled 5 or more days ahead'."""
    if tiers[i].days:
        return f"cancelled {tiers[i].days} or more days ahead"
    before = tiers[i - 1].days
    return "cancelled on the check-in day" if before == 1 else (
        f"cancelled less than {before} days ahead")  # fmt: skip


def _back(t: Tier) -> str:
    """What tier `t` refunds, in words."""
    if t.whole:
        return "full refund"
    if not t.pct:
        return "no refund"
    which = "the nights after the first" if t.skip_first else "the nights"
    return f"{t.pct}% of {which}, the cleaning fee and their taxes"


def stay_refund(r: Paid, now: dt.datetime) -> Refund:
    """What cancelling reservation `r` at simulated time `now` refunds, by `POLICIES`."""
    days = (r.check_in - now.date()).days
    if days < 0:
        raise Forbidden(
            f"the stay began on {r.check_in:%b %-d, %Y}; a stay cannot be cancelled once it "
            "has begun (message the host instead)",
            code="stay_started",
        )
    policy, name = POLICIES[r.policy], f"{r.policy.capitalize()} policy"
    grace = dt.timedelta(hours=policy.grace_hours)
    if policy.grace_hours and now - r.created_at <= grace and days >= policy.grace_days:
        return Refund(
            r.total, f"{name}, cancelled within {policy.grace_hours} hours of booking: full refund"
        )
    i = next(i for i, t in enumerate(policy.tiers) if days >= t.days)
    tier = policy.tiers[i]
    why = f"{name}: " if tier.whole else f"{name}, {_when(policy.tiers, i)}: "
    amount = r.total if tier.whole else _partial(r, tier) if tier.pct else 0
    return Refund(amount, why + _back(tier))


def _partial(r: Paid, t: Tier) -> int:
    """`t.pct`% of the nights (after discount; without the first night if `t.skip_first`),
    the cleaning fee, and the taxes on both; the service fee is kept."""
    n = (r.check_out - r.check_in).days
    net = r.accommodation - r.discount
    kept_nights = n - 1 if t.skip_first else n
    nights = share(net * kept_nights, t.pct, 100 * n)
    taxable = net + r.cleaning_fee
    taxes = share(r.taxes, nights + r.cleaning_fee, taxable) if taxable else 0
    return nights + r.cleaning_fee + taxes


@dataclass(frozen=True)
class Term:
    """One row of a policy's refund schedule as a page shows it."""

    when: str
    back: str


def policy_terms(policy: str, check_in: dt.date | None = None) -> list[Term]:
    """The refund schedule of `policy` in words, from the same `POLICIES` the refunds use;
    with a check-in, each step's dates too."""
    p = POLICIES[policy]
    out = []
    if p.grace_hours:
        out.append(Term(f"Within {p.grace_hours} hours of booking, if check-in is "
                        f"{p.grace_days} or more days away", "Full refund"))  # fmt: skip
    for i, t in enumerate(p.tiers):
        when = _when(p.tiers, i).replace("ahead", "before check-in").capitalize()
        if check_in and t.days:
            when += f" (by {check_in - t.days * DAY:%b %-d})"
        elif check_in:
            first = check_in - (p.tiers[i - 1].days - 1) * DAY
            when += f" ({first:%b %-d}" + (f" to {check_in:%b %-d})" if first < check_in else ")")
        back = _back(t).capitalize()
        out.append(Term(when, back if t.whole or not t.pct else f"{back}; the service fee is kept"))
    return [*out, Term("Once the stay has begun", "It cannot be cancelled; message the host")]


# ---------------------------------------------------------------- flights


class FareRules(Protocol):
    brand: str
    base: int
    refundable: bool
    change_fee: int | None


def fare_price(fare: FareRules, flight_date: dt.date, today: dt.date) -> int:
    """A fare's price per traveller on `flight_date`, bought `today`."""
    days = (flight_date - today).days
    if days < 0:
        raise Invalid(f"{flight_date:%b %-d, %Y} is in the past")
    pct = 100 if days >= 21 else 115 if days >= 14 else 135 if days >= 7 else 160
    if flight_date.weekday() in (4, 6):  # Fridays and Sundays
        pct += 10
    return share(fare.base, pct, 100)


def fare_rules(fare: FareRules) -> list[str]:
    """The fare's rules in words, as a manage-booking page lists them."""
    change = (
        "No changes allowed"
        if fare.change_fee is None
        else ("Free changes" if fare.change_fee == 0 else f"Change fee {money(fare.change_fee)}")
    )
    refund = "Refundable" if fare.refundable else "Non-refundable"
    return [f"{change} (plus any fare difference)" if fare.change_fee is not None else change,
            refund, "Full refund within 24 hours of booking, 7+ days before departure"]  # fmt: skip


@dataclass(frozen=True)
class FlightChange:
    fee: int  # all travellers
    difference: int  # all travellers, never negative
    new_price: int  # per traveller

    @property
    def due(self) -> int:
        return self.fee + self.difference


def flight_change(
    fare: FareRules, old_price: int, new_price: int, travellers: int, departed: bool
) -> FlightChange:
    """What moving a booking to a flight now priced `new_price` costs, or Forbidden with the
    fare rule that refuses it."""
    if departed:
        raise Forbidden("the flight has already departed; it cannot be changed", code="departed")
    if fare.change_fee is None:
        raise Forbidden(
            f"{fare.brand} fares cannot be changed (fare rule: no changes allowed); "
            "cancel under the fare's rules and book again instead",
            code="fare_not_changeable",
        )
    difference = max(0, new_price - old_price) * travellers
    return FlightChange(fare.change_fee * travellers, difference, new_price)


def flight_refund(
    fare: FareRules, total: int, booked: dt.datetime, flight_date: dt.date, now: dt.datetime
) -> Refund:
    """What cancelling a flight booking refunds (see the module)."""
    if flight_date < now.date():
        raise Forbidden("the flight has already departed; it cannot be cancelled", code="departed")
    if now - booked <= dt.timedelta(hours=24) and (flight_date - now.date()).days >= 7:
        return Refund(total, "24-hour rule: cancelled within 24 hours of booking, full refund")
    if fare.refundable:
        return Refund(total, f"{fare.brand} fare is refundable: full refund")
    return Refund(0, f"{fare.brand} fare is non-refundable: no refund")
