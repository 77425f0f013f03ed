"""The viewer's page from records of any shape: what an LLM agent's model wrote is
shown (escaped), failures come first, and records lacking an index or a task sort."""

from __future__ import annotations

import re

from officegym.gym.viewer import render_page

CONVERSATION = [
    {"role": "user", "content": "You are @kturner ..."},
    {"role": "assistant", "content": "Let me look at the <b>channels</b> first."},
    {"role": "assistant", "content": None, "tool_calls": [{"id": "c", "type": "function"}]},
]


def test_the_models_own_text_is_shown_escaped_and_failures_lead() -> None:
    good = {"index": 0, "task": {"id": "slack.x", "seed": 1}, "reward": 1.0,
            "conversation": CONVERSATION, "complete": True, "ended": "submit"}  # fmt: skip
    cut = {"task": None, "reward": 0.0, "complete": False, "ended": "interrupted"}
    page = render_page([good, cut])
    rows = re.findall(r'<tr id="row-\d+">(.*?)</tr>', page, re.S)
    assert "interrupted" in rows[0] and "slack.x" in rows[1]
    assert "Let me look at the &lt;b&gt;channels&lt;/b&gt; first." in page
    assert "<b>channels</b>" not in page
