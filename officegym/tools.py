"""The one tool registry: service operations an agent may call.

A tool is a plain function ``fn(ctx: ToolContext, *, arg: Annotated[T,
Field(description=...)], ...)`` decorated with ``@tool("read"|"write")``. Its
name, description (the docstring), argument schema and read/write nature all
come from that function, so the Gym's tools mode, the MCP servers and the docs
read one definition. Registering a tool without a docstring, or with an
argument that has no description, fails at import time.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, get_args, get_origin

from pydantic import BaseModel, ConfigDict, ValidationError, create_model
from pydantic.fields import FieldInfo
from sqlalchemy.orm import Session

from officegym.db import ID_MAX, get
from officegym.errors import Invalid, NotFound

__all__ = [
    "REGISTRY",
    "Ref",
    "Tool",
    "ToolCall",
    "ToolContext",
    "ToolKind",
    "call_tool",
    "load_tools",
    "tool",
    "tools_for",
]

ToolKind = Literal["read", "write"]
NAME_RE = re.compile(r"^[a-z0-9]+_[a-z0-9_]+$")
MAX_TEXT = 40_000  # characters in any one string argument (Slack's own message limit)


@dataclass(frozen=True)
class Ref:
    """Argument metadata: the argument names a row of `table`, by id or by one of
    `columns` (``Annotated[str, Field(...), Ref("slack_channel", ("name",))]``, also on the
    items of a list). Agents never see it; `officegym validate` swaps such an argument for
    a neighbouring row's to check that graders tell the rows apart."""

    table: str
    columns: tuple[str, ...] = ()


@dataclass
class ToolContext:
    """What a tool is given but the agent does not pass: the session and who acts."""

    session: Session
    actor_id: int
    person: Any = None  # the loaded actor, when the caller already holds it

    @property
    def actor(self) -> Any:
        if self.person is None:
            from officegym.apps.org.models import Person

            self.person = get(self.session, Person, self.actor_id)
            if self.person is None:
                raise NotFound(f"acting person {self.actor_id} does not exist")
        return self.person


@dataclass(frozen=True)
class ToolCall:
    """A call to make: a tool name and its JSON arguments."""

    name: str
    arguments: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Tool:
    """A registered tool: everything derived from one documented function."""

    name: str
    app: str
    kind: ToolKind
    description: str
    fn: Callable[..., Any]
    args_model: type[BaseModel]

    @property
    def parameters(self) -> dict[str, Any]:
        """JSON schema of the arguments object."""
        schema = self.args_model.model_json_schema()
        schema.pop("title", None)
        return schema

    def ref(self, argument: str) -> Ref | None:
        """The `Ref` an argument (or each item of a list argument) carries, if any."""
        info = self.args_model.model_fields.get(argument)
        if info is None:
            return None
        found = next((m for m in info.metadata if isinstance(m, Ref)), None)
        if found is None and get_origin(info.annotation) is list:
            (item,) = get_args(info.annotation) or (None,)
            if get_origin(item) is Annotated:
                found = next((m for m in get_args(item)[1:] if isinstance(m, Ref)), None)
        return found

    def spec(self) -> dict[str, Any]:
        """The tool as an agent sees it (OpenAI/MCP-style function spec)."""
        return {"name": self.name, "description": self.description, "parameters": self.parameters}

    def validate(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Check and coerce arguments, raising `Invalid` with a readable message."""
        if not isinstance(arguments, Mapping):
            raise Invalid(f"{self.name}: arguments must be a JSON object")
        try:
            model = self.args_model.model_validate(dict(arguments))
        except ValidationError as exc:
            raise Invalid(f"{self.name}: {_explain(exc)}") from None
        values = {k: getattr(model, k) for k in type(model).model_fields}
        for k, v in values.items():
            if not _fits_int64(v):
                raise Invalid(f"{self.name}: argument '{k}': number out of range")
            if self.ref(k) is not None and not _fits_id(v):
                why = f"no row has id {v} (none is beyond {ID_MAX})"
                raise NotFound(f"{self.name}: argument '{k}': {why}")
        return values

    def __call__(self, ctx: ToolContext, arguments: Mapping[str, Any]) -> Any:
        return self.fn(ctx, **self.validate(arguments))


REGISTRY: dict[str, Tool] = {}


def tool(kind: ToolKind) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a function as a tool; the app is the name's prefix (``slack_post_message``)."""

    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        t = _build(fn, kind)
        if t.name in REGISTRY and REGISTRY[t.name].fn is not fn:
            raise ValueError(f"tool {t.name} registered twice")
        REGISTRY[t.name] = t
        return fn

    return register


def _build(fn: Callable[..., Any], kind: ToolKind) -> Tool:
    name = fn.__name__
    if not NAME_RE.match(name):
        raise ValueError(f"tool name {name!r} must be <app>_<verb>_<noun> in [a-z0-9_]")
    doc = inspect.getdoc(fn)
    if not doc:
        raise ValueError(f"tool {name} has no docstring; it is the agent's description")
    params = list(inspect.signature(fn, eval_str=True).parameters.values())
    if not params or params[0].name != "ctx":
        raise ValueError(f"tool {name}: first parameter must be ctx: ToolContext")
    fields: dict[str, Any] = {}
    for p in params[1:]:
        if p.kind is not inspect.Parameter.KEYWORD_ONLY:
            raise ValueError(f"tool {name}: argument {p.name} must be keyword-only")
        if not _described(p.annotation):
            raise ValueError(
                f"tool {name}: argument {p.name} needs Annotated[..., Field(description=...)]"
            )
        default = ... if p.default is inspect.Parameter.empty else p.default
        fields[p.name] = (p.annotation, default)
    config = ConfigDict(extra="forbid", strict=False, str_max_length=MAX_TEXT)
    model = create_model(f"{name}_args", __config__=config, **fields)
    return Tool(name, name.split("_", 1)[0], kind, doc, fn, model)


def _described(annotation: Any) -> bool:
    if get_origin(annotation) is not Annotated:
        return False
    return any(isinstance(a, FieldInfo) and a.description for a in get_args(annotation)[1:])


def _fits_int64(value: Any) -> bool:
    """Whether every integer in `value` (or in the list it is) fits the database's 64 bits."""
    if isinstance(value, list | tuple):
        return all(_fits_int64(v) for v in value)
    return not isinstance(value, int) or -(2**63) <= value < 2**63


def _fits_id(value: Any) -> bool:
    """Whether every integer in `value` (or its list) is an id the database can bind: an
    id beyond PostgreSQL's integer names no row, and binding it would be a DataError."""
    if isinstance(value, list | tuple):
        return all(_fits_id(v) for v in value)
    return not isinstance(value, int) or -ID_MAX - 1 <= value <= ID_MAX


def _explain(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:5]:
        loc = ".".join(str(x) for x in err["loc"]) or "arguments"
        msg = "unknown argument" if err["type"] == "extra_forbidden" else err["msg"]
        parts.append(f"argument '{loc}': {msg}")
    return "; ".join(parts)


@functools.cache
def load_tools() -> dict[str, Tool]:
    """Import every app's tools module (registration happens on import); once per process."""
    from officegym.apps import iter_app_modules

    for _ in iter_app_modules("tools"):
        pass
    return REGISTRY


def tools_for(apps: Iterable[str] | None = None) -> list[Tool]:
    """Registered tools of the given apps (all apps if None), sorted by name. Only the
    apps named have their tools imported (a slack env does not load the spreadsheet)."""
    wanted = None if apps is None else set(apps)
    if wanted is None or not wanted <= set(_app_names()):
        load_tools()
    else:
        for app in sorted(wanted):
            _import_app_tools(app)
    return [t for n, t in sorted(REGISTRY.items()) if wanted is None or t.app in wanted]


def _app_names() -> list[str]:
    from officegym.apps import app_names

    return app_names()


def _import_app_tools(app: str) -> None:
    """Import one app's tools module (registration happens on import), if it has one."""
    name = f"officegym.apps.{app}.tools"
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise


def call_tool(ctx: ToolContext, name: str, arguments: Mapping[str, Any]) -> Any:
    """Validate and run one tool; raises the project's errors on bad calls."""
    t = REGISTRY.get(name) if isinstance(name, str) else None
    if t is None:
        raise NotFound(f"unknown tool {name!r}", code="unknown_tool")
    return t(ctx, arguments)
