"""The company's travel policy: a cap on the average nightly rate per city (a default for
the rest); a stay above it needs the traveller's manager's approval, asked in the chat
and named when booking. Also who may see and change a trip."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.booking import pricing
from officegym.apps.booking.models import City, TravelPolicy
from officegym.apps.org.models import Person
from officegym.apps.org.service import find_person, profile
from officegym.errors import Forbidden, NotFound

__all__ = ["CITY_CAPS", "PolicyCheck", "check_policy", "nightly_cap", "require_traveller", "today"]

CITY_CAPS = "booking.caps"  # directory cache key: city id (None: default) -> cap in cents


def today(s: Session) -> dt.date:
    """The simulated date (never the real one)."""
    return s.info["clock"].peek().date()


def _caps(s: Session) -> dict[int | None, int]:
    cache = s.info.setdefault("directory", {})
    if CITY_CAPS not in cache:
        rows = s.execute(select(TravelPolicy.city_id, TravelPolicy.nightly_cap)).all()
        cache[CITY_CAPS] = {city_id: cap for city_id, cap in rows}
    return cache[CITY_CAPS]


def nightly_cap(s: Session, city: City) -> int:
    """The cap on the average nightly rate in `city`, in cents."""
    caps = _caps(s)
    if city.id in caps:
        return caps[city.id]
    if None not in caps:
        raise NotFound("the company has no travel policy", code="no_policy")
    return caps[None]


@dataclass(frozen=True)
class PolicyCheck:
    cap: int
    nightly: int
    approver: Person | None  # the manager who approved an over-policy stay

    @property
    def over(self) -> bool:
        return self.nightly > self.cap


def check_policy(
    s: Session, traveller: Person, city: City, q: pricing.Quote, approved_by: str | None
) -> PolicyCheck:
    """Within the cap, or over it with the traveller's manager named as having approved;
    else Forbidden quoting the cap and who must approve."""
    check = PolicyCheck(nightly_cap(s, city), q.average_nightly, None)
    if not check.over:
        return check
    manager = profile(s, traveller.id).manager
    rule = (
        f"the average nightly rate {pricing.money(check.nightly)} is over the travel policy "
        f"cap of {pricing.money(check.cap)} a night in {city.label}"
    )
    if manager is None:
        return check  # nobody above the traveller to ask
    if approved_by is None:
        raise Forbidden(
            f"{rule}; over-policy stays need approval from {traveller.name}'s manager "
            f"(@{manager}): ask them first, then book with approved_by='{manager}'",
            code="over_policy",
        )
    approver = find_person(s, approved_by)
    if approver.handle != manager:
        raise Forbidden(
            f"{rule}; only {traveller.name}'s manager (@{manager}) can approve it, "
            f"not {approver.name}",
            code="wrong_approver",
        )
    return PolicyCheck(check.cap, check.nightly, approver)


def require_traveller(actor: Person, guest_id: int, booked_by_id: int, what: str) -> None:
    """NotFound (as if absent) unless the actor travels on or booked the trip."""
    if actor.id not in (guest_id, booked_by_id):
        raise NotFound(f"no {what} of yours", code="trip_not_found")
