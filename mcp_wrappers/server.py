"""MCP servers built from the one tool registry.

`build_server(world, persona, apps)` returns a low-level MCP `Server` whose tools
are exactly the registry's: the name, the description (the docstring) and the
input schema (`Tool.parameters`) are read from `officegym.tools`, never written
here. The high-level `MCPServer` derives a schema from a function signature of
its own, so the low-level API is used to hand the registry's schema over as is.

Who a call acts as follows the rule of every door (`officegym.personas.who_acts`):
over HTTP the person an ``Authorization: Bearer xoxp-<handle>`` header names, else
the server's persona (over stdio always the persona the server was started for); a
server locked to its persona refuses every other token (``persona_locked``).

Every call goes through `ToolRunner` (validation, commit on success, rollback on
failure) on a fresh session, in a worker thread, serialized per engine on SQLite: an
in-memory world is one shared connection (StaticPool), and a fresh session per
call also sees what other processes wrote to a file world. On PostgreSQL calls run
concurrently, each in a transaction of its own. Domain errors come
back as tool errors (``isError``) carrying the service's message and code;
malformed calls (unknown tool, wrong types, missing arguments) are tool errors
too, and never stop the server.
"""

from __future__ import annotations

import contextlib
import json
import threading
import weakref
from collections.abc import Awaitable, Callable, Sequence
from typing import Annotated, Any

import anyio.to_thread
from mcp import types
from mcp.server import Server, ServerRequestContext
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy import Engine

import officegym
from officegym.apps.org.service import find_person
from officegym.errors import NotFound, OfficeGymError
from officegym.personas import PersonaPolicy, bearer_token, who_acts
from officegym.runner import CallOutcome, ToolRunner
from officegym.tools import Tool, tools_for
from officegym.world import World

__all__ = ["GRADE_TOOL", "build_server", "engine_lock", "server_name"]

GRADE_TOOL = "officegym_grade"

_LOCKS: weakref.WeakKeyDictionary[Engine, threading.Lock] = weakref.WeakKeyDictionary()
_LOCKS_GUARD = threading.Lock()


def engine_lock(engine: Engine) -> threading.Lock:
    """The lock every MCP call on `engine` holds, shared by all servers over that engine."""
    with _LOCKS_GUARD:
        lock = _LOCKS.get(engine)
        if lock is None:
            lock = _LOCKS[engine] = threading.Lock()
        return lock


def server_name(apps: Sequence[str] | None) -> str:
    """``officegym-slack`` for one app, ``officegym`` for every app."""
    return "officegym" if not apps else "officegym-" + "-".join(sorted(apps))


class GradeArgs(BaseModel):
    """Arguments of the grading tool (only served with ``expose_grading=True``)."""

    model_config = ConfigDict(extra="forbid", title=GRADE_TOOL)

    task: Annotated[str, Field(description="Task template id, e.g. 'slack.post-channel'.")]
    seed: Annotated[int, Field(description="Task seed (which instance of the template).")]
    answer: Annotated[
        str | None, Field(description="The agent's final answer, for tasks that need one.")
    ] = None


def _registry_tool(t: Tool) -> types.Tool:
    """The registry's tool as MCP lists it: same name, description and schema."""
    hints = types.ToolAnnotations(
        read_only_hint=t.kind == "read",
        destructive_hint=t.kind == "write",
        open_world_hint=False,
    )
    return types.Tool(
        name=t.name, description=t.description, input_schema=t.parameters, annotations=hints
    )


def _grade_tool() -> types.Tool:
    schema = GradeArgs.model_json_schema()
    schema.pop("title", None)
    return types.Tool(
        name=GRADE_TOOL,
        description="Grade the world's current state against a task: reward, pass, each check.",
        input_schema=schema,
        annotations=types.ToolAnnotations(read_only_hint=True, open_world_hint=False),
    )


def _ok(result: Any) -> types.CallToolResult:
    """A successful call: the JSON text for the model, the same data structured."""
    text = json.dumps(result, ensure_ascii=False, default=str)
    data = json.loads(text)
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)],
        structured_content=data if isinstance(data, dict) else {"result": data},
    )


def _error(message: str, code: str) -> types.CallToolResult:
    """A failed call the model can read and correct: the message, and the code beside it."""
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=message)],
        structured_content={"error": code, "message": message},
        is_error=True,
    )


def _from_outcome(outcome: CallOutcome) -> types.CallToolResult:
    if outcome.ok:
        return _ok(outcome.result)
    return _error(outcome.error or "the call failed", outcome.code or "error")


class _Calls:
    """Runs calls on one world for whoever the policy lets act: a fresh runner per call,
    under the engine lock."""

    def __init__(self, world: World, policy: PersonaPolicy) -> None:
        self.world = world
        self.policy = policy
        # One connection (in memory) or one file: calls take turns. A server database
        # (PostgreSQL) isolates concurrent calls itself, each on a session of its own.
        serial = world.engine.dialect.name == "sqlite"
        self.lock = engine_lock(world.engine) if serial else contextlib.nullcontext()

    def tool(self, token: str | None, name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        return self._guarded(lambda: _from_outcome(self._run(self._acting(token), name, arguments)))

    def grade(self, arguments: dict[str, Any]) -> types.CallToolResult:
        from officegym.grading_api import grade_report

        def run() -> types.CallToolResult:
            try:
                args = GradeArgs.model_validate(arguments)
            except ValidationError as exc:
                err = exc.errors()[0]
                where = ".".join(str(x) for x in err["loc"]) or "arguments"
                return _error(
                    f"{GRADE_TOOL}: argument '{where}': {err['msg']}", "invalid_arguments"
                )
            return _ok(grade_report(self.world, args.task, args.seed, args.answer))

        return self._guarded(run)

    def _acting(self, token: str | None) -> str:
        """The handle a call acts as, by the rule of every door (`who_acts`)."""
        with self.world.session() as s:
            return who_acts(s, self.policy, token).handle

    def _run(self, handle: str, name: str, arguments: dict[str, Any]) -> CallOutcome:
        runner = ToolRunner(self.world, handle)
        try:
            return runner.call(name, arguments)
        finally:
            runner.close()

    def _guarded(self, fn: Callable[[], types.CallToolResult]) -> types.CallToolResult:
        with self.lock:
            try:
                return fn()
            except OfficeGymError as exc:
                return _error(exc.message, exc.code)
            except Exception as exc:  # e.g. the database file vanished: report, keep serving
                return _error(f"internal error: {type(exc).__name__}", "internal_error")


def _canonical(world: World, ref: str) -> str | None:
    """The directory's handle of the person `ref` names, or None."""
    with world.session() as s:
        try:
            return find_person(s, ref).handle
        except NotFound:
            return None


def _policy(world: World, persona: str | PersonaPolicy) -> PersonaPolicy:
    """The policy for `persona` (a handle: that person only), with its default checked at
    start-up rather than at the first call."""
    policy = persona if isinstance(persona, PersonaPolicy) else PersonaPolicy(persona, locked=True)
    if policy.default is None:
        return policy
    handle = _canonical(world, policy.default)
    if handle is None:
        raise NotFound(f"no person {policy.default!r} in this world", code="user_not_found")
    return PersonaPolicy(handle, locked=policy.locked)


def _request_token(ctx: ServerRequestContext[Any]) -> str | None:
    """The bearer token of the HTTP request behind a call (None over stdio or in memory)."""
    headers = getattr(ctx.request, "headers", None)
    return bearer_token(headers.get("authorization")) if headers is not None else None


def build_server(
    world: World,
    persona: str | PersonaPolicy,
    apps: Sequence[str] | None = None,
    *,
    expose_grading: bool = False,
) -> Server[Any]:
    """An MCP server over `world` with the tools of `apps` (None: all), acting as `persona`
    (a handle), or as a `PersonaPolicy` lets each request's bearer token choose.

    `expose_grading` adds the `officegym_grade` tool; leave it off for agents, so
    an agent cannot read its own grade during an episode.
    """
    registry = {t.name: t for t in tools_for(apps)}
    if apps is not None and not registry:
        raise ValueError(f"no tools registered for apps {list(apps)}")
    policy = _policy(world, persona)
    listed = [_registry_tool(t) for t in registry.values()]
    if expose_grading:
        listed.append(_grade_tool())
    on_list_tools, on_call_tool = _handlers(_Calls(world, policy), registry, listed)
    return Server(
        server_name(apps),
        version=officegym.__version__,
        instructions=_instructions(world, apps, policy),
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
    )


def _handlers(
    calls: _Calls, registry: dict[str, Tool], listed: list[types.Tool]
) -> tuple[
    Callable[..., Awaitable[types.ListToolsResult]], Callable[..., Awaitable[types.CallToolResult]]
]:
    """The server's two request handlers: list the tools, call one (in a worker thread)."""
    grading = any(t.name == GRADE_TOOL for t in listed)

    async def on_list_tools(
        ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[t.model_copy() for t in listed])

    async def on_call_tool(
        ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        name, arguments = params.name, params.arguments or {}
        if grading and name == GRADE_TOOL:
            return await anyio.to_thread.run_sync(calls.grade, arguments)
        if name not in registry:
            return _error(
                f"unknown tool {name!r}; list the tools to see their names", "unknown_tool"
            )
        token = _request_token(ctx)
        return await anyio.to_thread.run_sync(calls.tool, token, name, arguments)

    return on_list_tools, on_call_tool


def _instructions(world: World, apps: Sequence[str] | None, policy: PersonaPolicy) -> str:
    """What the server tells a client it is: which tools, which world, acting as whom."""
    scope = "every app" if apps is None else ", ".join(sorted(apps))
    if policy.locked:
        who = f"You act as @{policy.default}."
    elif policy.default:
        who = f"You act as @{policy.default} unless a bearer token xoxp-<handle> names another."
    else:
        who = "You act as the person your bearer token xoxp-<handle> names."
    where = f"{world.image.scenario}/{world.image.seed}"
    return f"Office tools ({scope}) of the officegym world {where}. {who}"
