"""Throwaway templates for the tests of the validator: registered for one block, then
forgotten with the tasks built of them, so no other test sees them."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy.orm import Session

from officegym.tasks import TEMPLATES, Spec, make_task, template
from officegym.tasks.steps import Step

Build = Callable[[Session, random.Random], Spec]


@contextmanager
def demo_template(template_id: str, build: Build, **options: Any) -> Iterator[str]:
    """`build` registered as template `template_id` (an easy slack one unless `options`
    say otherwise) inside the block; its id."""
    template(template_id, **{"difficulty": "easy", "apps": ["slack"], **options})(build)
    try:
        yield template_id
    finally:
        TEMPLATES.pop(template_id, None)
        make_task.cache_clear()


def fixed(doc: str, goal: str, *steps: Step, answer: Any = None) -> Build:
    """A build that makes the same task on every seed and world: `goal` as kturner, with
    `steps` and `answer`; `doc` is the template's description."""

    def build(w: Session, rng: random.Random) -> Spec:
        return Spec(goal=goal, persona="kturner", steps=list(steps), answer=answer)

    build.__doc__ = doc
    return build
