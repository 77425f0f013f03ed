"""A browser's DevTools endpoint answers on the port the manager reports, even when
another process took the chosen port first (the manager launches again on another) or
the browser went away with its Playwright driver (launched again before it is handed out)."""

from __future__ import annotations

import json
import os
import signal
import socket
import time
import urllib.request

import pytest

from officegym.gym.browser import manager as manager_module
from officegym.gym.browser.manager import BrowserManager, LaunchSettings, chromium_executable
from tests.gym.browser.helpers import playwright_drivers


def test_a_port_taken_before_chromium_binds_it_is_not_the_one_reported(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    squatter = socket.socket()
    squatter.bind(("127.0.0.1", 0))
    squatter.listen()
    taken = squatter.getsockname()[1]
    real = manager_module._free_port
    ports = iter([taken])
    monkeypatch.setattr(manager_module, "_free_port", lambda: next(ports, None) or real())
    manager = BrowserManager(LaunchSettings(chromium_executable(), cdp=True))
    try:
        url = manager.cdp_url
        assert url is not None and not url.endswith(f":{taken}")
        assert _answers(url)
        assert manager.launches == 1
    finally:
        manager.close()
        squatter.close()


def test_an_endpoint_gone_with_its_driver_is_launched_again_before_it_is_handed_out() -> None:
    """A browser whose Playwright driver died still says it is connected; the endpoint
    handed to an external client (browser-use, CDP agents) must answer all the same."""
    before = set(playwright_drivers())
    manager = BrowserManager(LaunchSettings(chromium_executable(), cdp=True))
    try:
        first = manager.cdp_url
        (driver,) = set(playwright_drivers()) - before
        os.kill(driver, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while (driver in playwright_drivers() or _answers(first)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _answers(first)  # Chromium went with its driver
        url = manager.cdp_url
        assert url is not None and _answers(url)
        assert manager.launches == 2
    finally:
        manager.close()


def _answers(url: str | None) -> bool:
    direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with direct.open(f"{url}/json/version", timeout=10) as answer:
            return "Browser" in json.loads(answer.read())
    except OSError:
        return False
