"""A filter view moved about as a person does in Chromium: the page links, Page Down and
Page Up, an arrow key past the window's last row and a trip to another sheet's tab all
keep the filter, and every row shown still satisfies it (issue 19)."""

from __future__ import annotations

from playwright.sync_api import Page

from officegym.apps.sheets import service as sheets
from tests.gym.browser.test_browser_grid import ORDERS, Sheet, sheet

__all__ = ["sheet"]


Rows = list[tuple[int, str]]


def rows_and_regions(page: Page) -> Rows:
    """The data rows the grid shows (below the header) with their Region (column C)."""
    page.wait_for_selector("#grid[data-ready='1']")
    rows = page.eval_on_selector_all(
        "#grid tbody tr", "trs => trs.map(tr => +tr.dataset.row).filter(r => r > 1)"
    )
    return [(r, page.input_value(f"#c{r}")) for r in rows]


def moving(page: Page, key: str = "", click: str = "") -> None:
    """Press `key` or click `click`, then wait for the next window's grid (another top
    row) to be ready."""
    top = page.get_attribute("#grid", "data-top")
    if key:
        page.keyboard.press(key)
    else:
        page.click(click)
    page.wait_for_selector(f"#grid[data-ready='1']:not([data-top='{top}'])")


def filter_region(page: Page, condition: str) -> None:
    page.click("#c3")  # a cell of the Region column: the filter takes its column
    page.fill("#filter-condition", condition)
    page.press("#filter-condition", "Enter")
    page.wait_for_selector("#filter-matched")
    page.wait_for_selector("#grid[data-ready='1']")


def test_paging_a_filter_view_keeps_the_filter(sheet: Sheet) -> None:
    sheet.open(ORDERS, "?sheet=Orders")

    def steps(page: Page) -> list[Rows]:
        filter_region(page, "EMEA")
        pages = [rows_and_regions(page)]
        moving(page, click="#page-down")
        pages.append(rows_and_regions(page))
        page.click(f"#c{pages[-1][0][0]}")
        moving(page, "PageUp")
        pages.append(rows_and_regions(page))
        return pages

    first, second, back = sheet.run(steps)
    emea = [r for r, (v,) in enumerate(sheet.values("Orders!C2:C201"), start=2) if v == "EMEA"]
    assert [r for r, _ in first] == emea[:24] and len(emea) > 24
    assert [r for r, _ in second] == emea[24:48]  # the next rows the filter shows
    assert all(v == "EMEA" for _, v in first + second + back) and back == first


def test_keys_an_edit_and_another_tab_keep_the_filter_and_the_selection(sheet: Sheet) -> None:
    wb, me = sheet.open(ORDERS, "?sheet=Orders")
    with sheet.world.session() as s:
        sheets.add_sheet(s, s.merge(me), s.merge(wb), "Notes")
        s.commit()

    def steps(page: Page) -> tuple[Rows, Rows, Rows, Rows, str]:
        filter_region(page, "<>APAC")
        first = rows_and_regions(page)
        last = first[-1][0]
        page.click(f"#i{last}")
        moving(page, "ArrowDown")  # past the window: the next row the filter shows
        scrolled = rows_and_regions(page)
        active = page.evaluate("document.activeElement.id")
        page.keyboard.type("=1+1")  # an edit on the way: saved, not lost by paging
        moving(page, "PageDown")
        paged = rows_and_regions(page)
        page.click("#tab-notes")
        page.wait_for_selector("#grid[data-sheet='Notes'][data-ready='1']")
        page.click("#tab-orders")
        page.wait_for_selector("#grid[data-sheet='Orders'][data-ready='1']")
        return first, scrolled, paged, rows_and_regions(page), active

    first, scrolled, paged, again, active = sheet.run(steps)
    regions = dict(enumerate((v for (v,) in sheet.values("Orders!C1:C201")), start=1))
    shown = [r for r in regions if r > 1 and regions[r] != "APAC"]
    assert all(v != "APAC" for _, v in first + scrolled + paged + again)
    assert [r for r, _ in scrolled] == shown[1:25]  # one row further, by the filter's rows
    assert active == f"i{shown[24]}" and sheet.values(f"Orders!{active.upper()}") == [[2]]
    assert paged[0][0] > shown[24] and again == paged
