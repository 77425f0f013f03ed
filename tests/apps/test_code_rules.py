"""Rules an app's own source keeps (see STYLE.md): input is checked with the project's
errors, never `assert` (stripped under -O, and an agent would read 'internal error');
functions fit in 40 lines and modules in 400. Apps are listed here once they keep them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import officegym.apps

APPS = Path(officegym.apps.__file__).parent
KEPT = {"crm": 10, "sheets": 15, "org": 2}  # app -> the modules it has at least


def sources(app: str) -> list[Path]:
    return sorted((APPS / app).rglob("*.py"))


@pytest.mark.parametrize("app", sorted(KEPT))
def test_no_module_checks_input_with_assert(app: str) -> None:
    for path in sources(app):
        tree = ast.parse(path.read_text())
        asserts = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Assert)]
        assert not asserts, f"{path.name} uses assert on lines {asserts}"


@pytest.mark.parametrize("app", sorted(KEPT))
def test_functions_fit_in_40_lines_and_modules_in_400(app: str) -> None:
    assert len(sources(app)) > KEPT[app]
    for path in sources(app):
        text = path.read_text()
        assert len(text.splitlines()) <= 400, path.name
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or 0) - node.lineno + 1
                assert length <= 40, f"{path.name}: {node.name} is {length} lines"
