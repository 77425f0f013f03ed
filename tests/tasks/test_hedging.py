"""Graders cannot be talked round: a message or answer that hedges (names rival values
beside the right one, spreads candidates over several messages), or states a wrong value
that contains the right one, does not pass — while the reference solution does.

Each test rewrites the last message of a template's reference solution and replays it
on a fresh world, over many seeds."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.seed_data.slack_text import DAYS, EMOJI, FEATURES, ROOMS, TIMES
from officegym.tasks import make_task
from officegym.tasks.base import Task
from officegym.tasks.slack.said import Said
from officegym.tasks.validate import replay
from officegym.tools import ToolCall
from officegym.world import World

SEEDS = range(12)


@pytest.fixture(scope="module")
def world(module_world: World) -> World:
    return module_world


def with_args(task: Task, index: int, **arguments: object) -> list[ToolCall]:
    """The reference solution with call `index` given other arguments."""
    calls = list(task.solution)
    call = calls[index]
    calls[index] = dataclasses.replace(call, arguments={**call.arguments, **arguments})
    return calls


def with_text(task: Task, text: str) -> list[ToolCall]:
    """The reference solution with its last call's text replaced."""
    return with_args(task, len(task.solution) - 1, text=text)


def rival(task: Task) -> str:
    """A wrong value of the kind the task's message must state."""
    says = next(c for c in task.checks if isinstance(c, Said)).says
    if says.amount is not None:
        return f"${says.amount + 7_500:,}"
    if says.date is not None:
        return (says.date + dt.timedelta(days=3)).isoformat()
    fact = says.all_facts[0]
    return fact.say(fact.rivals()[0])


def passes(world: World, task: Task, calls: list[ToolCall]) -> bool:
    grade, errors = replay(world, task, calls, task.answer)
    assert not errors, errors
    return grade.passed


@pytest.mark.parametrize("seed", SEEDS)
def test_answering_a_deal_question_with_a_rival_value_beside_the_right_one_fails(
    world: World, seed: int
) -> None:
    task = make_task("cross.answer-deal-question", seed)
    reference = task.solution[-1].arguments["text"]
    assert passes(world, task, list(task.solution))
    assert not passes(world, task, with_text(task, f"{reference} (or maybe {rival(task)})"))


@pytest.mark.parametrize("seed", SEEDS)
def test_posting_every_stage_with_the_right_amount_fails(world: World, seed: int) -> None:
    task = make_task("cross.deal-status-to-channel", seed)
    said = next(c for c in task.checks if isinstance(c, Said)).says
    every_stage = ", ".join(["Prospecting", "Proposal", "Negotiation", "Closed Won"])
    assert not passes(world, task, with_text(task, f"Stage: {every_stage}; ${said.amount:,}"))


@pytest.mark.parametrize("seed", SEEDS)
def test_spreading_candidates_over_two_messages_fails(world: World, seed: int) -> None:
    task = make_task("cross.deal-status-to-channel", seed)
    post = task.solution[-1]
    extra = dataclasses.replace(post, arguments={**post.arguments, "text": rival(task)})
    grade, _ = replay(world, task, [*task.solution, extra], None)
    failed = {c.name for c in grade.checks if not c.passed}
    assert not grade.passed and "stage and amount posted in #sales" in failed


@pytest.mark.parametrize("seed", SEEDS)
def test_a_wrong_total_that_contains_the_right_one_fails(world: World, seed: int) -> None:
    task = make_task("cross.pipeline-to-manager", seed)
    text = task.solution[-1].arguments["text"]
    assert passes(world, task, with_text(task, text.rstrip(".")))
    assert not passes(world, task, with_text(task, text.replace("$", "$1,", 1)))


@pytest.mark.parametrize("seed", range(4))
def test_a_dm_to_a_group_with_the_manager_in_it_is_not_a_dm_to_the_manager(
    world: World, seed: int
) -> None:
    task = make_task("cross.escalate-and-tell-manager", seed)
    *calls, dm = task.solution
    people = [*dm.arguments["people"], "kturner" if task.persona != "kturner" else "mchang"]
    group = dataclasses.replace(dm, arguments={**dm.arguments, "people": people})
    assert not passes(world, task, [*calls, group])


@pytest.mark.parametrize(
    ("template_id", "answer", "expected"),
    [
        ("crm.count-open-cases", "{n}", True),
        ("crm.count-open-cases", "There are {n}.", False),  # "Answer with the number only"
        ("crm.count-open-cases", "{n} or {n1}", False),
        ("crm.pipeline-amount", "The total is {n}.", True),
        ("crm.pipeline-amount", "{n}, or {n1} with the lost deals", False),
        ("crm.count-open-cases", "at least {n}", False),
        ("crm.count-open-cases", "{n}+", False),
        ("crm.pipeline-amount", "{n}, or maybe 326 grand", False),
        ("crm.pipeline-amount", "{n} give or take fifty thousand", False),
        ("slack.count-members", "{n}.", True),
        ("slack.count-members", "It has {n} members.", False),  # "just the number"
        ("slack.count-members", "{n} or so", False),
    ],
)
def test_answers_are_read_as_sentences_where_allowed_but_hedges_fail(
    world: World, template_id: str, answer: str, expected: bool
) -> None:
    for seed in range(6):
        task = make_task(template_id, seed)
        value = task.answer or ""
        rival_value = str(int(value) + 1) if value.isdigit() else f"${12_345:,}"
        text = answer.format(n=value, n1=rival_value)
        grade, _ = replay(world, task, task.solution, text)
        assert grade.passed is expected, (seed, text, grade.checks)


# ---------------------------------------------------------------- chat templates


def last_of(task: Task, tool: str) -> int:
    return max(i for i, c in enumerate(task.solution) if c.name == tool)


@pytest.mark.parametrize("seed", range(6))
def test_naming_every_colleague_is_no_answer_to_who_the_manager_is(world: World, seed: int) -> None:
    task = make_task("slack.lookup-manager", seed)
    with Session(world.initial_engine) as s:
        everyone = " ".join(s.scalars(select(Person.handle).order_by(Person.id)))
    assert not replay(world, task, task.solution, everyone)[0].passed
    assert replay(world, task, task.solution, f"It is {task.answer}.")[0].passed


@pytest.mark.parametrize(
    ("template_id", "tool", "text"),
    [
        # every option at once, where one was asked for
        ("slack.post-channel", "slack_post_message", " ".join(DAYS + TIMES + ROOMS)),
        ("slack.dm-by-name", "slack_send_dm", "Notes on: " + ", ".join(FEATURES)),
        ("slack.join-and-post", "slack_post_message", "Who owns " + " or ".join(FEATURES)),
        # the mention without what the goal asked to say
        ("slack.reply-thread", "slack_reply_in_thread", "@{author} I will NOT take this."),
        ("slack.triage-help-requests", "slack_reply_in_thread", "lol no"),
        ("slack.invite-team", "slack_post_message", "Welcome, everyone!"),
    ],
)
def test_chat_messages_that_hedge_or_leave_out_the_asked_content_fail(
    world: World, template_id: str, tool: str, text: str
) -> None:
    for seed in range(6):
        task = make_task(template_id, seed)
        i = last_of(task, tool)
        words = task.solution[i].arguments["text"].split()
        author = next((w.lstrip("@") for w in words if w.startswith("@")), "")
        calls = with_args(task, i, text=text.format(author=author))
        assert not passes(world, task, calls), (template_id, seed)


@pytest.mark.parametrize(
    ("template_id", "tool", "rewrite"),
    [
        ("slack.set-status", "slack_set_status", lambda t: f"NOT {t}"),
        ("slack.create-channel", "slack_create_channel", lambda t: f"{t} (abandoned)"),
    ],
)
def test_a_text_asked_for_word_for_word_must_read_just_that(
    world: World, template_id: str, tool: str, rewrite
) -> None:
    field = "text" if tool == "slack_set_status" else "topic"
    for seed in range(4):
        task = make_task(template_id, seed)
        i = last_of(task, tool)
        exact = task.solution[i].arguments[field]
        assert passes(world, task, with_args(task, i, **{field: exact.upper() + "."}))
        assert not passes(world, task, with_args(task, i, **{field: rewrite(exact)}))


@pytest.mark.parametrize("seed", range(6))
def test_editing_a_message_down_to_the_new_day_is_not_a_correction(world: World, seed: int) -> None:
    task = make_task("slack.edit-own-message", seed)
    i = last_of(task, "slack_edit_message")
    new_day = next(d for d in DAYS if f" {d}" in task.goal and f"meant {d}" in task.goal)
    assert not passes(world, task, with_args(task, i, text=new_day))


# ---------------------------------------------------------------- second round


def first_seed(template_id: str, test: Callable[[Task], bool], tries: int = 40) -> Task:
    """The first instance of a template that `test` accepts."""
    return next(t for t in (make_task(template_id, s) for s in range(tries)) if test(t))


FULLWIDTH = str.maketrans("0123456789:", "０１２３４５６７８９：")


@pytest.mark.parametrize(
    ("rewrite", "ok"),
    [
        (lambda t, day, time: t.replace(" at ", f" or {day}s at "), False),
        (lambda t, day, time: t.replace(" at ", f" or {day[:3]}\u200b{day[3:]} at "), False),
        (
            lambda t, day, time: t.replace(
                " in the ", f" (or {time.translate(FULLWIDTH)}) in the "
            ),
            False,
        ),
        (lambda t, day, time: t.replace(" is moved ", " is NOT moved "), False),
        (lambda t, day, time: t.replace("Monday", "Mon").replace("Tuesday", "Tue"), True),
    ],
)
def test_announcements_are_read_through_lookalikes_and_denials(
    world: World, rewrite: Callable[[str, str, str], str], ok: bool
) -> None:
    for seed in range(4):
        task = make_task("slack.post-channel", seed)
        text = task.solution[-1].arguments["text"]
        day = next(d for d in DAYS if d not in text)
        time = next(t for t in TIMES if f" {t} " not in text)
        text = rewrite(text, day, time)
        assert passes(world, task, with_text(task, text)) is ok, text


def test_an_afternoon_time_may_be_written_with_pm(world: World) -> None:
    task = first_seed("slack.post-channel", lambda t: "13:30" in t.goal)
    text = task.solution[-1].arguments["text"].replace("13:30", "1:30 PM")
    assert passes(world, task, with_text(task, text))


@pytest.mark.parametrize("seed", range(4))
def test_a_manager_answer_that_adds_a_first_name_hedges(world: World, seed: int) -> None:
    task = make_task("slack.lookup-manager", seed)
    with Session(world.initial_engine) as s:
        firsts = s.scalars(select(Person.name)).all()
    other = next(n.split()[0] for n in firsts if n.split()[0] not in task.answer)
    assert not replay(world, task, task.solution, f"{task.answer} or {other}")[0].passed


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("Done! Posted it in #{c} so all members can see it.", False),
        ("Can't wait for the review - I've shared it in #{c}.", False),
        ("Sorry, #{c} doesn't show up for me, so I couldn't post there.", True),
    ],
)
def test_a_no_access_reply_must_say_it_could_not_post(world: World, text: str, ok: bool) -> None:
    for seed in range(3):
        task = make_task("slack.no-access-request", seed)
        channel = task.goal.split("#")[1].split(".")[0].split()[0]
        assert passes(world, task, with_text(task, text.format(c=channel))) is ok


def test_reacting_with_every_emoji_is_collateral(world: World) -> None:
    task = make_task("slack.react-message", 0)
    react = task.solution[-1]
    others = [e for e in EMOJI if e != react.arguments["emoji"]]
    every = [ToolCall(react.name, {**react.arguments, "emoji": e}) for e in others]
    grade, errors = replay(world, task, [*task.solution, *every], None)
    assert not errors
    assert not grade.passed and len(grade.collateral) == len(others)


@pytest.mark.parametrize("seed", range(4))
def test_a_deal_status_must_name_the_deal(world: World, seed: int) -> None:
    task = make_task("cross.deal-status-to-channel", seed)
    said = next(c for c in task.checks if isinstance(c, Said)).says
    stage = next(g[0] for g in said.all_of if g[0] in task.solution[-1].arguments["text"])
    assert not passes(world, task, with_text(task, f"Update: {stage}, ${said.amount:,}."))


def test_a_close_date_answer_that_names_two_days_hedges(world: World) -> None:
    task = first_seed(
        "cross.answer-deal-question",
        lambda t: next(c for c in t.checks if isinstance(c, Said)).says.date is not None,
    )
    day = next(c for c in task.checks if isinstance(c, Said)).says.date
    other = day.day + 1 if day.day < 28 else day.day - 1
    assert not passes(world, task, with_text(task, f"It closes {day:%B} {day.day} or {other}."))
    assert passes(world, task, with_text(task, f"It closes the {day.day}th of {day:%B}."))


@pytest.mark.parametrize("seed", range(3))
def test_a_case_number_may_be_written_with_a_hash(world: World, seed: int) -> None:
    task = make_task("cross.escalate-and-tell-manager", seed)
    dm = task.solution[-1]
    number = next(w for w in dm.arguments["text"].split() if w.isdigit())
    hashed = dm.arguments["text"].replace(number, f"#{number.lstrip('0')}")
    assert passes(world, task, with_args(task, len(task.solution) - 1, text=hashed))


@pytest.mark.parametrize("seed", range(3))
def test_a_pipeline_report_may_list_its_deals_beside_the_total(world: World, seed: int) -> None:
    task = make_task("cross.pipeline-to-manager", seed)
    said = next(c for c in task.checks if isinstance(c, Said)).says
    parts = ", ".join(f"${a:,}" for a in said.amounts_besides)
    text = f"My open pipeline: ${said.amount:,} in total ({parts})."
    assert passes(world, task, with_text(task, text))
