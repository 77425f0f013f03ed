"""A grade counts every change since the world was seeded, so each task needs a fresh
world: a served file can be restored (``POST /reset``, ``serve --fresh-per-task``), and
`task show` and `grade` say when the world is not fresh."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from officegym import cli
from officegym.grading_api import FRESH_PER_TASK
from officegym.runner import ToolRunner
from officegym.tasks import make_task
from officegym.web import create_app
from officegym.world import World, world_image
from officegym.world_identity import stored_identity

TASK_ID = "slack.post-channel"


def _served(path: Path) -> World:
    return World(world_image("default", 0), f"sqlite:///{path}")


def _solve(world: World, seed: int) -> None:
    task = make_task(TASK_ID, seed)
    runner = ToolRunner(world, task.persona)
    assert all(runner.call(c.name, c.arguments).ok for c in task.solution)
    runner.close()


def test_a_served_file_world_resets_to_its_seeded_state(tmp_path: Path) -> None:
    world = _served(tmp_path / "w.sqlite")
    assert world.changed_rows() == 0
    _solve(world, 0)
    assert world.changed_rows() > 0
    world.reset()
    assert world.changed_rows() == 0
    assert stored_identity(world.url) == world.image.identity  # still records its world
    world.close()


def test_post_reset_restores_the_world_and_fresh_per_task_restores_after_each_grade(
    tmp_path: Path,
) -> None:
    world = _served(tmp_path / "w.sqlite")
    plain = create_app(world, expose_grading=True).test_client()
    _solve(world, 0)
    assert plain.post("/reset", data="{}").status_code == 415  # JSON only, as /grade
    assert plain.post("/reset", json={}).get_json()["reset"] is True
    assert world.changed_rows() == 0
    per_task = create_app(world, expose_grading=True, config={FRESH_PER_TASK: True})
    _solve(world, 0)
    graded = per_task.test_client().post("/grade", json={"task": TASK_ID, "seed": 0}).get_json()
    assert graded["reward"] == 1.0 and graded["world_reset"] is True
    assert world.changed_rows() == 0
    world.close()


def test_fresh_per_task_needs_the_grading_endpoint(tmp_path: Path) -> None:
    args = ["serve", "--db", str(tmp_path / "w.sqlite"), "--fresh-per-task"]
    result = CliRunner().invoke(cli.main, args)
    assert result.exit_code == 2 and "--expose-grading" in result.output


def test_task_show_warns_when_the_served_world_is_not_fresh(tmp_path: Path) -> None:
    db = tmp_path / "w.sqlite"
    world = _served(db)
    args = ["task", "show", "--task", TASK_ID, "--seed", "1", "--db", str(db), "--json"]
    fresh = CliRunner().invoke(cli.main, args)
    assert fresh.exit_code == 0 and "not fresh" not in fresh.stderr
    _solve(world, 0)
    world.close()
    used = CliRunner().invoke(cli.main, args)
    assert used.exit_code == 0 and f"{db} is not fresh" in " ".join(used.stderr.split())
    assert used.stdout.lstrip().startswith("{")  # the JSON card stays clean on stdout


def test_grade_says_collateral_may_come_from_earlier_tasks(tmp_path: Path) -> None:
    db = tmp_path / "w.sqlite"
    world = _served(db)
    _solve(world, 0)
    _solve(world, 1)  # an earlier task's changes, then this one's
    world.close()
    args = ["grade", "--task", TASK_ID, "--seed", "1", "--db", str(db), "--json"]
    result = CliRunner().invoke(cli.main, args)
    assert result.exit_code == 0
    assert "freshly seeded world" in " ".join(result.stderr.split())
