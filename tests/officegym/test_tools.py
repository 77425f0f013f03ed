"""The tool registry derives everything from one documented function and refuses
tools an agent could not understand."""

from __future__ import annotations

from typing import Annotated

import jsonschema
import pytest
from pydantic import Field

from officegym.errors import Invalid, NotFound
from officegym.tools import REGISTRY, ToolContext, call_tool, load_tools, tool, tools_for
from tests.apps.crm.helpers import cast


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


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("sheets_delete_sheet", {"workbook": "¹", "sheet": "Data"}),
        ("sheets_insert_dimension", {"workbook": "¹", "dimension": "rows", "start": "²"}),
        ("booking_get_trip", {"code": "²"}),
        ("booking_cancel_flight", {"code": "³"}),
        ("crm_get_account", {"account": "¹"}),
        ("crm_get_case", {"case": "²"}),
    ],
)
def test_digits_int_cannot_read_name_nothing_rather_than_crash(
    world, name: str, arguments: dict
) -> None:
    """Superscript digits are digits to `str.isdigit` but not to `int`: a reference made
    of them is looked up as a name (found by the env fuzz as an internal error)."""
    load_tools()
    with world.session() as s, pytest.raises(NotFound) as caught:
        actor = cast(s).rep.id if name.startswith("crm") else 1  # one with a CRM role
        call_tool(ToolContext(s, actor), name, arguments)
    assert caught.value.code != "unknown_tool"
