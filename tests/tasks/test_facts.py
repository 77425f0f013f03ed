"""Typed facts: one reader per type, and answers judged generically, so a second value of
the type, a hedge, a denial, a question or (when asked for the value only) extra words fail
for every template alike."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace

import pytest

from officegym.tasks.facts import (
    choice,
    date,
    integer,
    judge_answer,
    money,
    percent,
    person,
    time_of_day,
)


@pytest.mark.parametrize(
    ("fact", "text", "values"),
    [
        (integer(12), "twelve members, plus 3 guests", {12, 3}),
        (money(52_000), "$52K, or 52,000 dollars, not fifty-two thousand", {52_000}),
        (money(52_000), "$1.2M then 326 grand", {1_200_000, 326_000}),
        (percent(60), "60% done, was 45 percent", {60, 45}),
        (date(dt.date(2026, 6, 30)), "June 30th or the 1st of July", {dt.date(2026, 6, 30),
                                                                         dt.date(2026, 7, 1)}),
        (time_of_day("13:30"), "1:30 PM, not 10am", {"13:30", "10:00"}),
        (choice("Proposal", ["Prospecting", "Proposal", "Closed Won"]), "Proposal (was "
         "Prospecting)", {"Proposal", "Prospecting"}),
    ],
)  # fmt: skip
def test_each_type_reads_every_value_of_its_type(fact, text: str, values: set) -> None:
    assert fact.read(text) == values


def test_a_money_fact_may_list_the_parts_of_its_total() -> None:
    fact = money(300, besides=(100, 200))
    assert fact.judge("$300 in total ($100 and $200)")[0]
    assert not fact.judge("$300 in total ($100 and $250)")[0]


@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        ("60", True),
        ("It has 60 members.", True),
        ("It isn't 60.", False),
        ("60 is wrong", False),
        ("either 59 or 60", False),
        ("59, 60, 61", False),
        ("60?", False),
        ("about 60", False),
        ("I think 60", False),
        ("61", False),
        ("", False),
    ],
)
def test_answers_state_one_value_plainly(answer: str, ok: bool) -> None:
    goal = "How many members does #design have?"
    assert judge_answer(integer(60), answer, goal=goal)[0] is ok


@pytest.mark.parametrize(("answer", "ok"), [("60", True), ("60.", True), ("60 members", False)])
def test_an_answer_asked_for_the_value_only_is_only_the_value(answer: str, ok: bool) -> None:
    assert judge_answer(integer(60, alone=True), answer)[0] is ok
    assert judge_answer(money(311_000, alone=True), "$311,000")[0]


def test_the_subjects_own_name_is_not_read_as_a_value() -> None:
    fact = integer(4, ignoring=("Team 42",))
    assert judge_answer(fact, "Team 42 has 4")[0]
    assert not judge_answer(integer(4), "Team 42 has 4")[0]


def people() -> list[SimpleNamespace]:
    names = [("Sam Lee", "slee"), ("Sam Ortiz", "sortiz"), ("Ana Ruiz", "aruiz")]
    return [SimpleNamespace(name=n, handle=h) for n, h in names]


@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        ("Sam Lee", True),
        ("@slee", True),
        ("slee (Sam Lee)", True),
        ("Sam", False),  # two Sams work here
        ("Sam Lee or Ana Ruiz", False),
        ("Sam Lee, Sam Ortiz", False),
        ("Ana", False),
        ("Sam Lее", True),  # Cyrillic ie: reads as Sam Lee
    ],
)
def test_a_person_is_named_by_full_name_or_handle_and_no_one_else(answer: str, ok: bool) -> None:
    everyone = people()
    assert judge_answer(person(everyone[0], everyone), answer)[0] is ok


def test_a_choice_refuses_values_outside_its_options() -> None:
    with pytest.raises(ValueError, match="not among the options"):
        choice("Won", ["Prospecting", "Proposal"])


def test_rivals_are_the_other_options_or_neighbouring_values() -> None:
    assert choice("b", ["a", "b", "c"]).rivals() == ["a", "c"]
    assert 61 in integer(60).rivals() and 59 in integer(60).rivals()
    assert date(dt.date(2026, 1, 31)).rivals()[0] == dt.date(2026, 2, 1)


HEDGED_OR_DENIED = [
    "~{v}", "<{v}", ">{v}", "≤{v}", "≥ {v}", "{v} ± 2", "≈{v}", "<= {v}", "up to {v}",
    "at most {v}", "at least {v}", "about {v}", "roughly {v}", "Anything but {v}",
    "anything except {v}", "Nope: {v}", "Nah, {v}", "No: {v}", "not {v}", "-{v}",
    "−{v}", "{v}, give or take",
]  # fmt: skip


@pytest.mark.parametrize("form", HEDGED_OR_DENIED)
@pytest.mark.parametrize(
    ("fact", "value"), [(money(1_919), "$1,919"), (integer(48), "48"), (percent(48), "48%")]
)
def test_signs_bounds_and_denials_fail_for_every_number_type(fact, value: str, form: str) -> None:
    assert judge_answer(fact, value)[0]
    ok, detail = judge_answer(fact, form.format(v=value))
    assert not ok, detail
    assert detail.startswith(("hedges", "denies")), detail


@pytest.mark.parametrize(
    ("fact", "answer"),
    [
        (money(68), "68"), (money(68), "68 dollars"), (money(68), "68 USD"),
        (money(68), "$68.00"), (money(68), "The refund is 68 dollars."),
        (money(0), "Nothing"), (money(0), "none"), (money(0), "No refund"),
        (money(0), "zero"), (money(0), "$0.00"), (money(0), "No refund: $0."),
        (integer(48), "48"), (integer(48), "forty-eight"), (integer(0), "None"),
        (integer(0), "No one"), (percent(48), "48%"), (percent(48), "48 percent"),
        (percent(48), "48"), (money(2_055_000), "It adds up to $2,055,000."),
        (money(0, alone=True), "No refund"), (money(68, alone=True), "68 dollars"),
    ],
)  # fmt: skip
def test_what_a_careful_person_writes_for_the_right_value_passes(fact, answer: str) -> None:
    ok, detail = judge_answer(fact, answer, goal="What refund do you get?")
    assert ok, detail


@pytest.mark.parametrize(
    ("fact", "answer"),
    [
        (integer(48), "48%"), (integer(48), "48 percent"), (money(68), "67"),
        (money(68), "68 or 70"), (money(0), "Nothing, $68"), (money(68), "No refund"),
        (money(68), "Nothing"), (integer(3), "None"), (percent(48), "48 deals, 40%"),
    ],
)  # fmt: skip
def test_a_count_is_not_a_percentage_and_zero_in_words_is_zero(fact, answer: str) -> None:
    assert not judge_answer(fact, answer)[0]


def test_a_count_in_a_message_ignores_percentages_beside_it() -> None:
    assert integer(60).judge("60 members, 48% of them active")[0]
    assert percent(48).judge("60 members, 48% of them active")[0]
