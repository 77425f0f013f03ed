"""External browser agents: their own Playwright attached over CDP to the Chromium of an
env made with ``cdp=True`` (in the caller's thread), graded on the final state like an
episode; and the documented example runs as written."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from officegym.gym.browser_env import BrowserEnv

pytestmark = pytest.mark.browser

DOC = Path(__file__).resolve().parents[3] / "gym" / "BROWSER.md"
README = Path(__file__).resolve().parents[3] / "README.md"


def test_an_agent_attached_over_cdp_is_graded_on_the_final_state(cdp_env: BrowserEnv) -> None:
    _, info = cdp_env.reset(options={"task": "slack.post-channel", "task_seed": 3})
    task = cdp_env.task
    assert task is not None
    post = task.solution[-1].arguments
    with sync_playwright() as p:  # in this thread: the env's Playwright has its own
        browser = p.chromium.connect_over_cdp(info["cdp_url"])
        context = browser.new_context()
        page = context.new_page()
        page.goto(info["login_url"])
        assert page.url == f"{info['app_url']}/slack/c/general"
        page.goto(f"{info['app_url']}/slack/c/{post['channel']}")
        page.fill("[data-og-id=composer-text]", post["text"])
        page.click("[data-og-id=composer-send]")
        context.close()
    grade = cdp_env.finish()
    assert (grade.reward, grade.passed) == (1.0, True)
    assert cdp_env.finish() is grade
    obs, *_ = cdp_env.step("noop()")
    assert "episode has ended" in obs["error"]


def test_finishing_without_doing_the_task_fails(browser_env: BrowserEnv) -> None:
    browser_env.reset(options={"task": "slack.post-channel", "task_seed": 3})
    grade = browser_env.finish()
    assert grade.passed is False and grade.reward == 0.0


@pytest.mark.parametrize(("doc", "printed"), [(DOC, ["1.0", "True"]), (README, ["1.0"])])
def test_the_documented_example_runs_and_scores_full_reward(
    tmp_path: Path, doc: Path, printed: list[str]
) -> None:
    blocks = re.findall(r"```python\n(.*?)```", doc.read_text(), re.S)
    example = next(b for b in blocks if "connect_over_cdp" in b)
    out = subprocess.run(
        [sys.executable, "-c", example], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == printed
