"""MCP over stdio: one server on this process's stdin/stdout until the client hangs up."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import anyio
from mcp.server import Server
from mcp.server.stdio import stdio_server

from officegym.mcp_wrappers.server import build_server
from officegym.world import World

__all__ = ["run_stdio"]


async def _serve(server: Server[Any]) -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def run_stdio(
    world: World, persona: str, apps: Sequence[str] | None, *, expose_grading: bool = False
) -> None:
    """Serve the tools of `apps` (None: every app) as `persona` over stdio."""
    anyio.run(_serve, build_server(world, persona, apps, expose_grading=expose_grading))
