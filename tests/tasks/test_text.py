"""Text as graders read it: lookalike letters, invisible and fullwidth characters read as
what they look like; sentences split where a person would."""

from __future__ import annotations

import pytest

from officegym.tasks.text import mentions, normalize, sentences, tokens


@pytest.mark.parametrize(
    ("written", "reads"),
    [
        ("Тuesday", "Tuesday"),  # Cyrillic capital TE
        ("Tuеsdаy", "Tuesday"),  # Cyrillic ie and a
        ("Τuesday", "Tuesday"),  # Greek capital TAU
        ("Tues\u200bday", "Tuesday"),  # zero-width space
        ("１０:３０", "10:30"),  # fullwidth digits and colon
        ("ＯＡＫ", "OAK"),
    ],
)
def test_lookalikes_read_as_the_latin_text_they_imitate(written: str, reads: str) -> None:
    assert normalize(written) == reads
    assert tokens(written) == tokens(reads)


def test_plain_ascii_and_real_accents_are_left_to_mean_themselves() -> None:
    assert normalize("Oak room, 10:30") == "Oak room, 10:30"
    assert tokens("Zoë") == tokens("Zoë")
    assert not mentions("Oakland", "Oak")


def test_a_rival_with_one_cyrillic_letter_is_still_that_rival() -> None:
    assert mentions("moved to Wednesday or Тuesday", "Tuesday")


def test_sentences_end_at_stops_and_lines_but_not_inside_amounts() -> None:
    text = "Done: it is $1.5M now. Anything else?\nThanks; bye"
    assert sentences(text) == ["Done: it is $1.5M now.", "Anything else?", "Thanks;", "bye"]
