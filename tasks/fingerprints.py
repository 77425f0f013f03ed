"""Fingerprints of every template's instances: what a task is (goal, persona, checks,
allowances, reference solution, answer, equivalences, hidden fact, knobs, freedoms), as
one hash per template and level over a few seeds. A refactor of templates (into steps,
say) must leave every fingerprint as it was; a template changed on purpose is written
again with ``python -m tests.tasks.fingerprints --write`` and named in the note. The
prints are kept in a source checkout (`STORED`); `officegym validate` compares the
templates it checks with them there, and the suite holds every template to them.

Checks, allowances, freedoms and equivalences are compared as collections: their order
is how a template happens to list them, not what the task is. The solution's order is
the reference's and counts."""

from __future__ import annotations

import dataclasses
import enum
import functools
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

SEEDS = (0, 1, 2)
# In a source checkout: <root>/tasks/ is this folder, <root>/tests/ holds the prints.
STORED = Path(__file__).resolve().parents[1] / "tests" / "tasks" / "template_fingerprints.json"
WRITE_AGAIN = "python -m tests.tasks.fingerprints --write"


def canon(value: Any) -> Any:
    """A value as plain data with no memory addresses in it: dataclasses by their fields,
    functions by their name and what their closure holds."""
    if isinstance(value, (str, int, float, bool, type(None))):
        return value
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: canon(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return [type(value).__name__, fields]
    if isinstance(value, dict) or (hasattr(value, "items") and hasattr(value, "keys")):
        return ["dict", sorted((repr(k), canon(v)) for k, v in value.items())]
    if isinstance(value, (set, frozenset)):
        return ["set", sorted(json.dumps(canon(v), sort_keys=True) for v in value)]
    if isinstance(value, (list, tuple, range)):
        return [canon(v) for v in value]
    if isinstance(value, functools.partial):
        return ["partial", canon(value.func), canon(value.args), canon(value.keywords)]
    if callable(value) and hasattr(value, "__code__"):
        cells = [c.cell_contents for c in (value.__closure__ or ())]
        return ["fn", value.__qualname__, canon(cells), canon(value.__defaults__ or ())]
    if callable(value) and hasattr(value, "__qualname__"):
        return ["callable", value.__qualname__]
    text = repr(value)
    return type(value).__name__ if " at 0x" in text or " object at " in text else text


def _bag(items: Any) -> list[str]:
    return sorted(json.dumps(canon(i), sort_keys=True, default=str) for i in items)


def task_print(task: Any) -> dict[str, Any]:
    """The parts of a task that make it what it is, as plain data."""
    return {
        "goal": task.goal,
        "persona": task.persona,
        "checks": _bag(task.checks),
        "allowed": _bag(task.allowed),
        "solution": canon(task.solution),
        "answer": task.answer,
        "expects": canon(task.expects),
        "equivalent": _bag(task.equivalent),
        "hidden": canon(task.hidden),
        "params": canon(task.params),
        "free": _bag(task.free),
    }


def fingerprint(template_id: str, level: str) -> str:
    """One hash of the template's tasks at `level` over `SEEDS` (or why it cannot build)."""
    from officegym.tasks import make_task

    digest = hashlib.sha256()
    for seed in SEEDS:
        try:
            data: Any = task_print(make_task(template_id, seed, difficulty=level))
        except LookupError as exc:
            data = f"LookupError: {exc}"
        digest.update(json.dumps(data, sort_keys=True, default=str).encode())
    return digest.hexdigest()[:16]


def all_fingerprints() -> dict[str, str]:
    """Every template-level's fingerprint, keyed `template@level`."""
    from officegym.tasks import load_templates

    return {
        f"{tpl.id}@{level}": fingerprint(tpl.id, level)
        for tpl in sorted(load_templates().values(), key=lambda t: t.id)
        for level in tpl.levels
    }


def stale_fingerprints(keys: list[str]) -> dict[str, str]:
    """Of the ``template@level`` keys, those whose tasks no longer build what the stored
    prints say: ``new`` (no print stored) or ``changed``; none outside a source checkout."""
    if not STORED.exists():
        return {}
    stored = json.loads(STORED.read_text())
    stale: dict[str, str] = {}
    for key in keys:
        template_id, level = key.split("@")
        if key not in stored:
            stale[key] = "new"
        elif fingerprint(template_id, level) != stored[key]:
            stale[key] = "changed"
    return stale


def main(argv: list[str]) -> None:
    """``--write``: store every template-level's print again."""
    if argv != ["--write"]:
        sys.exit(f"usage: {WRITE_AGAIN}")
    STORED.write_text(json.dumps(all_fingerprints(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {STORED}")
