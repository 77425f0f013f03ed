"""Agent-written text as graders read it: normalised, then cut into tokens.

Normalisation makes text that looks the same read the same: Unicode NFKC (fullwidth
digits, ligatures), invisible characters dropped (zero-width spaces, joiners), and
lookalike letters from other scripts read as the Latin letter they imitate (Unicode's
confusables data, as in the identifier security profile of UTS #39), so "Тuesday"
written with a Cyrillic "Т" is still Tuesday and still a rival.

Tokens are words, @handles, #channels and numbers with their separators
(``$1,921,000``, ``2026-06-30``, ``10:30``), lower-cased, so a value matches only
whole: "$1,921,000" does not say "$921,000" and "There are 2." says "2". Signs that
change what a number says are kept as tokens: ``~``, ``<``, ``>``, ``<=``, ``≤``,
``±``, ``≈``, ``%`` and a minus glued to a number (``-48``).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence

__all__ = ["find", "mentions", "normalize", "phrase", "sentences", "tokens"]

# A minus sign glued to a number, comparison and approximation signs and ``%`` are
# tokens of their own, so a reader can refuse "-48", "~$1,919" or "48%" for a count.
_TOKEN = re.compile(
    r"(?<![\w.])[-\u2212](?=\$?\d)|[<>]=|[~<>\u2264\u2265\u00b1\u2248\u2272\u2273\u2a7d\u2a7e%]"
    r"|\$?\d+(?:[.,:/-]\d+)*|[@#]?\w+(?:[.-]\w+)*|\+"
)
_ARTICLES = frozenset({"a", "an", "the"})
_VERSION = re.compile(r"^v\d+(?:\.\d+)+$")
_TIME = re.compile(r"^(?P<hour>\d{1,2})(?:(?P<sep>[:.])(?P<min>\d{2}))?$")
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\n+")


@functools.cache
def _lookalikes() -> dict[int, str]:
    """Non-ASCII characters that imitate one ASCII letter or digit, mapped to it (from the
    Unicode confusables table the `confusable_homoglyphs` package ships)."""
    from confusable_homoglyphs.confusables import confusables_data

    table: dict[int, str] = {}
    for char, glyphs in confusables_data.items():
        if len(char) != 1 or char.isascii():
            continue
        plain = [
            g["c"] for g in glyphs if len(g["c"]) == 1 and g["c"].isascii() and g["c"].isalnum()
        ]
        if plain:  # a letter before a digit: Cyrillic "О" is the letter O, not zero
            table[ord(char)] = sorted(plain, key=lambda c: (not c.isalpha(), c))[0]
    return table


def normalize(text: str) -> str:
    """`text` as it reads: NFKC, invisible characters dropped, lookalikes made Latin."""
    clean = "".join(
        c for c in unicodedata.normalize("NFKC", text) if unicodedata.category(c) != "Cf"
    )
    return clean.translate(_lookalikes()) if not clean.isascii() else clean


def tokens(text: str) -> tuple[str, ...]:
    """The tokens of `text` after `normalize`, lower-cased. Articles are dropped, a ``v``
    before a version number too, and times of day read as 24-hour ``H:MM`` (``1:30pm``,
    ``1.30 PM``, ``09:30`` and ``10am`` are ``13:30``, ``13:30``, ``9:30`` and
    ``10:00``). Punctuation separates tokens, apostrophes too (``isn't`` is ``isn t``,
    the same for a phrase looked for and for the text it is looked for in)."""
    raw = [t.lower().replace("\u2212", "-") for t in _TOKEN.findall(normalize(text))]
    out: list[str] = []
    i = 0
    while i < len(raw):
        word, after = raw[i], raw[i + 1] if i + 1 < len(raw) else ""
        clock = _clock(word, after)
        if clock is not None:
            out.append(clock)
            i += 2 if after in ("am", "pm") else 1
            continue
        if word not in _ARTICLES:
            out.append(word[1:] if _VERSION.match(word) else word)
        i += 1
    return tuple(out)


def _clock(word: str, after: str) -> str | None:
    """`word` (with a following ``am``/``pm``) as a 24-hour time ``H:MM``, if it is one."""
    found = _TIME.match(word)
    meridiem = after if after in ("am", "pm") else ""
    if found is None or ((found["sep"] == "." or not found["min"]) and not meridiem):
        return None
    hour, minute = int(found["hour"]), int(found["min"] or 0)
    if meridiem:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if meridiem == "pm" else 0)
    return f"{hour}:{minute:02d}" if hour < 24 and minute < 60 else None


def find(words: Sequence[str], wanted: Sequence[str]) -> bool:
    """Whether the token sequence `wanted` occurs in `words`, whole and in order."""
    n = len(wanted)
    if n == 0:
        return False
    first = wanted[0]
    return any(
        words[i] == first and tuple(words[i : i + n]) == tuple(wanted)
        for i in range(len(words) - n + 1)
    )


@functools.lru_cache(maxsize=1 << 16)
def phrase(text: str) -> tuple[str, ...]:
    """The tokens of a phrase a check looks for: the same few thousand phrases are looked
    for in every episode, so they are tokenized once."""
    return tokens(text)


def mentions(text: str, wanted: str) -> bool:
    """Whether `text` contains the phrase `wanted` as whole tokens, in order."""
    return find(tokens(text), phrase(wanted))


def sentences(text: str) -> list[str]:
    """`text` cut into sentences: after ``.``, ``!``, ``?`` or ``;`` followed by a space,
    and at line breaks (a decimal point or ``$1.5M`` does not end one)."""
    return [s for s in (p.strip() for p in _SENTENCE_END.split(normalize(text))) if s]
