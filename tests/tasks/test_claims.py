"""A message that confirms or reports work is credited only when the work is done
(`officegym.tasks.grading.gate_claims`), and an ask check frees only the question it
reads (`Asked.frees`)."""

from __future__ import annotations

import pytest

from officegym.tasks import make_task
from officegym.tasks.asked import Asked
from officegym.tasks.base import Task
from officegym.tasks.grading import MESSAGE_TOOLS
from officegym.tasks.policies import messages_only
from officegym.tasks.slack.said import Said
from officegym.tasks.statements import Says
from officegym.tasks.validate import replay
from officegym.tools import load_tools
from officegym.world import World

CLAIMING = ["cross.sales-inbox", "cross.stage-request", "cross.follow-up-sweep"]


@pytest.fixture(scope="module")
def world(module_world: World) -> World:
    return module_world


def _writes(task: Task) -> list[int]:
    kinds = {name: t.kind for name, t in load_tools().items()}
    return [i for i, c in enumerate(task.solution) if kinds.get(c.name) == "write"]


@pytest.mark.parametrize("template_id", CLAIMING)
def test_the_reference_scores_one_and_its_messages_alone_score_nothing(
    world: World, template_id: str
) -> None:
    task = make_task(template_id, 0)
    assert any(c.claims for c in task.checks)
    graded, errors = replay(world, task, task.solution, task.answer)
    assert not errors and graded.reward == 1.0
    [run] = messages_only(task)
    graded, errors = replay(world, task, run.calls, run.answer)
    assert not errors
    assert graded.reward == 0.0, [(r.name, r.passed) for r in graded.checks]
    claims = {c.name for c in task.checks if c.claims}
    assert all(not r.passed for r in graded.checks if r.name in claims)


@pytest.mark.parametrize("template_id", ["cross.sales-inbox", "cross.follow-up-sweep"])
def test_confirmations_of_partly_done_work_add_nothing(world: World, template_id: str) -> None:
    """One piece of the work done and every confirmation sent scores what that piece alone
    scores: the confirmations of the undone pieces (and of the done one) earn nothing."""
    task = make_task(template_id, 0)
    work = [i for i in _writes(task) if task.solution[i].name not in MESSAGE_TOOLS]
    assert len(work) >= 2
    dropped = set(work[1:])
    partial = [c for i, c in enumerate(task.solution) if i not in dropped]
    silent = [c for c in partial if c.name not in MESSAGE_TOOLS]
    with_claims, errors = replay(world, task, partial, task.answer)
    assert not errors
    alone, errors = replay(world, task, silent, task.answer)
    assert not errors
    assert 0 < with_claims.reward < 1
    assert with_claims.reward == pytest.approx(alone.reward)
    claims = {c.name for c in task.checks if c.claims}
    assert all(not r.passed for r in with_claims.checks if r.name in claims)
    assert any("not done" in r.detail for r in with_claims.checks if r.name in claims)


def test_only_confirmations_and_reports_claim_work() -> None:
    def said(act: str | None) -> Said:
        return Said(name="x", author_id=1, channel_id=2, says=Says(act=act))

    assert said("confirm").claims and said("report").claims
    assert not any(said(a).claims for a in ("announce", "request", "refuse", None))
    assert Said.judges == "message" and Asked.judges == "message"


def test_the_ask_check_frees_only_the_persona_s_dm_with_the_requester(world: World) -> None:
    task = make_task("slack.ask-event-date", 0)
    [asked] = [c for c in task.checks if isinstance(c, Asked)]
    with world.initial_engine.connect() as initial:
        [free] = asked.frees(initial)
        said = next(c for c in task.checks if isinstance(c, Said))
    me = asked.persona_id
    channel_post = {"user_id": me, "channel_id": said.channel_id, "thread_parent_id": None}
    assert not free.covers(channel_post)  # the announcement's text is the Said's to judge
    assert free.where["user_id"] == me and free.where["thread_parent_id"] is None
    dm = free.where["channel_id"]
    some_dm = dm if isinstance(dm, int) else dm.start
    assert free.covers({"user_id": me, "channel_id": some_dm, "thread_parent_id": None})
    assert not free.covers({"user_id": me + 1, "channel_id": some_dm, "thread_parent_id": None})
