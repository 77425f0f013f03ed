"""The simulated requester: it answers a question naming the topic with the hidden fact,
says it does not know otherwise, stays silent on a message that asks nothing, answers a
question once, never talks forever, and answers only where the persona reached it."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from sqlalchemy import select

from officegym.apps.org.models import Person
from officegym.apps.slack.models import Message
from officegym.runner import ToolRunner
from officegym.tasks import Task, make_task
from officegym.tasks.hidden import Hidden
from officegym.tasks.responders import (
    CLARIFY,
    DONT_KNOW,
    MAX_REPLIES,
    Colleague,
    KeywordResponder,
    Line,
    colleague_for,
)
from officegym.world import World

TASK = ("crm.ask-deal-amount", 0)


def _task() -> Task:
    return make_task(*TASK)


def _requester_messages(runner: ToolRunner, task: Task, since: int) -> list[Message]:
    """The requester's messages newer than message `since` (the episode's)."""
    assert task.hidden is not None
    stmt = select(Message).where(Message.user_id == task.hidden.requester_id, Message.id > since)
    return list(runner.session.scalars(stmt.order_by(Message.id)))


def _episode(world: World, task: Task) -> tuple[ToolRunner, Colleague]:
    runner = ToolRunner(world, task.persona)
    colleague = colleague_for(task, runner.session)
    assert colleague is not None
    return runner, colleague


def _dm(runner: ToolRunner, colleague: Colleague, task: Task, text: str) -> list[Message]:
    assert task.hidden is not None
    out = runner.call("slack_send_dm", {"people": [task.hidden.requester], "text": text})
    assert out.ok, out.error
    replies = colleague.answer(runner.session)
    runner.session.commit()
    return replies


def test_keyword_responder_answers_the_topic_and_only_the_topic() -> None:
    task = _task()
    assert task.hidden is not None
    r = KeywordResponder()
    assert r.reply(task, "What amount did the customer agree to?", []) == task.hidden.reply
    assert r.reply(task, "Do you like the new office?", []) == DONT_KNOW
    assert r.reply(task, "Thanks, have a nice weekend.", []) is None
    assert task.hidden.fact.judge(task.hidden.reply)[0]
    assert not task.hidden.fact.judge(DONT_KNOW)[0]


ASK_TEMPLATES = (
    "crm.ask-deal-amount", "crm.ask-close-date", "sheets.ask-expense-amount",
    "booking.ask-trip-nights", "slack.ask-event-date", "slack.ask-who-gets-it",
    "crm.ask-invoice-contact",
)  # fmt: skip
CATCH_ALL_QUESTIONS = (
    "Can you tell me everything I need?",
    "Anything else I should know?",
    "What do I need?",
    "Hi! What do I need to know about this?",
    "Who, what, when, how much? Tell me all the details.",
    "When is it and what's the amount?",
    "Could you send me whatever you have on the deal, the trip and the expense?",
)


def asked_tasks(template_id: str, seeds: int) -> list[tuple[Task, Hidden]]:
    """The template's tasks over the first `seeds` seeds, each with its hidden fact."""
    out = []
    for seed in range(seeds):
        task = make_task(template_id, seed)
        assert task.hidden is not None
        out.append((task, task.hidden))
    return out


@pytest.mark.parametrize("template_id", ASK_TEMPLATES)
def test_a_catch_all_question_gets_a_question_back_never_the_fact(template_id: str) -> None:
    r = KeywordResponder()
    for task, hidden in asked_tasks(template_id, 3):
        for question in CATCH_ALL_QUESTIONS:
            reply = r.reply(task, question, [])
            assert reply == CLARIFY, (question, reply)
            assert not hidden.fact.judge(reply)[0]


@pytest.mark.parametrize("template_id", ASK_TEMPLATES)
def test_the_reference_question_names_the_item_and_gets_the_fact(template_id: str) -> None:
    r = KeywordResponder()
    for task, hidden in asked_tasks(template_id, 3):
        question = task.solution[0].arguments["text"]
        assert r.reply(task, question, []) == hidden.reply, question


@pytest.mark.parametrize("question", ["Who?", "When?", "How much?", "Who should I ask?"])
def test_a_bare_question_word_names_no_topic(question: str) -> None:
    for template_id in ("crm.ask-deal-amount", "crm.ask-invoice-contact", "crm.ask-close-date"):
        task = make_task(template_id, 0)
        assert KeywordResponder().reply(task, question, []) == DONT_KNOW


def test_the_goal_never_states_the_hidden_fact() -> None:
    for template_id in ASK_TEMPLATES:
        for task, hidden in asked_tasks(template_id, 5):
            assert not set(hidden.fact.values) & hidden.fact.read(task.goal)


def test_a_topical_question_gets_the_fact_in_the_dm_as_the_requester(world: World) -> None:
    task = _task()
    assert task.hidden is not None
    runner, colleague = _episode(world, task)
    [reply] = _dm(runner, colleague, task, "Hi! What amount did they agree to?")
    question = runner.session.get(Message, reply.id - 1)
    assert question is not None and question.channel_id == reply.channel_id
    assert reply.user_id == task.hidden.requester_id and reply.text == task.hidden.reply
    assert reply.created_at > question.created_at  # at the world's clock, after the question
    assert reply.thread_parent_id is None
    runner.close()


def test_an_off_topic_question_gets_dont_know_and_no_fact(world: World) -> None:
    task = _task()
    runner, colleague = _episode(world, task)
    [reply] = _dm(runner, colleague, task, "Could you tell me where the printer is?")
    assert reply.text == DONT_KNOW
    assert _dm(runner, colleague, task, "Thanks anyway!") == []  # asks nothing: no reply
    runner.close()


def test_the_same_question_is_answered_once(world: World) -> None:
    task = _task()
    runner, colleague = _episode(world, task)
    start = colleague.seen_upto
    assert len(_dm(runner, colleague, task, "What amount did they agree to?")) == 1
    assert _dm(runner, colleague, task, "What  amount did they AGREE to?") == []
    assert len(_requester_messages(runner, task, start)) == 1
    runner.close()


def test_replies_stop_at_the_cap(world: World) -> None:
    task = _task()
    runner, colleague = _episode(world, task)
    start = colleague.seen_upto
    for i in range(MAX_REPLIES + 3):
        _dm(runner, colleague, task, f"Question number {i}: where is the kitchen?")
    assert len(_requester_messages(runner, task, start)) == MAX_REPLIES
    runner.close()


def test_a_group_dm_or_a_channel_post_is_not_answered(world: World) -> None:
    task = _task()
    assert task.hidden is not None
    runner, colleague = _episode(world, task)
    third = runner.session.scalar(
        select(Person.handle)
        .where(Person.handle.not_in([task.persona, task.hidden.requester]))
        .order_by(Person.id)
    )
    others = [task.hidden.requester, third]
    text = "What amount did they agree to?"
    assert runner.call("slack_send_dm", {"people": others, "text": text}).ok
    assert runner.call("slack_post_message", {"channel": "general", "text": text}).ok
    assert colleague.answer(runner.session) == []
    runner.close()


def test_a_mention_in_a_channel_is_answered_in_its_thread(world: World) -> None:
    task = _task()
    assert task.hidden is not None
    runner, colleague = _episode(world, task)
    text = f"@{task.hidden.requester} what amount did the customer agree to?"
    out = runner.call("slack_post_message", {"channel": "general", "text": text})
    assert out.ok, out.error
    [reply] = colleague.answer(runner.session)
    assert reply.thread_parent_id == out.result["message_id"]
    assert reply.text == task.hidden.reply
    runner.close()


class Scripted:
    """A pluggable responder that records what it was asked."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, list[Line]]] = []

    def reply(self, task: Task, question: str, history: Sequence[Line]) -> str | None:
        self.seen.append((question, list(history)))
        return "Ask me again tomorrow."


def test_a_custom_responder_is_used_and_sees_the_conversation(world: World) -> None:
    task = _task()
    runner = ToolRunner(world, task.persona)
    responder = Scripted()
    colleague = colleague_for(task, runner.session, responder)
    assert colleague is not None
    [reply] = _dm(runner, colleague, task, "Which figure was agreed?")
    assert reply.text == "Ask me again tomorrow."
    question, history = responder.seen[0]
    assert question == "Which figure was agreed?"
    assert history[-1] == Line(task.persona, "Which figure was agreed?")
    runner.close()
