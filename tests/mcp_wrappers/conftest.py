"""Fixtures of the MCP tests: the async backend (the world in a SQLite file, `file_world`,
is in tests/conftest.py; who is in which channel: tests/channels.py)."""

from __future__ import annotations

import pytest


@pytest.fixture
def anyio_backend() -> str:
    """Async tests run on asyncio (the backend uvicorn and the SDK's clients use here)."""
    return "asyncio"
