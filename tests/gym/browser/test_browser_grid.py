"""The spreadsheet grid as a person uses it, in real Chromium: click a cell and type,
Enter moves down, Tab right, Escape cancels; a column of figures and a filled formula;
a range selected with the mouse and the status bar; sort from one cell; a pivot built
with the editor; copy and paste; and the window stays where the person is."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar
from urllib.parse import quote

import pytest
from playwright.sync_api import Page

from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.models import Workbook
from officegym.apps.sheets.values import general
from officegym.gym.browser.manager import BrowserManager
from officegym.gym.browser.server import AppServer
from officegym.gym.browser_env import BrowserEnv
from officegym.world import World, world_image
from tests.apps.sheets.helpers import owner, values, workbook

pytestmark = pytest.mark.browser
T = TypeVar("T")
ORDERS = "Orders 2025"


class Sheet:
    """A served world, a person signed in to it, and one workbook's grid in a tab."""

    def __init__(self, chromium: BrowserManager, server: AppServer, world: World) -> None:
        self.chromium, self.server, self.world = chromium, server, world

    def open(self, name: str, query: str = "") -> tuple[Workbook, Person]:
        with self.world.session() as s:
            wb, me = workbook(s, name), owner(s, name)
            s.expunge_all()
        target = quote(f"/sheets/{wb.id}{query}", safe="/")
        self.url = f"{self.server.url}/login/{me.handle}?next={target}&{self.server.login_query}"
        self.wb, self.me = wb, me
        return wb, me

    def run(self, steps: Callable[[Page], T]) -> T:
        """Do `steps` in a new 1366x768 tab on the grid (in the browser thread)."""

        def job() -> T:
            context = self.chromium.new_context(viewport={"width": 1366, "height": 768})
            try:
                page = context.new_page()
                page.goto(self.url)
                page.wait_for_selector("#grid[data-ready='1']")
                return steps(page)
            finally:
                context.close()

        return self.chromium.call(job)

    def values(self, ref: str) -> list[list[Any]]:
        with self.world.session() as s:
            return values(s, s.merge(self.me), s.merge(self.wb), ref)


@pytest.fixture
def sheet(chromium: BrowserManager) -> Iterator[Sheet]:
    world = World(world_image("default", 0))
    server = AppServer(world)
    yield Sheet(chromium, server, world)
    server.close()
    world.close()


def settled(page: Page) -> None:
    """Wait until the grid has saved what it sends (it is aria-busy meanwhile)."""
    page.wait_for_function("() => !document.querySelector('#grid[aria-busy=\"true\"]')")


def type_in(page: Page, cell: str, text: str, key: str = "Enter") -> None:
    page.click(f"#{cell}")
    page.keyboard.type(text)
    page.keyboard.press(key)


def test_a_column_of_figures_typed_with_enter_moving_down(sheet: Sheet) -> None:
    sheet.open(ORDERS, "?sheet=Orders&at=K1&sel=K1")

    def steps(page: Page) -> tuple[str, str]:
        page.click("#k2")
        for figure in ("1200", "350.5", "49"):
            page.keyboard.type(figure)
            page.keyboard.press("Enter")
        settled(page)
        return page.input_value("#name-box"), page.evaluate("document.activeElement.id")

    box, active = sheet.run(steps)
    assert (box, active) == ("K5", "k5")  # Enter moved down after each figure
    assert sheet.values("Orders!K2:K4") == [[1200], [350.5], [49]]


def test_a_formula_written_then_filled_down_by_keyboard(sheet: Sheet) -> None:
    sheet.open(ORDERS, "?sheet=Orders&at=K1&sel=K1")

    def steps(page: Page) -> str:
        type_in(page, "k2", "=H2*2")
        settled(page)
        page.click("#k2")
        page.click("#k6", modifiers=["Shift"])
        page.keyboard.press("Control+d")  # fill down, as in Sheets
        settled(page)
        return page.input_value("#k6")

    shown = sheet.run(steps)
    prices = [r[0] for r in sheet.values("Orders!H2:H6")]
    assert [r[0] for r in sheet.values("Orders!K2:K6")] == [p * 2 for p in prices]
    assert shown != ""


def test_tab_moves_right_and_escape_cancels(sheet: Sheet) -> None:
    sheet.open(ORDERS, "?sheet=Orders&at=K1&sel=K1")

    def steps(page: Page) -> tuple[str, str, str]:
        type_in(page, "k2", "left", key="Tab")
        page.keyboard.type("never saved")
        page.keyboard.press("Escape")
        after_escape = page.input_value("#l2")
        page.keyboard.press("ArrowDown")
        settled(page)
        return page.input_value("#name-box"), after_escape, page.input_value("#formula-bar")

    box, after_escape, bar = sheet.run(steps)
    assert (box, after_escape, bar) == ("L3", "", "")
    assert sheet.values("Orders!K2:L2") == [["left"]]


def test_clicking_a_cell_moves_the_formula_bar_and_shift_click_sums_a_range(sheet: Sheet) -> None:
    sheet.open(ORDERS, "?sheet=Orders")

    def steps(page: Page) -> tuple[str, str, str]:
        page.click("#h2")
        bar = page.input_value("#formula-bar")
        page.click("#h6", modifiers=["Shift"])
        return bar, page.input_value("#name-box"), page.inner_text("#status-bar")

    bar, box, status = sheet.run(steps)
    prices = [r[0] for r in sheet.values("Orders!H2:H6")]
    assert bar == str(prices[0]).removesuffix(".0") and box == "H2:H6"
    total = round(sum(prices), 2)
    assert f"{total:g}" in status and "sum of 5 numbers" in status


def test_sort_from_one_cell_sorts_its_data_region_under_the_header(sheet: Sheet) -> None:
    sheet.open(ORDERS, "?sheet=Orders")

    def steps(page: Page) -> str:
        page.click("#i5")  # a cell of the Revenue column
        page.select_option("#sort-order", "desc")
        page.click("#sort-apply")
        settled(page)
        return page.input_value("#name-box")

    assert sheet.run(steps) == "I5"  # the selection stayed
    header = sheet.values("Orders!A1:I1")[0]
    revenue = [r[0] for r in sheet.values("Orders!I2:I201")]
    assert header[8] == "Revenue" and revenue == sorted(revenue, reverse=True)


def test_a_pivot_built_with_the_editor_makes_its_sheet_and_is_read_only(sheet: Sheet) -> None:
    sheet.open(ORDERS, "?sheet=Orders")

    def steps(page: Page) -> tuple[str, bool]:
        page.click("#workbook-pivots")
        page.fill("#pivot-source", "Orders!A:I")
        page.fill("#pivot-anchor", "Pivot!A1")  # the form's own example: no such sheet yet
        page.fill("#pivot-rows", "Category")
        page.fill("#pivot-value-field", "Units")
        page.select_option("#pivot-summary", "SUM")
        page.click("#pivot-create")
        page.wait_for_selector("#grid[data-ready='1']")
        return page.input_value("#name-box"), page.is_editable("#b2")

    box, editable = sheet.run(steps)
    table = sheet.values("Pivot!A1:B5")
    assert box == "A1" and not editable
    assert [r[0] for r in table] == ["Category", "Hardware", "Services", "Software", "Grand Total"]


def test_a_refused_pivot_keeps_what_was_typed(sheet: Sheet) -> None:
    sheet.open(ORDERS, "?sheet=Orders")

    def steps(page: Page) -> tuple[str, str, str]:
        page.click("#workbook-pivots")
        page.fill("#pivot-source", "Orders!A:I")
        page.fill("#pivot-anchor", "Pivot!A1")
        page.fill("#pivot-rows", "No such column")
        page.fill("#pivot-value-field", "Units")
        page.click("#pivot-create")
        page.wait_for_selector(".flash-error")
        return page.input_value("#pivot-source"), page.input_value("#pivot-rows"), page.url

    source, rows, url = sheet.run(steps)
    assert (source, rows) == ("Orders!A:I", "No such column") and "/pivots" in url


def test_copy_and_paste_between_sheets_moves_formulas(sheet: Sheet) -> None:
    wb, _ = sheet.open(ORDERS, "?sheet=Orders&at=K1&sel=K1")

    def steps(page: Page) -> None:
        type_in(page, "k2", "=H2+1")
        settled(page)
        page.click("#k2")
        page.keyboard.press("Control+c")
        page.goto(f"{sheet.server.url}/sheets/{wb.id}?sheet=Orders&at=K1&sel=K1")
        page.wait_for_selector("#grid[data-ready='1']")
        page.click("#k4")
        page.keyboard.press("Control+v")
        settled(page)

    sheet.run(steps)
    with sheet.world.session() as s:
        got = sheets.read_range(s, s.merge(sheet.me), s.merge(wb), "Orders!K4", mode="formulas")
    assert got.rows == [["=H4+1"]]


def test_the_window_stays_after_a_fill_and_the_page_fits_1366_pixels(sheet: Sheet) -> None:
    sheet.open(ORDERS, "?sheet=Orders&at=A30&sel=H31")

    def steps(page: Page) -> tuple[str, str, int]:
        page.click("#h31")
        page.click("#h34", modifiers=["Shift"])
        page.click("#fill-down")
        settled(page)
        first = page.locator("#grid tbody th").first.inner_text()
        width = page.evaluate("document.documentElement.scrollWidth")
        return first, page.input_value("#name-box"), width

    first, box, width = sheet.run(steps)
    assert (first, box) == ("30", "H31:H34") and width <= 1366


def test_the_envs_browsergym_actions_select_a_cell_and_type_a_formula(
    env_for: Callable[..., BrowserEnv],
) -> None:
    """click, fill and press of the action language, one step each, as an agent sends
    them: the name box follows the click, Enter saves and moves down."""
    env = env_for("sheets")
    env.reset(options={"task": "sheets.formula-column", "task_seed": 0})
    with env.world.session() as s:
        wb, me = workbook(s, ORDERS), owner(s, ORDERS)
        unit_price = values(s, me, wb, "Orders!H2")[0][0]
    env.step(f"goto('/sheets/{wb.id}?sheet=Orders&at=K1&sel=K1')")
    obs, *_ = env.step("click('k2')")
    assert '[name-box] textbox "Name box", value="K2"' in obs["axtree"]
    env.step("fill('k2', '=H2*2')")
    obs, *_ = env.step("press('k2', 'Enter')")
    assert obs["error"] == ""
    assert '[name-box] textbox "Name box", value="K3"' in obs["axtree"]
    assert f'[k2] textbox "K2", value="{general(unit_price * 2.0)}"' in obs["axtree"]
    with env.world.session() as s:
        got = sheets.read_range(s, s.merge(me), s.merge(wb), "Orders!K2", mode="formulas")
    assert got.rows == [["=H2*2"]]


def test_the_fill_handle_dragged_down_fills_the_formula(sheet: Sheet) -> None:
    sheet.open(ORDERS, "?sheet=Orders&at=K1&sel=K1")

    def steps(page: Page) -> str:
        type_in(page, "k2", "=G2+1")
        settled(page)  # as a person waits to see the value before reaching for the handle
        page.click("#k2")
        page.wait_for_selector("#fill-handle:not([hidden])")
        handle = page.locator("#fill-handle").bounding_box()
        target = page.locator("#k5").bounding_box()
        assert handle and target
        page.mouse.move(handle["x"] + 3, handle["y"] + 3)
        page.mouse.down()
        page.mouse.move(target["x"] + 20, target["y"] + 8, steps=5)
        page.mouse.up()
        settled(page)
        return page.input_value("#name-box")

    assert sheet.run(steps) == "K2:K5"
    units = [r[0] for r in sheet.values("Orders!G2:G5")]
    assert [r[0] for r in sheet.values("Orders!K2:K5")] == [u + 1 for u in units]


def test_filter_from_a_cell_then_refresh_a_pivot_after_an_edit(sheet: Sheet) -> None:
    wb, _ = sheet.open(ORDERS, "?sheet=Orders")
    with sheet.world.session() as s:
        me = s.merge(sheet.me)
        sheets.add_sheet(s, me, s.merge(wb), "Pivot")
        pivot = sheets.create_pivot(
            s, me, s.merge(wb), "Orders!A1:I201", "Pivot!A1", rows=["Region"],
            values=[{"field": "Units", "summary": "COUNT"}],
        )  # fmt: skip
        pid = pivot.id
        s.commit()

    def steps(page: Page) -> tuple[str, str]:
        page.click("#c3")  # a cell of the Region column: the filter takes its column
        page.fill("#filter-condition", "EMEA")
        page.press("#filter-condition", "Enter")
        page.wait_for_selector("#filter-matched")
        matched = page.inner_text("#filter-matched")
        first = page.locator("#grid tbody tr").nth(1).get_attribute("data-row") or ""
        type_in(page, f"c{first}", "APAC")  # one EMEA order moves to APAC
        settled(page)
        page.click("#workbook-pivots")
        page.click(f"#pivot-{pid}-refresh")
        page.wait_for_load_state()
        return matched, first

    matched, first = sheet.run(steps)
    emea = sum(1 for r in sheet.values("Orders!C2:C201") if r[0] == "EMEA")
    assert matched == f"{emea + 1} matching rows" and first != "2"
    table = {r[0]: r[1] for r in sheet.values("Pivot!A2:B6")}
    assert table["EMEA"] == emea
