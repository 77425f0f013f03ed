"""The validator catches broken templates (so a passing suite means something)."""

from __future__ import annotations

import random

from sqlalchemy.orm import Session

from officegym.tasks import TEMPLATES, RowExists, Spec, template
from officegym.tasks.checks import Allow
from officegym.tasks.validate import validate_template
from officegym.tools import ToolCall


def _register_broken() -> None:
    if "demo.broken-check" in TEMPLATES:
        return

    @template("demo.broken-check", difficulty="easy", apps=["slack"])
    def broken(w: Session, rng: random.Random) -> Spec:
        """A template whose solution does not do what its check wants, and a collateral write."""
        return Spec(
            goal="Post hello in #general.",
            persona="kturner",
            checks=[
                RowExists(name="posted", table="slack_message", where={"text": "never"}, new=True)
            ],
            allowed=[Allow("slack_reaction")],
            solution=[ToolCall("slack_post_message", {"channel": "general", "text": "hello"})],
        )


def test_validator_reports_failing_solution_and_collateral() -> None:
    _register_broken()
    try:
        problems = validate_template("demo.broken-check", [0])
    finally:
        TEMPLATES.pop("demo.broken-check")
    text = " ".join(p.what for p in problems)
    assert "reference solution scored 0.0" in text
    assert "insert slack_message" in text  # reported as collateral damage
