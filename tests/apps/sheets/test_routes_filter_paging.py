"""Moving a filtered grid without scripts, as in Sheets: the page links, the name box,
the formulas toggle and the sheet tabs keep the filter view (and the selection where it
still makes sense); a page under a filter is the next rows the filter shows."""

from __future__ import annotations

import html
import re

from flask.testing import FlaskClient
from sqlalchemy.orm import Session

from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.views import ROWS
from tests.apps.pages import html_of
from tests.apps.sheets.helpers import values, workbook

ROW = re.compile(r'data-row="(\d+)"')


def link(page: str, og: str) -> str:
    """The href of the link whose id is `og`."""
    found = re.search(rf'<a href="([^"]*)"[^>]*\bid="{og}"', page)
    assert found, og
    return html.unescape(found.group(1))


def shown(page: str) -> list[int]:
    return [int(r) for r in ROW.findall(page)]


def test_paging_under_a_filter_shows_the_next_matching_rows_and_keeps_the_filter(
    client: FlaskClient, db: Session, me: Person
) -> None:
    wb = workbook(db, "Orders 2025")
    region = [row[0] for row in values(db, me, wb, "C1:C201")]
    emea = [r for r, v in enumerate(region, start=1) if v != "APAC" and r > 1]
    assert len(emea) > 2 * ROWS  # three pages at least
    first = html_of(client, f"/sheets/{wb.id}?sheet=Orders&filter_col=C&filter=%3C%3EAPAC&sel=C2")
    assert shown(first) == [1, *emea[: ROWS - 1]]
    down = link(first, "page-down")
    assert "filter_col=C" in down and "filter=%3C%3EAPAC" in down
    second = html_of(client, down)
    assert shown(second) == emea[ROWS - 1 : 2 * (ROWS - 1)]
    assert f"{len(emea)} matching rows" in second  # every match, not those from the top
    assert f'data-sel="C{emea[ROWS - 1]}"' in second  # the selection came along, same column
    third = html_of(client, link(second, "page-down"))
    assert shown(third)[0] == emea[2 * (ROWS - 1)]
    back = html_of(client, link(third, "page-up"))
    assert shown(back) == shown(second)
    assert shown(html_of(client, link(back, "page-up"))) == shown(first)
    right = html_of(client, link(second, "page-right"))
    assert shown(right) == shown(second) and 'data-left="11"' in right


def test_the_name_box_the_formulas_toggle_and_the_tabs_keep_the_filter_view(
    client: FlaskClient, db: Session, me: Person
) -> None:
    wb = workbook(db, "Orders 2025")
    sheets.add_sheet(db, me, wb, "Notes")
    db.commit()
    first = html_of(client, f"/sheets/{wb.id}?sheet=Orders&filter_col=C&filter=EMEA")
    second = html_of(client, link(first, "page-down"))
    rows = shown(second)
    formulas = html_of(client, link(second, "toggle-formulas"))
    assert shown(formulas) == rows and link(formulas, "page-down").endswith("formulas=1")
    assert shown(html_of(client, link(second, "tab-orders"))) == rows
    notes = client.get(link(second, "tab-notes"), follow_redirects=True).get_data(as_text=True)
    assert 'data-sheet="Notes"' in notes and "filter-matched" not in notes
    back = client.get(link(notes, "tab-orders"))  # the tab opens Orders as it was left
    assert back.status_code == 302 and "filter_col=C" in back.headers["Location"]
    again = html_of(client, back.headers["Location"])
    assert shown(again) == rows and 'id="filter-matched"' in again
    jump = f"/sheets/{wb.id}?sheet=Orders&filter_col=C&filter=EMEA&at=A{rows[0]}&sel=A{rows[3]}"
    assert shown(html_of(client, jump)) == rows  # the name box keeps the window and filter
    assert 'name="filter_col" value="C"' in first.split('id="name-box"')[0]
    cleared = html_of(client, link(second, "filter-clear"))
    assert "filter-matched" not in cleared and shown(cleared)[0] == rows[0]
