"""The company's trips, consistent with the chat and the CRM: past stays and flights (a
few cancelled; last month's behind the expense reports), upcoming ones announced in
#travel (customer visits logged as meetings on the account in the CRM, most of them),
and, in the last
days before the scenario date, trips announced but not booked yet, over-policy stays a
manager approved by DM, and colleagues asking when a traveller is back. Written through
the booking, chat and CRM services at past simulated times, from a random stream of its
own. Trips are booked in the traveller's working hours on the day drawn (the Friday
before, for a weekend; `work_hours.workday`, no draw). Chat posts fall in their authors'
working hours (`work_hours`, drawn from a stream of their own; an approval while both
traveller and manager work) and are written last, in time order, so the ids in #travel
(a channel of its own, like #support-inbox) and in each DM still follow time; hosts
write in waking hours.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from officegym.apps.booking import service as booking
from officegym.apps.booking.models import City, Reservation
from officegym.apps.crm import service as crm
from officegym.apps.org.models import Person
from officegym.apps.slack import service as chat
from officegym.apps.slack.models import Channel, Message
from officegym.seed_data import booking_text as T
from officegym.seed_data.booking_places import HOME_BY_TIMEZONE, PURPOSES
from officegym.seed_data.context import SeedContext
from officegym.seed_data.phrases import expand
from officegym.seed_data.work_hours import (
    WAKING,
    WORK,
    Spans,
    intervals,
    minus,
    nearest,
    overlap,
    pick,
    pick_in,
    workday,
)

DAY = dt.timedelta(days=1)
REQUESTS, APPROVALS, QUESTIONS = 30, 40, 30
ROOM = dt.timedelta(minutes=30)  # an approval's ask and answer fit in this much
BOOKING_HOURS = (WORK[0], dt.time(17, 30))  # trips are booked at work, logged soon after
TRAVEL = "travel"


@dataclass
class Plan:
    """One trip: who, where, when, why."""

    traveller: Person
    home: City
    city: City
    check_in: dt.date
    nights: int
    purpose: str
    account: object | None = None  # a CRM account for customer visits
    announced: dt.datetime | None = None  # when it was announced in #travel


class Trips:
    def __init__(self, s: Session, ctx: SeedContext) -> None:
        self.s, self.sc = s, ctx.scenario
        self.rng = random.Random(f"{self.sc.name}:{ctx.seed}:booking-trips")
        # the hosts' messages draw from a stream of their own, leaving the trips' draws be
        self.words = random.Random(f"{self.sc.name}:{ctx.seed}:booking-host-messages")
        self.clock = s.info["clock"]
        self.today = self.sc.date.date()
        self.people = ctx.people
        self.by_id = {p.id: p for p in ctx.people}
        made = ctx.made.get("crm")
        self.accounts = list(made.accounts) if made is not None else []
        flying = [c for c in booking.cities(s) if c.airport]
        self.by_slug = {c.slug: c for c in booking.cities(s)}
        self.destinations = flying
        # When chat posts are written: a stream of its own, so the trips stay as they were.
        self.times = random.Random(f"{self.sc.name}:{ctx.seed}:booking-chat-times")
        self.now = self.sc.date - dt.timedelta(minutes=2)
        self.outbox: list[tuple[dt.datetime, int, Person, Channel, str]] = []
        self.travel: Channel | None = None
        self.asked: dict[int, Spans] = {}  # DM id -> its queued (ask, answer) pairs

    def home(self, p: Person) -> City:
        return self.by_slug[HOME_BY_TIMEZONE.get(p.timezone, "new-york-ny")]

    def plan(self, traveller: Person, start_lo: int, start_hi: int) -> Plan:
        """A trip of `traveller` (or, for a customer visit, of the account's owner)."""
        purpose = self.rng.choice(PURPOSES)
        account = None
        if purpose == "a customer visit" and self.accounts:
            account = self.rng.choice(self.accounts)
            traveller = self.by_id.get(account.owner_id, traveller)
            purpose = f"a visit to {account.name}"
        elif purpose == "a customer visit":
            purpose = "a partner workshop"
        home = self.home(traveller)
        city = self.rng.choice([c for c in self.destinations if c.id != home.id])
        check_in = self.today + self.rng.randint(start_lo, start_hi) * DAY
        return Plan(traveller, home, city, check_in, self.rng.randint(2, 5), purpose, account)

    def office(self, when: dt.datetime, who: Person, *, back: bool = True) -> dt.datetime:
        """`when` moved into `who`'s working hours on its day (`work_hours.workday`), with
        room after it for the visit logged in the CRM."""
        return workday(when, who.timezone, BOOKING_HOURS, back=back)

    def at(self, when: dt.datetime) -> None:
        self.clock.set(min(when, self.sc.date - dt.timedelta(minutes=2)))

    def listing(self, p: Plan, within: bool = True):
        """A free listing for the plan, within the cap (or over it), for one guest."""
        cap = booking.nightly_cap(self.s, p.city)
        out = p.check_in + p.nights * DAY
        page = booking.search_stays(
            self.s, city=p.city.slug, check_in=p.check_in, check_out=out, guests=1,
            max_price=cap if within else None, min_price=None if within else cap + 100,
            sort="rating", limit=20,
        )  # fmt: skip
        results = [r for r in page.results if r.listing.instant_book]
        return self.rng.choice(results) if results else None

    def book(self, p: Plan, booked_at: dt.datetime) -> bool:
        """Book the stay and the flights there and back; False if nothing fits."""
        self.at(booked_at)
        found = self.listing(p)
        if found is None:
            return False
        listing = booking.get_listing(self.s, found.listing.id)
        out = p.check_in + p.nights * DAY
        booking.book_stay(self.s, p.traveller, listing, check_in=p.check_in, check_out=out,
                          guests=1, purpose=p.purpose)  # fmt: skip
        self.fly(p.traveller, p.home, p.city, p.check_in, p.purpose)
        self.fly(p.traveller, p.city, p.home, out, p.purpose)
        return True

    def fly(self, who: Person, origin: City, dest: City, day: dt.date, purpose: str) -> None:
        options = booking.search_flights(self.s, origin=origin.slug, destination=dest.slug,
                                         date=day, cabin="economy")  # fmt: skip
        if not options:
            return
        option = self.rng.choice(options)
        brand = self.rng.choice(("Basic Economy", "Main", "Main", "Flex"))
        fare = next(f for f, _ in option.fares if f.brand == brand)
        booking.book_flight(self.s, who, fare, date=day, purpose=purpose)

    def team_channel(self, p: Person) -> Channel:
        """#travel, where trips are announced, asked for and asked about (made on first
        use, everyone in it), so the other channels' recent history stays as it was."""
        if self.travel is None:
            self.clock.set(self.sc.date - 30 * DAY)
            founder = self.people[0]
            self.travel = chat.create_channel(
                self.s, founder, TRAVEL, topic="Trips, bookings and travel questions"
            )
            chat.invite(
                self.s, founder, self.travel, [x for x in self.people if x.id != founder.id]
            )
        return self.travel

    def working(self, who: Person, lo: dt.datetime, hi: dt.datetime) -> dt.datetime | None:
        """A time in `who`'s working hours within [lo, hi] (and before now), if any."""
        return pick(self.times, lo, min(hi, self.now), who.timezone)

    def post(self, who: Person, where: Channel | None, text: str, when: dt.datetime) -> None:
        """Queue a post at `when`; `flush` writes the queue in time order."""
        if where is not None:
            self.rng.randint(2, 4)  # the draw of the seconds between posts: trips stay
            self.outbox.append((min(when, self.now), len(self.outbox), who, where, text))

    def flush(self) -> None:
        """Write the queued posts oldest first, so ids follow time in their channels."""
        for when, _, who, where, text in sorted(self.outbox, key=lambda x: x[:2]):
            self.clock.set(when)
            chat.post_message(self.s, who, where, text)
        self.outbox.clear()


def seed_trips(s: Session, ctx: SeedContext) -> None:
    """Past trips, upcoming trips with their chat and CRM traces, and this morning's chat."""
    t = Trips(s, ctx)
    params = ctx.scenario.booking
    if params.listings == 0 or not t.people:
        return
    for _ in range(params.past_trips):
        _past(t, t.plan(t.rng.choice(t.people), -300, -10))
    booked = [p for p in (t.plan(t.rng.choice(t.people), 3, 60) for _ in range(params.trips))
              if _upcoming(t, p)]  # fmt: skip
    for p in t.rng.sample(booked, k=min(QUESTIONS, len(booked))):
        _question(t, p)
    for _ in range(min(REQUESTS, params.trips)):
        _request(t, t.plan(t.rng.choice(t.people), 7, 45))
    managed = [p for p in t.people if p.manager_id is not None]
    for _ in range(min(APPROVALS, params.trips, len(managed))):
        _approval(t, t.plan(t.rng.choice(managed), 10, 45))
    _last_month(t, managed, ctx.scenario.sheets.expense_reports)
    t.flush()


def _last_month(t: Trips, staff: list[Person], count: int) -> None:
    """Trips of last month, one for each of up to `count` people with a manager: the
    trips their expense reports claim (`seed_data.sheets`)."""
    first = (t.today.replace(day=1) - DAY).replace(day=1)
    lo, hi = (first - t.today).days, (t.today.replace(day=1) - t.today).days - 6
    for person in t.rng.sample(staff, k=min(count, len(staff))):
        if lo <= hi:
            _past(t, t.plan(person, lo, hi), cancel=False)


def _past(t: Trips, p: Plan, *, cancel: bool = True) -> None:
    booked = dt.datetime.combine(p.check_in, dt.time(10)) - t.rng.randint(5, 40) * DAY
    booked = t.office(booked, p.traveller)
    if not t.book(p, booked) or not cancel or t.rng.random() > 0.1:
        return
    later = booked + t.rng.randint(1, 3) * DAY
    cancelled = t.office(later, p.traveller)
    t.at(cancelled if cancelled > booked else t.office(later, p.traveller, back=False))
    stay = max(booking.list_stays(t.s, p.traveller), key=lambda r: r.id)
    booking.cancel_stay(t.s, p.traveller, stay)


def _upcoming(t: Trips, p: Plan) -> bool:
    booked = t.office(
        t.sc.date - t.rng.randint(1, 20) * DAY - t.rng.randint(0, 600) * dt.timedelta(minutes=1),
        p.traveller,
    )
    if not t.book(p, booked):
        return False
    stay = max(booking.list_stays(t.s, p.traveller), key=lambda r: r.id)
    listing = stay.listing
    text = t.rng.choice(T.ANNOUNCEMENTS).format(
        city=p.city.label, dates=T.dates(stay.check_in, stay.check_out), purpose=p.purpose,
        hood=listing.neighbourhood)  # fmt: skip
    # announced in working hours, soon after booking (or just before, booking late)
    p.announced = (
        t.working(p.traveller, booked, booked + 2 * DAY)
        or t.working(p.traveller, booked - 2 * DAY, t.now)
        or booked
    )
    t.post(p.traveller, t.team_channel(p.traveller), text, p.announced)
    if p.account is not None and t.rng.random() < 0.4:
        t.at(booked + dt.timedelta(minutes=25))
        crm.log_activity(
            t.s, p.traveller, record_type="account", record_id=p.account.id, kind="meeting",
            subject=f"On-site visit: {p.account.name} ({p.city.name})",
            due_date=stay.check_in, status="Open",
        )  # fmt: skip
    _welcome(t, p, stay, booked)
    return True


def _welcome(t: Trips, p: Plan, stay: Reservation, booked: dt.datetime) -> None:
    """The host's welcome message, an hour or two after most bookings."""
    if t.words.random() < 0.3:
        return
    listing = stay.listing
    when = booked + dt.timedelta(minutes=t.words.randint(40, 150))
    t.at(nearest(when, t.now, p.city.timezone, WAKING, weekdays=False) or when)
    rules = {**T.HOST_WORDS, "guest": p.traveller.name.split()[0], "city": p.city.name,
             "hood": listing.neighbourhood}  # fmt: skip
    text = expand(t.words.choice(T.HOST_WELCOME), t.words, rules)
    booking.host_reply(t.s, listing, p.traveller, text)


def _question(t: Trips, p: Plan) -> None:
    """A teammate asks the traveller in #travel when they are back."""
    channel = t.team_channel(p.traveller)
    mates = [x for x in t.people if x.team_id == p.traveller.team_id and x.id != p.traveller.id]
    if channel is None or not mates:
        return
    asker = t.rng.choice(mates)
    after = (p.announced or t.now - 3 * DAY) + dt.timedelta(minutes=1)
    when = t.working(asker, after, t.now) or after
    t.post(asker, channel, T.QUESTION.format(handle=p.traveller.handle, city=p.city.name), when)


def _request(t: Trips, p: Plan) -> None:
    """A trip announced but not booked: someone should book it (cross-app tasks)."""
    cap = booking.nightly_cap(t.s, p.city)
    found = t.listing(p)
    if found is None:
        return
    bedrooms = max(1, found.listing.bedrooms)
    dates = T.dates(p.check_in, p.check_in + p.nights * DAY)
    text = T.REQUEST.format(city=p.city.label, dates=dates,
                            purpose=p.purpose, bedrooms=bedrooms, cap=cap // 100)  # fmt: skip
    when = t.working(p.traveller, t.now - 7 * DAY, t.now) or t.now
    t.post(p.traveller, t.team_channel(p.traveller), text, when)


def _approval(t: Trips, p: Plan) -> None:
    """An over-policy stay the traveller's manager approved by DM this morning."""
    found = t.listing(p, within=False)
    manager = t.s.get(Person, p.traveller.manager_id)
    if found is None or manager is None:
        return
    out = p.check_in + p.nights * DAY
    dm = chat.open_dm(t.s, p.traveller, [manager])
    ask = T.APPROVAL_ASK.format(first=manager.name.split()[0], title=found.listing.title,
                                city=p.city.label, dates=T.dates(p.check_in, out),
                                purpose=p.purpose)  # fmt: skip
    # asked in the last working days, after the DM's history, and answered soon after
    latest = t.s.scalar(select(func.max(Message.created_at)).where(Message.channel_id == dm.id))
    lo = max(t.now - 4 * DAY, (latest or t.now - 4 * DAY) + dt.timedelta(minutes=1))
    busy = t.asked.setdefault(dm.id, [])  # another ask in this DM: before or after this one
    asked, answered = _ask_and_answer(t, p.traveller, manager, lo, busy)
    t.post(p.traveller, dm, ask, asked)
    busy.append((asked, answered))
    t.post(manager, dm, t.rng.choice(T.APPROVALS), answered)


def _ask_and_answer(
    t: Trips, who: Person, manager: Person, lo: dt.datetime, busy: Spans
) -> tuple[dt.datetime, dt.datetime]:
    """When `who` asks `manager` (after `lo`, clear of the DM's other `busy` asks) and when
    the answer comes: while both work (answered within a quarter of an hour), else in
    `who`'s working hours with the answer at the manager's next working minute; past both
    (a DM that ran on past the last working day), in waking hours or just after `lo`
    (this morning's CRM requests in the DM)."""
    last, gap = t.now - dt.timedelta(minutes=30), dt.timedelta(minutes=2)
    mine, theirs = (intervals(lo, last, x.timezone) for x in (who, manager))
    free = [(a - ROOM, b + dt.timedelta(minutes=1)) for a, b in busy]
    both = overlap(mine, theirs, trim=ROOM)
    asked = pick_in(t.times, minus(both, free))
    if asked is not None:
        answered = t.working(manager, asked + gap, asked + ROOM / 2)
        return asked, answered or asked + gap
    lo = max([lo, *(b + dt.timedelta(minutes=1) for _, b in busy)])
    until = theirs[-1][1] - 2 * gap if theirs else lo
    asked = t.working(who, lo, until)
    if asked is not None:
        answered = nearest(asked + gap, t.now, manager.timezone)
        return asked, answered or asked + gap
    asked = pick(t.times, lo, last, who.timezone, WAKING) or lo
    return asked, asked + gap
