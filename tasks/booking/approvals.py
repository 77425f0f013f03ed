"""Booking templates for managers: the over-policy stays their reports booked wait for a
decision (`seed_data.approval_requests`), and the travel policy says which to approve
(within the margin over the cap, or with a stated business purpose) and which to decline.
The simulated managers of an episode leave these seeded requests alone
(`tasks.approver`), so the queue is the persona's to work through."""

from __future__ import annotations

import itertools
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
    queue, or some of its requests named (the others wait). Each scope holds a stay the
    policy approves and one it declines, so that deciding every request the same way (a
    constant) never passes."""
    out = []
    for boss, queue in sorted(_queues(w).items()):
        approve = {r.id: booking.policy_decision(w, r).approve for r in queue}
        if len(set(approve.values())) < 2:
            continue
        out.append((boss, ALL, queue))
        for size in range(2, len(queue)):
            for chosen in itertools.combinations(queue, size):
                if len({approve[r.id] for r in chosen}) == 2:
                    out.append((boss, _these(w, list(chosen)), list(chosen)))
    return out


ALL = (
    "Some of your reports booked stays over the travel policy cap, and they are waiting for "
    "your approval on the booking site. Decide each of them as the travel policy says."
)
LATER = "Leave any other requests for later."


def _these(w: Session, chosen: list[Reservation]) -> str:
    """The goal naming each chosen stay: its traveller, listing, city and dates."""
    stays = [
        f'@{w.get_one(Person, r.guest_id).handle}\'s stay at "{r.listing.title}" in '
        f"{r.listing.city.label} from {r.check_in:%B %-d} to {r.check_out:%B %-d, %Y}"
        for r in chosen
    ]
    return (f"{'; '.join(stays)}: these wait for your approval on the booking site, over the "
            f"travel policy cap. Decide each as the travel policy says. {LATER}")  # fmt: skip


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
    """Decide over-policy stays awaiting your approval (all of them, or
    some named)
    as the travel policy says."""
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
