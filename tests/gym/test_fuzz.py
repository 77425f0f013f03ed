"""Property: no malformed action raises out of step, changes the database, or breaks
the env; each one comes back as an error observation."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from officegym.db import serialize
from officegym.gym import OfficeEnv
from officegym.gym.spaces import SUBMIT
from officegym.tools import tools_for

TOOLS = [t for t in tools_for(["slack"])]
NAMES = [t.name for t in TOOLS]
REQUIRED = {t.name: t.parameters.get("required", []) for t in TOOLS}
VALID = {"tool": "slack_list_channels", "arguments": {}}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
wrong_type = st.lists(st.integers(), min_size=1, max_size=3) | st.dictionaries(
    st.text(max_size=4), st.integers(), min_size=1, max_size=2
)


@st.composite
def bad_arguments(draw: st.DrawFn) -> dict[str, Any]:
    """A known tool whose arguments are certainly invalid: an unknown argument, a required
    argument missing, or every required argument of the wrong type."""
    name = draw(st.sampled_from(NAMES))
    required = REQUIRED[name]
    how = draw(st.sampled_from(["extra", "missing", "types"] if required else ["extra"]))
    args = {k: draw(wrong_type) for k in required}
    if how == "extra":
        args[draw(st.sampled_from(["zz", "Channel", "text_", "__class__"]))] = draw(json_values)
    elif how == "missing":
        args.pop(draw(st.sampled_from(required)))
    return {"tool": name, "arguments": args}


def _typed(kind: str) -> dict[str, list[str]]:
    """Tool name -> its arguments of JSON type `kind` (plain or optional)."""
    found: dict[str, list[str]] = {}
    for t in TOOLS:
        for arg, prop in t.parameters.get("properties", {}).items():
            types = {prop.get("type"), *(o.get("type") for o in prop.get("anyOf", []))}
            if kind in types:
                found.setdefault(t.name, []).append(arg)
    return found


INTS, STRINGS = _typed("integer"), _typed("string")


@st.composite
def out_of_range(draw: st.DrawFn) -> dict[str, Any]:
    """A known tool with one argument of the right JSON type but out of any sane range: an
    integer beyond 64 bits, or a string far longer than any message."""
    if draw(st.booleans()):
        name = draw(st.sampled_from(sorted(INTS)))
        value: Any = draw(st.sampled_from([2**63, 2**70, -(2**64), 10**40]))
        arg = draw(st.sampled_from(INTS[name]))
    else:
        name = draw(st.sampled_from(sorted(STRINGS)))
        value, arg = "word " * 20_000, draw(st.sampled_from(STRINGS[name]))
    return {"tool": name, "arguments": {arg: value}}


malformed = st.one_of(
    st.text(max_size=200),
    st.binary(max_size=50),
    json_values,
    json_values.map(lambda v: json.dumps(v)),
    st.sampled_from(["x" * 200_000, "[" * 50_000, '{"tool": "' + "a" * 150_000 + '"}']),
    st.dictionaries(st.text(max_size=10), json_values, max_size=4),
    st.builds(
        dict, tool=st.text(max_size=30).filter(lambda s: s not in NAMES), arguments=json_values
    ),
    st.builds(
        dict,
        tool=st.sampled_from(NAMES),
        arguments=json_values.filter(lambda v: not isinstance(v, dict) and v is not None),
    ),
    bad_arguments(),
    bad_arguments().map(json.dumps),
    out_of_range(),
    st.builds(
        dict,
        tool=st.just(SUBMIT),
        arguments=st.dictionaries(st.just("answer"), wrong_type | st.integers(), min_size=1),
    ),
    st.builds(
        dict,
        tool=st.just(SUBMIT),
        arguments=st.dictionaries(st.sampled_from(["why", "answers"]), st.text(), min_size=1),
    ),
)


@settings(
    max_examples=600,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(actions=st.lists(malformed, min_size=1, max_size=3))
def test_malformed_actions_never_raise_or_change_anything(
    slack_env: OfficeEnv, actions: list[Any]
) -> None:
    slack_env.reset(seed=0)
    before = serialize(slack_env.world.engine)
    for action in actions:
        obs, reward, terminated, truncated, info = slack_env.step(action)
        assert obs in slack_env.observation_space
        assert obs["error"] and obs["result"] == ""
        assert info["ok"] is False and info["error_code"] != "internal_error", obs["error"]
        assert (reward, terminated, truncated) == (0.0, False, False)
    assert serialize(slack_env.world.engine) == before
    obs, *_ = slack_env.step(VALID)
    assert obs["error"] == "" and json.loads(obs["result"])
