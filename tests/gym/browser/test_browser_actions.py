"""The action language parser: valid actions parse to typed arguments, several to a step
(one per line, as BrowserGym's multi-action sets); the help text and BROWSER.md show the
parser's own parameter names and defaults (BrowserGym's); malformed and hostile text
never raises anything but ActionError and never runs anything."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from officegym.gym.browser.actions import (
    ACTION_HELP,
    ACTION_NAMES,
    MAX_ACTION_CHARS,
    MAX_ACTIONS,
    SIGNATURES,
    Action,
    ActionError,
    _usage,
    format_action,
    parse_action,
    parse_actions,
)

DOC = Path(__file__).resolve().parents[3] / "gym" / "BROWSER.md"

VALID = [
    ("click('composer-send')", Action("click", {"bid": "composer-send", "button": "left",
                                                "modifiers": ()})),
    ('click("a", button="right", modifiers=["Shift"])',
     Action("click", {"bid": "a", "button": "right", "modifiers": ("Shift",)})),
    ("fill('composer-text', 'Hi @jdoe, it\\'s done')",
     Action("fill", {"bid": "composer-text", "value": "Hi @jdoe, it's done"})),
    ("select_option('invite-people', ['ab', 'cd'])",
     Action("select_option", {"bid": "invite-people", "options": ["ab", "cd"]})),
    ("select_option('status-emoji', '')", Action("select_option", {"bid": "status-emoji",
                                                                    "options": ""})),
    ("press('search-query', 'Enter')", Action("press", {"bid": "search-query",
                                                        "key_comb": "Enter"})),
    ("scroll(0, -200.5)", Action("scroll", {"delta_x": 0.0, "delta_y": -200.5})),
    ("goto('/slack/people')", Action("goto", {"url": "/slack/people"})),
    ("  go_back()  \n", Action("go_back", {})),
    ("noop()", Action("noop", {"wait_ms": 1000})),  # BrowserGym's default wait
    ("noop(wait_ms=50)", Action("noop", {"wait_ms": 50})),
    ("send_msg_to_user('42')", Action("send_msg_to_user", {"text": "42"})),
    ("report_infeasible(reason='no such channel')",
     Action("report_infeasible", {"reason": "no such channel"})),
]  # fmt: skip

INVALID = [
    ("", "empty action"),
    ("click", "a call such as"),
    ("click(", "not a valid action call"),
    ("click('a'); click('b')", "expected one action, not 2"),
    ("click('a')\nclick('b')", "expected one action, not 2"),
    ("explode('a')", "unknown action"),
    ("os.system('id')", "a call such as"),
    ("__import__('os').system('id')", "a call such as"),
    ("x = click('a')", "not a valid action call"),
    ("import os", "not a valid action call"),
    ("# nothing", "no action"),
    ("click(__import__('os'))", "not a Call expression"),
    ("click('a'.upper())", "not a Call expression"),
    ("click(x)", "not a Name expression"),
    ("click('a' + 'b')", "not a BinOp expression"),
    ("click(f'{a}')", "not a JoinedStr expression"),
    ("click(lambda: 1)", "not a Lambda expression"),
    ("click([c for c in 'ab'])", "not a ListComp expression"),
    ("click(*['a'])", "not a Starred expression"),
    ("click('a', **{'button': 'left'})", "'**' arguments"),
    ("click('a', bid='b')", "given twice"),
    ("click('a', target='b')", "unknown argument"),
    ("click('a', 'left', [], 'extra')", "at most 3"),
    ("fill('a')", "missing argument 'value'"),
    ("fill('a', 3)", "'value' must be"),
    ("click('a b')", "'bid' must be"),
    ("click('a\"]')", "'bid' must be"),
    ("click(True)", "not True"),
    ("click('a', button='side')", "'button' must be"),
    ("click('a', modifiers=['Hyper'])", "'modifiers' must be"),
    ("scroll('up', 3)", "'delta_x' must be"),
    ("noop(1e400)", "'wait_ms' must be"),
    ("noop(-1)", "'wait_ms' must be"),
    ("select_option('a', [])", "'options' must be"),
    ("press('a', '')", "'key_comb' must be"),
    ("goto('')", "'url' must be"),
    ("click('" + "a" * 300 + "')", "'bid' must be"),
    ("x" * (MAX_ACTION_CHARS + 1), "the limit is"),
    ("(" * 500 + ")" * 500, "not a valid action call"),
]


@pytest.mark.parametrize(("text", "expected"), VALID, ids=[v[0][:30] for v in VALID])
def test_valid_actions_parse_to_typed_arguments(text: str, expected: Action) -> None:
    assert parse_action(text) == expected


@pytest.mark.parametrize(("text", "needle"), INVALID, ids=[i[0][:30] for i in INVALID])
def test_invalid_actions_say_what_is_wrong(text: str, needle: str) -> None:
    with pytest.raises(ActionError) as err:
        parse_action(text)
    assert needle in str(err.value)


def test_several_actions_one_per_line_parse_in_order() -> None:
    text = """
        fill('composer-text', '''two
        lines''')  # a comment
        # a line of comment
        click('composer-send'); noop(0)
        send_msg_to_user('Done.')
    """
    assert [(a.name, a.bid) for a in parse_actions(text)] == [
        ("fill", "composer-text"), ("click", "composer-send"), ("noop", None),
        ("send_msg_to_user", None),
    ]  # fmt: skip
    assert parse_actions(text)[0].args["value"] == "two\n        lines"
    assert parse_actions("noop(0)") == [Action("noop", {"wait_ms": 0})]


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("send_msg_to_user('a')\nclick('b')", "make it the last action"),
        ("report_infeasible('x')\nsend_msg_to_user('a')", "make it the last action"),
        ("click('a')\nclick(", "not a valid action call"),
        ("click('a')\nexplode('b')", "unknown action"),
        ("click('a')\nfill('b')", "missing argument 'value'"),
        ("\n".join(["noop(0)"] * (MAX_ACTIONS + 1)), "the limit is"),
    ],
)
def test_a_bad_action_among_several_rejects_the_step(text: str, needle: str) -> None:
    with pytest.raises(ActionError, match=re.escape(needle)):
        parse_actions(text)


@pytest.mark.parametrize("name", sorted(SIGNATURES))
def test_the_help_and_the_doc_show_the_parsers_own_signatures(name: str) -> None:
    """``fill(bid, value)``, ``select_option(bid, options)``, ``noop(wait_ms=1000)``: the
    names an agent may pass as keywords, and the defaults it gets."""
    signature = _usage(name).removeprefix("usage: ")
    assert signature in ACTION_HELP
    assert signature in DOC.read_text()


@pytest.mark.parametrize("value", [None, 3, b"\xff", ["click('a')"], {"a": 1}])
def test_non_text_actions_are_errors(value: object) -> None:
    with pytest.raises(ActionError):
        parse_action(value)


@given(bid=st.from_regex(r"[a-z0-9_-]{1,40}", fullmatch=True), text=st.text(max_size=300))
def test_format_action_round_trips_any_text(bid: str, text: str) -> None:
    action = parse_action(format_action("fill", bid, text))
    assert action == Action("fill", {"bid": bid, "value": text})


# ---------------------------------------------------------------- fuzzing

WATCHED = {"exec", "os.system", "os.exec", "os.posix_spawn", "subprocess.Popen", "open", "import"}
_seen: list[str] = []
_watching = [False]


def _audit(event: str, _args: Any) -> None:
    if _watching[0] and event in WATCHED:
        _seen.append(event)


sys.addaudithook(_audit)


def parse_watched(text: Any) -> list[Action]:
    """Parse `text` while recording any exec/import/open/process event; [] on ActionError."""
    _watching[0] = True
    try:
        return parse_actions(text)
    except ActionError:
        return []
    finally:
        _watching[0] = False


ATOMS = [
    "'a'", '"composer-send"', "1", "-2.5", "True", "None", "x", "__import__('os')",
    "os.system('touch /tmp/og-canary')", "open('/tmp/og-canary', 'w')", "eval('1')",
    "exec('x=1')", "globals()", "().__class__.__bases__[0].__subclasses__()", "'a' * 10**9",
    "lambda: 0", "[c for c in 'ab']", "{'k': 'v'}", "{1, 2}", "b'x'", "f'{x}'", "...",
    "(yield)", "await x", "(y := 1)", "*args", "**kw", "x.y", "x[0]", "'a' if x else 'b'",
    "1j", "['a', 'b']", "('a',)", "10**10000", "'" + "z" * 5000 + "'",
]  # fmt: skip
CALLEES = [*sorted(ACTION_NAMES), "__import__", "eval", "exec", "open", "getattr", "os.system",
           "click.__globals__", "(lambda: click)()", "fill.__call__"]  # fmt: skip


@st.composite
def hostile(draw: st.DrawFn) -> str:
    """A call-shaped string built from dangerous and odd fragments, maybe nested."""
    callee = draw(st.sampled_from(CALLEES))
    args = draw(st.lists(st.sampled_from(ATOMS), max_size=4))
    kwargs = draw(st.lists(st.tuples(st.sampled_from(["bid", "value", "button", "__class__",
                                                      "x"]), st.sampled_from(ATOMS)),
                           max_size=2))  # fmt: skip
    parts = args + [f"{k}={v}" for k, v in kwargs]
    text = f"{callee}({', '.join(parts)})"
    for _ in range(draw(st.integers(0, 2))):
        text = draw(st.sampled_from([f"click({text})", f"({text})", f"{text}.x", f"[{text}]",
                                     f"{text}; {text}", f"not {text}", text]))  # fmt: skip
    return text


def check_parsed(actions: list[Action]) -> None:
    """Parsed actions are known names with only literal argument values."""
    for action in actions:
        assert action.name in ACTION_NAMES
        for value in action.args.values():
            items = value if isinstance(value, list | tuple) else [value]
            assert all(type(v) in (str, int, float) for v in items)


@settings(max_examples=400, deadline=None)
@given(text=hostile())
def test_hostile_actions_never_raise_or_run_anything(text: str) -> None:
    check_parsed(parse_watched(text))
    assert _seen == []


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=400) | st.binary(max_size=100))
def test_random_text_never_raises_anything_but_action_error(text: str | bytes) -> None:
    check_parsed(parse_watched(text))
    assert _seen == []


def test_the_watcher_would_see_an_evaluated_action() -> None:
    """The fuzz tests' audit hook is live: evaluating text is recorded."""
    _watching[0] = True
    try:
        eval("1 + 1")  # what parse_actions must never do
    finally:
        _watching[0] = False
    assert _seen == ["exec"]
    _seen.clear()
