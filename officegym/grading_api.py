"""Grading a live world from outside an episode: `officegym grade`, ``POST /grade``
and the MCP grading tool all call `grade_report`.

The initial state is the world's image (the seeded database, never written);
the final state is the live database, so an agent driven purely over MCP, the
Slack API or the browser is graded exactly as a Gym episode is.

``officegym grade --db FILE`` is the way to grade a served world. The HTTP
endpoint (`bp`) is opt-in, like the MCP grading tool: the web app mounts it only
with ``create_app(..., expose_grading=True)`` (``officegym serve
--expose-grading``), since it needs no sign-in and an agent under test must not
read its own grade. It only answers JSON POSTs, so even when exposed a browser
agent cannot read a grade by following a link or submitting a page's form.

A grade counts every change since the world was seeded, so each task needs a fresh
world. Mounted with the grading endpoint, ``POST /reset`` restores the seeded world;
with ``officegym serve --fresh-per-task`` (`FRESH_PER_TASK` in the app's config) every
``POST /grade`` restores it after grading, so the next task starts fresh.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify, request
from werkzeug.wrappers import Response

from officegym.errors import Invalid, OfficeGymError
from officegym.tasks import Grade, grade, make_task
from officegym.world import World

__all__ = ["FRESH_PER_TASK", "bp", "grade_report", "grade_world"]

FRESH_PER_TASK = "OFFICEGYM_FRESH_PER_TASK"  # app config key: restore the world after a grade

bp = Blueprint("grading", __name__)


def grade_world(world: World, task_id: str, seed: int, answer: str | None = None) -> Grade:
    """Grade `world`'s current state against task (`task_id`, `seed`) on the world's image."""
    task = make_task(task_id, seed, world.image.scenario, world.image.seed)
    with world.initial_connection() as before, world.engine.connect() as after:
        return grade(task, before, after, answer)


def grade_report(
    world: World, task_id: str, seed: int, answer: str | None = None
) -> dict[str, Any]:
    """`grade_world` as JSON-able data, with the task and the world it graded against."""
    result = grade_world(world, task_id, seed, answer).to_dict()
    graded_on = {"scenario": world.image.scenario, "seed": world.image.seed}
    return {"task": task_id, "seed": seed, "world": graded_on, **result}


@bp.post("/grade")
def grade_endpoint() -> tuple[Response, int]:
    """Grade the served world: JSON ``{"task": id, "seed": n, "answer": text?}`` in, grade out."""
    try:
        data = request.get_json(silent=True) if request.is_json else None
    except RecursionError:  # nested deeper than a JSON parser goes: not a grade request
        data = None
    if not isinstance(data, dict):
        return jsonify(error='send JSON: {"task": "<template id>", "seed": <int>}'), 415
    try:
        task, seed, answer = _grade_args(data)
        world: World = current_app.extensions["officegym"]["world"]
        report = grade_report(world, task, seed, answer)
    except OfficeGymError as exc:
        return jsonify(error=exc.message, code=exc.code), exc.http_status
    if current_app.config.get(FRESH_PER_TASK):
        world.reset()
        report["world_reset"] = True
    return jsonify(report), 200


@bp.post("/reset")
def reset_endpoint() -> tuple[Response, int]:
    """Restore the served world to its seeded state (between two tasks). JSON only (send
    ``{}``), as ``/grade``: another site's page cannot make a browser send it."""
    if not request.is_json:
        return jsonify(error="send JSON: {}"), 415
    world: World = current_app.extensions["officegym"]["world"]
    world.reset()
    graded_on = {"scenario": world.image.scenario, "seed": world.image.seed}
    return jsonify(reset=True, world=graded_on), 200


def _grade_args(data: dict[str, Any]) -> tuple[str, int, str | None]:
    task, seed, answer = data.get("task"), data.get("seed", 0), data.get("answer")
    if not isinstance(task, str) or not task:
        raise Invalid("'task' must be a task template id such as 'slack.post-channel'")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise Invalid("'seed' must be an integer")
    if answer is not None and not isinstance(answer, str):
        raise Invalid("'answer' must be a string")
    return task, seed, answer
