"""Read-only CRM reports: the pipeline by stage and by owner, cases by status.

Amounts are whole currency units; the weighted amount of an opportunity is its
amount times its probability, as in Salesforce's "expected revenue"."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from officegym.apps.crm.access import require_role
from officegym.apps.crm.models import (
    CASE_PRIORITIES,
    CASE_STATUSES,
    CLOSED_STAGES,
    STAGES,
    Case,
    Opportunity,
)
from officegym.apps.org.models import Person

__all__ = ["CaseRow", "PipelineRow", "cases_by_status", "pipeline_by_owner", "pipeline_by_stage"]


@dataclass(frozen=True)
class PipelineRow:
    """One line of a pipeline report: a stage or an owner."""

    key: str
    count: int
    amount: int
    weighted: int
    owner_id: int | None = None


@dataclass(frozen=True)
class CaseRow:
    status: str
    count: int
    by_priority: dict[str, int] = field(default_factory=dict)


def _sums(group: Any) -> Select[Any]:
    amount = func.coalesce(Opportunity.amount, 0)
    return select(
        group,
        func.count(Opportunity.id),
        func.sum(amount),
        func.sum(amount * Opportunity.probability),
    ).group_by(group)


def _bounded(
    stmt: Select[Any], owner_id: int | None, after: dt.date | None, before: dt.date | None
) -> Select[Any]:
    if owner_id is not None:
        stmt = stmt.where(Opportunity.owner_id == owner_id)
    if after is not None:
        stmt = stmt.where(Opportunity.close_date >= after)
    if before is not None:
        stmt = stmt.where(Opportunity.close_date <= before)
    return stmt


def pipeline_by_stage(
    s: Session,
    actor: Person,
    *,
    owner_id: int | None = None,
    close_after: dt.date | None = None,
    close_before: dt.date | None = None,
) -> list[PipelineRow]:
    """Count, amount and weighted amount of opportunities per stage (every stage listed,
    in pipeline order), optionally for one owner and a close-date window."""
    require_role(s, actor)
    stmt = _bounded(_sums(Opportunity.stage), owner_id, close_after, close_before)
    got = {stage: (n, amt or 0, w or 0) for stage, n, amt, w in s.execute(stmt)}
    rows = []
    for stage in STAGES:
        n, amount, weighted = got.get(stage, (0, 0, 0))
        rows.append(PipelineRow(stage, n, int(amount), round(weighted / 100)))
    return rows


def pipeline_by_owner(
    s: Session,
    actor: Person,
    *,
    open_only: bool = True,
    close_after: dt.date | None = None,
    close_before: dt.date | None = None,
) -> list[PipelineRow]:
    """Count, amount and weighted amount per opportunity owner, largest amount first;
    open opportunities only unless `open_only` is False."""
    require_role(s, actor)
    stmt = _bounded(_sums(Opportunity.owner_id), None, close_after, close_before)
    if open_only:
        stmt = stmt.where(Opportunity.stage.not_in(CLOSED_STAGES))
    totals = list(s.execute(stmt))
    ids = [t[0] for t in totals]
    names = {
        pid: name
        for pid, name in s.execute(select(Person.id, Person.name).where(Person.id.in_(ids)))
    }
    rows = [
        PipelineRow(names[oid], n, int(amt or 0), round((w or 0) / 100), owner_id=oid)
        for oid, n, amt, w in totals
    ]
    return sorted(rows, key=lambda r: (-r.amount, r.key))


def cases_by_status(s: Session, actor: Person, *, owner_id: int | None = None) -> list[CaseRow]:
    """Number of cases per status (every status listed), split by priority."""
    require_role(s, actor)
    stmt = select(Case.status, Case.priority, func.count(Case.id)).group_by(
        Case.status, Case.priority
    )
    if owner_id is not None:
        stmt = stmt.where(Case.owner_id == owner_id)
    counts: dict[str, dict[str, int]] = {
        st: dict.fromkeys(CASE_PRIORITIES, 0) for st in CASE_STATUSES
    }
    for status, priority, n in s.execute(stmt):
        counts[status][priority] = n
    return [CaseRow(st, sum(by.values()), by) for st, by in counts.items()]
