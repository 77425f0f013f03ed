"""Property: no malformed action raises out of step, changes the database, or breaks
the env; each one comes back as an error observation. First over Slack's tools with
malformed actions of every shape, then over every tool of every app (one env per app)
with arguments of a type their schema refuses, and with hostile values of their own
types (extremes, odd text, ids that name nothing, and real rows' ids and names where an
argument names a row, so calls get past the look-up), which may do something but never
end in an internal error."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from officegym.db import serialize
from officegym.gym import OfficeEnv
from officegym.gym.spaces import SUBMIT
from officegym.tools import Tool, tools_for
from officegym.world import World, world_image

TOOLS = [t for t in tools_for(["slack"])]
NAMES = [t.name for t in TOOLS]
REQUIRED = {t.name: t.parameters.get("required", []) for t in TOOLS}
VALID = {"tool": "slack_list_channels", "arguments": {}}
# Every fuzz test here drives an env fixture and may run long: no deadline, no health nags.
FIXTURED = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

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


@settings(FIXTURED, max_examples=600)
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


# ---------------------------------------------------------------- every tool of every app

APPS = sorted({t.app for t in tools_for(None)})
ALL_TOOLS = {app: tools_for([app]) for app in APPS}
CANARY = {  # a read every app's env answers, to show it still works after the fuzz
    "booking": ("booking_list_cities", {}),
    "crm": ("crm_list_users", {}),
    "sheets": ("sheets_list_workbooks", {}),
    "slack": ("slack_list_channels", {}),
}
# Values no JSON-schema type but `array` (or `object`) accepts, and those that fit no
# other type: each drawn for an argument whose schema cannot coerce it.
NOT_ARRAY = st.sampled_from([{"k": 1}, "not a list", 1.5])
NOT_OBJECT = st.sampled_from([[1, 2], "not an object", 3])
NOT_SCALAR = st.sampled_from([[1, 2], {"k": "v"}, [[]], [{"a": None}]])


def _resolve(prop: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    ref = prop.get("$ref")
    return defs[ref.rsplit("/", 1)[1]] if ref else prop


def _types(prop: dict[str, Any], defs: dict[str, Any]) -> set[str]:
    options = prop.get("anyOf", [prop])
    return {_resolve(o, defs).get("type", "object") for o in options}


def _wrong(prop: dict[str, Any], defs: dict[str, Any]) -> st.SearchStrategy[Any]:
    """A value the argument's schema certainly refuses."""
    types = _types(prop, defs)
    if "array" in types and "object" in types:
        return st.just(1.5)
    if "array" in types:
        return NOT_ARRAY
    if "object" in types:
        return NOT_OBJECT
    return NOT_SCALAR


def _hostile(prop: dict[str, Any], defs: dict[str, Any], depth: int = 0) -> st.SearchStrategy[Any]:
    """A value of the schema's own type, chosen to hurt: extremes, odd text, ids that name
    nothing, formulas, control characters; an enum's own values."""
    prop = _resolve(prop, defs)
    if "anyOf" in prop:
        return st.one_of([_hostile(o, defs, depth) for o in prop["anyOf"]])
    if "enum" in prop:
        return st.sampled_from(prop["enum"])
    kind = prop.get("type", "object")
    if kind == "integer":
        extremes = [0, -1, 1, 2**31, 2**63 - 1, -(2**63)]
        return st.sampled_from(extremes) | st.integers(-10, 10**7)
    if kind == "number":
        return st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([1e308, -0.0])
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "string":
        odd = ["", " ", "=1/0", "=" + "(" * 300, "#REF!", "../../etc", "%s%n", "\x00", "\x1b[2J"]
        return st.sampled_from(odd) | st.text(max_size=40) | st.just("long " * 3000)
    if kind == "array" and depth < 3:
        return st.lists(_hostile(prop.get("items", {}), defs, depth + 1), max_size=4)
    if kind == "object" and depth < 3:
        fields = prop.get("properties", {})
        return st.fixed_dictionaries({k: _hostile(v, defs, depth + 1) for k, v in fields.items()})
    return st.none()


def _real_rows() -> dict[str, list[Any]]:
    """Table -> ids and referring values (names, codes, handles) of its first rows in the
    seeded world, for arguments that name a row (`officegym.tools.Ref`)."""
    refs = {t.ref(k) for t in tools_for(None) for k in t.parameters.get("properties", {})}
    world = World(world_image("default", 0))
    found: dict[str, list[Any]] = {}
    with world.initial_connection() as conn:
        for ref in filter(None, refs):
            columns = ", ".join(("id", *ref.columns))
            rows = conn.execute(text(f"SELECT {columns} FROM {ref.table} ORDER BY id LIMIT 6"))
            values = found.setdefault(ref.table, [])
            values.extend(v for row in rows for v in row if v is not None and v not in values)
    world.close()
    return found


REAL = _real_rows()


def _named_row(t: Tool, arg: str, prop: dict[str, Any], defs: dict[str, Any]) -> Any:
    """A strategy for a real row's id or name where `arg` names a row and the schema
    takes that type (a list of one where it takes a list), else None."""
    ref = t.ref(arg)
    if ref is None:
        return None
    types = _types(prop, defs)
    if "array" in types:
        types = _types(_resolve(prop, defs).get("items", {}), defs) | {"array"}
    fits = [v for v in REAL.get(ref.table, []) if _json_type(v) in types]
    if not fits:
        return None
    one = st.sampled_from(fits)
    return one.map(lambda v: [v]) if "array" in types else one


def _json_type(value: Any) -> str:
    return "integer" if isinstance(value, int) else "string"


@st.composite
def typed_call(draw: st.DrawFn, app: str, *, wrong: bool) -> dict[str, Any]:
    """A call of one of `app`'s tools: every argument of its own type, hostile values
    (`wrong=False`), or one argument of a type its schema refuses (`wrong=True`)."""
    t = draw(st.sampled_from(ALL_TOOLS[app]))
    props = t.parameters.get("properties", {})
    defs = t.parameters.get("$defs", {})
    required = t.parameters.get("required", [])
    optional = [k for k in props if k not in required]
    chosen = required + draw(st.lists(st.sampled_from(optional), unique=True)) if optional else []
    chosen = chosen or list(required)
    args = {}
    for k in chosen:
        real = _named_row(t, k, props[k], defs)
        hostile = _hostile(props[k], defs)
        args[k] = draw(hostile if real is None else real | real | hostile)
    if wrong:
        if not props:
            args["unexpected"] = 1
        else:
            k = draw(st.sampled_from(sorted(props)))
            args[k] = draw(_wrong(props[k], defs))
    return {"tool": t.name, "arguments": args}


@pytest.fixture(scope="module", params=APPS)
def app_env(request: pytest.FixtureRequest) -> Iterator[tuple[str, OfficeEnv]]:
    """One tools-mode env per app, whose episodes offer every tool of that app."""
    env = OfficeEnv(app=request.param)
    yield request.param, env
    env.close()


def _still_works(env: OfficeEnv, app: str) -> None:
    name, args = CANARY[app]
    obs, *_ = env.step({"tool": name, "arguments": args})
    assert obs["error"] == "" and json.loads(obs["result"]) is not None


@settings(FIXTURED, max_examples=40)
@given(data=st.data())
def test_every_tool_refuses_arguments_of_the_wrong_type_as_an_error_observation(
    app_env: tuple[str, OfficeEnv], data: st.DataObject
) -> None:
    app, env = app_env
    env.reset(seed=0)
    before = serialize(env.world.engine)
    action = data.draw(typed_call(app, wrong=True))
    obs, reward, terminated, truncated, info = env.step(action)
    assert obs in env.observation_space
    assert obs["error"] and obs["result"] == "", action
    assert info["ok"] is False and info["error_code"] != "internal_error", obs["error"]
    assert (reward, terminated, truncated) == (0.0, False, False)
    assert serialize(env.world.engine) == before
    _still_works(env, app)


@settings(FIXTURED, max_examples=60)
@given(data=st.data())
def test_every_tool_answers_hostile_values_of_its_own_types_without_an_internal_error(
    app_env: tuple[str, OfficeEnv], data: st.DataObject
) -> None:
    """Extremes, odd text and ids that name nothing may be refused or may do something;
    neither is an exception or an internal error, and the env keeps working."""
    app, env = app_env
    env.reset(seed=0)
    for _ in range(2):
        action = data.draw(typed_call(app, wrong=False))
        obs, _reward, _terminated, truncated, info = env.step(action)
        assert obs in env.observation_space
        assert info["error_code"] != "internal_error", (action, obs["error"])
        assert not truncated
    _still_works(env, app)
