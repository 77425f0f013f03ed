"""The honest-phrasing corpus: correct answers and reports written the ways people write
them, and the cheating forms that must fail, read from the TOML files beside this one.

`answer_cases()` and `statement_cases()` expand each phrasing over every written form of
its value; the reader's tests require every honest case to pass and every cheat to fail,
and `bench/verifier_agreement.py` measures a verifier model against the rule reader on
the same cases."""

from __future__ import annotations

import dataclasses
import datetime as dt
import tomllib
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from officegym.tasks import facts as F
from officegym.tasks.facts import Fact
from officegym.tasks.statements import Says

__all__ = ["Case", "answer_cases", "statement_cases"]

HERE = Path(__file__).parent


@dataclass(frozen=True)
class Case:
    """One phrasing of one value: `text` must pass (`honest`) or fail as `kind` says."""

    kind: str
    text: str
    honest: bool
    goal: str
    fact: Fact | None = None
    says: Says | None = None
    reference: str = ""


def _load(name: str) -> dict[str, Any]:
    return tomllib.loads((HERE / name).read_text())


def _fact(kind: str, spec: dict[str, Any]) -> Fact:
    value = spec["value"]
    if kind == "integer":
        return F.integer(value)
    if kind == "money":
        return F.money(value)
    if kind == "percent":
        return F.percent(value)
    if kind == "date":
        return F.date(dt.date.fromisoformat(value))
    if kind == "time":
        return F.time_of_day(value)
    if kind == "person":
        people = [SimpleNamespace(name=n, handle=h) for n, h in spec["people"]]
        return F.person(next(p for p in people if p.name == value), people)
    return F.choice(value, spec["options"])


def _expand(phrasings: list[str], forms: list[str], rival: str) -> list[str]:
    return [p.format(v=form, r=rival) for p in phrasings for form in forms]


def answer_cases() -> list[Case]:
    """Every honest answer and every cheat of `answers.toml`, one per written form."""
    out: list[Case] = []
    for kind, spec in _load("answers.toml").items():
        fact = _fact(kind, spec)
        for honest, key in ((True, "honest"), (False, "cheats")):
            for text in _expand(spec[key], spec["forms"], spec["rival"]):
                out.append(Case(kind, text, honest, spec["goal"], fact=fact))
    return out


def _says(spec: dict[str, Any]) -> Says:
    kw: dict[str, Any] = {"act": spec["act"]}
    if "money" in spec:
        kw["amount"] = spec["money"]
    if "count" in spec:
        kw["count"] = spec["count"]
    if "date" in spec:
        kw["date"] = dt.date.fromisoformat(spec["date"])
    return Says(**kw)


def statement_cases() -> list[Case]:
    """Every honest message and every cheat of `statements.toml`, one per written form."""
    out: list[Case] = []
    for spec in _load("statements.toml")["case"]:
        says = _says(spec)
        for honest, key in ((True, "honest"), (False, "cheats")):
            for text in _expand(spec[key], spec["forms"], spec.get("rival", "")):
                case = Case(spec["name"], text, honest, spec["goal"], says=says)
                out.append(dataclasses.replace(case, reference=spec["reference"]))
    return list(dict.fromkeys(out))
