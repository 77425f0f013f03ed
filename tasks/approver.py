"""The simulated managers of an episode: each over-policy stay held for a manager other
than the persona is decided as the travel policy says (`booking.policy_decision`:
approve within the margin over the cap or with a stated business purpose, decline the
rest), deterministically, right after the write step that made the request. Only the
requests made during the episode: those seeded before it (`seed_data.approval_requests`)
wait for their managers, as a queue a manager persona works through. A persona who is
the manager decides their own reports' requests themself."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.booking import service as booking
from officegym.apps.booking.models import Reservation
from officegym.apps.org.models import Person

__all__ = ["decide_requests"]

_PENDING = select(Reservation).where(Reservation.status == "pending").order_by(Reservation.id)


def decide_requests(s: Session, persona_id: int, *, after_id: int = 0) -> list[Reservation]:
    """Decide, as each traveller's manager by the policy, the stays held after
    reservation `after_id` (the last one before the episode) awaiting a manager who is
    not the persona; the decided stays (the caller commits)."""
    out = []
    for r in s.scalars(_PENDING.where(Reservation.id > after_id)).all():
        manager_id = s.get_one(Person, r.guest_id).manager_id
        if manager_id is None or manager_id == persona_id:
            continue
        decision = booking.policy_decision(s, r)
        note = f"Per the travel policy: {decision.reason}."
        manager = s.get_one(Person, manager_id)
        out.append(booking.decide_approval(s, manager, r, approve=decision.approve, note=note))
    return out
