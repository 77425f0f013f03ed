"""Rules the sheets' own source keeps (see STYLE.md): input is checked with the project's
errors, never `assert`; functions fit in 40 lines and modules in 400; the service
imports no web, MCP or Gym code."""

from __future__ import annotations

import ast
from pathlib import Path

import officegym.apps.sheets as pkg

SOURCES = sorted(Path(pkg.__file__).parent.rglob("*.py"))


def test_no_sheets_module_checks_input_with_assert() -> None:
    for path in SOURCES:
        asserts = [
            n.lineno for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.Assert)
        ]
        assert not asserts, f"{path.name} uses assert on lines {asserts}"


def test_sheets_functions_fit_in_40_lines_and_modules_in_400() -> None:
    assert len(SOURCES) > 15
    for path in SOURCES:
        text = path.read_text()
        assert len(text.splitlines()) <= 400, path.name
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or 0) - node.lineno + 1
                assert length <= 40, f"{path.name}: {node.name} is {length} lines"


def test_the_service_layer_imports_no_edge() -> None:
    edges = ("flask", "mcp", "gymnasium", "playwright")
    for path in SOURCES:
        web = ("routes.py", "routes_data.py", "api.py", "api_base.py", "api_drive.py")
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
