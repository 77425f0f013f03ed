"""Every template's instances stay as they were (`officegym.tasks.fingerprints`)."""

from __future__ import annotations

import json

import pytest

from officegym.tasks import load_templates
from officegym.tasks.fingerprints import STORED, WRITE_AGAIN, fingerprint

STORED_PRINTS: dict[str, str] = json.loads(STORED.read_text())


def test_every_template_level_has_a_stored_fingerprint() -> None:
    now = {f"{t.id}@{level}" for t in load_templates().values() for level in t.levels}
    assert now == set(STORED_PRINTS), f"write them again: {WRITE_AGAIN}"


@pytest.mark.parametrize("key", sorted(STORED_PRINTS))
def test_a_template_builds_the_tasks_it_built(key: str) -> None:
    template_id, level = key.split("@")
    assert fingerprint(template_id, level) == STORED_PRINTS[key], (
        f"{key}'s tasks changed; if on purpose, write the prints again and say so in the note"
    )
