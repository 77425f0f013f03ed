"""Fixtures of the Sheets suites: one served world per test module, Google's client signed
in as the owner of the seeded orders workbook, and the test client signed in as that owner."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.world import World
from tests.apps.sheets.api_clients import google, owner_of, serve_world
from tests.apps.sheets.helpers import owner


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, World]]:
    yield from serve_world()


@pytest.fixture
def api(server: tuple[str, World]) -> Any:
    base, world = server
    return google(base, owner_of(world, "Orders 2025")[0])


@pytest.fixture
def me(client: FlaskClient, db: Session) -> Person:
    """The owner of the seeded orders workbook, signed in on the test client."""
    person = owner(db, "Orders 2025")
    client.get(f"/login/{person.handle}")
    return person
