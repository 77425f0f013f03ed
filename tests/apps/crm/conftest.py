"""Fixtures of the CRM suites: the people of the seeded world by CRM role."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session

from .helpers import Cast, cast


@pytest.fixture
def who(db: Session) -> Cast:
    """The default world's people by CRM role and team, on the test's session."""
    return cast(db)
