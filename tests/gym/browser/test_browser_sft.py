"""Gold SFT data in browser mode: the reference solution's action strings as calls of the
one `browser` tool, the pages as tool results, ending with send_msg_to_user."""

from __future__ import annotations

import json

import pytest

from officegym.gym.browser.manager import BrowserManager
from officegym.gym.sft import conversation, gold_records

pytestmark = pytest.mark.browser


def test_a_browser_gold_episode_becomes_a_conversation(chromium: BrowserManager) -> None:
    (record,) = gold_records(["slack.set-status"], 1, mode="browser", seed=2)
    assert record["reward"] == 1.0
    convo = conversation(record, metadata=True)
    assert [t["function"]["name"] for t in convo["tools"]] == ["browser"]
    assert "send_msg_to_user" in convo["tools"][0]["function"]["description"]
    messages = convo["messages"]
    assert "[" in messages[0]["content"] and record["task"]["goal"] in messages[0]["content"]
    actions = [
        json.loads(m["tool_calls"][0]["function"]["arguments"])["action"]
        for m in messages
        if m["role"] == "assistant"
    ]
    assert actions == [s["action"] for s in record["steps"]]
    assert actions[-1].startswith("send_msg_to_user(")
    pages = [m["content"] for m in messages if m["role"] == "tool"]
    assert len(pages) == len(actions) - 1 and all(
        p.startswith("URL: http://127.0.0.1:") for p in pages
    )
    assert convo["metadata"]["mode"] == "browser" and convo["metadata"]["passed"]
