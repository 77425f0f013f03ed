"""Rules the CRM's own source keeps: input is checked with the project's errors, never
`assert` (stripped under -O, and an agent would read 'internal error'); functions
fit in 40 lines and modules in 400 (see STYLE.md)."""

from __future__ import annotations

import ast
from pathlib import Path

from officegym.apps.crm import fields

CRM_SOURCES = sorted(Path(fields.__file__).parent.glob("*.py"))


def test_no_crm_module_checks_input_with_assert() -> None:
    for path in CRM_SOURCES:
        asserts = [n.lineno for n in ast.walk(ast.parse(path.read_text()))
                   if isinstance(n, ast.Assert)]  # fmt: skip
        assert not asserts, f"{path.name} uses assert on lines {asserts}"


def test_crm_functions_fit_in_40_lines_and_modules_in_400() -> None:
    assert len(CRM_SOURCES) > 10
    for path in CRM_SOURCES:
        text = path.read_text()
        assert len(text.splitlines()) <= 400, path.name
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or 0) - node.lineno + 1
                assert length <= 40, f"{path.name}: {node.name} is {length} lines"
