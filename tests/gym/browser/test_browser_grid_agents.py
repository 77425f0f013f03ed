"""Browser agents' own action layers on the grid, unmodified: BrowserGym's page marking,
accessibility tree and high-level actions, and browser-use's DOM service and Tools, each
find cell K2 as their agent would, select it, type a formula, and the cell is saved."""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import quote

import pytest
from browser_use import BrowserSession, Tools
from browsergym.core.action.base import execute_python_code
from browsergym.core.action.highlevel import HighLevelActionSet
from browsergym.core.constants import BROWSERGYM_ID_ATTRIBUTE
from browsergym.core.observation import _post_extract, _pre_extract, extract_merged_axtree
from browsergym.utils.obs import flatten_axtree_to_str
from playwright.sync_api import Page, sync_playwright

from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.models import Workbook
from officegym.gym.browser.manager import BrowserManager, chromium_executable, shared_manager
from officegym.gym.browser.server import AppServer
from officegym.world import World, world_image
from tests.apps.sheets.helpers import owner, values, workbook

T = TypeVar("T")

pytestmark = pytest.mark.browser
ORDERS = "Orders 2025"
SETTLED = "() => !document.querySelector('#grid[aria-busy=\"true\"]')"


@dataclass
class Grid:
    """A served world and the sign-in address that opens Orders at K1 for its owner."""

    world: World
    url: str
    wb: Workbook
    me: Person

    def formula(self, ref: str) -> str:
        with self.world.session() as s:
            got = sheets.read_range(s, s.merge(self.me), s.merge(self.wb), ref, mode="formulas")
        return got.rows[0][0]

    def value(self, ref: str) -> object:
        with self.world.session() as s:
            return values(s, s.merge(self.me), s.merge(self.wb), ref)[0][0]


@pytest.fixture
def grid(chromium: BrowserManager) -> Iterator[Grid]:
    world = World(world_image("default", 0))
    server = AppServer(world)
    with world.session() as s:
        wb, me = workbook(s, ORDERS), owner(s, ORDERS)
        s.expunge_all()
    target = quote(f"/sheets/{wb.id}?sheet=Orders&at=K1&sel=K1", safe="/")
    url = f"{server.url}/login/{me.handle}?next={target}&{server.login_query}"
    yield Grid(world, url, wb, me)
    server.close()
    world.close()


# ------------------------------------------------------------------ BrowserGym


def browsergym_obs(page: Page) -> str:
    """What a BrowserGym agent reads: its marking script gives every element a bid, then
    the merged accessibility tree flattened to text, as its env's observation does."""
    _pre_extract(page)
    tree = extract_merged_axtree(page)
    _post_extract(page)
    return flatten_axtree_to_str(tree)


def browsergym_session(grid: Grid, actions: list[str]) -> list[str]:
    """Run BrowserGym actions (``{k2}`` stands for the cell's bid, read from the tree) on
    the grid in its own Playwright, as its env runs them; the observations after each."""
    action_set = HighLevelActionSet(subsets=["bid", "coord"], strict=True, multiaction=False)
    seen: list[str] = []
    with sync_playwright() as p:  # this thread's own; the shared manager's is in another
        p.selectors.set_test_id_attribute(BROWSERGYM_ID_ATTRIBUTE)  # as BrowserGym's env does
        browser = p.chromium.launch(executable_path=chromium_executable())
        try:
            page = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
            page.goto(grid.url)
            page.wait_for_selector("#grid[data-ready='1']")
            tree = browsergym_obs(page)
            match = re.search(r"\[(\w+)\] textbox 'K2'", tree)
            assert match, tree[:2000]
            for action in actions:
                code = action_set.to_python_code(action.format(k2=match[1]))
                execute_python_code(code, page, send_message_to_user=print,
                                    report_infeasible_instructions=print)  # fmt: skip
                page.wait_for_function(SETTLED)
                seen.append(browsergym_obs(page))
        finally:
            browser.close()
    return seen


def name_box(tree: str) -> str:
    match = re.search(r"\] textbox 'Name box' value='([^']*)'", tree)
    assert match, tree[:2000]
    return match[1]


def test_browsergym_click_then_keyboard_types_a_formula_and_enter_moves_down(grid: Grid) -> None:
    seen = browsergym_session(
        grid, ["click('{k2}')", "keyboard_type('=H2*2')", "keyboard_press('Enter')"]
    )
    assert [name_box(t) for t in seen] == ["K2", "K2", "K3"]
    assert grid.formula("Orders!K2") == "=H2*2"
    assert f"textbox 'K2' value='{grid.value('Orders!K2'):g}'" in seen[-1]


def test_browsergym_fill_then_press_enter_saves_the_formula(grid: Grid) -> None:
    seen = browsergym_session(grid, ["fill('{k2}', '=G2+1')", "press('{k2}', 'Enter')"])
    assert name_box(seen[-1]) == "K3"
    assert grid.formula("Orders!K2") == "=G2+1"


# ------------------------------------------------------------------ browser-use


@pytest.fixture
def cdp_chromium() -> BrowserManager:
    """The process's Chromium with a DevTools endpoint, which browser-use attaches to."""
    manager = shared_manager(cdp=True)
    manager.call(manager.browser)
    return manager


async def browser_use_session(cdp_url: str, grid: Grid) -> tuple[str, str]:
    """browser-use's Tools on its BrowserSession, no LLM: navigate, find the cell's index
    in the DOM state its agent is shown, click, input a formula, send Enter; the state's
    text before typing and after Enter."""
    session = BrowserSession(cdp_url=cdp_url, keep_alive=False)
    tools = Tools()
    action = tools.registry.create_action_model()
    await session.start()
    try:
        await tools.act(action(navigate={"url": grid.url}), session)
        state = await session.get_browser_state_summary(include_screenshot=False)
        before = state.dom_state.llm_representation()
        match = re.search(r"\[(\d+)\]<input [^>]*aria-label=K2 ", before)
        assert match, before[:2000]
        index = int(match[1])
        for step in ({"click": {"index": index}},
                     {"input": {"index": index, "text": "=H2*2", "clear": False}},
                     {"send_keys": {"keys": "Enter"}}):  # fmt: skip
            result = await tools.act(action(**step), session)
            assert result.error is None, result.error
        page = await session.get_current_page()
        assert page is not None
        for _ in range(50):  # the grid is aria-busy until the edit is saved
            if await page.evaluate(SETTLED) in ("true", True):  # it answers in text
                break
            await asyncio.sleep(0.1)
        state = await session.get_browser_state_summary(include_screenshot=False)
        return before, state.dom_state.llm_representation()
    finally:
        await session.stop()


def run_bounded(coro: Coroutine[Any, Any, T], seconds: float = 120.0) -> T:
    """`coro`'s result, run on a loop of its own in a thread that may take `seconds`. The
    tasks browser-use leaves running are cancelled and given a few seconds, never waited
    for without end (`asyncio.run` waited forever for one that ignores its cancellation)."""
    out: dict[str, Any] = {}

    def run() -> None:
        loop = asyncio.new_event_loop()
        try:
            out["value"] = loop.run_until_complete(asyncio.wait_for(coro, seconds))
        except BaseException as exc:  # handed to the test's thread below
            out["error"] = exc
        finally:
            left = [t for t in asyncio.all_tasks(loop) if not t.done()]
            for task in left:
                task.cancel()
            if left:
                loop.run_until_complete(asyncio.wait(left, timeout=5))
            loop.close()

    worker = threading.Thread(target=run, name="browser-use", daemon=True)
    worker.start()
    worker.join(seconds + 30)
    assert not worker.is_alive(), f"browser-use did not finish within {seconds + 30:.0f} s"
    if "error" in out:
        raise out["error"]
    return out["value"]


def test_browser_use_tools_click_input_and_enter_save_a_formula(
    grid: Grid, cdp_chromium: BrowserManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANONYMIZED_TELEMETRY", "false")  # no product telemetry from tests
    assert cdp_chromium.cdp_url
    before, after = run_bounded(browser_use_session(cdp_chromium.cdp_url, grid))
    assert "id=name-box" in before
    assert re.search(r"<input name=sel value=K3 id=name-box", after), after[:2000]
    assert grid.formula("Orders!K2") == "=H2*2"
    assert f"aria-label=K2 value={grid.value('Orders!K2'):g} " in after
