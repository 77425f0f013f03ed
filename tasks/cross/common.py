"""The chat requests about CRM records that the seeded world contains (see
`seed_data/crm_requests.py`), parsed once per world for the cross-app templates."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from officegym.tasks.common import dm_step, post_step, reply_step
from officegym.tasks.crm.common import CrmIndex, crm_index
from officegym.tasks.facts import Fact, choice, integer, person
from officegym.tasks.statements import Says
from officegym.tasks.steps import Step

__all__ = ["Request", "case_fact", "case_number", "handover_steps", "reply_to", "requests_of"]

STAGES = "Prospecting|Qualification|Needs Analysis|Proposal|Negotiation|Closed Won"
PATTERNS = {
    "stage": re.compile(
        rf"^@(?P<owner>[\w.-]+) please move (?P<opp>.+) to (?P<stage>{STAGES}) "
        r"in the CRM: "
    ),
    "question": re.compile(
        r"^@(?P<owner>[\w.-]+) quick question: what is the "
        r"(?P<field>close date|amount|next step) of (?P<opp>.+)\?$"
    ),
    "lead": re.compile(
        r"^Met (?P<first>\S+) (?P<last>.+?) \((?P<title>[^)]+)\) from "
        r"(?P<company>.+) at the (?P<event>.+)\. Email: (?P<email>\S+)\. Could"
    ),
    "escalation": re.compile(
        r"^@(?P<owner>[\w.-]+) case (?P<number>\d{8}) \((?P<account>.+)\) "
        r"needs an escalation: (?P<reason>.+)\. Please escalate"
    ),
}


@dataclass(frozen=True)
class Request:
    """One request message: who asked, where, and what it names."""

    message_id: int
    channel_id: int
    channel: str
    asker_id: int
    fields: dict[str, str]
    owner: Any = None  # the person addressed (org_person row), if any
    record: Any = None  # the opportunity or case named, if any


def requests_of(w: Session, kind: str) -> list[Request]:
    return _requests(w.get_bind())[kind]


@functools.lru_cache(maxsize=8)
def _requests(engine: Engine) -> dict[str, list[Request]]:
    with Session(engine) as w:
        idx = crm_index(w)
    by_handle = {p.handle: p for p in idx.people.values()}
    opps = {o.name: o for o in idx.opps}
    cases = {c.number: c for c in idx.cases}
    out: dict[str, list[Request]] = {k: [] for k in PATTERNS}
    for m in idx.messages:
        for kind, pattern in PATTERNS.items():
            found = pattern.match(m.text)
            if found:
                out[kind].append(_request(idx, m, found.groupdict(), by_handle, opps, cases))
    return out


def _request(
    idx: CrmIndex, m: Any, f: dict[str, str], by_handle: dict, opps: dict, cases: dict
) -> Request:
    owner = by_handle.get(f.get("owner", ""))
    record = opps.get(f.get("opp", "")) or cases.get(f.get("number", ""))
    return Request(m.id, m.channel_id, m.channel, m.user_id, f, owner, record)


def case_number(number: str) -> list[str]:
    """The ways people write a case number: 00001234, 1234, #00001234, #1234."""
    short = number.lstrip("0") or "0"
    return sorted({number, short, f"#{number}", f"#{short}"})


def case_fact(idx: CrmIndex, number: str) -> Fact:
    """A message naming case `number` (in any of the ways people write it), and no other
    case of the CRM: every other case number is a rival."""
    return choice(number, {c.number: case_number(c.number) for c in idx.cases})


def reply_to(req: Request, me: Any, text: str, says: Says, *, name: str) -> Step:
    """Reply `text` in the request's thread: the call, the check that `me`'s replies there
    say what `says` asks, and one reply allowed."""
    return reply_step(me, req.channel_id, req.message_id, text, says, name=name)


def handover_steps(
    w: Session,
    me: Any,
    leaving: Any,
    counts: Sequence[tuple[Any, int]],
    *,
    unit: str,
    received: str,
    handed: str,
    channel_id: int,
    channel: str,
) -> list[Step]:
    """Tell each taker of a departing colleague's records by DM how many they received
    ("You now own <n> <received>."), then announce in `channel` who took over `handed`."""
    steps = [
        dm_step(
            w,
            me,
            who,
            f"You now own {n} {received}.",
            Says(facts=[integer(n)], act="report", ignoring=[leaving.name]),
            name=f"DM to {who.name} with their number of {unit}",
        )
        for who, n in counts
    ]
    takers = [who for who, _ in counts]
    everyone = list(crm_index(w).people.values())
    announced = Says(
        facts=[person(takers, everyone, ignoring=(leaving.name,))],
        all_of=[[leaving.name, leaving.handle, f"@{leaving.handle}"]],
        act="announce",
    )
    names = " and ".join(who.name for who in takers)
    text = f"{names} took over {handed} of {leaving.name}, who is leaving."
    name = f"handover announced in #{channel}"
    return [*steps, post_step(me, channel_id, text, announced, name=name, channel=channel)]
