"""The chat's one actions menu per message, in real Chromium: on a channel page the
accessibility tree shows each message's menu button and none of the controls inside it;
opening the menu shows them, and reacting through it works as before (same element ids)."""

from __future__ import annotations

import re

import pytest

from officegym.apps.slack.models import Reaction
from officegym.gym.browser_env import BrowserEnv
from tests.gym.browser.helpers import changes

pytestmark = pytest.mark.browser

POST = {"task": "slack.post-channel", "task_seed": 0}
INSIDE = re.compile(r"\[msg-\d+-(react-select|react-submit|pin|unpin|edit|delete)\]")


def step(env: BrowserEnv, action: str) -> str:
    obs, *_ = env.step(action)
    assert obs["error"] == "", obs["error"]
    return obs["axtree"]


def test_a_channel_page_shows_one_closed_menu_per_message(browser_env: BrowserEnv) -> None:
    obs, _ = browser_env.reset(options=POST)
    menus = re.findall(r"\[msg-(\d+)-menu\] button \"Message actions\"", obs["axtree"])
    assert len(menus) >= 10
    assert INSIDE.search(obs["axtree"]) is None
    first = menus[0]
    opened = step(browser_env, f"click('msg-{first}-menu')")
    assert f"[msg-{first}-react-select] combobox" in opened
    assert f"[msg-{first}-react-submit] button" in opened
    assert {m.group(0) for m in INSIDE.finditer(opened)} >= {f"[msg-{first}-react-select]"}
    assert all(f"msg-{first}-" in m.group(0) for m in INSIDE.finditer(opened))
    step(browser_env, f"select_option('msg-{first}-react-select', 'tada')")
    after = step(browser_env, f"click('msg-{first}-react-submit')")
    assert f"[msg-{first}-reaction-tada] button" in after
    added = [c for c in changes(browser_env) if c.table == Reaction.__tablename__]
    assert len(added) == 1 and added[0].kind == "insert"
