"""What agent-written text says: whole-token matching, and the amounts and dates a text
states, so that near misses and hedged answers fail while honest wordings pass."""

from __future__ import annotations

import datetime as dt

import pytest

from officegym.tasks.statements import Says, amounts_in, dates_in, mentions, numbers_in, tokens

DAY = dt.date(2026, 6, 30)


@pytest.mark.parametrize(
    ("text", "phrase", "expected"),
    [
        ("There are 2.", "2", True),
        ("There are 12.", "2", False),
        ("due Mar 20", "Mar 2", False),
        ("due Mar 2, then", "Mar 2", True),
        ("@kturner's idea", "@kturner", True),
        ("@kturner2 said", "@kturner", False),
        ("version 2.3.1 shipped", "2.3", False),
        ("Send revised quote.", "send revised quote", True),
        ("it is 45% done", "45", True),
    ],
)
def test_phrases_match_whole_tokens_only(text: str, phrase: str, expected: bool) -> None:
    assert mentions(text, phrase) is expected


def test_tokens_keep_numbers_with_their_separators() -> None:
    assert tokens("$1,921,000 on 2026-06-30 at 10:30 in #sales") == (
        "$1,921,000",
        "on",
        "2026-06-30",
        "at",
        "10:30",
        "in",
        "#sales",
    )


@pytest.mark.parametrize(
    ("text", "amounts"),
    [
        ("$52,000", {52000}),
        ("52,000 dollars", {52000}),
        ("$52000.", {52000}),
        ("$52k", {52000}),
        ("$1.2M", {1200000}),
        ("$1,921,000", {1921000}),
        ("8000 or 9000", {8000, 9000}),
        ("case 00001001 in 2026 on 2026-06-30, 3 deals", set()),
        ("326 grand", {326000}),
        ("fifty thousand", {50000}),
        ("318 000", {318000}),
        ("twenty-one k", {21000}),
    ],
)
def test_amounts_are_read_as_people_write_them(text: str, amounts: set[int]) -> None:
    assert amounts_in(tokens(text)) == amounts


@pytest.mark.parametrize(
    "text",
    ["2026-06-30", "6/30/2026", "06/30", "June 30", "Jun 30th, 2026", "30 June", "jun 30"],
)
def test_every_common_way_of_writing_a_date_is_read(text: str) -> None:
    assert dates_in(tokens(text), 2026) == {DAY}


def test_a_date_in_another_year_is_another_date() -> None:
    assert dates_in(tokens("June 30, 2027"), 2026) == {dt.date(2027, 6, 30)}


def test_an_amount_must_be_the_only_amount_stated() -> None:
    says = Says(amount=921_000)
    goal = "DM me your open pipeline closing by June 30."
    assert says.judge("My pipeline closing by June 30: $921,000.", goal)[0]
    assert not says.judge("My pipeline closing by June 30: $1,921,000.")[0]
    assert not says.judge("Either $921,000 or $812,500.")[0]
    assert not says.judge("About 900k.")[0]


def test_a_date_must_be_the_only_date_stated() -> None:
    says = Says(date=DAY)
    assert says.judge("It closes on June 30.", "Tell me when the deal will close.")[0]
    assert not says.judge("It closes on June 30 or July 15.")[0]
    assert not says.judge("It closes on Jun 3.")[0]


def test_distractors_fail_and_ignored_phrases_are_cut_out_first() -> None:
    says = Says(all_of=[["Proposal"]], none_of=["Negotiation"], ignoring=["Negotiation Suite"])
    assert says.judge("Negotiation Suite - Renewal is at Proposal")[0]
    ok, detail = says.judge("It is at Proposal or Negotiation")
    assert not ok and "Negotiation" in detail


def test_empty_and_overlong_texts_fail() -> None:
    says = Says(all_of=[["yes"]], max_chars=10)
    assert says.judge(None) == (False, "nothing said")
    assert says.judge("   ")[0] is False
    assert says.judge("yes " * 5)[1] == "longer than 10 characters"


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("There are 2.", [2]),
        ("two", [2]),
        ("Twenty-one, or forty two", [21, 42]),
        ("3.5 and 12,000", [3.5, 12000]),
        ("no numbers here", []),
    ],
)
def test_numbers_are_read_in_digits_and_words(text: str, numbers: list[float]) -> None:
    assert [v for v, _, _ in numbers_in(tokens(text))] == numbers


@pytest.mark.parametrize(
    ("answer", "ok"),
    [
        ("2", True),
        ("There are 2.", True),
        ("Two.", True),
        ("2 or more", False),
        ("at least 2", False),
        ("2+", False),
        ("2ish", False),
        ("2 (maybe three)", False),
        ("12", False),
    ],
)
def test_a_count_is_one_number_without_hedging(answer: str, ok: bool) -> None:
    assert Says(count=2, hedges=False).judge(answer)[0] is ok


@pytest.mark.parametrize(
    "answer",
    [
        "$311,000, or maybe 326 grand",
        "$311,000 give or take fifty thousand",
        "$311,000 or perhaps 318 000",
        "about $311,000",
    ],
)
def test_an_amount_answer_that_hedges_fails(answer: str) -> None:
    says = Says(amount=311_000, hedges=False)
    assert says.judge("The total is $311,000.")[0]
    assert not says.judge(answer)[0]
