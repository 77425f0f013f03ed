"""Fixtures of the Sheets API client suites: one served world per test module, and
Google's client signed in as the owner of the seeded orders workbook."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from officegym.world import World
from tests.apps.sheets.api_clients import google, owner_of, serve_world


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, World]]:
    yield from serve_world()


@pytest.fixture
def api(server: tuple[str, World]) -> Any:
    base, world = server
    return google(base, owner_of(world, "Orders 2025")[0])
