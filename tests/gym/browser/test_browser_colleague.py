"""The simulated requester in browser mode: a question sent through the chat page is
answered before the next page is served (the web server runs the colleague after each
request that may write), so the page the agent sees next shows the reply."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session

from officegym.gym.browser.solutions import _initial_world, browser_steps
from officegym.gym.browser_env import BrowserEnv
from tests.gym.browser.helpers import changes


@pytest.mark.browser
def test_the_requester_answers_a_dm_sent_in_the_browser(browser_env: BrowserEnv) -> None:
    browser_env.reset(options={"task": "slack.ask-event-date", "task_seed": 2})
    task = browser_env.task
    assert task is not None and task.hidden is not None
    question = task.solution[0]
    assert question.name == "slack_send_dm"
    with Session(_initial_world(task.scenario, task.world_seed)) as world:
        actions = browser_steps(question, world, task.persona)
    for action in actions:
        obs, *_ = browser_env.step(action)
        assert obs["error"] == "", (action, obs["error"])
    assert "Thanks for announcing it!" in obs["axtree"]  # the reply, on the page served next
    said = [c.after for c in changes(browser_env) if c.table == "slack_message" and c.after]
    replies = [m for m in said if m["user_id"] == task.hidden.requester_id]
    assert [m["text"] for m in replies] == [task.hidden.reply]
