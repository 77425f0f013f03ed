"""The MCP servers, through the SDK's in-memory client: the registry's tools exactly,
tool errors that carry the service's message, and a server that outlives bad calls."""

from __future__ import annotations

import types

import anyio
import pytest
from mcp import Client
from sqlalchemy import func, select

from officegym.apps.slack.models import Message
from officegym.mcp_wrappers import GRADE_TOOL, build_server
from officegym.runner import ToolRunner
from officegym.tasks import load_templates, make_task
from officegym.tools import tools_for
from officegym.world import World
from tests.channels import channel_outside, member_of

pytestmark = pytest.mark.anyio

APPS = sorted({t.app for t in tools_for(None)})
# Not the ask-the-requester templates: over MCP the requester is a real person, not simulated.
SLACK_TEMPLATES = sorted(
    t for t in load_templates() if t.startswith("slack.") and make_task(t, 0).hidden is None
)


def persona(world: World) -> str:
    return member_of(world, "general")


def message_count(world: World) -> int:
    with world.session() as s:
        return s.scalar(select(func.count()).select_from(Message))


@pytest.mark.parametrize("apps", [None, *[[a] for a in APPS]], ids=["all", *APPS])
async def test_tool_list_is_the_registry_names_descriptions_and_schemas(
    world: World, apps: list[str] | None
) -> None:
    async with Client(build_server(world, persona(world), apps)) as client:
        listed = {t.name: t for t in (await client.list_tools()).tools}
    registry = {t.name: t for t in tools_for(apps)}
    assert sorted(listed) == sorted(registry)
    for name, t in registry.items():
        assert listed[name].description == t.description
        assert listed[name].input_schema == t.parameters


async def test_read_tools_are_annotated_read_only_and_write_tools_destructive(
    world: World,
) -> None:
    async with Client(build_server(world, persona(world))) as client:
        listed = (await client.list_tools()).tools
    kinds = {t.name: t.kind for t in tools_for(None)}
    for t in listed:
        assert t.annotations.read_only_hint is (kinds[t.name] == "read")
        assert t.annotations.destructive_hint is (kinds[t.name] == "write")


async def test_every_tool_answers_through_the_client(world: World) -> None:
    """Called with no arguments, each tool names what is missing, or runs (perhaps into an
    access rule), but never fails as a bug or as a tool the server does not know."""
    async with Client(build_server(world, persona(world))) as client:
        for t in tools_for(None):
            result = await client.call_tool(t.name, {})
            required = t.parameters.get("required", [])
            code = (result.structured_content or {}).get("error") if result.is_error else None
            if required:
                assert code == "invalid_arguments", (t.name, result.content)
                assert required[0] in result.content[0].text
            else:
                assert code not in ("invalid_arguments", "unknown_tool", "internal_error"), t.name


async def test_a_successful_call_returns_json_text_and_structured_content(world: World) -> None:
    async with Client(build_server(world, persona(world), ["slack"])) as client:
        result = await client.call_tool("slack_get_channel_info", {"channel": "general"})
    assert not result.is_error
    assert '"name": "general"' in result.content[0].text
    assert result.structured_content["name"] == "general"
    assert result.structured_content["you_are_member"] is True


async def test_domain_errors_are_tool_errors_with_the_service_message_and_code(
    world: World,
) -> None:
    me = persona(world)
    public, private = channel_outside(world, me, "public"), channel_outside(world, me, "private")
    async with Client(build_server(world, me, ["slack"])) as client:
        args = {"channel": public, "text": "hello"}
        not_member = await client.call_tool("slack_post_message", args)
        hidden = await client.call_tool("slack_read_channel", {"channel": private})
        missing = await client.call_tool("slack_get_person", {"person": "nobody-at-all"})
    assert not_member.is_error and hidden.is_error and missing.is_error
    assert not_member.content[0].text == f"you are not a member of #{public}; join it first"
    assert not_member.structured_content == {
        "error": "not_in_channel",
        "message": not_member.content[0].text,
    }
    assert hidden.structured_content["error"] == "channel_not_found"
    assert private in hidden.content[0].text
    assert "nobody-at-all" in missing.content[0].text


BAD_CALLS = [
    ("slack_no_such_tool", {}, "unknown tool"),
    ("crm_list_accounts", {}, "unknown tool"),  # another app's tool, asked of the Slack server
    ("slack_post_message", {"channel": "general"}, "text"),
    ("slack_post_message", {"channel": ["general"], "text": "x"}, "channel"),
    ("slack_read_thread", {"message_id": "not a number"}, "message_id"),
    ("slack_read_channel", {"channel": "general", "limit": 10_000}, "limit"),
    ("slack_list_channels", {"bogus": 1}, "unknown argument"),
]


async def test_malformed_calls_are_tool_errors_and_the_server_keeps_answering(
    world: World,
) -> None:
    async with Client(build_server(world, persona(world), ["slack"])) as client:
        for name, args, needle in BAD_CALLS:
            result = await client.call_tool(name, args)
            assert result.is_error, name
            assert needle in result.content[0].text, (name, result.content[0].text)
        still = await client.call_tool("slack_list_channels", {"member_only": True})
    assert not still.is_error and still.structured_content["result"]


async def test_a_failed_write_changes_nothing(world: World) -> None:
    me = persona(world)
    before = message_count(world)
    async with Client(build_server(world, me, ["slack"])) as client:
        args = {"channel": channel_outside(world, me, "public"), "text": "x"}
        assert (await client.call_tool("slack_post_message", args)).is_error
    assert message_count(world) == before


@pytest.mark.parametrize("kind", ["memory", "file"])
async def test_simultaneous_calls_on_worker_threads_all_land(
    kind: str, world: World, file_world: World
) -> None:
    """Sync tools run on worker threads: 24 posts at once give 24 new messages."""
    w = world if kind == "memory" else file_world
    before = message_count(w)
    errors: list[bool] = []
    async with Client(build_server(w, persona(w), ["slack"])) as client:

        async def post(i: int) -> None:
            args = {"channel": "general", "text": f"parallel post {i}"}
            errors.append((await client.call_tool("slack_post_message", args)).is_error)

        async with anyio.create_task_group() as tg:
            for i in range(24):
                tg.start_soon(post, i)
    assert errors == [False] * 24
    assert message_count(w) == before + 24


async def test_the_server_sees_writes_made_outside_it(file_world: World) -> None:
    """A fresh session per call: a post made by another writer is read at the next call."""
    me = persona(file_world)
    async with Client(build_server(file_world, me, ["slack"])) as client:
        first = await client.call_tool("slack_read_channel", {"channel": "general"})
        runner = ToolRunner(file_world, me)
        runner.call("slack_post_message", {"channel": "general", "text": "from outside"})
        runner.close()
        second = await client.call_tool("slack_read_channel", {"channel": "general"})
    assert "from outside" not in first.content[0].text
    assert "from outside" in second.content[0].text


async def test_grading_tool_is_hidden_unless_asked_for(world: World) -> None:
    args = {"task": SLACK_TEMPLATES[0], "seed": 0}
    async with Client(build_server(world, persona(world))) as client:
        hidden = {t.name for t in (await client.list_tools()).tools}
        refused = await client.call_tool(GRADE_TOOL, args)
    async with Client(build_server(world, persona(world), expose_grading=True)) as client:
        shown = {t.name for t in (await client.list_tools()).tools}
    assert GRADE_TOOL not in hidden and refused.is_error
    assert shown - hidden == {GRADE_TOOL}


@pytest.mark.parametrize("template_id", SLACK_TEMPLATES[:6])
async def test_reference_solution_over_mcp_grades_one_and_doing_nothing_zero(
    world: World, template_id: str
) -> None:
    task = make_task(template_id, 1)
    args = {"task": task.id, "seed": task.seed, "answer": task.answer}
    async with Client(build_server(world, task.persona, task.apps, expose_grading=True)) as client:
        nothing = await client.call_tool(GRADE_TOOL, {"task": task.id, "seed": task.seed})
        nothing = nothing.structured_content
        errors = [(await client.call_tool(c.name, c.arguments)).is_error for c in task.solution]
        done = (await client.call_tool(GRADE_TOOL, args)).structured_content
    assert not any(errors)
    assert (nothing["reward"], nothing["passed"]) == (0.0, False)
    assert (done["reward"], done["passed"]) == (1.0, True)
    assert done["task"] == template_id and done["checks"]


async def test_grading_tool_reports_bad_arguments_and_unknown_tasks(world: World) -> None:
    async with Client(build_server(world, persona(world), expose_grading=True)) as client:
        missing = await client.call_tool(GRADE_TOOL, {"seed": 1})
        unknown = await client.call_tool(GRADE_TOOL, {"task": "slack.no-such-task", "seed": 1})
    assert missing.is_error and "argument 'task'" in missing.content[0].text
    assert unknown.is_error and "slack.no-such-task" in unknown.content[0].text


def test_an_unknown_persona_fails_when_the_server_is_built(world: World) -> None:
    with pytest.raises(Exception, match="nobody-at-all"):
        build_server(world, "nobody-at-all")


def test_the_package_exports_exactly_its_all() -> None:
    import officegym.mcp_wrappers as package

    public = {
        name
        for name, value in vars(package).items()
        if not name.startswith("_") and not isinstance(value, types.ModuleType)
    }
    assert set(package.__all__) == public
