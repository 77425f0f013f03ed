"""CRM templates about support cases: escalate and close."""

from __future__ import annotations

import random

from sqlalchemy.orm import Session

from officegym.seed_data.crm_text import ESCALATION_REASONS, RESOLUTIONS
from officegym.tasks.base import Level, Spec, template
from officegym.tasks.checks import Allow, FieldEquals, Predicate, RowExists
from officegym.tasks.common import call, pick
from officegym.tasks.crm.common import allow_update, crm_index
from officegym.tasks.statements import Says, rivals


def open_case(w: Session, rng: random.Random, statuses: tuple[str, ...] = ("New", "Working")):
    """A case in one of `statuses` owned by a support rep, and that rep."""
    idx = crm_index(w)
    cases = [c for c in idx.cases if c.status in statuses and idx.roles.get(c.owner_id) == "rep"]
    case = pick(rng, cases, "open cases")
    return idx, case, idx.people[case.owner_id]


def escalated(case_id: int):
    """Check: the case is Escalated with priority High or Critical."""

    def check(g) -> tuple[bool, str]:
        row = g.rows("crm_case", {"id": case_id})[0]
        ok = row["status"] == "Escalated" and row["priority"] in ("High", "Critical")
        return ok, f"status {row['status']}, priority {row['priority']}"

    return check


def reason_logged(reason: str) -> Says:
    """What the escalation note must say: the reason given (not denied), and none of the
    others."""
    return Says(all_of=[[reason]], none_of=rivals(ESCALATION_REASONS, reason), act="announce")


def reason_quoted(reason: str) -> Says:
    """The escalation note of a reason the goal quotes: that reason, word for word (the
    service writes it as "Escalated: <reason>")."""
    return Says(exactly=f"Escalated: {reason}")


def allow_escalation(case_id: int, actor_id: int) -> list[Allow]:
    return [
        *allow_update("case", case_id, ["status", "priority"]),
        Allow(
            "crm_activity",
            where={"record_type": "case", "record_id": case_id, "owner_id": actor_id},
            limit=1,
        ),
    ]


@template("crm.escalate-case", difficulty="medium")
def escalate_case(w: Session, rng: random.Random) -> Spec:
    """Escalate one of your cases with the reason given."""
    _idx, case, me = open_case(w, rng)
    reason = rng.choice(ESCALATION_REASONS)
    return Spec(
        goal=f"Case {case.number} ({case.subject}) must be escalated. Escalate it with the "
        f'reason "{reason}".',
        persona=me.handle,
        checks=[
            Predicate(name="escalated with high priority", fn=escalated(case.id)),
            RowExists(
                name="reason logged on the case",
                table="crm_activity",
                new=True,
                where={"record_type": "case", "record_id": case.id},
                says={"subject": reason_quoted(reason)},
            ),
        ],
        allowed=allow_escalation(case.id, me.id),
        solution=[
            call("crm_get_case", case=case.number),
            call("crm_escalate_case", case=case.number, reason=reason),
        ],
    )


@template("crm.close-case", difficulty="easy", knobs={"rows": (1, 2, 3)})
def close_case(w: Session, rng: random.Random, level: Level) -> Spec:
    """Close one (harder levels: two or three) of your cases with its resolution."""
    statuses = ("New", "Working", "Escalated")
    idx, case, me = open_case(w, rng, statuses)
    resolution = rng.choice(RESOLUTIONS)
    cases = [case]
    if level.rows > 1:
        mine = [c for c in idx.cases if c.status in statuses and c.owner_id == me.id]
        others = [c for c in mine if c.id != case.id]
        if len(others) < level.rows - 1:
            raise LookupError(f"the rep needs {level.rows} open cases for this level")
        cases += rng.sample(others, level.rows - 1)
    if len(cases) == 1:
        goal = f'Case {case.number} ("{case.subject}") is solved. Close it with the resolution '
    else:
        listed = " and ".join(f'{c.number} ("{c.subject}")' for c in cases)
        goal = f"Cases {listed} are solved. Close each of them with the resolution "
    return Spec(
        goal=goal + f'"{resolution}"',
        persona=me.handle,
        checks=[c for x in cases for c in _closed_checks(x, resolution, named=len(cases) > 1)],
        allowed=[
            a
            for x in cases
            for a in allow_update("case", x.id, ["status", "resolution", "closed_at"])
        ],
        solution=[
            step
            for x in cases
            for step in (
                call("crm_search_cases", query=x.number),
                call("crm_close_case", case=x.number, resolution=resolution),
            )
        ],
    )


def _closed_checks(case, resolution: str, *, named: bool) -> list[FieldEquals]:
    suffix = f" ({case.number})" if named else ""
    return [
        FieldEquals(
            name=f"case closed{suffix}",
            table="crm_case",
            row_id=case.id,
            field="status",
            value="Closed",
        ),
        FieldEquals(
            name=f"resolution recorded{suffix}",
            table="crm_case",
            row_id=case.id,
            field="resolution",
            says=Says(exactly=resolution),
        ),
    ]
