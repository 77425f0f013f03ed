"""The browser action language: BrowserGym's high-level actions, as text, parsed safely.

An action is a call such as ``click('composer-send')`` or
``fill('composer-text', "Hello @jdoe")``; as in BrowserGym (whose action sets take
several actions per step by default), one action string may hold several calls, one
per line (``#`` comments are ignored), done in order. The text is parsed with `ast`
and only accepted when it consists of calls of whitelisted names whose arguments are
literals (strings, numbers, lists of strings) of the right type and count; it is
never evaluated. Parameter names and defaults are BrowserGym's (``fill(bid, value)``,
``select_option(bid, options)``, ``noop(wait_ms=1000)``). Element ids are the pages'
``data-og-id`` values. Anything else becomes an `ActionError` whose message is meant
for the agent.
"""

from __future__ import annotations

import ast
import io
import math
import re
import tokenize
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

__all__ = [
    "ACTION_HELP",
    "ACTION_NAMES",
    "BID_RE",
    "ENDING_ACTIONS",
    "MAX_ACTIONS",
    "MAX_ACTION_CHARS",
    "Action",
    "ActionError",
    "format_action",
    "parse_action",
    "parse_actions",
]

MAX_ACTION_CHARS = 20_000
MAX_ACTIONS = 20  # calls in one action string
MAX_TEXT_CHARS = 10_000
BID_RE = re.compile(r"^[A-Za-z0-9_.:-]{1,200}$")
BUTTONS = ("left", "middle", "right")
MODIFIERS = ("Alt", "Control", "ControlOrMeta", "Meta", "Shift")
Kind = Literal["bid", "text", "number", "options", "button", "modifiers", "key", "url", "wait"]
_REQUIRED = object()


class ActionError(ValueError):
    """An action the environment cannot run; the message is meant for the agent."""


@dataclass(frozen=True)
class Param:
    """One parameter of an action: its name, what it admits, and its default."""

    name: str
    kind: Kind
    default: Any = _REQUIRED


@dataclass(frozen=True)
class Action:
    """A parsed action: its name and its arguments by parameter name."""

    name: str
    args: dict[str, Any]

    @property
    def bid(self) -> str | None:
        """The element id the action targets, if it targets one."""
        return self.args.get("bid")


_BID = Param("bid", "bid")
_CLICK = (_BID, Param("button", "button", "left"), Param("modifiers", "modifiers", ()))
SIGNATURES: dict[str, tuple[Param, ...]] = {
    "click": _CLICK,
    "dblclick": _CLICK,
    "hover": (_BID,),
    "drag_and_drop": (Param("from_bid", "bid"), Param("to_bid", "bid")),
    "fill": (_BID, Param("value", "text")),
    "clear": (_BID,),
    "select_option": (_BID, Param("options", "options")),
    "check": (_BID,),
    "uncheck": (_BID,),
    "press": (_BID, Param("key_comb", "key")),
    "focus": (_BID,),
    "scroll": (Param("delta_x", "number"), Param("delta_y", "number")),
    "goto": (Param("url", "url"),),
    "go_back": (),
    "go_forward": (),
    "send_msg_to_user": (Param("text", "text"),),
    "report_infeasible": (Param("reason", "text"),),
    "noop": (Param("wait_ms", "wait", 1000),),
}
ACTION_NAMES = frozenset(SIGNATURES)
ENDING_ACTIONS = frozenset({"send_msg_to_user", "report_infeasible"})

ACTION_HELP = """\
One action per line (several are done in order); element ids are the [ids] of the page text.
click(bid, button='left', modifiers=[])   dblclick(bid, button='left', modifiers=[])
hover(bid)   focus(bid)   clear(bid)   check(bid)   uncheck(bid)
drag_and_drop(from_bid, to_bid) press on one, release on the other: ('b2', 'd5') selects B2:D5
fill(bid, value)                e.g. fill('composer-text', 'Hello @jdoe')
select_option(bid, options)     an option's value or label, or a list of them for a multi-select
press(bid, key_comb)            e.g. press('search-query', 'Enter')
scroll(delta_x, delta_y)        goto(url) (a path on this site, e.g. goto('/slack/people'))
go_back()   go_forward()   noop(wait_ms=1000)
send_msg_to_user(text)          your answer or final message: ends the episode and grades it
report_infeasible(reason)       the task cannot be done: ends the episode and grades it
The first action that fails stops the rest; send_msg_to_user and report_infeasible come last."""


def parse_actions(action: Any) -> list[Action]:
    """The `Action`s written in `action` (text: one call per line, at most `MAX_ACTIONS`,
    an ending action only last), or `ActionError` saying what is wrong."""
    calls = [_single_call(s) for s in _statements(_text(action))]
    if len(calls) > MAX_ACTIONS:
        raise ActionError(f"{len(calls)} actions in one step; the limit is {MAX_ACTIONS}")
    actions = [Action(c.func.id, _bind(c.func.id, c)) for c in calls]  # type: ignore[attr-defined]
    for a in actions[:-1]:
        if a.name in ENDING_ACTIONS:
            raise ActionError(f"{a.name} ends the episode: make it the last action of the step")
    return actions


def parse_action(action: Any) -> Action:
    """The one `Action` written in `action`, or `ActionError` (also for several)."""
    actions = parse_actions(action)
    if len(actions) != 1:
        raise ActionError(f"expected one action, not {len(actions)}")
    return actions[0]


def _text(action: Any) -> str:
    if isinstance(action, bytes | bytearray):
        try:
            action = bytes(action).decode("utf-8")
        except UnicodeDecodeError:
            raise ActionError("action bytes are not valid UTF-8") from None
    if not isinstance(action, str):
        raise ActionError(f"an action is text such as click('composer-send'), not {_kind(action)}")
    if len(action) > MAX_ACTION_CHARS:
        raise ActionError(f"action is {len(action)} characters; the limit is {MAX_ACTION_CHARS}")
    return action


_SKIPPED = frozenset({tokenize.COMMENT, tokenize.NL, tokenize.INDENT, tokenize.DEDENT,
                      tokenize.ENDMARKER})  # fmt: skip


def _statements(text: str) -> list[str]:
    """The statements of `text`, split at line ends (not inside brackets or strings) and
    at ';', comments left out. Split with `tokenize`, each then parsed on its own as an
    expression: parsing the whole text as a module would make CPython look for a source
    file to quote when it reports a syntax error."""
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    out: list[str] = []
    first: int | None = None
    last = 0
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type in _SKIPPED:
                continue
            if tok.type == tokenize.NEWLINE or tok.string == ";":
                if first is not None:
                    out.append(text[first:last])
                first = None
                continue
            if first is None:
                first = starts[tok.start[0] - 1] + tok.start[1]
            last = starts[tok.end[0] - 1] + tok.end[1]
    except (tokenize.TokenError, SyntaxError) as exc:
        reason = exc.args[0] if exc.args else type(exc).__name__
        raise ActionError(f"not a valid action call ({reason})") from None
    if first is not None:
        out.append(text[first:last])
    if not out:
        raise ActionError("no action; write a call such as noop(0)" if text.strip() else
                          "empty action; write a call such as noop(0)")  # fmt: skip
    return out


def _single_call(text: str) -> ast.Call:
    """The one call expression `text` consists of (parsed, never run)."""
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise ActionError(f"not a valid action call ({exc.msg})") from None
    except (ValueError, RecursionError, MemoryError):
        raise ActionError("not a valid action call") from None
    call = tree.body
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
        raise ActionError("an action is a call such as click('composer-send'), one per line")
    if call.func.id not in SIGNATURES:
        raise ActionError(f"unknown action {_clip(call.func.id)!r}; use one of {_names()}")
    return call


def _bind(name: str, call: ast.Call) -> dict[str, Any]:
    """Match the call's literal arguments to the action's parameters and check each."""
    params = SIGNATURES[name]
    if len(call.args) > len(params):
        raise ActionError(f"{name} takes at most {len(params)} argument(s); {_usage(name)}")
    given: dict[str, ast.expr] = {}
    for param, node in zip(params, call.args, strict=False):
        given[param.name] = node
    by_name = {p.name: p for p in params}
    for kw in call.keywords:
        if kw.arg is None:
            raise ActionError(f"{name}: '**' arguments are not allowed; {_usage(name)}")
        if kw.arg not in by_name:
            raise ActionError(f"{name}: unknown argument {_clip(kw.arg)!r}; {_usage(name)}")
        if kw.arg in given:
            raise ActionError(f"{name}: argument {kw.arg!r} given twice")
        given[kw.arg] = kw.value
    args = {}
    for param in params:
        if param.name in given:
            args[param.name] = _check(name, param, _literal(given[param.name]))
        elif param.default is _REQUIRED:
            raise ActionError(f"{name}: missing argument {param.name!r}; {_usage(name)}")
        else:
            args[param.name] = param.default
    return args


def _literal(node: ast.expr) -> Any:
    """The value of a literal argument: a string, a number, or a list/tuple of strings."""
    if isinstance(node, ast.Constant) and type(node.value) in (str, int, float):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        operand = node.operand
        if isinstance(operand, ast.Constant) and type(operand.value) in (int, float):
            return -operand.value if isinstance(node.op, ast.USub) else operand.value
    if isinstance(node, ast.List | ast.Tuple) and len(node.elts) <= 100:
        items = [e.value for e in node.elts if isinstance(e, ast.Constant)]
        if len(items) == len(node.elts) and all(type(v) is str for v in items):
            return items
    what = (
        f"{_clip(repr(node.value), 40)}"
        if isinstance(node, ast.Constant)
        else (f"a {type(node).__name__} expression")
    )
    raise ActionError(f"arguments must be literal strings, numbers or lists of strings, not {what}")


def _check(name: str, param: Param, value: Any) -> Any:
    """`value` if it fits the parameter's kind (lists of modifiers become tuples, numbers
    floats); else `ActionError` naming what the parameter takes."""
    accepts, need = _KINDS[param.kind]
    if not accepts(value):
        raise ActionError(f"{name}: {param.name!r} must be {need}")
    if param.kind == "number":
        return float(value)
    return tuple(value) if param.kind == "modifiers" else value


def _is_text(value: Any, limit: int = MAX_TEXT_CHARS) -> bool:
    """A string of at most `limit` characters that can be sent as UTF-8 (no lone surrogates)."""
    if not isinstance(value, str) or len(value) > limit:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _is_number(value: Any, limit: float = 100_000) -> bool:
    return type(value) in (int, float) and math.isfinite(value) and abs(value) <= limit


def _is_options(value: Any) -> bool:
    if isinstance(value, list):
        return len(value) > 0 and all(_is_text(v, 1_000) for v in value)
    return _is_text(value, 1_000)


_KINDS: dict[Kind, tuple[Callable[[Any], bool], str]] = {
    "bid": (
        lambda v: isinstance(v, str) and bool(BID_RE.match(v)),
        "an element id string such as 'composer-send' (letters, digits, '-', '_', '.', ':')",
    ),
    "text": (_is_text, f"a string of at most {MAX_TEXT_CHARS} characters"),
    "url": (lambda v: _is_text(v, 2_000) and bool(v), "a non-empty URL or path string"),
    "key": (
        lambda v: _is_text(v, 100) and bool(v) and v.isprintable(),
        "a key or key combination such as 'Enter' or 'Control+a'",
    ),
    "number": (_is_number, "a number"),
    "wait": (lambda v: _is_number(v, 10_000) and v >= 0, "milliseconds between 0 and 10000"),
    "options": (_is_options, "an option's value or label, or a non-empty list of them"),
    "button": (lambda v: v in BUTTONS, f"one of {', '.join(map(repr, BUTTONS))}"),
    "modifiers": (
        lambda v: isinstance(v, list | tuple) and all(m in MODIFIERS for m in v),
        f"a list of {', '.join(map(repr, MODIFIERS))}",
    ),
}


def format_action(name: str, *args: Any) -> str:
    """The action text calling `name` with literal `args`, e.g. ``fill('x', "it's")``."""
    if name not in SIGNATURES:
        raise ValueError(f"unknown action {name!r}")
    return f"{name}({', '.join(repr(list(a) if isinstance(a, tuple) else a) for a in args)})"


def _usage(name: str) -> str:
    params = ", ".join(
        p.name if p.default is _REQUIRED else f"{p.name}={_show(p.default)}"
        for p in SIGNATURES[name]
    )
    return f"usage: {name}({params})"


def _show(default: Any) -> str:
    return repr(list(default) if isinstance(default, tuple) else default)


def _names() -> str:
    return ", ".join(sorted(SIGNATURES))


def _kind(value: Any) -> str:
    return "None" if value is None else f"a {type(value).__name__}"


def _clip(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[:n] + "…"
