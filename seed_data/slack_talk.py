"""The conversation bank of seeded chat: exchanges written as data
(`seed_data/conversations/<topic>.toml`), each a post and the thread that answers it, in
the channel where such a thing is said. A conversation is rendered with one set of values
(the same customer, feature, time and people from its post to its last reply), so a reply
refers to what it answers and names the person it answers.

A file holds `[words]` (slot -> alternatives, which may hold slots themselves) and
`[[talk]]` tables: `open` (the post's forms), `replies` (the thread's steps in order, each
a list of forms, or `{by = "op" | "other", say = [...]}` for a step by the original poster
or, in a DM, by the person addressed) and `pin` (a post its channel pins: a runbook, an
agenda, a decision) and `channels` (the only channels it is said in, by name: a private
channel's business is its own). Slots the words do not name are the world's values (`slack.py`):
`{op}` the poster's first name, `{other}` someone else's in the channel, `{first}` a
colleague's, and `{customer}`, `{feature}`, `{project}`, `{day}`, `{time}`, `{room}`,
`{amount}`, `{pct}`, `{done}`, `{small}`, `{ticket}`, `{version}`.
"""

from __future__ import annotations

import functools
import random
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from officegym.errors import ConfigError

__all__ = ["BANK_DIR", "Step", "Talk", "bank", "render"]

BANK_DIR = Path(__file__).parent / "conversations"
SLOT = re.compile(r"\{(\w+)\}")
BY = ("any", "op", "other")


@dataclass(frozen=True)
class Step:
    """One reply of a thread: who writes it (`any` member but the poster, the poster
    `op`, or the person addressed `other`) and its alternative forms."""

    by: str
    say: tuple[str, ...]


@dataclass(frozen=True)
class Talk:
    """A conversation: its post's forms, its thread, whether its channel pins it, and
    the words its file gives its slots."""

    open: tuple[str, ...]
    replies: tuple[Step, ...]
    pin: bool
    words: dict[str, tuple[str, ...]]
    channels: tuple[str, ...] = ()  # said only in these channels (by name); empty: any


def _step(raw: object, where: str) -> Step:
    if isinstance(raw, list) and raw and all(isinstance(x, str) for x in raw):
        return Step("any", tuple(raw))
    if isinstance(raw, dict) and raw.get("by") in BY and isinstance(raw.get("say"), list):
        return Step(raw["by"], tuple(str(x) for x in raw["say"]))
    raise ConfigError(where, "replies", f"a step is a list of forms or {{by, say}}: {raw!r}")


def _load(path: Path) -> list[Talk]:
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(str(path), "<file>", str(exc)) from None
    words = {k: tuple(v) for k, v in raw.get("words", {}).items()}
    talks = []
    for i, t in enumerate(raw.get("talk", [])):
        where = f"{path}: talk {i + 1}"
        if not t.get("open"):
            raise ConfigError(where, "open", "a conversation needs its post")
        steps = tuple(_step(r, where) for r in t.get("replies", []))
        only = tuple(t.get("channels", ()))
        talks.append(Talk(tuple(t["open"]), steps, bool(t.get("pin", False)), words, only))
    return talks


@functools.cache
def bank() -> dict[str, tuple[Talk, ...]]:
    """Topic (the file's name) -> its conversations, read once."""
    return {p.stem: tuple(_load(p)) for p in sorted(BANK_DIR.glob("*.toml"))}


def render(form: str, values: dict[str, str], words: dict[str, tuple[str, ...]],
           rng: random.Random, depth: int = 0) -> str:  # fmt: skip
    """`form` with its slots filled: a value the conversation already has, else a word
    drawn once (and kept in `values`, so later messages say the same), else left."""
    if depth > 6:
        raise ValueError(f"conversation words nest too deep at {form!r}")

    def fill(m: re.Match[str]) -> str:
        slot = m.group(1)
        if slot not in values and slot in words:
            values[slot] = render(rng.choice(words[slot]), values, words, rng, depth + 1)
        return values.get(slot, m.group(0))

    return SLOT.sub(fill, form)
