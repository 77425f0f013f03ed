"""The simulated requester of an ask-the-requester task: who answers the persona in chat.

A task with a `Hidden` fact (`officegym.tasks.hidden`) leaves that fact out of its goal;
the persona must ask the requesting colleague. After every step of an episode (a tool
call, a browser request, a replayed reference call), `Colleague.answer` looks at the
persona's new messages that reach the requester — a direct message with them alone, a
reply in a thread they started, or a message that @mentions them — and posts the
`Responder`'s reply through the chat service, as the requester, at the world's clock:
in the DM, or in the message's thread.

`Responder.reply(task, question, history)` decides what to say (None: say nothing).
`KeywordResponder`, the default, is deterministic: a question that names the item or
the kind of the hidden fact (one of `Hidden.topic`, read as normalised tokens, other
than a bare question word: "who?", "when?" and "how much?" name nothing) gets the fact;
a catch-all question ("anything else I should know?", "who, when and how much?") gets a
question back (`CLARIFY`); another question gets "I'm not sure what you mean"; a message
that asks nothing (a thank-you) gets no reply. It never volunteers the fact. Whatever
the responder, the colleague answers each distinct question once and at most
`MAX_REPLIES` times an episode, so two simulated parties can never talk forever. An
LLM-driven responder lives in `officegym.gym.colleagues`.

In a task that uses the booking site the colleagues also play the managers: after each
step, a stay held during the episode for another manager's approval is decided by the
travel policy (`officegym.tasks.approver`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from officegym.apps.booking.models import Reservation
from officegym.apps.org.models import Person
from officegym.apps.slack import service as chat
from officegym.apps.slack.models import Channel, Mention, Message
from officegym.tasks.acts import is_question
from officegym.tasks.approver import decide_requests
from officegym.tasks.lexicon import CATCH_ALL, QUESTION_WORDS, REQUESTS
from officegym.tasks.text import find, phrase, sentences, tokens

if TYPE_CHECKING:
    from officegym.tasks.base import Task

__all__ = [
    "CLARIFY",
    "DONT_KNOW",
    "MAX_REPLIES",
    "Colleague",
    "KeywordResponder",
    "Line",
    "Responder",
    "asks",
    "catch_all",
    "colleague_for",
    "names_topic",
]

MAX_REPLIES = 6
DONT_KNOW = (
    "Sorry, I'm not sure what you mean. I don't know anything about that; "
    "what exactly do you need from me?"
)
CLARIFY = (
    "What exactly do you need from me? Ask me about the one thing you need for this "
    "and I'll tell you."
)
# The kinds of fact a question may ask for: one that asks for two kinds at once
# ("who, when and how much?") asks for everything.
_KINDS = (
    ("how much", "amount", "price", "cost", "figure", "total", "number", "dollars", "budget"),
    ("when", "date", "dates", "day", "days", "night", "nights", "time", "deadline"),
    ("who", "whom", "person", "contact", "reviewer", "name"),
)


@dataclass(frozen=True)
class Line:
    """One message of the conversation so far: who said it (a handle) and what."""

    author: str
    text: str


@runtime_checkable
class Responder(Protocol):
    """Says what the requester answers to `question`, given the conversation so far
    (`history`, oldest first, the question last); None to stay silent."""

    def reply(self, task: Task, question: str, history: Sequence[Line]) -> str | None: ...


def names_topic(task: Task, text: str) -> bool:
    """Whether `text` names the hidden fact's item or kind: one of `Hidden.topic` (as
    tokens) that is not a bare question word ("who", "when", "how much")."""
    assert task.hidden is not None
    words = tokens(text)
    generic = {phrase(q) for q in QUESTION_WORDS}
    return any(find(words, phrase(t)) for t in task.hidden.topic if phrase(t) not in generic)


def catch_all(text: str) -> bool:
    """Whether `text` asks for everything at once: "anything else I should know?", "what
    do I need?", or several kinds of fact in one breath ("who, when and how much?")."""
    words = tokens(text)
    if any(find(words, phrase(c)) for c in CATCH_ALL):
        return True
    kinds = [k for k in _KINDS if any(find(words, phrase(w)) for w in k)]
    return len(kinds) > 1


def asks(text: str) -> bool:
    """Whether `text` asks for something: a question, or a request ("could you", "please")."""
    for s in sentences(text):
        words = tokens(s)
        if is_question(s) or any(find(words, phrase(r)) for r in REQUESTS):
            return True
    return False


class KeywordResponder:
    """The deterministic requester: the fact for a question naming its item or kind, a
    question back for a catch-all question, "I don't know" for another question, nothing
    for a message that asks nothing."""

    def reply(self, task: Task, question: str, history: Sequence[Line]) -> str | None:
        if task.hidden is None:
            return None
        asked = asks(question)
        if asked and catch_all(question):
            return CLARIFY
        if names_topic(task, question):
            return task.hidden.reply
        return DONT_KNOW if asked else None


@dataclass
class Colleague:
    """The requester of one episode's task, watching the chat for the persona's questions.

    Made at reset (`start`), called after every step (`answer`); it remembers the last
    message it has seen, the questions it answered and how many replies it gave."""

    task: Task
    responder: Responder
    persona_id: int
    requester: Person | None = None
    seen_upto: int = 0
    stays_upto: int = 0  # the last reservation before the episode (seeded requests wait)
    answered: set[tuple[str, ...]] = field(default_factory=set)
    replies: int = 0

    @classmethod
    def start(cls, task: Task, responder: Responder, s: Session) -> Colleague:
        """The colleague of `task` on the world `s` reads, as it is at the episode's start."""
        persona_id = s.scalar(select(Person.id).where(Person.handle == task.persona))
        if persona_id is None:
            raise LookupError(f"no person {task.persona!r} for task {task.id}")
        upto = s.scalar(select(func.max(Message.id))) or 0
        stays = s.scalar(select(func.max(Reservation.id))) or 0
        return cls(task, responder, persona_id, seen_upto=upto, stays_upto=stays)

    def answer(self, s: Session) -> list[object]:
        """Reply to the persona's messages posted since the last call, and decide the
        approval requests awaiting other managers; the new replies and decided stays (the
        caller commits)."""
        posted: list[object] = list(self._reply(s)) if self.task.hidden is not None else []
        if "booking" in self.task.apps:
            posted += decide_requests(s, self.persona_id, after_id=self.stays_upto)
            self.seen_upto = max(self.seen_upto, s.scalar(select(func.max(Message.id))) or 0)
        return posted

    def _reply(self, s: Session) -> list[Message]:
        new = list(
            s.scalars(
                select(Message)
                .where(Message.id > self.seen_upto, Message.user_id == self.persona_id)
                .order_by(Message.id)
            )
        )
        if new:
            self.seen_upto = max(self.seen_upto, new[-1].id)
        posted = [r for m in new if not m.is_deleted and (r := self._answer_one(s, m))]
        if posted:
            self.seen_upto = max(self.seen_upto, posted[-1].id)
        return posted

    def _answer_one(self, s: Session, question: Message) -> Message | None:
        """The reply to one of the persona's messages, if it reaches the requester and is a
        question not answered before (None otherwise)."""
        if self.replies >= MAX_REPLIES:
            return None
        me = self._me(s)
        where = _reply_place(s, question, me.id, self.persona_id)
        if where is None:
            return None
        key = tokens(question.text)
        if key in self.answered:
            return None
        channel, parent = where
        history = _history(s, channel, parent, upto=question.id)
        text = self.responder.reply(self.task, question.text, history)
        self.answered.add(key)
        if not text or not text.strip():
            return None
        self.replies += 1
        return chat.post_message(s, me, channel, text.strip(), thread_parent=parent, markup=False)

    def _me(self, s: Session) -> Person:
        assert self.task.hidden is not None
        if self.requester is None or self.requester not in s:
            self.requester = s.get(Person, self.task.hidden.requester_id)
        if self.requester is None:
            raise LookupError(f"no requester #{self.task.hidden.requester_id}")
        return self.requester


def _reply_place(
    s: Session, m: Message, me_id: int, persona_id: int
) -> tuple[Channel, Message | None] | None:
    """Where the requester answers message `m`, or None if it does not reach them: in a DM
    of the two of them (in the thread if `m` is a thread reply), in the thread of a
    message they started, or in the thread of a message that @mentions them."""
    channel = s.get(Channel, m.channel_id)
    if channel is None or channel.is_archived:
        return None
    parent = s.get(Message, m.thread_parent_id) if m.thread_parent_id else None
    if channel.kind == "dm":
        members = set(chat.member_ids(s, s.get(Person, persona_id), channel))
        return (channel, parent) if members == {me_id, persona_id} else None
    if not chat.is_member(s, s.get(Person, me_id), channel):
        return None
    if parent is not None and parent.user_id == me_id:
        return channel, parent
    mentioned = s.scalar(
        select(Mention.id).where(Mention.message_id == m.id, Mention.person_id == me_id)
    )
    if mentioned is not None:
        return channel, parent or m
    return None


def _history(s: Session, channel: Channel, parent: Message | None, *, upto: int) -> list[Line]:
    """The conversation up to message `upto`, as the chat service shows it to the persona
    who wrote that message: the thread, or the channel's last 20 top-level messages."""
    reader = s.get(Message, upto).user  # type: ignore[union-attr]
    if parent is not None:
        shown = [parent, *chat.replies(s, reader, parent)]
    else:
        shown = chat.history(s, reader, channel, before_id=upto + 1, mark_read=False)[::-1]
    live = [m for m in shown if m.id <= upto and not m.is_deleted][-20:]
    return [Line(m.user.handle, m.text) for m in live]


def colleague_for(task: Task, s: Session, responder: Responder | None = None) -> Colleague | None:
    """The colleagues of an ask-the-requester task or of a task on the booking site (None
    for other tasks), answering with `responder` (default: the deterministic
    `KeywordResponder`)."""
    if task.hidden is None and "booking" not in task.apps:
        return None
    return Colleague.start(task, responder or KeywordResponder(), s)
