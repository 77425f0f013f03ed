"""How believable a built world reads: the figures of issue 31, measured over the
database a world holds (chat, CRM, booking), so a change to the generators can show
what it changed. `measure(s)` returns the figures; `LIMITS` the ones a world must keep
(`tests/seed_data/test_realism.py` holds every scenario to them; `bench/realism.py`
prints them). Nothing here writes.

Texts are compared by their skeleton too: the text with the world's names and every
number masked, so "Thanks Dana, noted." and "Thanks Omar, noted." are one line.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from faker.providers.address.en_US import Provider as Address
from faker.providers.person.en_US import Provider as Names
from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.booking.models import Listing, Review
from officegym.apps.crm.models import Account, Activity, Case, Opportunity
from officegym.apps.org.models import Person, Team
from officegym.apps.slack.models import Channel, Message
from officegym.seed_data.work_hours import is_working

__all__ = [
    "CASE_TOPICS",
    "CHANNEL_TEAMS",
    "LIMITS",
    "Figures",
    "is_faker_city",
    "measure",
    "skeleton",
]

# The figure (name of a Figures field) -> (the bound, "max" or "min").
LIMITS: dict[str, tuple[float, str]] = {
    "repeated_text_share": (0.10, "max"),
    "repeated_sentence_messages": (0, "max"),
    "topic_free_share": (0.10, "max"),
    "stock_reply_share": (0.25, "max"),
    "review_openings": (50, "min"),
    "case_off_subject_share": (0.05, "max"),
    "activities_after_close": (0, "max"),
    "closed_with_next_step": (0, "max"),
    "wrong_name_replies": (0, "max"),
    "max_skeleton_share": (0.01, "max"),
    "off_role_share": (0.05, "max"),
    "off_hours_share": (0.02, "max"),
    "reviews_unbacked": (0, "max"),
    "faker_city_share": (0.0, "max"),
}
# Channels that are some teams' to speak in (a top-level post there by anyone else is
# off its role): a team's own channel is its team's; these are named by purpose.
CHANNEL_TEAMS: dict[str, tuple[str, ...]] = {
    "incidents": ("Engineering", "IT", "Customer Support", "Operations"),
}
# A case subject's words -> words one of which its body must hold to be about it.
CASE_TOPICS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("timing out|slowly|slow", ("minute", "spin", "slow", "timeout", "timing out", "seconds")),
    ("log in|sso|login|password", ("log in", "login", "sso", "sign", "password", "identity")),
    ("wrong numbers|totals|mismatch", ("number", "total", "differ", "figure", "count")),
    ("add users|seats|workspace", ("user", "seat", "invite", "account", "licen")),
    ("invoice|billing|charged", ("invoice", "contract", "charge", "bill", "price")),
    ("errors|500|fails|error", ("error", "fail", "500", "crash")),
    ("question|limits|configuring|help", ("limit", "how", "question", "configur", "set up")),
)
NUMBER = re.compile(r"\d[\d,.:]*")
SENTENCE = re.compile(r"(?<=[.!?])\s+")
FAKER_PREFIXES = tuple(f"{p} " for p in Address.city_prefixes)
FAKER_SUFFIXES = tuple(Address.city_suffixes)
FAKER_NAMES = {n.lower() for n in (*Names.first_names, *Names.last_names)}


@dataclass
class Figures:
    """The measured figures (shares are 0..1; counts are whole numbers)."""

    messages: int = 0
    repeated_text_share: float = 0.0  # messages whose exact text occurs 10+ times
    max_skeleton_share: float = 0.0  # the commonest masked text's share of messages
    repeated_sentence_messages: int = 0  # messages saying one sentence twice
    topic_free_share: float = 0.0  # top-level posts outside #random that fit any channel
    stock_reply_share: float = 0.0  # replies of three words or fewer used 10+ times
    wrong_name_replies: int = 0  # "Good catch, X." / "Thanks X" naming not the parent's author
    self_answered_threads: int = 0  # threads whose first reply is the parent's author
    off_role_share: float = 0.0  # posts in a role channel by someone outside its teams
    off_hours_share: float = 0.0  # posts outside their author's working hours
    case_off_subject_share: float = 0.0
    activities_after_close: int = 0
    closed_with_next_step: int = 0
    faker_city_share: float = 0.0  # accounts in invented ("Lake Jamesborough") cities
    review_openings: int = 0  # distinct first sentences of reviews
    # listings claiming reviews with none stored, or storing more than they claim (a
    # listing shows its latest reviews of a larger count, as booking sites do)
    reviews_unbacked: int = 0

    def breaches(self) -> list[str]:
        """The figures outside LIMITS, each as 'name = value (limit)'."""
        out = []
        for name, (bound, kind) in LIMITS.items():
            value = getattr(self, name)
            if (value > bound) if kind == "max" else (value < bound):
                out.append(f"{name} = {value:.4g} ({kind} {bound})")
        return out


def skeleton(text: str, names: re.Pattern[str]) -> str:
    """`text` with numbers and the world's names masked, lower-cased."""
    return names.sub("N", NUMBER.sub("0", text)).lower()


def measure(s: Session) -> Figures:
    """Every figure of the world `s` reads."""
    f = Figures()
    _chat(s, f)
    _crm(s, f)
    _booking(s, f)
    return f


def _names(s: Session) -> re.Pattern[str]:
    words = {w for (name,) in s.execute(select(Person.name)) for w in name.split()}
    words |= {name for (name,) in s.execute(select(Account.name))}
    alts = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True) if len(w) > 1)
    return re.compile(rf"\b(?:{alts})\b" if alts else r"(?!)")


def _chat(s: Session, f: Figures) -> None:
    rows = s.execute(
        select(Message.id, Message.text, Message.thread_parent_id, Message.user_id,
               Message.created_at, Channel.name, Channel.kind, Message.channel_id)
        .join(Channel, Channel.id == Message.channel_id).order_by(Message.id)
    ).all()  # fmt: skip
    if not rows:
        return
    people = {p.id: p for p in s.scalars(select(Person))}
    names = _names(s)
    f.messages = n = len(rows)
    texts = Counter(r.text for r in rows)
    skels = {r.id: skeleton(r.text, names) for r in rows}
    f.repeated_text_share = sum(1 for r in rows if texts[r.text] >= 10) / n
    f.max_skeleton_share = max(Counter(skels.values()).values()) / n
    f.repeated_sentence_messages = sum(1 for r in rows if _says_twice(r.text))
    _topic_free(rows, skels, f)
    _replies(rows, people, f)
    _roles(s, rows, people, f)
    f.off_hours_share = (
        sum(1 for r in rows if not is_working(r.created_at, people[r.user_id].timezone)) / n
    )


def _says_twice(text: str) -> bool:
    parts = [p.strip().lower() for p in SENTENCE.split(text) if len(p.split()) >= 3]
    return len(parts) != len(set(parts))


def _topic_free(rows: list, skels: dict[int, str], f: Figures) -> None:
    """Top-level posts outside #random whose skeleton is posted in three or more kinds of
    channel (DMs counted as one): a line that fits anywhere is about nothing."""
    places: dict[str, set[str]] = {}
    for r in rows:
        if r.thread_parent_id is None:
            places.setdefault(skels[r.id], set()).add("dm" if r.kind != "public" and
                                                      r.name is None else r.name)  # fmt: skip
    tops = [r for r in rows if r.thread_parent_id is None and r.name != "random"]
    free = sum(1 for r in tops if len(places[skels[r.id]]) >= 3)
    f.topic_free_share = free / len(tops) if tops else 0.0


def _replies(rows: list, people: dict[int, Person], f: Figures) -> None:
    by_id = {r.id: r for r in rows}
    replies = [r for r in rows if r.thread_parent_id is not None]
    if not replies:
        return
    texts = Counter(r.text for r in replies)
    stock = sum(1 for r in replies if len(r.text.split()) <= 3 and texts[r.text] >= 10)
    f.stock_reply_share = stock / len(replies)
    first: dict[int, int] = {}
    for r in replies:
        first.setdefault(r.thread_parent_id, r.user_id)
        m = re.match(r"(?:Good catch|Thanks),? (\w+)\b", r.text)
        parent = by_id.get(r.thread_parent_id)
        if m and parent and m.group(1) in {p.name.split()[0] for p in people.values()}:
            f.wrong_name_replies += m.group(1) != people[parent.user_id].name.split()[0]
    f.self_answered_threads = sum(1 for pid, uid in first.items() if by_id[pid].user_id == uid)


def _roles(s: Session, rows: list, people: dict[int, Person], f: Figures) -> None:
    teams = {t.id: t for t in s.scalars(select(Team))}
    own = {t.slug: (t.name,) for t in teams.values()}
    allowed = {**own, **CHANNEL_TEAMS}
    posts = [r for r in rows if r.thread_parent_id is None and r.name in allowed]
    off = sum(1 for r in posts if teams[people[r.user_id].team_id].name not in allowed[r.name])
    f.off_role_share = off / len(posts) if posts else 0.0


def _crm(s: Session, f: Figures) -> None:
    cases = s.execute(select(Case.subject, Case.description)).all()
    if cases:
        f.case_off_subject_share = sum(1 for c in cases if _off_subject(*c)) / len(cases)
    closed = {
        ("opportunity", i): at
        for i, at in s.execute(select(Opportunity.id, Opportunity.closed_at))
        if at is not None
    } | {("case", i): at for i, at in s.execute(select(Case.id, Case.closed_at)) if at is not None}
    done = select(Activity.record_type, Activity.record_id, Activity.created_at)
    f.activities_after_close = sum(
        1 for rt, rid, at in s.execute(done) if (rt, rid) in closed and at > closed[rt, rid]
    )
    f.closed_with_next_step = len(s.scalars(select(Opportunity.id).where(
        Opportunity.closed_at.is_not(None), Opportunity.next_step != "")).all())  # fmt: skip
    cities = s.scalars(select(Account.billing_city)).all()
    if cities:
        f.faker_city_share = sum(1 for c in cities if c and is_faker_city(c)) / len(cities)


def is_faker_city(city: str) -> bool:
    """True for a city of Faker's making: "<North|Lake|...> <Name>[suffix]" or
    "<Name><suffix>" (Jamesborough, Lake Jennifer), not Boston or Portland."""
    if city.startswith(FAKER_PREFIXES):
        return True
    low = city.lower()
    return any(low.endswith(x) and low[: -len(x)] in FAKER_NAMES for x in FAKER_SUFFIXES)


def _off_subject(subject: str, body: str) -> bool:
    """True when `subject` names a known problem and `body` holds none of its words."""
    subject, body = subject.lower(), body.lower()
    for pattern, words in CASE_TOPICS:
        if re.search(pattern, subject):
            return not any(w in body for w in words)
    return False


def _booking(s: Session, f: Figures) -> None:
    texts = s.scalars(select(Review.text)).all()
    f.review_openings = len({SENTENCE.split(t, maxsplit=1)[0] for t in texts})
    stored = Counter(s.scalars(select(Review.listing_id)))
    f.reviews_unbacked = sum(
        1 for i, count in s.execute(select(Listing.id, Listing.review_count))
        if (count > 0) != (stored.get(i, 0) > 0) or stored.get(i, 0) > count
    )  # fmt: skip
