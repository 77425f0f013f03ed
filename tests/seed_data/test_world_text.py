"""Seeded texts read like a company's own, not lorem word salad: every kind of free text
(chat messages and thread replies, CRM account/opportunity/case descriptions, activity
notes, booking reviews) is sampled on the default and startup worlds, and no sentence of
five words or more is made only of Faker's lorem words (the old generator's output)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from faker.providers.company.en_US import Provider as Company
from faker.providers.lorem.en_US import Provider as Lorem
from faker.providers.lorem.la import Provider as Latin
from sqlalchemy import select
from sqlalchemy.orm import Session

from officegym.apps.booking.models import HostMessage, Listing, Review
from officegym.apps.crm.models import Account, Activity, Case, Opportunity
from officegym.apps.slack.models import Message
from officegym.world import World, world_image

# Faker's lorem words (English, and the Latin every other locale falls back to) and the
# words of its catch phrases ("Optimized uniform algorithm").
LOREM = {w.lower() for w in (*Lorem.word_list, *Latin.word_list)}
BUZZ = {w.lower() for group in Company.catch_phrase_words for w in group for w in w.split()}
SAMPLE = 400  # texts per kind (every text when there are fewer)


def sentences(text: str) -> Iterator[str]:
    """The sentences of `text` (split after . ! ? and at line breaks)."""
    for part in re.split(r"(?<=[.!?])\s+|\n+", text):
        if part.strip():
            yield part.strip()


def words(sentence: str) -> list[str]:
    """The words of `sentence`, lower-cased, punctuation around them dropped (a number,
    a time, a handle or a hyphenated name stays one word, and no lorem word)."""
    return [w.strip(".,;:!?()[]\"'").lower() for w in sentence.split() if w.strip(".,;:!?()")]


def is_salad(sentence: str) -> bool:
    """True for a sentence of five words or more, every one of them a lorem word (what
    Faker's sentence()/paragraph() write: "Direction they write media difficult drug."),
    or of three or more, all from Faker's catch phrases ("Optimized uniform algorithm")."""
    ws = words(sentence)
    lorem = len(ws) >= 5 and all(w in LOREM for w in ws)
    return lorem or (len(ws) >= 3 and all(w in BUZZ for w in ws))


def salad_in(texts: list[str]) -> list[str]:
    """The texts holding at least one word-salad sentence."""
    return [t for t in texts if any(is_salad(x) for x in sentences(t))]


def texts_by_kind(s: Session) -> dict[str, list[str]]:
    """Up to SAMPLE texts of each kind, spread evenly over the table."""
    kinds = {
        "chat message": select(Message.text).where(Message.thread_parent_id.is_(None)),
        "thread reply": select(Message.text).where(Message.thread_parent_id.is_not(None)),
        "account description": select(Account.description),
        "opportunity description": select(Opportunity.description),
        "opportunity next step": select(Opportunity.next_step),
        "case description": select(Case.description),
        "activity note": select(Activity.body),
        "listing review": select(Review.text),
        "listing description": select(Listing.description),
        "host message": select(HostMessage.text),
    }
    out = {}
    for kind, stmt in kinds.items():
        rows = [t for t in s.scalars(stmt) if t]
        step = max(1, len(rows) // SAMPLE)
        out[kind] = rows[::step]
    return out


def test_the_detector_flags_lorem_and_spares_office_prose() -> None:
    assert is_salad("Direction they write media difficult drug strategy.")
    assert is_salad("Can this will right fight people open.")
    assert not is_salad("Deploy of Apollo v2.3.1 is done, watching error rates.")
    assert is_salad("Necessitatibus rem aperiam blanditiis atque.")  # the Latin of en_GB
    assert is_salad("Optimized uniform algorithm")
    assert not is_salad("OK to book it?")  # too short to judge


@pytest.mark.parametrize("scenario", ["default", "startup"])
def test_no_seeded_text_is_word_salad(scenario: str) -> None:
    w = World(world_image(scenario, 0))
    try:
        with w.session() as s:
            found = texts_by_kind(s)
    finally:
        w.close()
    for kind, texts in found.items():
        assert texts, f"{scenario}: no {kind} seeded"
    bad = {kind: salad_in(texts)[:3] for kind, texts in found.items() if salad_in(texts)}
    assert not bad, f"{scenario}: word salad in seeded texts: {bad}"
