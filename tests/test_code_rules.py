"""The module-size rule holds in every package (STYLE.md): no module over 400 lines in
apps, tasks, gym, seed_data, mcp_wrappers, the core or the verifiers plugin. (The
40-line function rule and the no-assert rule are held for the apps that keep them in
tests/apps/test_code_rules.py.)"""

from __future__ import annotations

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
