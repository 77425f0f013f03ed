"""parse_action turns any value into a tool call or an ActionError with a clear message."""

from __future__ import annotations

import pytest

from officegym.gym.actions import MAX_ACTION_CHARS, ActionError, parse_action, submitted_answer

TOOLS = frozenset({"slack_post_message", "submit"})


def test_reads_json_text_and_dicts() -> None:
    text = '{"tool": "slack_post_message", "arguments": {"channel": "general", "text": "hi"}}'
    assert parse_action(text, TOOLS) == ("slack_post_message", {"channel": "general", "text": "hi"})
    assert parse_action({"tool": "submit"}, TOOLS) == ("submit", {})
    assert parse_action(b'{"tool": "submit", "arguments": null}', TOOLS) == ("submit", {})


@pytest.mark.parametrize(
    ("action", "words"),
    [
        ("{not json", "not valid JSON"),
        ("[" * 100_000 + "]" * 100_000, "limit"),
        ("[" * 20_000 + "]" * 20_000, "nested too deeply"),
        ("[1]", "an array"),
        ('"text"', "a string"),
        (None, "null"),
        (3.5, "a number"),
        (True, "a boolean"),
        (object(), "object"),
        (b"\xff\xfe", "UTF-8"),
        ({"tool": 5}, "tool name string"),
        ({"tool": "slack_nope"}, "unknown tool"),
        ({"tool": "slack_post_message", "arguments": [1]}, "JSON object"),
        ({"tool": "submit", "args": {}}, "unknown key"),
        ('{"tool": "submit", "arguments": {"answer": "\\ud800"}}', "lone surrogate"),
        ({"tool": "submit", "arguments": {(1, 2): "x"}}, "names must be strings"),
    ],
)
def test_malformed_actions_raise_action_error_naming_the_problem(
    action: object, words: str
) -> None:
    with pytest.raises(ActionError, match=words):
        parse_action(action, TOOLS)


def test_the_length_limit_is_checked_before_parsing() -> None:
    with pytest.raises(ActionError, match=str(MAX_ACTION_CHARS)):
        parse_action(" " * (MAX_ACTION_CHARS + 1), TOOLS)


def test_submit_takes_an_optional_string_answer_only() -> None:
    assert submitted_answer({}) is None
    assert submitted_answer({"answer": "42"}) == "42"
    with pytest.raises(ActionError, match="must be a string"):
        submitted_answer({"answer": 42})
    with pytest.raises(ActionError, match="unknown argument"):
        submitted_answer({"answer": "42", "why": "x"})
