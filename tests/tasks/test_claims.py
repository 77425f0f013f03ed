"""A message that confirms or reports work is credited only when the work is done
(`officegym.tasks.grading.gate_claims`), and an ask check frees only the question it
reads (`Asked.frees`)."""

from __future__ import annotations

import pytest

from officegym.tasks import make_task
from officegym.tasks.asked import Asked
from officegym.tasks.base import Task
from officegym.tasks.claims import MESSAGE_TOOLS, pieces
from officegym.tasks.expected import Step as WriteStep
from officegym.tasks.expected import expected
from officegym.tasks.policies import claim_first, messages_only
from officegym.tasks.slack.said import Said
from officegym.tasks.statements import Says
from officegym.tasks.validate import replay
from officegym.tools import ToolCall, load_tools
from officegym.world import World

CLAIMING = ["cross.sales-inbox", "cross.stage-request", "cross.follow-up-sweep"]


@pytest.fixture(scope="module")
def world(module_world: World) -> World:
    return module_world


def _writes(task: Task) -> list[int]:
    kinds = {name: t.kind for name, t in load_tools().items()}
    return [i for i, c in enumerate(task.solution) if kinds.get(c.name) == "write"]


@pytest.mark.parametrize("template_id", CLAIMING)
def test_the_reference_scores_one_and_its_messages_alone_earn_no_claim(
    world: World, template_id: str
) -> None:
    """Without the work, every confirmation and report of it fails; what is left is the
    credit of the messages that report only what the reference read (the answers of
    cross.sales-inbox), as much as those messages alone earn: none elsewhere."""
    task = make_task(template_id, 0)
    assert any(c.claims for c in task.checks)
    graded, errors = replay(world, task, task.solution, task.answer)
    assert not errors and graded.reward == 1.0
    [run] = messages_only(task)
    graded, errors = replay(world, task, run.calls, run.answer)
    assert not errors
    claims = {c.name for c in task.checks if c.claims and c.says.act == "confirm"}
    assert all(not r.passed for r in graded.checks if r.name in claims)
    cut = pieces(expected(task).steps, len(task.solution))
    answers = [task.solution[i] for i in sorted(cut) if not cut[i]]
    if template_id == "cross.sales-inbox":
        alone, errors = replay(world, task, answers, task.answer)
        assert answers and not errors
        assert graded.reward == pytest.approx(alone.reward) and alone.reward < 1
    else:
        assert not answers and graded.reward == 0.0


@pytest.mark.parametrize("template_id", ["cross.sales-inbox", "cross.follow-up-sweep"])
def test_confirmations_of_partly_done_work_add_nothing(world: World, template_id: str) -> None:
    """One piece of the work done and every confirmation sent scores what that piece and
    its own confirmation score: the confirmations of the undone pieces earn nothing."""
    task = make_task(template_id, 0)
    work = [i for i in _writes(task) if task.solution[i].name not in MESSAGE_TOOLS]
    assert len(work) >= 2
    cut = pieces(expected(task).steps, len(task.solution))
    kept = [i for i in range(len(task.solution)) if i not in work[1:]]
    honest = [i for i in kept if i not in cut or set(cut[i]) <= {work[0]}]
    assert len(honest) < len(kept)  # some confirmations claim undone work
    with_claims, errors = replay(world, task, [task.solution[i] for i in kept], task.answer)
    assert not errors
    alone, errors = replay(world, task, [task.solution[i] for i in honest], task.answer)
    assert not errors
    assert 0 < with_claims.reward < 1
    assert with_claims.reward == pytest.approx(alone.reward)
    gated = [r for r in with_claims.checks if "the work it claims is not done" in r.detail]
    assert gated and not any(r.passed for r in gated)


def test_a_message_claims_the_writes_since_the_previous_message() -> None:
    def step(index: int, tool: str) -> WriteStep:
        return WriteStep(index, tool, ())

    work, post = "crm_update_opportunity", "slack_reply_in_thread"
    steps = [step(0, work), step(1, post), step(2, work), step(3, work), step(4, post),
             step(5, post), step(6, work)]  # fmt: skip
    assert pieces(steps) == {1: (0,), 4: (2, 3), 5: (2, 3)}  # a batched one: the piece before
    # A message after reads only (calls 2-3 here) reports what it read: it claims nothing.
    read_then_post = [step(0, work), step(1, post), step(4, post), step(5, post)]
    assert pieces(read_then_post, 6) == {1: (0,), 4: (), 5: ()}


def test_only_confirmations_and_reports_claim_work() -> None:
    def said(act: str | None) -> Said:
        return Said(name="x", author_id=1, channel_id=2, says=Says(act=act))

    assert said("confirm").claims and said("report").claims
    assert not any(said(a).claims for a in ("announce", "request", "refuse", None))


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


@pytest.mark.parametrize("template_id", [*CLAIMING, "slack.onboard-new-hire"])
def test_a_confirmation_sent_before_the_work_it_claims_fails(
    world: World, template_id: str
) -> None:
    """The reference with a claimed message moved before its work leaves the same end
    state, yet fails: the change log knows the message came first."""
    task = make_task(template_id, 0)
    runs = claim_first(world, task)
    assert runs
    for run in runs:
        graded, errors = replay(world, task, run.calls, run.answer)
        if errors:  # the message needs its work first (a channel it creates)
            continue
        assert not graded.passed, run.label
        late = [r for r in graded.checks if "sent before the work it claims" in r.detail]
        assert late and not any(r.passed for r in late)


def test_a_confirmation_edited_after_the_work_counts_from_when_it_was_sent(
    world: World,
) -> None:
    """Sent after the work and edited later, a confirmation counts; sent before the work
    and edited after it, it does not: an edit does not move when a message was sent."""
    task = make_task("slack.onboard-new-hire", 0)
    *work, dm = task.solution
    assert dm.name == "slack_send_dm"
    posted = replay(world, task, [*work, dm], task.answer)[0]
    assert posted.passed
    with world.engine.connect() as conn:
        mid = conn.exec_driver_sql("SELECT max(id) FROM slack_message").scalar()
    edit = ToolCall("slack_edit_message", {"message_id": mid, "text": dm.arguments["text"]})
    late, errors = replay(world, task, [*work, dm, edit], task.answer)
    assert not errors and late.passed
    early, errors = replay(world, task, [*work[:6], dm, *work[6:], edit], task.answer)
    assert not errors and not early.passed
