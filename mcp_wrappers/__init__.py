"""officegym.mcp_wrappers: the tool registry served as MCP servers (the only package
that imports the MCP SDK).

- `build_server(world, persona, apps)`: one server per app (``apps=["slack"]``)
  or for every app (``apps=None``); tools, descriptions and schemas are the
  registry's.
- stdio: ``officegym mcp --app slack|all --persona HANDLE [--db file]``
  (or ``python -m officegym.mcp_wrappers ...``).
- streamable HTTP: ``officegym serve`` mounts ``/mcp`` (every app) and
  ``/mcp/<app>`` beside the web UI on the same world database.
"""

from officegym.mcp_wrappers.server import GRADE_TOOL, build_server, server_name

__all__ = ["GRADE_TOOL", "build_server", "server_name"]
