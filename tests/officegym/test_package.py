"""The package's public surface is exactly its __all__ (and officegym.gym's too)."""

from __future__ import annotations

import importlib.metadata
import types

import pytest

import officegym
import officegym.gym


def public_names(module: types.ModuleType) -> set[str]:
    """Non-underscore attributes that are not sub-modules."""
    return {
        name
        for name, value in vars(module).items()
        if not name.startswith("_") and not isinstance(value, types.ModuleType)
    }


@pytest.mark.parametrize("module", [officegym, officegym.gym])
def test_all_lists_exactly_the_public_names(module: types.ModuleType) -> None:
    declared = set(module.__all__) - {"__version__"}
    assert declared == public_names(module)
    assert all(hasattr(module, name) for name in module.__all__)


def test_version_matches_the_installed_distribution() -> None:
    assert officegym.__version__ == importlib.metadata.version("officegym")
