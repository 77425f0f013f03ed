"""``POST /grade`` grades the served world against a task, with no sign-in, JSON only,
and only on an app that exposes grading (never on one an agent under test can reach)."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from officegym.grading_api import grade_report
from officegym.runner import ToolRunner
from officegym.tasks import make_task
from officegym.web import create_app
from officegym.world import World

TASK = make_task("slack.post-channel", 5)
BODY = {"task": TASK.id, "seed": TASK.seed}


@pytest.fixture
def client(world: World) -> FlaskClient:
    """A client of an app that exposes grading, not signed in."""
    return create_app(world, expose_grading=True, config={"TESTING": True}).test_client()


def solve(world: World) -> None:
    runner = ToolRunner(world, TASK.persona)
    assert all(runner.call(c.name, c.arguments).ok for c in TASK.solution)
    runner.close()


def test_an_untouched_world_grades_zero(client: FlaskClient) -> None:
    response = client.post("/grade", json=BODY)
    assert response.status_code == 200
    report = response.get_json()
    assert (report["task"], report["seed"]) == (TASK.id, TASK.seed)
    assert report["world"] == {"scenario": "default", "seed": 0}
    assert (report["reward"], report["passed"]) == (0.0, False)
    names = [c["name"] for c in report["checks"]]  # the template's checks, then the state's
    assert names == [c.name for c in TASK.checks] + ["state: call 0 slack_post_message"]


def test_a_solved_world_grades_one_and_matches_the_direct_grade(
    client: FlaskClient, world: World
) -> None:
    solve(world)
    report = client.post("/grade", json=BODY).get_json()
    assert (report["reward"], report["passed"], report["collateral"]) == (1.0, True, [])
    assert report == grade_report(world, TASK.id, TASK.seed)


def test_damage_outside_the_task_is_reported(client: FlaskClient, world: World) -> None:
    solve(world)
    runner = ToolRunner(world, TASK.persona)
    assert runner.call("slack_set_status", {"text": "Out to lunch"}).ok
    runner.close()
    report = client.post("/grade", json=BODY).get_json()
    assert report["passed"] is False and report["reward"] < 1.0
    assert any(d.startswith("insert slack_status") for d in report["collateral"])


def test_only_json_posts_are_graded(client: FlaskClient) -> None:
    followed = client.get("/grade")  # no such page: the sign-in redirect, no grade
    assert followed.status_code in (302, 405) and b"reward" not in followed.data
    assert client.post("/grade", data=BODY).status_code == 415


def test_bad_requests_name_the_problem(client: FlaskClient) -> None:
    unknown = client.post("/grade", json={"task": "slack.nope", "seed": 1})
    no_task = client.post("/grade", json={"seed": 1})
    bad_seed = client.post("/grade", json={"task": TASK.id, "seed": "one"})
    assert unknown.status_code == 404 and "slack.nope" in unknown.get_json()["error"]
    assert no_task.status_code == 422 and "'task'" in no_task.get_json()["error"]
    assert bad_seed.status_code == 422 and "'seed'" in bad_seed.get_json()["error"]


@pytest.mark.parametrize("locked", [False, True])
def test_grading_is_not_served_unless_exposed(world: World, locked: bool) -> None:
    """Without expose_grading, not even a client of the locked persona reads a grade."""
    solve(world)
    app = create_app(world, persona=TASK.persona, lock_persona=locked)
    client = app.test_client()
    for response in (client.post("/grade", json=BODY), client.get("/grade")):
        assert response.status_code == 404 and b"reward" not in response.data
