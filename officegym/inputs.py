"""Checks every door applies to what a request carries before the service sees it.

A lone surrogate (``"\\ud800"``, which JSON's ``\\u`` escapes can carry) is text no
database can store as UTF-8: it is refused at the door with the door's own error, never
left to fail deep inside a write. Query-string values (searches, filters) have a length
cap, so a 50,000-character search is a clear refusal instead of a slow scan.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["MAX_QUERY_VALUE", "has_lone_surrogate"]

MAX_QUERY_VALUE = 2_000  # characters in one query-string value (a search, a filter)
_SURROGATE = re.compile("[\ud800-\udfff]")


def has_lone_surrogate(value: Any) -> bool:
    """Whether `value` (text, or JSON lists and objects of it, keys too) holds a UTF-16
    surrogate code point, which no UTF-8 text can."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return False
