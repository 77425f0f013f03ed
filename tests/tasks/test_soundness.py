"""The holes found by trying near-miss solutions as a new user would, each closed by the
generic machinery (typed answers, acts, verbatim quotes, lookalikes, rivals by type) and
held closed here over several seeds."""

from __future__ import annotations

import dataclasses

import pytest

from officegym.apps.crm.models import STAGES
from officegym.seed_data.crm_text import ESCALATION_REASONS
from officegym.seed_data.slack_text import DAYS
from officegym.tasks import make_task
from officegym.tasks.base import Task
from officegym.tasks.validate import replay
from officegym.tools import ToolCall
from officegym.world import World

SEEDS = range(4)
CYRILLIC_T = "\u0422"  # looks like T


@pytest.fixture(scope="module")
def world(module_world: World) -> World:
    return module_world


def rewritten(task: Task, tool: str, **arguments: object) -> list[ToolCall]:
    """The reference with the last call of `tool` given other arguments."""
    calls = list(task.solution)
    i = max(i for i, c in enumerate(calls) if c.name == tool)
    calls[i] = dataclasses.replace(calls[i], arguments={**calls[i].arguments, **arguments})
    return calls


def passes(world: World, task: Task, calls: list[ToolCall], answer: str | None) -> bool:
    grade, errors = replay(world, task, calls, answer)
    assert not errors, errors
    return grade.passed


@pytest.mark.parametrize(
    ("template_id", "answer"),
    [
        ("slack.count-members", "It isn't {a}."),
        ("crm.pipeline-amount", "{a} is wrong"),
        ("crm.count-open-cases", "either {a} or {b}"),
        ("crm.pipeline-amount", "Not {a}, I believe."),
        ("slack.lookup-manager", "Definitely not {a}"),
    ],
)
def test_answers_that_deny_or_hedge_the_right_value_fail(
    world: World, template_id: str, answer: str
) -> None:
    for seed in SEEDS:
        task = make_task(template_id, seed)
        assert task.expects is not None and task.answer is not None
        rival = task.expects.say(task.expects.rivals()[0])
        assert passes(world, task, list(task.solution), task.answer)
        assert not passes(world, task, list(task.solution), answer.format(a=task.answer, b=rival))


@pytest.mark.parametrize(
    ("template_id", "tool", "field"),
    [
        ("crm.close-case", "crm_close_case", "resolution"),
        ("crm.follow-up-task", "crm_log_activity", "subject"),
        ("crm.escalate-case", "crm_escalate_case", "reason"),
        ("crm.close-won", "crm_log_activity", "subject"),
        ("cross.escalate-and-tell-manager", "crm_escalate_case", "reason"),
    ],
)
def test_text_the_goal_quotes_is_stored_word_for_word(
    world: World, template_id: str, tool: str, field: str
) -> None:
    for seed in SEEDS:
        task = make_task(template_id, seed)
        quoted = next(c.arguments[field] for c in task.solution if c.name == tool)
        assert passes(world, task, rewritten(task, tool, **{field: quoted.upper()}), None)
        more = rewritten(task, tool, **{field: f"{quoted} Customer informed by phone."})
        assert not passes(world, task, more, None)
        fewer = rewritten(task, tool, **{field: quoted.split(" ", 1)[1]})
        assert not passes(world, task, fewer, None)


def test_the_escalation_reason_the_goal_names_is_checked_across_apps(world: World) -> None:
    for seed in SEEDS:
        task = make_task("cross.escalate-and-tell-manager", seed)
        reason = next(c.arguments["reason"] for c in task.solution if c.name == "crm_escalate_case")
        other = next(r for r in ESCALATION_REASONS if r != reason)
        assert not passes(world, task, rewritten(task, "crm_escalate_case", reason=other), None)


def test_a_rival_day_with_one_cyrillic_letter_is_still_a_rival(world: World) -> None:
    for seed in SEEDS:
        task = make_task("slack.post-channel", seed)
        text = task.solution[-1].arguments["text"]
        day = next(d for d in DAYS if d not in text and d.startswith("T"))
        disguised = CYRILLIC_T + day[1:]
        calls = rewritten(task, "slack_post_message", text=f"{text} (or {disguised})")
        assert not passes(world, task, calls, None)


def test_a_confirmation_naming_every_stage_fails(world: World) -> None:
    for seed in SEEDS:
        task = make_task("cross.stage-request", seed)
        text = f"Done: the deal is now at {', '.join(STAGES)} in the CRM."
        assert not passes(world, task, rewritten(task, "slack_reply_in_thread", text=text), None)


@pytest.mark.parametrize(
    "text", ["Which lead do you mean?", "I'll add the lead to the CRM later today.",
             "The lead isn't in the CRM yet."],
)  # fmt: skip
def test_a_question_a_promise_or_a_denial_is_no_confirmation(world: World, text: str) -> None:
    for seed in SEEDS:
        task = make_task("cross.lead-from-chat", seed)
        assert not passes(world, task, rewritten(task, "slack_reply_in_thread", text=text), None)


def test_a_promise_to_post_later_is_no_refusal(world: World) -> None:
    for seed in SEEDS:
        task = make_task("slack.no-access-request", seed)
        channel = task.goal.split("#")[1].split(".")[0].split()[0]
        text = f"I can't see #{channel} right now, I'll post it there later."
        assert not passes(world, task, rewritten(task, "slack_send_dm", text=text), None)


@pytest.mark.parametrize(
    ("template_id", "tool"),
    [("slack.dm-by-name", "slack_send_dm"), ("slack.join-and-post", "slack_post_message"),
     ("slack.post-channel", "slack_post_message"), ("cross.lead-from-chat",
                                                    "slack_reply_in_thread")],
)  # fmt: skip
def test_posting_the_goals_own_text_back_fails(world: World, template_id: str, tool: str) -> None:
    for seed in SEEDS:
        task = make_task(template_id, seed)
        assert not passes(world, task, rewritten(task, tool, text=task.goal), None)


def test_a_harmless_case_change_in_a_name_or_title_passes(world: World) -> None:
    for seed in SEEDS:
        task = make_task("crm.add-contact", seed)
        args = task.solution[-1].arguments
        calls = rewritten(
            task, "crm_create_contact", title=args["title"].lower(), email=args["email"].upper()
        )
        assert passes(world, task, calls, None)
