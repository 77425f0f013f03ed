"""The CRM's pipeline board in real Chromium at a laptop's 1366 x 768: all five open
stages are on screen side by side (none cut off, no sideways scrolling), and the
reason a card cannot move is said once, above the board."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page
from sqlalchemy import select

from officegym.apps.org.models import Person
from officegym.gym.browser.manager import BrowserManager
from officegym.gym.browser.server import AppServer
from officegym.world import World
from tests.gym.browser.helpers import episode_url, in_new_tab

pytestmark = pytest.mark.browser

MEASURE = """() => {
  const board = document.querySelector('.board');
  const columns = [...document.querySelectorAll('.board-column')].map(c => {
    const r = c.getBoundingClientRect();
    return {left: r.left, right: r.right, width: r.width};
  });
  return {columns, viewport: window.innerWidth,
          boardScroll: board.scrollWidth - board.clientWidth,
          pageScroll: document.documentElement.scrollWidth - window.innerWidth};
}"""


def _a_rep(world: World) -> str:
    with world.session() as s:
        stmt = select(Person.handle).where(Person.title.like("%Account Executive%"))
        handle = s.scalars(stmt.order_by(Person.id)).first()
    assert handle is not None
    return handle


def _board(page: Page) -> tuple[dict[str, Any], str]:
    return page.evaluate(MEASURE), page.inner_text("main")


def test_the_pipeline_board_fits_1366_pixels(chromium: BrowserManager, server: AppServer) -> None:
    rep = _a_rep(server.world)
    url = episode_url(server, rep, "/crm/pipeline")
    measured, text = chromium.call(in_new_tab, chromium, url, _board)
    columns = measured["columns"]
    assert len(columns) == 5
    assert all(c["width"] >= 150 for c in columns), columns
    assert columns[-1]["right"] <= measured["viewport"], measured
    assert measured["boardScroll"] <= 0 and measured["pageScroll"] <= 0, measured
    assert text.count("read only to you") == 1
    assert "can move this deal" not in text
