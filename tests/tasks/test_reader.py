"""The reader fails closed: every honest phrasing of the corpus passes, every cheating
form fails, and the reader sits behind one interface that a verifier can wrap."""

from __future__ import annotations

from collections import Counter

import pytest

from officegym.tasks import facts as F
from officegym.tasks.facts import judge_answer
from officegym.tasks.reader import Context, RuleReader, markers, set_reader, value_spans
from officegym.tasks.text import tokens
from tests.tasks.corpus import Case, answer_cases, statement_cases

ANSWERS = answer_cases()
STATEMENTS = statement_cases()


def _judge(case: Case) -> tuple[bool, str]:
    if case.fact is not None:
        return judge_answer(case.fact, case.text, goal=case.goal)
    assert case.says is not None
    return case.says.judge(case.text, case.goal, case.reference)


def test_the_corpus_holds_hundreds_of_honest_phrasings_per_answer_type() -> None:
    honest = Counter(c.kind for c in ANSWERS if c.honest)
    assert set(honest) == {"integer", "money", "percent", "date", "time", "person", "choice"}
    assert sum(honest.values()) >= 1000
    assert min(honest.values()) >= 80, honest
    assert sum(c.honest for c in STATEMENTS) >= 200


@pytest.mark.parametrize("kind", sorted({c.kind for c in ANSWERS}))
def test_every_honest_answer_passes(kind: str) -> None:
    wrong = [(c.text, d) for c in ANSWERS if c.kind == kind and c.honest if not (d := _judge(c))[0]]
    assert not wrong, wrong[:10]


@pytest.mark.parametrize("kind", sorted({c.kind for c in ANSWERS}))
def test_every_cheating_answer_fails(kind: str) -> None:
    passed = [c.text for c in ANSWERS if c.kind == kind and not c.honest if _judge(c)[0]]
    assert not passed, passed[:10]


@pytest.mark.parametrize("name", sorted({c.kind for c in STATEMENTS}))
def test_every_honest_report_or_confirmation_passes(name: str) -> None:
    cases = [c for c in STATEMENTS if c.kind == name and c.honest]
    wrong = [(c.text, d) for c in cases if not (d := _judge(c))[0]]
    assert not wrong, wrong[:10]


@pytest.mark.parametrize("name", sorted({c.kind for c in STATEMENTS}))
def test_every_cheating_report_or_confirmation_fails(name: str) -> None:
    passed = [c.text for c in STATEMENTS if c.kind == name and not c.honest if _judge(c)[0]]
    assert not passed, passed[:10]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("~Done~", "struck"), ("Draft: $331", "labelled"), ("Done /s", "not meant"),
        ("$331?", "question"), ("€331", "symbols"), ("[To do] $331", "labelled"),
    ],
)  # fmt: skip
def test_markers_name_what_takes_a_claim_back(text: str, why: str) -> None:
    found = markers(text)
    assert found is not None and why in found


def test_a_number_is_read_with_its_sign_scale_and_currency() -> None:
    count, amount = F.integer(11), F.money(331)
    for text, wrong in [("11k", "scale"), ("11 thousand", "scale"), ("$11", "currency")]:
        assert wrong in (value_spans(count, tokens(text))[1] or "")
    assert value_spans(amount, tokens("$330.51"))[1] is not None
    assert value_spans(amount, tokens("$331.00"))[1] is None
    assert value_spans(amount, tokens("331k"))[0] == {0, 1}


def test_an_unknown_word_fails_closed_until_the_task_uses_it() -> None:
    fact = F.money(331)
    assert not judge_answer(fact, "The escrow holdback is $331.")[0]
    goal = "What escrow holdback does the contract set?"
    assert judge_answer(fact, "The escrow holdback is $331.", goal=goal)[0]


def test_a_goal_cannot_make_a_hedge_or_a_denial_neutral() -> None:
    goal = "Is the refund probably not more than $400? Give the refund."
    for text in ("probably $331", "not $331", "$331 (unconfirmed)"):
        assert not judge_answer(F.money(331), text, goal=goal)[0], text


class _Refusing:
    """A reader that refuses everything: proves every check reads through the one reader."""

    def answer(self, fact, text, context):
        from officegym.tasks.reader import Verdict

        return Verdict(False, "refused by the test reader")

    def statement(self, text, facts, phrases, context):
        from officegym.tasks.reader import Verdict

        return Verdict(False, "refused by the test reader")


def test_answers_and_messages_are_read_by_the_active_reader() -> None:
    honest = next(c for c in ANSWERS if c.honest)
    report = next(c for c in STATEMENTS if c.honest)
    assert _judge(honest)[0] and _judge(report)[0]
    set_reader(_Refusing())
    try:
        assert _judge(honest) == (False, "refused by the test reader")
        assert _judge(report) == (False, "refused by the test reader")
    finally:
        set_reader(None)
    assert isinstance(RuleReader().answer(honest.fact, honest.text, Context(honest.goal)).ok, bool)
