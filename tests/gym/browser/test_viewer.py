"""`officegym view`: a recorded run as one page, opened in Chromium — the episodes with
reward and template, every step with its error, the checks with got/want, the damage;
agent-written text is shown, never run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from officegym.cli import main
from officegym.gym.browser.manager import BrowserManager

pytestmark = pytest.mark.browser
ENV = "officegym/slack.set-status-v0"
HOSTILE = "<img src=x onerror=\"document.title='pwned'\">"


def _recorded_run(tmp_path: Path) -> Path:
    runs = tmp_path / "run.jsonl"
    for agent in ("oracle", "random"):
        args = ["run", "--agent", agent, "--env", ENV, "--episodes", "2", "--max-steps", "3"]
        result = CliRunner().invoke(main, [*args, "--record", str(runs)], env={"COLUMNS": "200"})
        assert result.exit_code == 0, result.output
    lines = runs.read_text().splitlines()
    hostile = json.loads(lines[-1])  # an agent's text carrying markup
    hostile["steps"][0]["action"] = {"tool": "slack_set_status", "arguments": {"text": HOSTILE}}
    hostile["steps"][0]["observation"]["error"] = HOSTILE
    runs.write_text("\n".join([*lines[:-1], json.dumps(hostile)]) + "\n")
    return runs


def test_the_page_shows_each_episode_its_steps_checks_and_damage(
    chromium: BrowserManager, tmp_path: Path
) -> None:
    runs = _recorded_run(tmp_path)
    result = CliRunner().invoke(main, ["view", str(runs), "--out", str(tmp_path / "v.html")])
    assert result.exit_code == 0 and "4 episode(s)" in result.output, result.output
    uri = (tmp_path / "v.html").resolve().as_uri()

    def look() -> dict[str, Any]:
        context = chromium.browser().new_context()
        page = context.new_page()
        page.goto(uri)
        seen = {
            "title": page.title(),
            "rows": page.locator("#episodes tbody tr").count(),
            "rewards": page.locator("#episodes tbody tr td:nth-child(5)").all_inner_texts(),
            "first_checks": page.locator("#episode-0 .checks tbody tr").all_inner_texts(),
            "last_errors": page.locator("#episode-3 .step.error").all_inner_texts(),
            "last_checks": page.locator("#episode-3 .checks tbody tr").all_inner_texts(),
            "images": page.locator("img").count(),
        }
        context.close()
        return seen

    seen = chromium.call(look)
    assert seen["title"] == "run.jsonl" and seen["rows"] == 4
    assert seen["rewards"][:2] == ["1.000", "1.000"]  # the oracle's, first in the file
    assert seen["first_checks"] and all("yes" in row for row in seen["first_checks"])
    assert any(HOSTILE in e for e in seen["last_errors"])  # shown as text ...
    assert seen["images"] == 0  # ... never run as markup
    assert any("want" in row for row in seen["last_checks"])  # got/want of a failed check
