"""The CRM and cross-app task templates: enough of them, registered as Gym ids, and
graded soundly (the shared contract over 20 seeds is in tests/tasks/test_templates.py;
here: collateral damage is caught and near misses fail)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from officegym.apps.crm.models import Account, Lead, Opportunity
from officegym.runner import ToolRunner
from officegym.tasks import TEMPLATES, load_templates, make_task
from officegym.tasks.grading import grade
from officegym.tasks.validate import play
from officegym.world import World

load_templates()


def test_there_are_enough_crm_and_cross_templates() -> None:
    apps = [t.app for t in TEMPLATES.values()]
    assert apps.count("crm") >= 12
    assert apps.count("cross") >= 6
    for t in TEMPLATES.values():
        if (
            t.app == "cross"
        ):  # the chat with the CRM, trips or the sheets; trips with the CRM or the sheets
            pairs = (
                {"crm", "slack"},
                {"booking", "slack"},
                {"booking", "crm"},
                {"sheets", "slack"},
                {"booking", "sheets"},
            )
            composed = ({"slack"},)  # cross.onboard-cohort: several chat skills composed
            assert set(t.apps) in (*pairs, *composed, {"sheets", "crm", "slack"}), t.id


def test_gym_ids_exist_for_the_apps_and_each_template() -> None:
    from officegym.gym.registration import env_specs

    specs = env_specs()
    assert specs["officegym/crm-v0"] == {"app": "crm"}
    assert specs["officegym/cross-v0"] == {"app": "cross"}
    assert "officegym/crm.convert-lead-v0" in specs
    assert "officegym/cross.stage-request-v0" in specs


def finish(world: World, persona: str, calls: list[tuple[str, dict]]) -> None:
    """Run tool calls as `persona` on the world as it is (each must succeed)."""
    runner = ToolRunner(world, persona)
    for name, args in calls:
        assert runner.call(name, args).ok, name
    runner.close()


@pytest.mark.parametrize(
    "template_id", ["crm.update-deal", "cross.stage-request", "crm.reassign-territory"]
)
def test_an_extra_change_elsewhere_is_collateral_damage(world: World, template_id: str) -> None:
    task = make_task(template_id, 3)
    good, errors = play(world, task)
    assert not errors and good.passed
    allowed = {a.where.get("id") for a in task.allowed if a.table == "crm_opportunity"}
    with world.session() as s:
        opps = s.scalars(select(Opportunity).order_by(Opportunity.id)).all()
        victim = next(o for o in opps if not o.is_closed and o.id not in allowed)
    edit = {"opportunity": victim.id, "next_step": "Unrelated edit"}
    finish(world, "rgreen", [("crm_update_opportunity", edit)])  # the CRM admin
    with world.initial_connection() as before, world.engine.connect() as after:
        bad = grade(task, before, after, task.answer)
    assert not bad.passed and bad.reward == 0.5
    assert any(f"crm_opportunity #{victim.id}" in c for c in bad.collateral)


def test_converting_onto_a_duplicate_account_fails_the_existing_account_task(world: World) -> None:
    task = make_task("crm.convert-lead-existing-account", 0)
    lead_id = task.solution[-1].arguments["lead"]
    amount = task.solution[-1].arguments["amount"]
    world.reset()
    with world.session() as s:
        lead = s.get_one(Lead, lead_id)
        existing = s.scalars(select(Account).where(Account.name == lead.company)).one()
    # the near miss: rename the existing account away, then convert into a new one
    finish(
        world,
        "rgreen",
        [("crm_update_account", {"account": existing.id, "name": existing.name + " (old)"})],
    )
    finish(world, task.persona, [("crm_convert_lead", {"lead": lead_id, "amount": amount})])
    with world.initial_connection() as before, world.engine.connect() as after:
        result = grade(task, before, after, None)
    assert not result.passed and result.reward < 1


def test_naming_every_candidate_does_not_pass_a_question(world: World) -> None:
    task = make_task("crm.pipeline-amount", 1)
    world.reset()
    (report,) = task.solution  # the rep's pipeline by stage: the other stages are rivals
    runner = ToolRunner(world, task.persona)
    rows = runner.call(report.name, report.arguments).result["rows"]
    runner.close()
    rival = next(f"${r['amount']:,}" for r in rows if f"${r['amount']:,}" != task.answer)
    with world.initial_connection() as before, world.engine.connect() as after:
        right = grade(task, before, after, task.answer)
        wrong = grade(task, before, after, "$1")
        hedged = grade(task, before, after, f"{task.answer} or {rival}")
    assert right.passed and right.reward == 1.0
    assert not wrong.passed and not hedged.passed
