"""A browser's DevTools endpoint answers on the port the manager reports, even when
another process took the chosen port first: the manager launches again on another."""

from __future__ import annotations

import json
import socket
import urllib.request

import pytest

from officegym.gym.browser import manager as manager_module
from officegym.gym.browser.manager import BrowserManager, LaunchSettings, chromium_executable


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
        direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with direct.open(f"{url}/json/version", timeout=10) as answer:
            assert "Browser" in json.loads(answer.read())
        assert manager.launches == 1
    finally:
        manager.close()
        squatter.close()
