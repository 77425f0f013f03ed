"""Step builders for the acts CRM templates repeat: change a deal's stage, set fields of a
record, hand a record to another owner, create a record, log an activity, escalate or
close a case. Each returns a `Step` with the call, the checks of the state it leaves (by
the names the templates give them) and the changes it allows; `find` puts the read-only
calls that lead to the act (a search, a look-up) before it. Builders take the values a
template drew and draw nothing themselves, so instances stay as they were."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from officegym.apps.crm.models import CLOSED_STAGES
from officegym.tasks.checks import Allow, FieldEquals, Predicate, RowExists
from officegym.tasks.common import call
from officegym.tasks.crm.common import TABLE, allow_new, allow_update
from officegym.tasks.statements import Says
from officegym.tasks.steps import Step
from officegym.tools import ToolCall

__all__ = [
    "CLOSE_FIELDS",
    "MOVE_FIELDS",
    "activity_step",
    "allow_activity",
    "allow_escalation",
    "close_case_step",
    "create_step",
    "escalate_step",
    "escalated",
    "reassign_step",
    "stage_step",
    "update_step",
]

CLOSE_FIELDS = ["stage", "probability", "close_date", "closed_at", "loss_reason"]
MOVE_FIELDS = ["stage", "probability"]  # what a move between open stages changes
CLOSED_CASE = ["status", "resolution", "closed_at"]  # what closing a case changes


def stage_step(
    opp_id: int,
    stage: str,
    *,
    name: str,
    loss_reason: str | None = None,
    find: Sequence[ToolCall] = (),
) -> Step:
    """Move a deal to `stage` (closing it, with `loss_reason` if lost): the call, the check
    of its stage, and updates of what the move changes allowed (the close fields when the
    stage closes it)."""
    arguments: dict[str, Any] = {"opportunity": opp_id, "stage": stage}
    if loss_reason is not None:
        arguments["loss_reason"] = loss_reason
    fields = CLOSE_FIELDS if stage in CLOSED_STAGES else MOVE_FIELDS
    return Step(
        calls=[*find, call("crm_change_opportunity_stage", **arguments)],
        checks=[_equals("opportunity", opp_id, "stage", stage, name=name)],
        allowed=allow_update("opportunity", opp_id, fields),
    )


def update_step(
    record_type: str,
    row_id: int,
    values: Mapping[str, Any],
    *,
    name: str | Mapping[str, str],
    exact: Iterable[str] = (),
    find: Sequence[ToolCall] = (),
) -> Step:
    """Set fields of one record with `crm_update_<type>`: the call, a check of each field's
    final value (named `name`, or `name[field]`; the text fields in `exact` are read as
    that text word for word), and updates of those fields allowed."""
    names = {f: name for f in values} if isinstance(name, str) else name
    exact = frozenset(exact)
    arguments = {f: v.isoformat() if isinstance(v, dt.date) else v for f, v in values.items()}
    return Step(
        calls=[*find, call(f"crm_update_{record_type}", **{record_type: row_id}, **arguments)],
        checks=[
            FieldEquals(
                name=names[f],
                table=TABLE[record_type],
                row_id=row_id,
                field=f,
                says=Says(exactly=v) if f in exact else None,
                value=None if f in exact else v,
            )
            for f, v in values.items()
        ],
        allowed=allow_update(record_type, row_id, values),
    )


def reassign_step(record_type: str, row_id: int, owner: Any, *, name: str) -> Step:
    """Hand one record to `owner` (a person row): the call, the check of its owner, and
    the owner's update allowed."""
    return Step(
        calls=[
            call(
                "crm_reassign_owner",
                record_type=record_type,
                record_id=row_id,
                new_owner=owner.handle,
            )
        ],
        checks=[_equals(record_type, row_id, "owner_id", owner.id, name=name)],
        allowed=allow_update(record_type, row_id, ["owner_id"]),
    )


def create_step(
    record_type: str,
    made: ToolCall,
    where: Mapping[str, Any],
    *,
    name: str,
    allow: Mapping[str, Any],
    find: Sequence[ToolCall] = (),
) -> Step:
    """Create one record with the call `made`: the check that a new row matches `where`,
    and one new record matching `allow` (with the history of edits to it) allowed."""
    return Step(
        calls=[*find, made],
        checks=[RowExists(name=name, table=TABLE[record_type], new=True, where=where)],
        allowed=allow_new(record_type, allow),
    )


def allow_activity(record_type: str, record_id: int, owner_id: int) -> Allow:
    """One new activity by `owner_id` on one record."""
    where = {"record_type": record_type, "record_id": record_id, "owner_id": owner_id}
    return Allow("crm_activity", where=where, limit=1)


def activity_step(
    record_type: str,
    record_id: int,
    owner_id: int,
    kind: str,
    subject: str,
    says: Says,
    *,
    name: str,
    where: Mapping[str, Any] | None = None,
    due_date: dt.date | None = None,
    find: Sequence[ToolCall] = (),
) -> Step:
    """Log an activity of `kind` on one record: the call, the check that a new one (also
    matching `where`) has a subject that says what `says` asks, and one activity by
    `owner_id` there allowed."""
    arguments: dict[str, Any] = {"subject": subject}
    if due_date is not None:
        arguments["due_date"] = due_date.isoformat()
    place = {"record_type": record_type, "record_id": record_id}
    return Step(
        calls=[*find, call("crm_log_activity", **place, kind=kind, **arguments)],
        checks=[
            RowExists(
                name=name,
                table="crm_activity",
                new=True,
                where={**place, "kind": kind, **(where or {})},
                says={"subject": says},
            )
        ],
        allowed=[allow_activity(record_type, record_id, owner_id)],
    )


def escalated(case_id: int):
    """Check: the case is Escalated with priority High or Critical."""

    def check(g) -> tuple[bool, str]:
        row = g.rows("crm_case", {"id": case_id})[0]
        ok = row["status"] == "Escalated" and row["priority"] in ("High", "Critical")
        return ok, f"status {row['status']}, priority {row['priority']}"

    return check


def allow_escalation(case_id: int, actor_id: int) -> list[Allow]:
    """What escalating a case changes: its status and priority, and the note it logs."""
    return [
        *allow_update("case", case_id, ["status", "priority"]),
        allow_activity("case", case_id, actor_id),
    ]


def escalate_step(
    case: Any,
    reason: str,
    actor_id: int,
    says: Says,
    *,
    names: tuple[str, str],
    find: Sequence[ToolCall] = (),
) -> Step:
    """Escalate a case with `reason`: the call, the checks that it is escalated (first
    name) and that a new note on it says what `says` asks (second name), and what an
    escalation changes allowed."""
    return Step(
        calls=[*find, call("crm_escalate_case", case=case.number, reason=reason)],
        checks=[
            Predicate(name=names[0], fn=escalated(case.id)),
            RowExists(
                name=names[1],
                table="crm_activity",
                new=True,
                where={"record_type": "case", "record_id": case.id},
                says={"subject": says},
            ),
        ],
        allowed=allow_escalation(case.id, actor_id),
    )


def close_case_step(case: Any, resolution: str, *, suffix: str = "") -> Step:
    """Find a case by its number and close it with `resolution`: the calls, the checks of
    its status and resolution (names ending in `suffix`), and those updates allowed."""
    return Step(
        calls=[
            call("crm_search_cases", query=case.number),
            call("crm_close_case", case=case.number, resolution=resolution),
        ],
        checks=[
            _equals("case", case.id, "status", "Closed", name=f"case closed{suffix}"),
            FieldEquals(
                name=f"resolution recorded{suffix}",
                table="crm_case",
                row_id=case.id,
                field="resolution",
                says=Says(exactly=resolution),
            ),
        ],
        allowed=allow_update("case", case.id, CLOSED_CASE),
    )


def _equals(record_type: str, row_id: int, field: str, value: Any, *, name: str) -> FieldEquals:
    return FieldEquals(name=name, table=TABLE[record_type], row_id=row_id, field=field, value=value)
