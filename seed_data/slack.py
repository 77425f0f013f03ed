"""Seed the chat: channels with realistic membership, weeks of history drawn from the
conversation bank (`slack_talk`, `conversations/*.toml`): posts by members whose role says
such things, threads that answer them, reactions, pins of what channels pin, DMs and
statuses, all written through the service. Posts are dated in their authors' working
hours (`_Hours`); the chat keeps a random stream of its own."""

from __future__ import annotations

import datetime as dt
import functools
import random
from dataclasses import dataclass

from faker import Faker
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.slack import service as chat
from officegym.apps.slack.models import Channel, Message
from officegym.clock import SimClock
from officegym.seed_data import slack_text as T
from officegym.seed_data.context import SeedContext
from officegym.seed_data.scenario import Scenario
from officegym.seed_data.slack_talk import Talk, bank, render
from officegym.seed_data.work_hours import WORK, Spans, intervals, nearest, second

TEAM_TOPIC = {
    "engineering": "engineering",
    "sales": "sales",
    "customer-support": "support",
    "marketing": "marketing",
    "finance": "finance",
    "people-operations": "people",
    "product": "project",
    "it": "it",
    "legal": "legal",
    "partnerships": "sales",
    "operations": "operations",
}
# Topics only some teams speak in (heads and chiefs may speak anywhere).
ROLE_TEAMS: dict[str, tuple[str, ...]] = {
    "incidents": ("Engineering", "IT", "Operations"),
    "announcements": ("People Operations", "Leadership"),
}
PRIVATE = {
    "leadership": "Leadership only",
    "hiring-committee": "Open roles and candidates",
    "deals-desk": "Discount approvals",
    "security-ops": "Security reviews and incidents",
    "offsite-planning": "Planning the spring offsite",
}


@dataclass
class _Plan:
    channel: Channel
    topic: str
    weight: float
    members: list[Person]


ORDER = 10


def seed(s: Session, ctx: SeedContext) -> None:
    """Channels, DMs, weeks of history, threads, reactions, pins and statuses."""
    seed_slack(s, ctx.scenario, ctx.people, ctx.fake, ctx.rng, ctx.seed)


def seed_slack(
    s: Session, sc: Scenario, people: list[Person], fake: Faker, rng: random.Random, seed: int = 0
) -> None:
    """The chat's history is drawn from a random stream of its own, so rewording or adding
    conversations leaves every later generator's records as they are."""
    rng = random.Random(f"{sc.name}:{seed}:slack")
    clock: SimClock = s.info["clock"]
    start = sc.date - dt.timedelta(days=sc.slack.history_days)
    clock.set(start - dt.timedelta(days=30))
    plans = _channels(s, people, rng)
    dms = _dms(s, people, rng, sc.slack.dm_conversations)
    customers = [fake.company() for _ in range(24)]
    posts = _timeline(sc, rng, plans + dms, start)
    pinnable: dict[int, list[Message]] = {}
    times = _Hours(start, start + _span(sc, start))
    for when, plan in posts:
        talk = rng.choice(talk_bank(plan.topic, plan.channel.name))
        author = _author(plan, rng)
        clock.set(times.post(when, author, plan.channel.id))
        values = _values(plan, author, rng, people, customers)
        text = render(rng.choice(talk.open), values, talk.words, rng)
        msg = chat.post_message(s, author, plan.channel, text)
        if talk.pin:
            pinnable.setdefault(plan.channel.id, []).append(msg)
        if talk.replies and rng.random() < sc.slack.thread_ratio * 2:
            _thread(s, times, msg, plan, talk, values, rng)
        _react(s, msg, plan, rng, sc.slack.reaction_ratio)
    clock.set(sc.date - dt.timedelta(hours=1))
    _pins(s, pinnable, rng)
    for person in rng.sample(people, k=max(1, len(people) // 6)):
        text, emoji = rng.choice(T.STATUSES)
        chat.set_status(s, person, text, emoji)


def _channels(s: Session, people: list[Person], rng: random.Random) -> list[_Plan]:
    founder = people[0]
    plans: list[_Plan] = []

    def make(
        name: str, topic: str, weight: float, members: list[Person], *, private=False, about=""
    ):
        creator = members[0] if members else founder
        ch = chat.create_channel(s, creator, name, private=private, topic=about)
        chat.invite(s, creator, ch, [p for p in members if p.id != creator.id])
        plans.append(_Plan(ch, topic, weight, sorted(members, key=lambda p: p.id)))
        return ch

    make("general", "general", 3, people, about="Company-wide chatter")
    make("announcements", "announcements", 1, people, about="Official news. Read-mostly.")
    make("random", "social", 2, rng.sample(people, k=int(len(people) * 0.8)), about="Anything goes")
    by_team: dict[int, list[Person]] = {}
    for p in people:
        by_team.setdefault(p.team_id, []).append(p)
    heads = [p for p in people if p.title.startswith(("Head of", "Chief"))]
    for team_people in by_team.values():
        slug = team_people[0].team.slug
        if slug == "leadership":
            continue
        make(
            slug,
            TEAM_TOPIC.get(slug, "general"),
            3,
            team_people,
            about=f"{team_people[0].team.name} team",
        )
    for proj in T.PROJECTS:
        members = rng.sample(people, k=min(rng.randint(6, 14), len(people)))
        make(f"proj-{proj}", "project", 1.5, members, about=f"Project {proj.title()}")
    responders = [p for p in people if _fits(p, ROLE_TEAMS["incidents"])]
    watchers = _some(rng, people, 12)
    make("incidents", "incidents", 1, list(dict.fromkeys(responders + watchers)),
         about="Production incidents")  # fmt: skip
    make("help-it", "it", 0.7, _some(rng, people, 30), about="Laptop, VPN and access help")
    for name, about in PRIVATE.items():
        members = (
            (heads + rng.sample(people, k=3))
            if name == "leadership"
            else rng.sample(people, k=rng.randint(4, 9))
        )
        make(name, "private", 0.8, list(dict.fromkeys(members)), private=True, about=about)
    return plans


def _some(rng: random.Random, people: list[Person], k: int) -> list[Person]:
    """`k` people at random (everyone, in a random order, in a company of fewer)."""
    return rng.sample(people, k=min(k, len(people)))


def _dms(s: Session, people: list[Person], rng: random.Random, n: int) -> list[_Plan]:
    plans = []
    seen: set[tuple[int, ...]] = set()
    while len(plans) < n:
        group = rng.sample(people, k=2 if rng.random() < 0.85 else 3)
        key = tuple(sorted(p.id for p in group))
        if key in seen:
            continue
        seen.add(key)
        dm = chat.open_dm(s, group[0], group[1:])
        plans.append(_Plan(dm, "dm", 0.25, sorted(group, key=lambda p: p.id)))
    return plans


def _timeline(
    sc: Scenario, rng: random.Random, plans: list[_Plan], start: dt.datetime
) -> list[tuple[dt.datetime, _Plan]]:
    span = _span(sc, start).total_seconds()
    picks = rng.choices(plans, weights=[p.weight for p in plans], k=sc.slack.messages)
    times = sorted(start + dt.timedelta(seconds=int(rng.random() * span)) for _ in picks)
    return list(zip(times, picks, strict=True))


def _span(sc: Scenario, start: dt.datetime) -> dt.timedelta:
    """The history's span: from `start` to an hour before the scenario's now."""
    return sc.date - start - dt.timedelta(hours=1)


THREAD_ROOM = dt.timedelta(minutes=15)  # up to 5 replies, 3 minutes apart
# A post starts a thread early enough for its replies to fit before the day's end.
POST_HOURS = (WORK[0], (dt.datetime.combine(dt.date.min, WORK[1]) - THREAD_ROOM).time())


class _Hours:
    """When the history is written, without a draw: a post at the same share of its
    author's working time over [start, end] as its uniform draw fell at in that span, and
    never before its channel's previous post (ids follow time in each channel, as pages
    list them); a reply three minutes after the one before, or its author's next working
    minute."""

    def __init__(self, start: dt.datetime, end: dt.datetime) -> None:
        self.start, self.end = start, end
        self.spans: dict[str, tuple[Spans, int]] = {}  # time zone -> its working time
        self.last: dict[int, dt.datetime] = {}  # channel id -> its latest post

    def post(self, when: dt.datetime, author: Person, channel_id: int) -> dt.datetime:
        """The time of a post drawn at `when` (a time in [start, end])."""
        u = (when - self.start) / (self.end - self.start)
        at = self._at(u, author.timezone)
        prev = self.last.get(channel_id)
        if prev is not None and at <= prev:
            at = self._next(prev + dt.timedelta(minutes=1), author.timezone, POST_HOURS)
        self.last[channel_id] = at
        return at

    def reply(self, after: dt.datetime, author: Person) -> dt.datetime:
        """The time of a reply written after the thread's message at `after`."""
        return self._next(after + dt.timedelta(minutes=3), author.timezone, WORK)

    def _next(self, at: dt.datetime, tz: str, hours: tuple[dt.time, dt.time]) -> dt.datetime:
        """`at`, or the next time in `hours` on a weekday in `tz`; `at` past the last one
        (a channel's last posts of the history, after a colleague further west posted late
        on the last working day: kept in order, on that evening)."""
        return nearest(at, self.end, tz, hours) or at

    def _at(self, u: float, tz: str) -> dt.datetime:
        """The moment `u` (0 to 1) of the way through `tz`'s working time."""
        if tz not in self.spans:
            spans = intervals(self.start, self.end, tz, POST_HOURS)
            self.spans[tz] = spans, sum(int((b - a).total_seconds()) for a, b in spans)
        spans, total = self.spans[tz]
        return second(spans, min(int(u * total), total - 1)) or self.end  # none: the end


@functools.cache
def talk_bank(topic: str, channel: str | None) -> tuple[Talk, ...]:
    """The conversations of a channel topic said in `channel` (the company-wide ones for
    an unknown topic)."""
    found = bank().get(topic) or bank()["general"]
    return tuple(t for t in found if not t.channels or channel in t.channels) or found


def _author(plan: _Plan, rng: random.Random) -> Person:
    """Who posts: a member whose role says such things in this channel (engineers in
    #incidents, heads and people operations in #announcements), any member elsewhere."""
    teams = ROLE_TEAMS.get(plan.topic)
    fit = [p for p in plan.members if teams is None or _fits(p, teams)]
    return rng.choice(fit or plan.members)


def _fits(person: Person, teams: tuple[str, ...]) -> bool:
    return person.team.name in teams or person.title.startswith(("Head of", "Chief"))


def _values(plan: _Plan, author: Person, rng: random.Random, people: list[Person],
            customers: list[str]) -> dict[str, str]:  # fmt: skip
    """One conversation's values: its people (the poster, someone addressed, a colleague)
    and the world's things it is about (a project channel talks about its project)."""
    others = [p for p in plan.members if p.id != author.id] or people
    colleagues = [p for p in people if p.id != author.id]
    project = plan.channel.name.removeprefix("proj-") if plan.topic == "project" else None
    return {
        "op": _first(author),
        "other": _first(rng.choice(others)),
        "first": _first(rng.choice(colleagues)),
        "project": (project or rng.choice(T.PROJECTS)).title(),
        "feature": rng.choice(T.FEATURES),
        "customer": rng.choice(customers),
        "day": rng.choice(T.DAYS),
        "time": rng.choice(T.TIMES),
        "room": rng.choice(T.ROOMS),
        "pct": str(rng.randint(40, 130)),
        "done": str(rng.randint(5, 95)),
        "amount": f"{rng.randint(5, 250) * 1000:,}",
        "ticket": str(rng.randint(1000, 9999)),
        "small": str(rng.randint(2, 9)),
        "version": f"{rng.randint(1, 4)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}",
    }


def _first(person: Person) -> str:
    return person.name.split(" ")[0]


def _thread(s: Session, times: _Hours, parent: Message, plan: _Plan, talk: Talk,
            values: dict[str, str], rng: random.Random) -> None:  # fmt: skip
    """The conversation's thread under `parent`, a few minutes apart (or at each author's
    next working minute): replies by other members, the poster's own answers, and in a DM
    the answer of the person addressed; often the whole exchange, sometimes its start."""
    clock: SimClock = s.info["clock"]
    op = parent.user
    others = [p for p in plan.members if p.id != op.id] or [op]
    addressed = next((p for p in others if _first(p) == values["other"]), others[0])
    steps = talk.replies[: rng.randint(1, len(talk.replies))] if rng.random() < 0.3 else (
        talk.replies)  # fmt: skip
    last: Person | None = None
    for step in steps:
        if step.by == "op":
            author = op
        elif step.by == "other":
            author = addressed
        else:
            pool = [p for p in others if last is None or p.id != last.id] or others
            author = rng.choice(pool)
        clock.set(times.reply(clock.peek(), author))
        text = render(rng.choice(step.say), values, talk.words, rng)
        chat.post_message(s, author, plan.channel, text, thread_parent=parent)
        last = author


def _react(s: Session, msg: Message, plan: _Plan, rng: random.Random, ratio: float) -> None:
    n = int(ratio) + (1 if rng.random() < ratio - int(ratio) else 0)
    if not n:
        return
    members = plan.members
    for person in rng.sample(members, k=min(n, len(members))):
        chat.add_reaction(s, person, msg, rng.choice(T.EMOJI))


def _pins(s: Session, pinnable: dict[int, list[Message]], rng: random.Random) -> None:
    """Each channel pins what channels pin (a runbook, an agenda, a decision): up to two
    of its posts written to be pinned, by whoever posted them."""
    for msgs in pinnable.values():
        for m in rng.sample(msgs, k=min(2, len(msgs))):
            if m.channel.kind in ("public", "private"):
                chat.pin_message(s, m.user, m)
