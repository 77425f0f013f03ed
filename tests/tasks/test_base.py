"""Template registration: the summary `officegym tasks` shows is a whole sentence."""

from __future__ import annotations

import pytest

from officegym.tasks import load_templates
from officegym.tasks.base import first_sentence


@pytest.mark.parametrize(
    ("doc", "summary"),
    [
        ("Pin a message.\n\nMore detail.", "Pin a message."),
        ("Book a stay for the nights the colleague\n    names, within policy. Then say so.",
         "Book a stay for the nights the colleague names, within policy."),
        ("Say what e.g. the cap is (in $).", "Say what e.g. the cap is (in $)."),
        ("A line without a stop", "A line without a stop"),
    ],
)  # fmt: skip
def test_the_summary_is_the_first_sentence_however_the_docstring_wraps(
    doc: str, summary: str
) -> None:
    assert first_sentence(doc) == summary


def test_every_templates_summary_ends_a_sentence() -> None:
    cut = {t.id: t.summary for t in load_templates().values() if t.summary[-1] not in ".?!"}
    assert not cut, f"summaries cut mid-sentence: {cut}"
