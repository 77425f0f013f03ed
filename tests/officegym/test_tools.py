"""The tool registry derives everything from one documented function and refuses
tools an agent could not understand."""

from __future__ import annotations

from typing import Annotated

import jsonschema
import pytest
from pydantic import Field

from officegym.errors import Invalid, NotFound
from officegym.tools import REGISTRY, ToolContext, call_tool, tool, tools_for


def test_every_tool_has_a_description_and_a_valid_schema() -> None:
    tools = tools_for()
    assert len([t for t in tools if t.app == "slack"]) >= 15
    for t in tools:
        assert t.description and t.kind in ("read", "write")
        jsonschema.Draft202012Validator.check_schema(t.parameters)
        for name, prop in t.parameters.get("properties", {}).items():
            assert prop.get("description"), f"{t.name}.{name} has no description"


def test_undocumented_tool_is_refused() -> None:
    with pytest.raises(ValueError, match="docstring"):

        @tool("read")
        def demo_undocumented(ctx: ToolContext) -> None:
            pass


def test_argument_without_description_is_refused() -> None:
    with pytest.raises(ValueError, match="Field"):

        @tool("read")
        def demo_bare_arg(ctx: ToolContext, *, x: int) -> None:
            """Doc."""


def test_bad_names_and_positional_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="name"):

        @tool("read")
        def Demo(ctx: ToolContext) -> None:
            """Doc."""

    with pytest.raises(ValueError, match="keyword-only"):

        @tool("read")
        def demo_positional(ctx: ToolContext, x: Annotated[int, Field(description="x")]) -> None:
            """Doc."""

    assert "demo_positional" not in REGISTRY


def test_validation_errors_name_the_argument(world) -> None:
    with world.session() as s:
        ctx = ToolContext(s, 1)
        with pytest.raises(Invalid, match="message_id"):
            call_tool(ctx, "slack_add_reaction", {"message_id": "abc", "emoji": "x"})
        with pytest.raises(Invalid, match="unknown argument"):
            call_tool(ctx, "slack_list_channels", {"bogus": 1})
        with pytest.raises(NotFound, match="unknown tool"):
            call_tool(ctx, "rm_rf", {})
