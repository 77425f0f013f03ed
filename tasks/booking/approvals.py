"""Booking templates for managers: the over-policy stays their reports booked wait for a
decision (`seed_data.approval_requests`), and the travel policy says which to approve
(within the margin over the cap, or with a stated business purpose) and which to decline.
The simulated managers of an episode leave these seeded requests alone
(`tasks.approver`), so the queue is the persona's to work through."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.booking import service as booking
from officegym.apps.booking.models import Reservation
from officegym.apps.org.models import Person
from officegym.apps.slack import service as chat
from officegym.tasks.base import Spec, template
from officegym.tasks.booking.common import booking_index
from officegym.tasks.checks import FieldEquals
from officegym.tasks.common import call, pick
from officegym.tasks.freedom import Free
from officegym.tasks.steps import Step


def _queues(w: Session) -> dict[int, list[Reservation]]:
    """Manager id -> the stays awaiting their approval, oldest request first."""
    out: dict[int, list[Reservation]] = {}
    for row in booking_index(w).stays:
        if row.status == "pending":
            boss = w.get_one(Person, row.guest_id).manager_id
            if boss is not None:
                out.setdefault(boss, []).append(w.get_one(Reservation, row.id))
    return out


def _scopes(w: Session) -> list[tuple[int, str, list[Reservation]]]:
    """What a manager may be asked to decide: (manager id, goal, the requests): their whole
    queue (when the policy both approves and declines in it), one report's requests
    (when others wait too) or one request (when others wait too)."""
    out = []
    for boss, queue in sorted(_queues(w).items()):
        if len({booking.policy_decision(w, r).approve for r in queue}) == 2:
            out.append((boss, ALL, queue))
        guests = sorted({r.guest_id for r in queue})
        for guest in guests if len(guests) > 1 else ():
            theirs = [r for r in queue if r.guest_id == guest]
            out.append((boss, _of(w, theirs), theirs))
        for r in queue if len(queue) > 1 else ():
            out.append((boss, _one(w, r), [r]))
    return out


ALL = (
    "Some of your reports booked stays over the travel policy cap, and they are waiting for "
    "your approval on the booking site. Decide each of them as the travel policy says."
)
LATER = "Leave any other requests for later."


def _of(w: Session, theirs: list[Reservation]) -> str:
    who = w.get_one(Person, theirs[0].guest_id).handle
    n = len(theirs)
    stays = "a stay" if n == 1 else f"{n} stays"
    wait = "waits" if n == 1 else "wait"
    return (f"@{who} booked {stays} over the travel policy cap that {wait} for your approval on "
            f"the booking site. Decide {'it' if n == 1 else 'each'} as the travel policy says. "
            f"{LATER}")  # fmt: skip


def _one(w: Session, r: Reservation) -> str:
    who = w.get_one(Person, r.guest_id).handle
    return (f'@{who}\'s stay at "{r.listing.title}" in {r.listing.city.label} from '
            f"{r.check_in:%B %-d} to {r.check_out:%B %-d, %Y} waits for your approval on the "
            f"booking site. Decide it as the travel policy says. {LATER}")  # fmt: skip


def decide_step(w: Session, me: Any, r: Reservation) -> Step:
    """Decide held stay `r` as the travel policy says: the check of its end status, and
    the DM answer the decision posts free in its words (the manager may add a note)."""
    approve = booking.policy_decision(w, r).approve
    status = ("confirmed" if r.listing.instant_book else "requested") if approve else "declined"
    booker = w.get_one(Person, r.booked_by_id)
    dm = chat.find_dm(w, w.get_one(Person, me.id), [booker])
    where = {"user_id": me.id, **({"channel_id": dm.id} if dm is not None else {})}
    verb = "approved" if approve else "declined"
    return Step(
        calls=[
            call(
                "booking_decide_approval", code=r.code, decision="approve" if approve else "decline"
            )
        ],
        checks=[
            FieldEquals(
                name=f"{r.code} {verb} by the policy",
                table="booking_reservation",
                row_id=r.id,
                field="status",
                value=status,
            )
        ],
        free=[
            Free(
                "slack_message", ("text",), "the decision's DM answer may carry a note", where=where
            )
        ],
    )


@template("booking.decide-approvals", difficulty="medium")
def decide_approvals(w: Session, rng: random.Random) -> Spec:
    """Decide over-policy stays awaiting your approval (all, a report's, or one) as the
    travel policy says."""
    boss_id, goal, chosen = pick(rng, _scopes(w), "managers with approval requests to decide")
    me = booking_index(w).people[boss_id]
    return Spec(
        goal=goal,
        persona=me.handle,
        steps=[
            Step(calls=[call("booking_list_approvals")]),
            *(decide_step(w, me, r) for r in chosen),
        ],
    )
