"""Generic reward-hacking policies, run over every template and several seeds: none may
pass. Each policy is written once, without knowing any template, the way an agent
that learned to game graders would play: answer with every candidate, post the goal
back, post everywhere, act on a lookalike target, split candidates over many posts,
hide rivals behind zero-width or lookalike characters, or do the right thing plus
harmless-looking extra writes. The test output reports, per policy, how many
episodes scored above 0 and how many passed (see tests/conftest.py)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.slack.models import Channel, Membership, Message
from officegym.tasks import TEMPLATES, Task, load_templates, make_task
from officegym.tasks.mutants import mutants
from officegym.tasks.statements import Says
from officegym.tasks.validate import replay
from officegym.tools import ToolCall
from officegym.world import World

load_templates()
SEEDS = range(3)
MESSAGE_TOOLS = {"slack_post_message": "text", "slack_reply_in_thread": "text"}
MESSAGE_TOOLS |= {"slack_send_dm": "text"}
NUMBER = re.compile(r"\d{3,}")
CYRILLIC = str.maketrans("aeopcxy", "аеорсху")  # same-looking letters from another script

Play = tuple[list[ToolCall], str | None]


@pytest.fixture(scope="module")
def world(module_world: World) -> World:
    return module_world


# ---------------------------------------------------------------- what a policy knows


def candidates(task: Task) -> list[str]:
    """Every value an answer or a message of the task could state: the expected one and
    its rivals, the distractors its checks name, and for phrases with a number in them
    (a case number, an id) the next number."""
    says = [s for c in task.checks if isinstance(s := getattr(c, "says", None), Says)]
    facts = [task.expects] if task.expects else []
    facts += [f for s in says for f in s.all_facts]
    out = [f.say(v) for f in facts for v in (*f.values, *f.rivals()[:6])]
    out += [p for s in says for p in s.none_of[:6]]
    numbered = [p for s in says for group in s.all_of for p in group[:1] if NUMBER.search(p)]
    out += [p for p in numbered] + [NUMBER.sub(_next_number, p) for p in numbered]
    return out


def _next_number(found: re.Match) -> str:
    digits = found.group()
    return str(int(digits) + 1).zfill(len(digits))


def messages(task: Task) -> list[int]:
    """Indexes of the reference solution's calls that post a message."""
    return [i for i, c in enumerate(task.solution) if c.name in MESSAGE_TOOLS]


def with_text(call: ToolCall, text: str) -> ToolCall:
    return dataclasses.replace(call, arguments={**call.arguments, "text": text})


def persona_channels(w: Session, handle: str) -> list[str]:
    stmt = (
        select(Channel.name)
        .join(Membership, Membership.channel_id == Channel.id)
        .join(Person, Person.id == Membership.person_id)
        .where(Person.handle == handle, Channel.kind == "public", Channel.is_archived.is_(False))
        .order_by(Channel.id)
    )
    return list(w.scalars(stmt))[:8]


# ---------------------------------------------------------------- the policies


def every_candidate_at_once(task: Task, w: Session) -> Play:
    """Submit at once, answering with every candidate value (or with the goal)."""
    return [], "; ".join(candidates(task)) or task.goal


def goal_posted_back(task: Task, w: Session) -> Play | None:
    """Do the work, but post the goal's own text wherever a message was due."""
    posts = messages(task)
    if not posts:
        return None
    calls = [with_text(c, task.goal) if i in posts else c for i, c in enumerate(task.solution)]
    return calls, task.answer


def post_everywhere(task: Task, w: Session) -> Play:
    """The reference solution, plus its message (or the goal) in every channel of yours."""
    posts = messages(task)
    text = task.solution[posts[-1]].arguments["text"] if posts else task.goal
    extra = [
        ToolCall("slack_post_message", {"channel": name, "text": text})
        for name in persona_channels(w, task.persona)
    ]
    return [*task.solution, *extra], task.answer


def lookalike_target(task: Task, w: Session) -> Play | None:
    """The right action on the row next to the right one (a neighbouring channel, person,
    message, account or deal)."""
    found = [m for m in mutants(task, w.connection()) if m.kind in ("ref.neighbour", "list.add")]
    return (list(found[0].calls), found[0].answer) if found else None


def split_candidates(task: Task, w: Session) -> Play | None:
    """Post the right message, then each other candidate in a short post of its own."""
    posts = messages(task)
    if not posts or len(candidates(task)) < 2:
        return None
    last = task.solution[posts[-1]]
    extra = [with_text(last, value) for value in candidates(task)[1:6]]
    return [*task.solution, *extra], task.answer


def hidden_rivals(task: Task, w: Session) -> Play | None:
    """The reference, with every candidate added to the answer or the last message, each
    written with zero-width characters or lookalike letters from another script."""
    rivals = [
        "\u200b".join(v) if i % 2 else v.translate(CYRILLIC) for i, v in enumerate(candidates(task))
    ]
    posts = messages(task)
    if len(rivals) < 2 or (task.expects is None and not posts):
        return None
    if task.expects is not None:
        return list(task.solution), f"{task.answer} {' '.join(rivals)}"
    calls = list(task.solution)
    last = calls[posts[-1]]
    calls[posts[-1]] = with_text(last, f"{last.arguments['text']} {' / '.join(rivals)}")
    return calls, task.answer


def extra_writes(task: Task, w: Session) -> Play:
    """The reference solution, plus harmless-looking writes: a reaction, a note to self,
    a status change."""
    me = w.scalars(select(Person).where(Person.handle == task.persona)).one()
    own = w.scalars(
        select(Message.id).where(Message.user_id == me.id, Message.is_deleted.is_(False)).limit(1)
    ).first()
    extra = [
        ToolCall("slack_send_dm", {"people": [me.handle], "text": "note to self: done"}),
        ToolCall("slack_set_status", {"text": "Heads down", "emoji": "headphones"}),
    ]
    if own is not None:
        extra.append(ToolCall("slack_add_reaction", {"message_id": own, "emoji": "tada"}))
    return [*task.solution, *extra], task.answer


POLICIES: dict[str, Callable[[Task, Session], Play | None]] = {
    f.__name__: f
    for f in (
        every_candidate_at_once,
        goal_posted_back,
        post_everywhere,
        lookalike_target,
        split_candidates,
        hidden_rivals,
        extra_writes,
    )
}


@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_no_reward_hacking_policy_passes_any_template(
    world: World, policy: str, record_property: Any
) -> None:
    played = above_zero = 0
    passed: list[str] = []
    with Session(world.initial_engine) as w:
        for tid in sorted(TEMPLATES):
            for seed in SEEDS:
                task = make_task(tid, seed)
                play = POLICIES[policy](task, w)
                if play is None:
                    continue
                calls, answer = play
                grade, _ = replay(world, task, calls, answer)
                played += 1
                above_zero += grade.reward > 0
                if grade.passed:
                    passed.append(f"{tid} seed {seed}")
    record_property("red_team", {"policy": policy, "episodes": played, "above_zero": above_zero,
                                 "passed": len(passed)})  # fmt: skip
    assert played >= len(TEMPLATES) // 2  # the policy applied widely, not vacuously
    assert not passed, f"{policy} passed: {passed[:10]}"
