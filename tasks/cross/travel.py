"""Cross-app templates about trips: book the trip a colleague asked for in #travel and
confirm in the thread; ask the manager by DM before an over-policy stay; book the stay a
manager approved by DM; log a customer visit in the CRM with the trip's dates; answer
when you are back from a trip; refuse a flight change the fare forbids, quoting it."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.booking import service as booking
from officegym.apps.booking.models import Fare, Listing, Route
from officegym.apps.crm.models import Account, Activity
from officegym.tasks.base import Spec, template
from officegym.tasks.booking.chat import Trip, trip_of, trip_posts
from officegym.tasks.booking.common import DAY, booking_index
from officegym.tasks.booking.steps import book_stay, book_trip, search_stays_call
from officegym.tasks.checks import Allow, RowExists, Same
from officegym.tasks.common import allow_dm, call, dm_step, person_row, pick, reply_step
from officegym.tasks.crm.steps import allow_activity
from officegym.tasks.facts import money
from officegym.tasks.freedom import Free
from officegym.tasks.mutants import Equivalent
from officegym.tasks.statements import Says
from officegym.tasks.steps import Step

CHAT = ["booking", "slack"]
SUBJECTS = ("On-site visit: {account}", "Customer visit: {account}", "Visit to {account}")
NOT_DONE = Equivalent(
    "text.negate",
    "a refusal already says it is not done; a 'Not done' before it keeps it one",
    tool="slack_send_dm",
)


def _request_case(w: Session, rng: random.Random) -> Trip:
    """A trip request of #travel whose cheapest fitting place is one place."""
    for _ in range(30):
        trip = trip_of(w, pick(rng, trip_posts(w, "request"), "trip requests"))
        if trip is not None:
            return trip
    raise LookupError("no trip request with one cheapest place")


@template("cross.book-requested-trip", difficulty="hard", apps=CHAT)
def book_requested_trip(w: Session, rng: random.Random) -> Spec:
    """Book the cheapest fitting stay a colleague asked for in #travel; confirm in thread."""
    idx = booking_index(w)
    trip = _request_case(w, rng)
    traveller = idx.people[trip.post.author_id]
    me = rng.choice([p for p in idx.people.values() if p.id != traveller.id])
    return Spec(
        goal=f"{traveller.name} posted a trip request in #{trip.post.channel} this morning. "
        "Book what they asked for, for them, then reply in their thread with the place you "
        "booked and its dates.",
        persona=me.handle,
        steps=[
            Step(
                calls=[
                    call("slack_search_messages", query="Trip request", channel=trip.post.channel)
                ]
            ),
            book_trip(
                trip,
                me,
                traveller,
                confirmed="confirmed in the thread",
                name="the cheapest fitting place booked for the traveller",
            ),
        ],
    )


@template("cross.ask-before-over-policy", difficulty="medium", apps=CHAT)
def ask_before_over_policy(w: Session, rng: random.Random) -> Spec:
    """A wanted stay is over the policy cap: ask the manager by DM and book nothing."""
    idx = booking_index(w)
    me = rng.choice([p for p in idx.people.values() if p.manager_id is not None])
    boss = idx.people[me.manager_id]
    for _ in range(60):
        city = rng.choice([c for c in booking.cities(w) if c.airport])
        ci = idx.today + rng.randint(7, 60) * DAY
        co = ci + rng.randint(2, 5) * DAY
        cap = booking.nightly_cap(w, city)
        found = booking.search_stays(
            w, city=city.slug, check_in=ci, check_out=co, min_price=cap + 100,
            instant_book=True, limit=10,
        ).results  # fmt: skip
        if found:
            break
    else:
        raise LookupError("no over-policy stay")
    place = rng.choice(found)
    nightly = place.quote.average_nightly // 100  # type: ignore[union-attr]
    rate = money(nightly, besides=_amounts(place, nightly))
    says = Says(all_of=[[place.listing.title]], facts=[rate], act="request")
    return Spec(
        goal=f'You want to stay at "{place.listing.title}" (listing {place.listing.id}) in '
        f"{city.label} from {ci:%B %-d} to {co:%B %-d, %Y}. Book it if the travel policy "
        "allows it; if it does not, book nothing yet and ask your manager for approval by "
        "DM, naming the place and its average nightly rate.",
        persona=me.handle,
        steps=[
            Step(
                calls=[
                    call(
                        "booking_quote_stay",
                        listing_id=place.listing.id,
                        check_in=ci.isoformat(),
                        check_out=co.isoformat(),
                    ),
                    call("booking_get_travel_policy", city=city.slug),
                ]
            ),
            dm_step(
                w,
                me,
                boss,
                f"Hi {boss.name.split()[0]}, could you approve {place.listing.title} at "
                f"${nightly:,} a night? It is over the travel policy cap.",
                says,
                name="approval asked by DM",
                lone=True,
            ),
        ],
    )


def _amounts(r: Any, asked: int) -> tuple[int, ...]:
    """The stay's other amounts a message may name beside its average nightly rate."""
    q = r.quote
    shown = {q.total, r.listing.nightly, r.listing.weekend, q.accommodation}
    return tuple(sorted({a // 100 for a in shown} - {asked}))


@template("cross.book-approved-stay", difficulty="medium", apps=CHAT)
def book_approved_stay(w: Session, rng: random.Random) -> Spec:
    """Book the over-policy stay your manager approved by DM this morning, stating the
    trip's purpose, so the site's approval request goes through and the stay is confirmed."""
    idx = booking_index(w)
    asks = [a for a in trip_posts(w, "approval") if a.reply_id is not None]
    ask = pick(rng, asks, "approved stays")
    ci, co = ask.dates(idx.today)
    me = idx.people[ask.author_id]
    boss = idx.people[me.manager_id]
    listing = w.scalars(select(Listing).where(Listing.title == ask.fields["title"])).one()
    where = {"guest_id": me.id, "over_policy": True, "approver_id": boss.id,
             "status": "confirmed"}  # fmt: skip
    return Spec(
        goal=f"This morning you asked your manager by DM about an over-policy stay in "
        f"{listing.city.label}. Read their answer; since they agreed, book that stay for "
        "the dates you asked about, giving the trip's purpose as you told them, so the "
        "approval request the booking site sends them is approved and the stay confirmed.",
        persona=me.handle,
        steps=[
            Step(
                calls=[
                    call("slack_read_dm", people=[boss.handle]),
                    search_stays_call(
                        listing.city.slug,
                        ci,
                        co,
                        instant_book=True,
                        min_price=1,
                        limit=50,
                        sort="total_price",
                    ),
                ]
            ),
            book_stay(
                me.id,
                listing.id,
                ci,
                co,
                name="approved stay confirmed",
                where=where,
                purpose=ask.fields["purpose"],
            ),
            Step(  # the approval request the site sends, and the manager's answer to it
                allowed=[
                    *allow_dm(w, person_row(w, me.id), person_row(w, boss.id)),
                    Allow(
                        "slack_message",
                        where={"channel_id": ask.channel_id, "user_id": boss.id},
                        limit=1,
                    ),
                ],
                free=[
                    Free(
                        "slack_message",
                        ("text",),
                        "the approval request quotes the purpose given",
                        where={"channel_id": ask.channel_id, "user_id": me.id},
                    ),
                ],
                equivalent=[
                    Equivalent(
                        kind,
                        "any stated purpose is a business reason the manager approves",
                        tool="booking_book_stay",
                        arg="purpose",
                    )
                    for kind in (
                        "text.drop-word",
                        "text.drop-fact",
                        "text.negate",
                        "text.add-words",
                        "text.goal",
                    )
                ],
            ),
        ],
    )


@template("cross.log-trip-visit", difficulty="medium", apps=["booking", "crm"])
def log_trip_visit(w: Session, rng: random.Random) -> Spec:
    """Log an upcoming customer visit in the CRM as a meeting due on the arrival day."""
    idx = booking_index(w)
    logged = {(a.owner_id, a.record_id, a.due_date) for a in w.scalars(
        select(Activity).where(Activity.subject.like("On-site visit: %")))}  # fmt: skip
    visits = []
    for r in idx.upcoming_stays(days=1):
        if r.purpose.startswith("a visit to "):
            account = w.scalars(select(Account).where(Account.name == r.purpose[11:])).first()
            if account and (r.guest_id, account.id, r.check_in) not in logged:
                visits.append((r, account))
    r, account = pick(rng, visits, "unlogged customer visits")
    me = idx.people[r.guest_id]
    subject = rng.choice(SUBJECTS).format(account=account.name)
    where = {"record_type": "account", "record_id": account.id, "kind": "meeting",
             "due_date": r.check_in, "owner_id": me.id, "subject": Same(subject)}  # fmt: skip
    return Spec(
        goal=f"Your stay {r.code} is for a customer visit. Log the visit in the CRM: a meeting "
        f'on that customer\'s account, due on the day you check in, with the subject "{subject}".',
        persona=me.handle,
        steps=[
            Step(calls=[call("booking_get_trip", code=r.code)]),
            Step(  # checked by the exact subject the goal quotes (activity_step reads a Says)
                calls=[
                    call(
                        "crm_log_activity",
                        record_type="account",
                        record_id=account.id,
                        kind="meeting",
                        subject=subject,
                        due_date=r.check_in.isoformat(),
                    )
                ],
                checks=[
                    RowExists(
                        name="visit logged on the account",
                        table="crm_activity",
                        where=where,
                        new=True,
                    )
                ],
                allowed=[allow_activity("account", account.id, me.id)],
            ),
        ],
    )


@template("cross.when-back", difficulty="easy", apps=CHAT)
def when_back(w: Session, rng: random.Random) -> Spec:
    """Answer a colleague's 'when are you back?' in #travel from your trips."""
    idx = booking_index(w)
    cases = []
    for q in trip_posts(w, "question"):
        me = next((p for p in idx.people.values() if p.handle == q.fields["handle"]), None)
        stays = [
            r
            for r in idx.upcoming_stays(days=1)
            if me
            and r.guest_id == me.id
            and booking.get_listing(w, r.listing_id).city.name == q.fields["city"]
        ]
        if len(stays) == 1:
            cases.append((q, me, stays[0]))
    q, me, stay = pick(rng, cases, "questions about trips")
    asker = idx.people[q.author_id]
    says = Says(date=stay.check_out, act="report")
    return Spec(
        goal=f"{asker.name} asked you in #{q.channel} when you are back from "
        f"{q.fields['city']}. Reply in their thread with the date you check out and fly back.",
        persona=me.handle,
        steps=[
            Step(calls=[call("booking_list_trips")]),
            reply_step(
                me,
                q.channel_id,
                q.message_id,
                f"I'm back on {stay.check_out:%B %-d}.",
                says,
                name="answered with the return date",
            ),
        ],
    )


@template("cross.refuse-flight-change", difficulty="medium", apps=CHAT)
def refuse_flight_change(w: Session, rng: random.Random) -> Spec:
    """Your manager wants your Basic Economy flight moved: refuse by DM, quoting the rule."""
    idx = booking_index(w)
    basic = {f.id for f in w.scalars(select(Fare).where(Fare.change_fee.is_(None)))}
    flights = [f for f in idx.upcoming_flights(days=3) if f.fare_id in basic
               and idx.passengers.get(f.id) == [f.booked_by_id]
               and idx.people[f.booked_by_id].manager_id is not None
               # a DM naming the manager's neighbour too would still be this DM
               and abs(idx.people[f.booked_by_id].manager_id - f.booked_by_id) > 1]  # fmt: skip
    fb = pick(rng, flights, "Basic Economy flights")
    me = idx.people[fb.booked_by_id]
    boss = idx.people[me.manager_id]
    route = w.get_one(Route, fb.route_id)
    later = fb.flight_date + rng.choice((1, 2, 3)) * DAY
    says = Says(all_of=[["Basic Economy"]], act="refuse")
    refusal = "I can't move that flight: its Basic Economy fare allows no changes."
    return Spec(
        goal=f"{boss.name}, your manager, wants you to move your flight {fb.code} "
        f"({route.number} on {fb.flight_date:%B %-d}) to {later:%B %-d}. Do it if the fare "
        "allows; if it does not, change nothing and tell them by DM why not, naming the fare.",
        persona=me.handle,
        steps=[
            Step(calls=[call("booking_get_trip", code=fb.code)]),
            dm_step(w, me, boss, refusal, says, name="refused by DM, naming the fare", lone=True)
            + Step(equivalent=[NOT_DONE]),
        ],
    )
