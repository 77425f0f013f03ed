"""The CRM step builders: what each act calls, checks and lets an agent change
(`officegym.tasks.crm.steps`)."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace
from typing import Any

from officegym.changes import RowChange
from officegym.tasks.checks import Allow, FieldEquals, Predicate, RowExists
from officegym.tasks.common import call
from officegym.tasks.crm.steps import (
    activity_step,
    close_case_step,
    create_step,
    escalate_step,
    reassign_step,
    stage_step,
    update_step,
)
from officegym.tasks.statements import Says

CASE = SimpleNamespace(id=12, number="00001012")
ANA = SimpleNamespace(id=4, handle="ana")


def _update(table: str, row_id: int, **after: Any) -> RowChange:
    before = {"id": row_id, **{k: "old" for k in after}}
    return RowChange(table, row_id, before, {"id": row_id, **after})


def _insert(table: str, **row: Any) -> RowChange:
    return RowChange(table, 99, None, {"id": 99, **row})


def _allowed(allowed: Any, change: RowChange) -> bool:
    return any(isinstance(a, Allow) and a.matches(change) for a in allowed)


def test_stage_step_looks_up_first_and_allows_only_what_the_move_changes() -> None:
    find = [call("crm_get_opportunity", opportunity="Acme - Renewal")]
    step = stage_step(5, "Proposal", name="stage is Proposal", find=find)
    assert [c.name for c in step.calls] == ["crm_get_opportunity", "crm_change_opportunity_stage"]
    assert step.calls[1].arguments == {"opportunity": 5, "stage": "Proposal"}
    (check,) = step.checks
    assert isinstance(check, FieldEquals) and (check.row_id, check.value) == (5, "Proposal")
    moved = _update("crm_opportunity", 5, stage="Proposal", probability=50)
    assert _allowed(step.allowed, moved)
    assert not _allowed(step.allowed, _update("crm_opportunity", 5, close_date="x"))
    assert not _allowed(step.allowed, _update("crm_opportunity", 6, stage="Proposal"))


def test_closing_stage_passes_the_loss_reason_and_allows_the_close_fields() -> None:
    step = stage_step(5, "Closed Lost", name="lost", loss_reason="Price")
    assert step.calls[0].arguments["loss_reason"] == "Price"
    closed = _update("crm_opportunity", 5, stage="Closed Lost", close_date="d", loss_reason="P")
    assert _allowed(step.allowed, closed)


def test_update_step_writes_dates_as_text_and_reads_exact_fields_as_text() -> None:
    when = dt.date(2026, 3, 31)
    step = update_step(
        "opportunity",
        8,
        {"close_date": when, "next_step": "Send quote"},
        name={"close_date": "moved", "next_step": "next step"},
        exact=["next_step"],
    )
    assert step.calls[0] == call(
        "crm_update_opportunity", opportunity=8, close_date="2026-03-31", next_step="Send quote"
    )
    date, text = step.checks
    assert isinstance(date, FieldEquals) and date.value == when and date.says is None
    assert isinstance(text, FieldEquals) and text.value is None
    assert text.says == Says(exactly="Send quote")
    assert _allowed(step.allowed, _update("crm_opportunity", 8, close_date="d", next_step="s"))
    assert not _allowed(step.allowed, _update("crm_opportunity", 8, amount=1))


def test_update_step_calls_the_tool_of_its_record_type() -> None:
    step = update_step("lead", 3, {"status": "Nurturing"}, name="nurturing")
    assert step.calls[0] == call("crm_update_lead", lead=3, status="Nurturing")
    assert step.checks[0].table == "crm_lead"


def test_reassign_step_checks_the_new_owner_of_that_record_only() -> None:
    step = reassign_step("account", 30, ANA, name="owned by Ana")
    assert step.calls[0].arguments == {
        "record_type": "account",
        "record_id": 30,
        "new_owner": "ana",
    }
    assert step.checks[0].value == ANA.id and step.checks[0].field == "owner_id"
    assert _allowed(step.allowed, _update("crm_account", 30, owner_id=4))
    assert not _allowed(step.allowed, _update("crm_account", 31, owner_id=4))
    assert not _allowed(step.allowed, _update("crm_account", 30, name="x"))


def test_create_step_allows_one_new_record_matching_its_allowance() -> None:
    made = call("crm_create_contact", last_name="Novak", account=2)
    find = [call("crm_search_accounts", query="Acme")]
    step = create_step(
        "contact", made, {"account_id": 2, "last_name": "Novak"}, name="c", allow={"account_id": 2},
        find=find,
    )  # fmt: skip
    assert list(step.calls) == [*find, made]
    (check,) = step.checks
    assert isinstance(check, RowExists) and check.new and check.table == "crm_contact"
    assert _allowed(step.allowed, _insert("crm_contact", account_id=2))
    assert not _allowed(step.allowed, _insert("crm_contact", account_id=3))
    assert all(a.limit == 1 for a in step.allowed if a.table == "crm_contact")


def test_activity_step_allows_one_activity_by_its_owner_on_that_record() -> None:
    due = dt.date(2026, 4, 2)
    step = activity_step(
        "opportunity", 5, ANA.id, "task", "Call back", Says(exactly="Call back"), name="task",
        where={"status": "Open"}, due_date=due,
    )  # fmt: skip
    assert step.calls[0].arguments == {
        "record_type": "opportunity", "record_id": 5, "kind": "task", "subject": "Call back",
        "due_date": "2026-04-02",
    }  # fmt: skip
    (check,) = step.checks
    assert check.where == {"record_type": "opportunity", "record_id": 5, "kind": "task",
                           "status": "Open"}  # fmt: skip
    mine = dict(record_type="opportunity", record_id=5, owner_id=ANA.id)
    assert _allowed(step.allowed, _insert("crm_activity", **mine))
    assert not _allowed(step.allowed, _insert("crm_activity", **{**mine, "record_id": 6}))
    assert not _allowed(step.allowed, _insert("crm_activity", **{**mine, "owner_id": 9}))
    assert step.allowed[0].limit == 1


def test_escalate_step_checks_the_case_and_its_note() -> None:
    says = Says(exactly="Escalated: outage")
    step = escalate_step(CASE, "outage", ANA.id, says, names=("escalated", "noted"))
    assert step.calls[0] == call("crm_escalate_case", case=CASE.number, reason="outage")
    escalated, noted = step.checks
    assert isinstance(escalated, Predicate) and escalated.name == "escalated"
    assert isinstance(noted, RowExists) and noted.says == {"subject": says}
    assert _allowed(step.allowed, _update("crm_case", 12, status="Escalated", priority="High"))
    assert not _allowed(step.allowed, _update("crm_case", 12, owner_id=3))
    note = dict(record_type="case", record_id=12, owner_id=ANA.id)
    assert _allowed(step.allowed, _insert("crm_activity", **note))


def test_close_case_step_finds_the_case_then_closes_it() -> None:
    step = close_case_step(CASE, "Reset the password", suffix=" (00001012)")
    assert [c.name for c in step.calls] == ["crm_search_cases", "crm_close_case"]
    assert [c.name for c in step.checks] == [
        "case closed (00001012)",
        "resolution recorded (00001012)",
    ]
    assert _allowed(step.allowed, _update("crm_case", 12, status="Closed", resolution="r"))
    assert not _allowed(step.allowed, _update("crm_case", 12, priority="Low"))
