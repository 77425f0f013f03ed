"""Messages judged by what they do: a confirmation is not a question back, a promise for
later or a denial; a refusal must say it could not be done (and not promise it anyway);
instructions posted back are no message at all."""

from __future__ import annotations

import pytest

from officegym.tasks.acts import Act, echoes, is_question, problem
from officegym.tasks.text import find, phrase


def carries_lead(words: tuple[str, ...]) -> bool:
    return find(words, phrase("lead"))


@pytest.mark.parametrize(
    ("act", "text", "ok"),
    [
        ("confirm", "Added Ana Ruiz as a lead in the CRM.", True),
        ("confirm", "Added the lead. Anything else?", True),
        ("confirm", "Which lead do you mean?", False),
        ("confirm", "Do you want me to add the lead", False),
        ("confirm", "I'll add the lead tomorrow.", False),
        ("confirm", "I haven't added the lead yet.", False),
        ("confirm", "Lead isn’t in the CRM", False),
        ("report", "The lead is in the CRM.", True),
        ("report", "The lead will be in the CRM soon.", False),
        ("refuse", "Sorry, I can't post in #design: I'm not a member.", True),
        ("refuse", "I can't post there right now, I'll post it later.", False),
        ("refuse", "Can't wait, posted it in #design!", False),
        ("refuse", "Posting it in #design now.", False),
        ("request", "Hi Sam, could you send me the notes on the lead?", True),
        ("request", "Who owns the lead", True),
        ("request", "Here are the notes on the lead.", False),
        ("commit", "@ana I'll take this lead and report back by Tuesday.", True),
        ("commit", "@ana I will NOT take this lead.", False),
        ("commit", "@ana this lead is done.", False),
        ("announce", "Welcome to the lead team!", True),
        ("announce", "Is the lead team welcome?", False),
    ],
)
def test_a_message_does_what_its_act_asks(act: Act, text: str, ok: bool) -> None:
    assert (problem(act, text, carries_lead) is None) is ok, problem(act, text, carries_lead)


@pytest.mark.parametrize(
    ("sentence", "question"),
    [("Which one?", True), ("which one", True), ("Do you mean Acme", True),
     ("Done.", False), ("Can't wait for it", False), ("It is done", False)],
)  # fmt: skip
def test_questions_are_told_from_statements(sentence: str, question: bool) -> None:
    assert is_question(sentence) is question


def test_a_message_holding_the_goals_instructions_echoes_it() -> None:
    goal = "Let everyone in #design know that the review moved to Tuesday. Be brief."
    assert echoes("Let everyone in #design know that the review moved to Tuesday.", goal)
    assert not echoes("The review moved to Tuesday at 10:30.", goal)
