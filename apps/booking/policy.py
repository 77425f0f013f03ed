"""The company's travel policy: a cap on the average nightly rate per city (a default for
the rest); a stay above it is held until the traveller's manager approves it
(`approvals`). Also who may see and change a trip."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.booking import pricing
from officegym.apps.booking.models import City, TravelPolicy
from officegym.apps.org.models import Person
from officegym.apps.org.service import find_person, profile
from officegym.errors import NotFound

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
    manager: Person | None  # who approves an over-policy stay (None: nobody above)

    @property
    def over(self) -> bool:
        return self.nightly > self.cap

    @property
    def needs_approval(self) -> bool:
        return self.over and self.manager is not None


def check_policy(s: Session, traveller: Person, city: City, q: pricing.Quote) -> PolicyCheck:
    """The cap in `city`, the quote's average nightly rate and the traveller's manager (who
    approves a stay over the cap; see `approvals`)."""
    manager = profile(s, traveller.id).manager
    approver = find_person(s, manager) if manager else None
    return PolicyCheck(nightly_cap(s, city), q.average_nightly, approver)


def require_traveller(actor: Person, guest_id: int, booked_by_id: int, what: str) -> None:
    """NotFound (as if absent) unless the actor travels on or booked the trip."""
    if actor.id not in (guest_id, booked_by_id):
        raise NotFound(f"no {what} of yours", code="trip_not_found")
