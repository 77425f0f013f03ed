"""Google's field masks and partial responses: ``fields=sheets/properties/title``,
``files(id,name)``, ``sheets(properties(title,sheetId)),spreadsheetId`` select parts of
a response; in an update request (``fields: "userEnteredFormat/numberFormat"`` or
``"gridProperties.frozenRowCount"``) they name what changes. Paths may use ``/`` or
``.`` between names."""

from __future__ import annotations

from typing import Any

from officegym.errors import Invalid

__all__ = ["Mask", "field_paths", "parse_mask", "select_fields"]

Mask = dict[str, "Mask | None"]  # None: everything below this name
MAX_MASK = 2000


def parse_mask(text: str) -> Mask:
    """The tree a field mask names; Invalid (Google's 400) on a malformed one."""
    if len(text) > MAX_MASK:
        raise Invalid(f"Invalid field selection: longer than {MAX_MASK} characters")
    mask: Mask = {}
    rest = _parse_list(text.replace(" ", ""), 0, mask, 0)
    if rest != len(text.replace(" ", "")):
        raise Invalid(f"Invalid field selection {text}")
    return mask


def _parse_list(text: str, i: int, into: Mask, depth: int) -> int:
    """Parse ``a/b,c(d)`` from position i into `into`; the position after it."""
    if depth > 20:
        raise Invalid("Invalid field selection: nested too deeply")
    while i < len(text) and text[i] != ")":
        i = _parse_path(text, i, into, depth)
        if i < len(text) and text[i] == ",":
            i += 1
    return i


def _parse_path(text: str, i: int, into: Mask, depth: int) -> int:
    start = i
    while i < len(text) and text[i] not in ",()":
        i += 1
    names = text[start:i].replace(".", "/").split("/")
    if not names or any(not n for n in names):
        raise Invalid(f"Invalid field selection {text}")
    node = into
    for name in names[:-1]:
        child = node.get(name, {})
        if child is None:
            return _skip(text, i, depth)
        node[name] = child
        node = child
    last = names[-1]
    if i < len(text) and text[i] == "(":
        sub: Mask = {}
        i = _parse_list(text, i + 1, sub, depth + 1)
        if i >= len(text) or text[i] != ")":
            raise Invalid(f"Invalid field selection {text}")
        if node.get(last, {}) is not None:
            node[last] = {**(node.get(last) or {}), **sub}
        return i + 1
    node[last] = None
    return i


def _skip(text: str, i: int, depth: int) -> int:
    """Past a sub-selection of a field already selected whole."""
    if i < len(text) and text[i] == "(":
        i = _parse_list(text, i + 1, {}, depth + 1)
        return i + 1
    return i


def select_fields(data: Any, mask: Mask | None) -> Any:
    """`data` cut to the fields of `mask` (lists are selected item by item)."""
    if mask is None or "*" in mask:
        return data
    if isinstance(data, list):
        return [select_fields(x, mask) for x in data]
    if not isinstance(data, dict):
        return data
    return {k: select_fields(v, mask[k]) for k, v in data.items() if k in mask}


def field_paths(text: Any) -> set[str]:
    """The dotted paths an update's ``fields`` names (``a/b`` and ``a.b`` alike;
    ``a(b,c)`` as a.b and a.c); ``*`` stays ``*``."""
    if not isinstance(text, str) or not text.strip():
        return set()
    return set(_flatten(parse_mask(text), ""))


def _flatten(mask: Mask, prefix: str) -> list[str]:
    out = []
    for name, sub in mask.items():
        path = f"{prefix}{name}"
        out.extend([path] if sub is None else _flatten(sub, path + "."))
    return out
