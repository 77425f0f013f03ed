"""World look-ups and allowances shared by the CRM and cross-app templates.

The index is read once per world (a handful of queries) because environments
build a task at every reset. Rows are plain SQLAlchemy rows (read-only snapshots).
"""

from __future__ import annotations

import datetime as dt
import functools
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, Row, func, select
from sqlalchemy.orm import Session

from officegym.apps.crm.models import CLOSED_STAGES, Account, Case, Lead, Opportunity, UserRole
from officegym.apps.org.models import Person
from officegym.apps.slack.models import Channel, Message
from officegym.tasks.checks import Allow

__all__ = [
    "CrmIndex",
    "allow_new",
    "allow_update",
    "contact_names",
    "crm_index",
    "only_open_deal",
    "sample_distinct",
]

TABLE = {
    "account": "crm_account",
    "contact": "crm_contact",
    "lead": "crm_lead",
    "opportunity": "crm_opportunity",
    "case": "crm_case",
    "activity": "crm_activity",
}


@dataclass(frozen=True)
class CrmIndex:
    """Facts the templates look up often, read once per world."""

    today: dt.date
    people: dict[int, Row[Any]]  # id -> org_person row
    roles: dict[int, str]  # person id -> CRM role
    accounts: list[Row[Any]]
    opps: list[Row[Any]]
    leads: list[Row[Any]]
    cases: list[Row[Any]]
    messages: list[Row[Any]]  # today's CRM chat: id, channel_id, channel, user_id, text
    sales: str = "sales"  # slug of the sales team (and its channel): who owns the deals
    support: str = "customer-support"  # slug of the support team: who owns the cases

    def team(self, person_id: int) -> list[int]:
        """Ids of CRM users in the same team as `person_id`."""
        team = self.people[person_id].team_id
        return [p for p in self.roles if self.people[p].team_id == team]

    def with_role(self, role: str, team_slug: str | None = None) -> list[Row[Any]]:
        out = [self.people[p] for p, r in sorted(self.roles.items()) if r == role]
        return [p for p in out if team_slug is None or p.team_slug == team_slug]

    def open_opps(self, owner_id: int | None = None) -> list[Row[Any]]:
        return [
            o
            for o in self.opps
            if o.stage not in CLOSED_STAGES and (owner_id is None or o.owner_id == owner_id)
        ]

    def account(self, account_id: int) -> Row[Any]:
        return next(a for a in self.accounts if a.id == account_id)


def crm_index(w: Session) -> CrmIndex:
    return _index(w.get_bind())


@functools.lru_cache(maxsize=8)
def _index(engine: Engine) -> CrmIndex:
    from officegym.apps.org.models import Team

    with Session(engine) as w:
        people_stmt = select(*Person.__table__.c, Team.slug.label("team_slug")).join(Team)
        people = {p.id: p for p in w.execute(people_stmt)}
        roles = dict(w.execute(select(UserRole.person_id, UserRole.role)).all())
        rows = {
            m: list(w.execute(select(m.__table__).order_by(m.id)))
            for m in (Account, Opportunity, Lead, Case)
        }
        last = w.scalar(select(func.max(Message.created_at)))
        if last is None:  # never the wall clock: the same world must give the same tasks
            raise ValueError("CRM tasks need a world with chat history to date them")
        today = (last + dt.timedelta(hours=1)).date()
        chat_stmt = (
            select(
                Message.id,
                Message.channel_id,
                Channel.name.label("channel"),
                Message.user_id,
                Message.text,
            )
            .join(Channel, Channel.id == Message.channel_id)
            .where(
                Message.thread_parent_id.is_(None),
                Message.created_at >= dt.datetime.combine(today, dt.time()),
            )
            .order_by(Message.id)
        )
        messages = list(w.execute(chat_stmt))
    sales = _main_team(people, rows[Opportunity], "sales")
    support = _main_team(people, rows[Case], "customer-support")
    return CrmIndex(
        today, people, roles, rows[Account], rows[Opportunity], rows[Lead], rows[Case], messages,
        sales, support,
    )  # fmt: skip


def _main_team(people: Mapping[int, Row[Any]], records: Sequence[Row[Any]], default: str) -> str:
    """The slug of the team owning most of `records` (the scenario names its CRM teams)."""
    teams = Counter(people[r.owner_id].team_slug for r in records if r.owner_id in people)
    return teams.most_common(1)[0][0] if teams else default


# ---------------------------------------------------------------- allowances


def allow_update(record_type: str, row_id: int, fields: Iterable[str]) -> list[Allow]:
    """Updates of `fields` on one record (the row is judged on its final values, however
    many steps the agent took to get there). Field history needs no allowance: it is a
    log derived from the records (free by its model)."""
    return [Allow.update(TABLE[record_type], row_id, fields)]


def allow_new(record_type: str, where: Mapping[str, Any]) -> list[Allow]:
    """One new record of `record_type` (matching `where` in its final state: create, then
    fix a field, is an honest way there)."""
    return [Allow(TABLE[record_type], where=where, limit=1)]


# ---------------------------------------------------------------- choices


def sample_distinct(rng: random.Random, items: Sequence[Any], k: int) -> list[Any]:
    return rng.sample(list(items), k=min(k, len(items)))


def only_open_deal(idx: CrmIndex, opp: Row[Any], *, same_owner: bool = False) -> bool:
    """Whether `opp` is its account's only open deal (of its owner's, with `same_owner`),
    so that naming the account names the deal."""
    others = idx.open_opps(opp.owner_id if same_owner else None)
    return opp.account_id is not None and not any(
        o.account_id == opp.account_id and o.id != opp.id for o in others
    )


def contact_names(w: Session) -> dict[int, list[str]]:
    """Full names of each account's contacts that no other contact shares, by account id
    (a contact named in a goal names one account); read once per world."""
    return _contact_names(w.get_bind())


@functools.lru_cache(maxsize=8)
def _contact_names(engine: Engine) -> dict[int, list[str]]:
    from officegym.apps.crm.models import Contact

    with Session(engine) as w:
        rows = w.execute(select(Contact.account_id, Contact.first_name, Contact.last_name)).all()
    names = [f"{first} {last}".strip() for _, first, last in rows]
    counts = {n: names.count(n) for n in set(names)}
    out: dict[int, list[str]] = {}
    for (account_id, _, _), name in zip(rows, names, strict=True):
        if account_id is not None and counts[name] == 1:
            out.setdefault(account_id, []).append(name)
    return {a: sorted(ns) for a, ns in out.items()}
