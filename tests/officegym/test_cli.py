"""The officegym command: tasks lists every template, run plays episodes and reports
rewards, serve writes the seeded world to a file and prints where to sign in."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from officegym import cli
from officegym.gym import env_id
from officegym.tasks import load_templates
from officegym.world import world_image

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
    assert db.read_bytes() == world_image("default", 0).data
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
    from officegym.tasks import make_task

    return make_task(sorted(load_templates())[0], 0).persona
