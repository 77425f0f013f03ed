"""Opportunity rules: the stage pipeline, default probabilities, closing Won or Lost,
and the lock on closed opportunities (only admins change or reopen them)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy.orm import Session

from officegym.apps.crm import fields, records
from officegym.apps.crm.access import require_edit, role_of
from officegym.apps.crm.fields import FieldError
from officegym.apps.crm.models import CLOSED_STAGES, STAGE_PROBABILITY, STAGES, Contact, Opportunity
from officegym.apps.crm.records import describe
from officegym.apps.org.models import Person
from officegym.clock import now
from officegym.db import get
from officegym.errors import Conflict

__all__ = ["change_stage", "prepare_opportunity", "require_unlocked", "update_opportunity"]

Values = dict[str, Any]


def _stage(value: Any) -> str:
    by_lower = {st.lower(): st for st in STAGES}
    stage = by_lower.get(str(value).strip().lower())
    if stage is None:
        raise FieldError("opportunity", "stage", f"{value!r} is not one of: {', '.join(STAGES)}")
    return stage


def _check_loss_reason(stage: str, reason: Any) -> None:
    if stage == "Closed Lost" and not reason:
        raise FieldError("opportunity", "loss_reason", "is required to close an opportunity Lost")
    if stage != "Closed Lost" and reason:
        raise FieldError("opportunity", "loss_reason", "applies only to Closed Lost")


def _check_contact(s: Session, account_id: Any, contact_id: Any) -> None:
    if contact_id in (None, "") or account_id in (None, ""):
        return
    contact = get(s, Contact, int(contact_id))
    if contact is not None and contact.account_id != int(account_id):
        raise FieldError(
            "opportunity", "contact_id", f"contact {contact.id} is not a contact of the account"
        )


def require_unlocked(s: Session, actor: Person, opp: Opportunity) -> None:
    if opp.is_closed and role_of(s, actor) != "admin":
        raise Conflict(
            f"opportunity {opp.id} is {opp.stage}; closed opportunities are locked "
            "(only a CRM admin can change or reopen them)",
            code="opportunity_closed",
        )


def change_stage(
    s: Session, actor: Person, opp: Opportunity, stage: str, *, loss_reason: str | None = None
) -> Opportunity:
    """Move an opportunity to a stage; probability follows the stage, and closing Won
    or Lost sets the close date to today (Lost needs a loss reason)."""
    require_edit(s, actor, opp, describe("opportunity", opp))
    stage = _stage(stage)
    require_unlocked(s, actor, opp)
    if stage == opp.stage:
        raise Conflict(f"opportunity {opp.id} is already at stage {stage}")
    _check_loss_reason(stage, loss_reason)
    values: Values = {"stage": stage, "probability": STAGE_PROBABILITY[stage]}
    if stage in CLOSED_STAGES:
        when = now(s)
        values |= {"close_date": when.date(), "closed_at": when}
        values["loss_reason"] = fields.clean(s, "opportunity", "loss_reason", loss_reason)
    else:
        values |= {"closed_at": None, "loss_reason": None}
    fields.record_changes(s, actor, "opportunity", opp, values)
    return opp


def prepare_opportunity(s: Session, v: Values, imported: bool = False) -> tuple[Values, Values]:
    """A new opportunity's values and trusted extras: the stage (default Prospecting)
    sets the probability unless one is given. Created Closed Won or Lost, it is closed
    today: close date today, as `change_stage` does. An imported one (CSV import)
    keeps the file's close date and is closed as of that day."""
    stage = _stage(v.pop("stage", None) or "Prospecting")
    closed = stage in CLOSED_STAGES
    if closed or v.get("probability") in (None, ""):
        v["probability"] = STAGE_PROBABILITY[stage]
    _check_loss_reason(stage, v.get("loss_reason"))
    _check_contact(s, v.get("account_id"), v.get("contact_id"))
    return v, {"stage": stage, "closed_at": _closed_at(s, v, imported) if closed else None}


def _closed_at(s: Session, v: Values, imported: bool) -> dt.datetime:
    """When a new closed opportunity closed; sets its close date unless imported."""
    if not imported:
        when = now(s)
        v["close_date"] = when.date()
        return when
    day = fields.clean(s, "opportunity", "close_date", v.get("close_date"))
    return dt.datetime.combine(day, dt.time())


def update_opportunity(
    s: Session, actor: Person, rt: str, opp: Opportunity, v: Values
) -> list[str]:
    require_unlocked(s, actor, opp)
    stage = _stage(v.pop("stage")) if "stage" in v else opp.stage
    reason = v.pop("loss_reason", None) if stage != opp.stage else v.get("loss_reason")
    if stage != opp.stage:
        _check_loss_reason(stage, reason)
    elif reason and stage != "Closed Lost":
        raise FieldError("opportunity", "loss_reason", "applies only to Closed Lost")
    probability = v.pop("probability", None)
    if probability not in (None, ""):
        if stage in CLOSED_STAGES:
            raise FieldError("opportunity", "probability", "is fixed once an opportunity is closed")
        fields.clean(s, rt, "probability", probability)
    if "account_id" in v or "contact_id" in v:
        _check_contact(s, v.get("account_id", opp.account_id), v.get("contact_id", opp.contact_id))
    changed = records.update(s, actor, rt, opp, v)
    if stage != opp.stage:
        change_stage(s, actor, opp, stage, loss_reason=reason)
        changed.append("stage")
    if probability not in (None, ""):
        changed += records.update(s, actor, rt, opp, {"probability": probability})
    return changed
