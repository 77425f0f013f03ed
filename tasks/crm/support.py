"""CRM templates about support cases: escalate and close."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy.orm import Session

from officegym.seed_data.crm_text import ESCALATION_REASONS, RESOLUTIONS
from officegym.tasks.base import Level, Spec, template
from officegym.tasks.common import call, pick
from officegym.tasks.crm.common import crm_index
from officegym.tasks.crm.steps import close_case_step, escalate_step
from officegym.tasks.statements import Says, rivals
from officegym.tasks.steps import Step

__all__ = ["escalate_quoted", "open_case", "reason_logged", "reason_quoted"]


def open_case(w: Session, rng: random.Random, statuses: tuple[str, ...] = ("New", "Working")):
    """A case in one of `statuses` owned by a support rep, and that rep."""
    idx = crm_index(w)
    cases = [c for c in idx.cases if c.status in statuses and idx.roles.get(c.owner_id) == "rep"]
    case = pick(rng, cases, "open cases")
    return idx, case, idx.people[case.owner_id]


def reason_logged(reason: str) -> Says:
    """What the escalation note must say: the reason given (not denied), and none of the
    others."""
    return Says(all_of=[[reason]], none_of=rivals(ESCALATION_REASONS, reason), act="announce")


def reason_quoted(reason: str) -> Says:
    """The escalation note of a reason the goal quotes: that reason, word for word (the
    service writes it as "Escalated: <reason>")."""
    return Says(exactly=f"Escalated: {reason}")


def escalate_quoted(case: Any, reason: str, me: Any, names: tuple[str, str]) -> Step:
    """Escalate a case the goal names by number, with the reason it quotes: the case
    looked up, then escalated by `me`, its note the reason word for word."""
    find = [call("crm_get_case", case=case.number)]
    return escalate_step(case, reason, me.id, reason_quoted(reason), names=names, find=find)


@template("crm.escalate-case", difficulty="medium")
def escalate_case(w: Session, rng: random.Random) -> Spec:
    """Escalate one of your cases with the reason given."""
    _idx, case, me = open_case(w, rng)
    reason = rng.choice(ESCALATION_REASONS)
    return Spec(
        goal=f"Case {case.number} ({case.subject}) must be escalated. Escalate it with the "
        f'reason "{reason}".',
        persona=me.handle,
        steps=[
            escalate_quoted(
                case, reason, me, ("escalated with high priority", "reason logged on the case")
            )
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
        steps=[
            close_case_step(x, resolution, suffix=f" ({x.number})" if len(cases) > 1 else "")
            for x in cases
        ],
    )
