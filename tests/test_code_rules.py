"""Rules every package keeps (STYLE.md) — apps, tasks, gym, seed_data, mcp_wrappers, the
core and the verifiers plugin: no module over 400 lines, and no private name imported by
another module. (The 40-line function rule and the no-assert rule are held for the apps
that keep them in tests/apps/test_code_rules.py.)"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("apps", "tasks", "gym", "seed_data", "mcp_wrappers", "officegym", "officegym_verifiers")


@pytest.mark.parametrize("package", PACKAGES)
def test_every_module_fits_in_400_lines(package: str) -> None:
    modules = sorted((ROOT / package).rglob("*.py"))
    assert len(modules) > 2
    over = {
        str(p.relative_to(ROOT)): n for p in modules if (n := len(p.read_text().splitlines())) > 400
    }
    assert not over, f"modules over 400 lines (split them by purpose): {over}"


@pytest.mark.parametrize("package", PACKAGES)
def test_no_private_name_is_imported_across_modules(package: str) -> None:
    """A name another module needs is public: ``from officegym.x import _y`` means `_y`'s
    home promises nothing about it, and a reader cannot tell it is shared."""
    shared = []
    for path in sorted((ROOT / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("officegym"):
                private = [a.name for a in node.names if _private(a.name)]
                shared += [f"{path.relative_to(ROOT)}: {node.module}.{n}" for n in private]
    assert not shared, f"private names imported across modules: {shared}"


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))
