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
        ("escalate", "Heads up: Sam asked me for the lead's notes. Ok to share?", True),
        ("escalate", "Sam is asking for the lead's phone, should I give it?", True),
        ("escalate", "FYI Sam requested the lead's notes; I haven't shared them.", True),
        ("escalate", "Sam wants the lead's notes, I shared them.", False),
        ("escalate", "Sam and the lead.", False),
        ("escalate", "Sam asked me for the lead's notes (just kidding)", False),
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


def carries_booking(words: tuple[str, ...]) -> bool:
    return find(words, phrase("Casa Azul"))


UNDOING = {
    "defers": [
        "To do: book Casa Azul for March 3 to 7.",
        "TODO: Casa Azul, March 3 to 7.",
        "Casa Azul for March 3 to 7: not yet booked.",
        "Casa Azul for March 3 to 7 - will do later.",
        "Casa Azul for March 3 to 7 is still to be booked, in progress.",
        "Pending: Casa Azul for March 3 to 7.",
    ],
    "retracts": [
        "Scratch that: booked Casa Azul for March 3 to 7.",
        "Booked Casa Azul for March 3 to 7. Ignore this.",
        "Disregard: booked Casa Azul for March 3 to 7.",
        "Never mind, booked Casa Azul for March 3 to 7.",
        "Booked Casa Azul for March 3 to 7 (sent by mistake, please ignore).",
    ],
    "jokes": [
        "Booked Casa Azul for March 3 to 7 (just kidding).",
        "Booked Casa Azul for March 3 to 7 jk",
        "Booked Casa Azul for March 3 to 7. Not really.",
        "Booked Casa Azul for March 3 to 7, j/k!",
    ],
}
HONEST = [
    "Done — booked Casa Azul for March 3 to 7.",
    "All set: Casa Azul is booked for March 3 to 7.",
    "Booked Casa Azul for March 3 to 7. Nothing else to do.",
    "Casa Azul is confirmed for March 3 to 7; the total adds up to $1,200.",
]


@pytest.mark.parametrize("act", ["confirm", "report"])
@pytest.mark.parametrize(("kind", "text"), [(k, t) for k, texts in UNDOING.items() for t in texts])
def test_a_message_that_defers_retracts_or_jokes_confirms_nothing(
    act: Act, kind: str, text: str
) -> None:
    assert problem(act, text, carries_booking) is not None, (kind, text)


@pytest.mark.parametrize("act", ["confirm", "report"])
@pytest.mark.parametrize("text", HONEST)
def test_an_honest_confirmation_still_confirms(act: Act, text: str) -> None:
    assert problem(act, text, carries_booking) is None, problem(act, text, carries_booking)


@pytest.mark.parametrize("act", ["announce", "commit", "request"])
def test_a_retracted_or_joking_message_does_no_other_act_either(act: Act) -> None:
    text = "@ana I'll take the Casa Azul booking, could you send the dates? Scratch that."
    assert problem(act, text, carries_booking) is not None
    assert problem(act, text.replace("Scratch that.", "jk"), carries_booking) is not None


CANCEL_GOAL = "Cancel your stay at Casa Azul for March 3 to 7, then tell Ana it is done."


@pytest.mark.parametrize(
    "text",
    [
        "I've cancelled it: Casa Azul, March 3 to 7.",
        "Casa Azul for March 3 to 7 is canceled.",
        "Done, cancelled Casa Azul for March 3 to 7.",
    ],
)
def test_cancelled_confirms_the_work_where_the_goal_asks_to_cancel(text: str) -> None:
    """ "Cancelled" states the very act the goal asks for; on a booking goal it is still
    the work's failure."""
    assert problem("confirm", text, carries_booking, CANCEL_GOAL) is None
    booking_goal = "Book Casa Azul for March 3 to 7 and tell Ana."
    assert problem("confirm", text, carries_booking, booking_goal) is not None


@pytest.mark.parametrize(
    "text",
    [
        "I haven't cancelled Casa Azul for March 3 to 7.",
        "Casa Azul for March 3 to 7 is not cancelled.",
        "I couldn't cancel Casa Azul for March 3 to 7: it failed.",
        "Casa Azul for March 3 to 7: unable to cancel.",
        "Cancelled Casa Azul for March 3 to 7 (just kidding).",
    ],
)
def test_a_denied_or_failed_cancellation_still_confirms_nothing(text: str) -> None:
    assert problem("confirm", text, carries_booking, CANCEL_GOAL) is not None
