"""The officegym command: tasks lists every template, run plays episodes and reports
rewards, serve writes the seeded world to a file and prints where to sign in, grade
and mcp open a world file as the world it records."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from officegym import cli
from officegym.changes import full_diff
from officegym.gym import env_id
from officegym.runner import ToolRunner
from officegym.tasks import load_templates, make_task
from officegym.world import World, world_image
from officegym.world_identity import IDENTITY_TABLE, WorldIdentity, record_identity, stored_identity

WIDE = {"COLUMNS": "250"}


def invoke(*args: str) -> Any:
    result = CliRunner().invoke(cli.main, list(args), env=WIDE, catch_exceptions=False)
    return result


def test_tasks_lists_every_template_with_its_env_id() -> None:
    result = invoke("tasks")
    assert result.exit_code == 0
    for tid, tpl in load_templates().items():
        assert tid in result.output and env_id(tid) in result.output
        assert tpl.summary[:30] in result.output
    assert f"{len(load_templates())} template(s)" in result.output


def test_piped_tables_keep_ids_whole_at_any_width() -> None:
    """Not a terminal (a pipe, a file): tab-separated lines, one per template, never
    folded at the width COLUMNS says."""
    result = CliRunner().invoke(cli.main, ["tasks"], env={"COLUMNS": "40"})
    assert result.exit_code == 0
    title, header, *rows = result.output.splitlines()[:-1]  # last: "N template(s)"
    assert title == "# officegym task templates"
    assert header.split("\t") == ["id", "difficulty", "apps", "summary", "env id"]
    assert [r.split("\t")[0] for r in rows] == sorted(load_templates())
    assert all(r.split("\t")[-1] == env_id(r.split("\t")[0]) for r in rows)


def test_tasks_filters_by_app() -> None:
    result = invoke("tasks", "--app", "no-such-app")
    assert result.exit_code == 0 and "0 template(s)" in result.output


def test_run_oracle_scores_mean_reward_one() -> None:
    result = invoke("run", "--agent", "oracle", "--episodes", "3")
    assert result.exit_code == 0, result.output
    assert "mean reward 1.000 over 3 episode(s)" in result.output
    assert "total" in result.output and "100%" in result.output


def test_run_random_on_a_template_env_and_test_split_records(tmp_path: Path) -> None:
    tid = sorted(load_templates())[0]
    out = tmp_path / "t.jsonl"
    args = ["run", "--agent", "random", "--env", env_id(tid), "--episodes", "2"]
    result = invoke(*args, "--split", "test", "--max-steps", "4", "--record", str(out))
    assert result.exit_code == 0, result.output
    assert tid in result.output and "over 2 episode(s)" in result.output
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(lines) == 2 and all(line["task"]["split"] == "test" for line in lines)


def test_run_rejects_an_unknown_env() -> None:
    result = CliRunner().invoke(cli.main, ["run", "--env", "officegym/nope-v0"], env=WIDE)
    assert result.exit_code == 2
    assert "no environment 'officegym/nope-v0'" in result.output


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Capture the server start (and the Flask app it serves) instead of serving forever."""
    import officegym.web
    from officegym.mcp_wrappers import asgi

    calls: list[dict[str, Any]] = []
    flask_apps: list[Any] = []
    real_create_app = officegym.web.create_app

    def create_app(*args: Any, **kwargs: Any) -> Any:
        flask_apps.append(real_create_app(*args, **kwargs))
        return flask_apps[-1]

    def fake_serve(app: Any, host: str, port: int, **kwargs: Any) -> None:
        calls.append({"host": host, "port": port, "app": app, "flask": flask_apps[-1]})

    monkeypatch.setattr(officegym.web, "create_app", create_app)
    monkeypatch.setattr(asgi, "serve", fake_serve)
    return calls


def _user_version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return conn.execute("PRAGMA user_version").fetchone()[0]


def _set_user_version(path: Path, n: int) -> None:
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version={n}")
    conn.commit()
    conn.close()


def test_serve_writes_the_world_and_prints_sign_in_links(
    tmp_path: Path, served: list[dict[str, Any]]
) -> None:
    db = tmp_path / "w.sqlite"
    result = invoke("serve", "--db", str(db), "--port", "8123")
    assert result.exit_code == 0, result.output
    image = world_image("default", 0)
    assert stored_identity(f"sqlite:///{db}") == image.identity
    world = served[0]["flask"].extensions["officegym"]["world"]
    with world.initial_connection() as seeded, world.engine.connect() as written:
        assert full_diff(seeded, written) == []
    assert served[0]["host"] == "127.0.0.1" and served[0]["port"] == 8123
    assert "http://127.0.0.1:8123/" in result.output
    assert "http://127.0.0.1:8123/login/" in result.output
    assert served[0]["flask"].test_client().get("/healthz").data == b"ok"


def test_serve_keep_keeps_the_files_state_and_fresh_rewrites_it(
    tmp_path: Path, served: list[dict[str, Any]]
) -> None:
    db = tmp_path / "w.sqlite"
    assert invoke("serve", "--db", str(db)).exit_code == 0
    _set_user_version(db, 7)
    assert invoke("serve", "--db", str(db), "--keep").exit_code == 0
    assert _user_version(db) == 7
    assert invoke("serve", "--db", str(db), "--fresh").exit_code == 0
    assert _user_version(db) == 0 and len(served) == 3


def test_serve_signs_in_the_chosen_persona(tmp_path: Path, served: list[dict[str, Any]]) -> None:
    handle = _a_handle()
    result = invoke("serve", "--db", str(tmp_path / "w.sqlite"), "--persona", handle)
    assert result.exit_code == 0 and f"signed in as @{handle}" in result.output
    page = served[0]["flask"].test_client().get("/slack/", follow_redirects=True)
    assert page.status_code == 200 and handle in page.get_data(as_text=True)


def test_serve_rejects_an_unknown_persona(tmp_path: Path, served: list[dict[str, Any]]) -> None:
    result = CliRunner().invoke(
        cli.main, ["serve", "--db", str(tmp_path / "w.sqlite"), "--persona", "nobody-xyz"]
    )
    assert result.exit_code == 2 and "nobody-xyz" in result.output and served == []


def _a_handle() -> str:
    return make_task(sorted(load_templates())[0], 0).persona


# ---------------------------------------------------------------- grading and world files

TASK_ID = "slack.post-channel"


def _seed_one_file(path: Path) -> Path:
    """A world file of world seed 1, as `officegym serve --seed 1` writes it."""
    World(world_image("default", 1), f"sqlite:///{path}").close()
    return path


def _grade(*args: str) -> Any:
    return CliRunner().invoke(cli.main, ["grade", "--task", TASK_ID, *args], env=WIDE)


def test_grade_grades_a_file_as_the_world_it_records(tmp_path: Path) -> None:
    db = _seed_one_file(tmp_path / "w.sqlite")
    task = make_task(TASK_ID, 3, world_seed=1)
    world = World(world_image("default", 1), f"sqlite:///{db}", fresh=False)
    runner = ToolRunner(world, task.persona)
    assert all(runner.call(c.name, c.arguments).ok for c in task.solution)
    runner.close()
    world.close()
    result = _grade("--seed", "3", "--db", str(db), "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["world"] == {"scenario": "default", "seed": 1}
    assert (report["reward"], report["passed"]) == (1.0, True)


def test_grade_refuses_a_world_seed_the_file_does_not_hold(tmp_path: Path) -> None:
    db = _seed_one_file(tmp_path / "w.sqlite")
    result = _grade("--seed", "3", "--db", str(db), "--world-seed", "0")
    assert result.exit_code == 2 and "reward" not in result.output
    assert str(db) in result.stderr and "Invalid value for --world-seed" in result.stderr
    assert "holds the world of seed 1, not 0" in result.stderr


def test_grade_refuses_a_scenario_the_file_does_not_hold(tmp_path: Path) -> None:
    db = tmp_path / "w.sqlite"
    World(world_image("default", 0), f"sqlite:///{db}").close()
    with sqlite3.connect(db) as conn:
        conn.execute(f"UPDATE {IDENTITY_TABLE} SET scenario = 'elsewhere'")
    result = _grade("--db", str(db), "--scenario", "default")
    assert result.exit_code == 2 and "--scenario" in result.stderr
    assert "'elsewhere', not 'default'" in " ".join(result.stderr.split())


def test_grade_refuses_a_file_seeded_by_other_code(tmp_path: Path) -> None:
    db = tmp_path / "w.sqlite"
    world = World(world_image("default", 0), f"sqlite:///{db}")
    record_identity(world.engine, WorldIdentity("default", 0, "0" * 64))
    world.close()
    result = _grade("--db", str(db))
    assert result.exit_code == 1 and "another version of the seed data" in result.stderr


def test_grade_warns_on_a_file_that_records_no_world(tmp_path: Path) -> None:
    db = tmp_path / "w.sqlite"
    World(world_image("default", 0), f"sqlite:///{db}").close()
    with sqlite3.connect(db) as conn:
        conn.execute(f"DROP TABLE {IDENTITY_TABLE}")
    result = _grade("--db", str(db), "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["reward"] == 0.0
    assert "records no world" in result.stderr


def test_grade_refuses_a_file_that_is_no_world(tmp_path: Path) -> None:
    db = tmp_path / "w.sqlite"
    db.write_bytes(b"not a database at all " * 50)
    result = _grade("--db", str(db))
    assert result.exit_code == 2 and "Invalid value for --db" in result.stderr
    assert "is not a world database" in result.stderr


@pytest.fixture
def stdio_worlds(monkeypatch: pytest.MonkeyPatch) -> list[World]:
    """Capture the world `officegym mcp` would serve over stdio instead of serving it."""
    from officegym.mcp_wrappers import stdio

    worlds: list[World] = []
    monkeypatch.setattr(stdio, "run_stdio", lambda world, *args, **kwargs: worlds.append(world))
    return worlds


def test_mcp_db_opens_the_files_world_and_refuses_another_seed(
    tmp_path: Path, stdio_worlds: list[World]
) -> None:
    db = _seed_one_file(tmp_path / "w.sqlite")
    persona = make_task(TASK_ID, 0, world_seed=1).persona
    ok = CliRunner().invoke(cli.main, ["mcp", "--persona", persona, "--db", str(db)])
    assert ok.exit_code == 0, ok.output
    assert stdio_worlds[0].image.seed == 1 and ok.stdout == ""
    refused = CliRunner().invoke(
        cli.main, ["mcp", "--persona", persona, "--db", str(db), "--seed", "0"], env=WIDE
    )
    assert refused.exit_code == 2 and len(stdio_worlds) == 1
    assert "--seed" in refused.stderr and "seed 1, not 0" in " ".join(refused.stderr.split())


def test_serve_keep_serves_the_files_world_and_fresh_rewrites_another(
    tmp_path: Path, served: list[dict[str, Any]]
) -> None:
    db = tmp_path / "w.sqlite"
    assert invoke("serve", "--db", str(db), "--seed", "1").exit_code == 0
    kept = invoke("serve", "--db", str(db), "--keep")
    assert kept.exit_code == 0 and "seed 1" in kept.output
    assert served[-1]["flask"].extensions["officegym"]["world"].image.seed == 1
    refused = CliRunner().invoke(
        cli.main, ["serve", "--db", str(db), "--keep", "--seed", "0"], env=WIDE
    )
    assert refused.exit_code == 2 and "--seed" in refused.output and len(served) == 2
    assert invoke("serve", "--db", str(db), "--seed", "0").exit_code == 0
    assert stored_identity(f"sqlite:///{db}") == world_image("default", 0).identity


def test_serve_exposes_grading_only_when_asked(
    tmp_path: Path, served: list[dict[str, Any]]
) -> None:
    body = {"task": TASK_ID, "seed": 0}
    hidden = invoke("serve", "--db", str(tmp_path / "w.sqlite"), "--persona", _a_handle())
    assert hidden.exit_code == 0 and "officegym grade --task" in hidden.output
    assert served[0]["flask"].test_client().post("/grade", json=body).status_code == 404
    shown = invoke("serve", "--db", str(tmp_path / "w.sqlite"), "--expose-grading")
    assert shown.exit_code == 0 and "/grade" in shown.output
    assert served[1]["flask"].test_client().post("/grade", json=body).status_code == 200


@pytest.mark.parametrize(
    ("host", "warned"), [("127.0.0.1", False), ("localhost", False), ("0.0.0.0", True)]
)
def test_serve_warns_when_it_binds_beyond_this_machine(
    tmp_path: Path, served: list[dict[str, Any]], host: str, warned: bool
) -> None:
    result = invoke("serve", "--db", str(tmp_path / "w.sqlite"), "--host", host)
    assert result.exit_code == 0 and served[0]["host"] == host
    assert ("WARNING" in result.stderr) is warned
    if warned:
        assert "without authentication" in " ".join(result.stderr.split())
