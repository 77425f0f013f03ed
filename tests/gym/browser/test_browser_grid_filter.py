"""A filter view moved about as a person does in Chromium: the page links, Page Down and
Page Up, an arrow key past the window's last row and a trip to another sheet's tab all
keep the filter, and every row shown still satisfies it; Shift and the arrows extend a
selection past the window, filtered or not, and the window follows the end that moved
(issue 19)."""

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


def extend(page: Page, key: str, want: str) -> None:
    """Press Shift+`key` and wait until the grid (in a new window if it scrolled) is
    ready with `want` selected."""
    page.keyboard.press(f"Shift+{key}")
    page.wait_for_function(
        "want => document.querySelector('#grid[data-ready=\"1\"]')"
        " && document.getElementById('name-box').value === want",
        arg=want,
    )


def selected_end(page: Page, cell: str) -> bool:
    """Whether `cell` (``a32``) is shown in the window, as part of the selection."""
    return page.eval_on_selector(f"#{cell}", "el => el.parentNode.classList.contains('sel')")


def test_shift_arrows_extend_a_selection_past_the_window_and_keep_its_end_in_view(
    sheet: Sheet,
) -> None:
    sheet.open(ORDERS, "?sheet=Orders")

    def steps(page: Page) -> tuple[str, bool, str, bool]:
        page.wait_for_selector("#grid[data-ready='1']")
        page.click("#a2")
        for row in range(3, 33):  # down past the window's 25 rows, one row at a time
            extend(page, "ArrowDown", f"A2:A{row}")
        down = (page.get_attribute("#grid", "data-top") or "", selected_end(page, "a32"))
        for row in (31, 30, 29):  # back up: the same anchor, the end moves
            extend(page, "ArrowUp", f"A2:A{row}")
        return *down, page.input_value("#name-box"), selected_end(page, "a29")

    top, shown, back, shown_back = sheet.run(steps)
    assert int(top) > 2 and shown  # the window scrolled to the end; the anchor left it
    assert back == "A2:A29" and shown_back


def test_shift_arrow_past_a_filter_views_last_row_scrolls_to_the_next_row_it_shows(
    sheet: Sheet,
) -> None:
    sheet.open(ORDERS, "?sheet=Orders")

    def steps(page: Page) -> tuple[Rows, Rows, bool, str]:
        filter_region(page, "EMEA")
        first = rows_and_regions(page)
        anchor, last = first[1][0], first[-1][0]
        page.click(f"#c{anchor}")
        page.click(f"#c{last}", modifiers=["Shift"])
        moving(page, "Shift+ArrowDown")  # past the window: the next row the filter shows
        scrolled = rows_and_regions(page)
        end = scrolled[-1][0]
        extended = page.input_value("#name-box") == f"C{anchor}:C{end}" and selected_end(
            page, f"c{end}"
        )
        extend(page, "ArrowUp", f"C{anchor}:C{last}")  # the anchor stayed where it was
        return first, scrolled, extended, page.input_value("#filter-condition")

    first, scrolled, extended, condition = sheet.run(steps)
    assert [r for r, _ in scrolled] == [r for r, _ in first[1:]] + [scrolled[-1][0]]
    assert scrolled[-1][0] > first[-1][0] and extended and condition == "EMEA"
    assert all(v == "EMEA" for _, v in scrolled)
