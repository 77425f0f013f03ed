"""A rule the sheets' own source keeps besides every app's (tests/apps/test_code_rules.py):
the service imports no web, MCP or Gym code."""

from __future__ import annotations

import ast
from pathlib import Path

import officegym.apps.sheets as pkg

SOURCES = sorted(Path(pkg.__file__).parent.rglob("*.py"))


def test_the_service_layer_imports_no_edge() -> None:
    edges = ("flask", "mcp", "gymnasium", "playwright")
    for path in SOURCES:
        web = (
            "routes.py",
            "routes_data.py",
            "api.py",
            "api_base.py",
            "api_drive.py",
            "api_batch.py",
        )
        if path.name in (*web, "api_discovery.py"):
            continue  # the web edge (the Google APIs' routes)
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = (
                    [node.module or ""]
                    if isinstance(node, ast.ImportFrom)
                    else [a.name for a in node.names]
                )
                assert not any(n.split(".")[0] in edges for n in names), (
                    f"{path.name} imports {names}"
                )
