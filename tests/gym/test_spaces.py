"""UnicodeText and ToolCallSpace admit what tool-calling agents exchange and sample it."""

from __future__ import annotations

import json

import pytest
from gymnasium import spaces

from officegym.gym.spaces import SUBMIT, ToolCallSpace, UnicodeText

SPECS = [
    {
        "name": "slack_post_message",
        "parameters": {
            "type": "object",
            "properties": {"channel": {"type": "string"}, "text": {"type": "string"}},
            "required": ["channel", "text"],
        },
    },
    {
        "name": "slack_read_channel",
        "parameters": {
            "type": "object",
            "properties": {
                "channel": {"type": "string"},
                "limit": {"type": "integer", "minimum": 1, "maximum": 100},
                "before": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            },
            "required": ["channel"],
        },
    },
]


def test_unicode_text_contains_any_string_up_to_its_length() -> None:
    space = UnicodeText(10)
    assert '{"a": [1]}' in space
    assert "日本語🙂" in space
    assert "" in space
    assert "x" * 11 not in space
    assert None not in space
    assert b"bytes" not in space


def test_unicode_text_samples_json_punctuation_and_non_ascii_that_text_rejects() -> None:
    space = UnicodeText(300, seed=1)
    samples = [space.sample() for _ in range(50)]
    joined = "".join(samples)
    assert all(s in space for s in samples)
    assert set('{}[]":,') <= set(joined)
    assert any(ord(c) > 127 for c in joined)
    assert not spaces.Text(300).contains(joined[:300])


def test_unicode_text_samples_are_reproducible_from_a_seed() -> None:
    a, b = UnicodeText(50, seed=7), UnicodeText(50, seed=7)
    assert [a.sample() for _ in range(5)] == [b.sample() for _ in range(5)]


def test_unicode_text_rejects_bad_bounds() -> None:
    with pytest.raises(ValueError):
        UnicodeText(5, min_length=6)


def test_tool_call_space_accepts_calls_as_text_or_dicts() -> None:
    space = ToolCallSpace(SPECS)
    call = {"tool": "slack_post_message", "arguments": {"channel": "general", "text": "hi"}}
    assert call in space
    assert json.dumps(call) in space
    assert {"tool": SUBMIT} in space
    assert {"tool": SUBMIT, "arguments": None} in space
    assert {"tool": SUBMIT, "arguments": {"answer": "42"}} in space


@pytest.mark.parametrize(
    "action",
    [
        "not json",
        "[1, 2]",
        {"tool": "slack_nope", "arguments": {}},
        {"tool": "slack_post_message", "arguments": []},
        {"tool": "slack_post_message", "arguments": "{}"},
        {"tool": "slack_post_message", "arguments": {}, "extra": 1},
        {"arguments": {}},
        None,
        42,
        '{"tool": "submit", "arguments": {"answer": "' + "x" * 200_000 + '"}}',
    ],
)
def test_tool_call_space_rejects_what_is_not_a_call(action: object) -> None:
    assert action not in ToolCallSpace(SPECS)


def test_tool_call_space_samples_plausible_junk_and_submit_calls() -> None:
    space = ToolCallSpace(SPECS, seed=3)
    samples = [space.sample() for _ in range(400)]
    calls = [json.loads(s) for s in samples]
    assert all(s in space for s in samples)
    names = [c["tool"] for c in calls]
    assert {SUBMIT, "slack_post_message", "slack_read_channel"} <= set(names)
    plausible = [c for c in calls if c["tool"] != SUBMIT and "channel" in c["arguments"]]
    junk = [c for c in calls if c["tool"] != SUBMIT and "channel" not in c["arguments"]]
    assert plausible and junk
    limits = [c["arguments"]["limit"] for c in plausible if "limit" in c["arguments"]]
    assert limits and all(1 <= n <= 100 for n in limits)


def test_tool_call_space_samples_are_reproducible_from_a_seed() -> None:
    a, b = ToolCallSpace(SPECS, seed=11), ToolCallSpace(SPECS, seed=11)
    assert [a.sample() for _ in range(20)] == [b.sample() for _ in range(20)]
