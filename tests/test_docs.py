"""The docs hold together: every relative link of the README and docs/ names a file
that exists, and the counts they quote (templates per app, levels, templates with
difficulty knobs, judgment templates, booking tools) are the registry's of today, so a
new template that makes a figure stale fails here instead of misleading a reader."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from officegym.tasks.base import load_templates
from officegym.tools import tools_for

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
NUMBERS = re.findall(
    r"\w+",
    "zero one two three four five six seven eight nine ten eleven twelve thirteen "
    "fourteen fifteen sixteen seventeen eighteen nineteen twenty",
)


def _count(word: str) -> int:
    return int(word.replace(",", "")) if word[0].isdigit() else NUMBERS.index(word.lower())


def _quoted(doc: str, pattern: str) -> list[int]:
    """The numbers the pattern's groups catch in docs/<doc> (one match required)."""
    text = " ".join((ROOT / "docs" / doc).read_text().split())
    match = re.search(pattern, text)
    assert match is not None, f"docs/{doc} no longer says {pattern!r}: update this test"
    return [_count(g) for g in match.groups()]


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_relative_links_name_files_that_exist(doc: Path) -> None:
    for target in LINK.findall(doc.read_text()):
        if not re.match(r"[a-z]+:", target):
            assert (doc.parent / target).exists(), f"{doc.name} links to missing {target}"


def test_the_template_counts_are_todays() -> None:
    templates = list(load_templates().values())
    apps = Counter(t.app for t in templates)
    total, chat, crm, sheets, booking, cross, levels = _quoted(
        "authoring.md",
        r"\((\d+) today: (\d+) chat, (\d+) CRM, (\d+) sheets, (\d+) booking, (\d+) cross-app; "
        r"(\d+) template levels\)",
    )
    assert (total, chat, crm, sheets, booking, cross) == (
        len(templates),
        apps["slack"],
        apps["crm"],
        apps["sheets"],
        apps["booking"],
        apps["cross"],
    )
    assert levels == sum(len(t.levels) for t in templates)


def test_the_knob_and_judgment_counts_are_todays() -> None:
    templates = list(load_templates().values())
    (knobbed,) = _quoted("gym.md", r"\*\*Levels\.\*\* (\w+) templates over the five apps")
    assert knobbed == sum(1 for t in templates if t.knobs)
    (judged,) = _quoted("gym.md", r"(\w+) judgment templates \(`tasks/<app>/confidential.py`\)")
    assert judged == sum(1 for t in templates if t.build.__module__.endswith(".confidential"))


def test_the_booking_tool_count_is_todays() -> None:
    (quoted,) = _quoted("serving.md", r"(\d+) tools \(`booking_search_stays`")
    assert quoted == len(tools_for(["booking"]))
