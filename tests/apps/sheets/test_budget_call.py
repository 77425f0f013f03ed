"""A batch call shares one evaluation budget (`budget.call`), not one per entry: many
heavy entries, each within a budget of its own, are refused together once the call has
spent its time, with Google's error, and nothing of the call stays. Time is a clock the
test controls (every look at it costs one second), never the machine's."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select

from officegym.apps.org.models import Person
from officegym.apps.sheets import budget
from officegym.apps.sheets.models import Sheet, Workbook
from officegym.web import create_app
from officegym.world import World

HEAVY = "=SUMPRODUCT(ROW(A1:A500)*COLUMN(A1:T1))"


@contextmanager
def ticking() -> Iterator[Callable[[], int]]:
    """A budget clock that moves one second each time it is read; yields the reads."""
    reads = [0]

    def read() -> float:
        reads[0] += 1
        return float(reads[0])

    with budget.clock(read):
        yield lambda: reads[0]


@pytest.fixture
def owner_client(world: World) -> tuple[FlaskClient, int, dict[str, str]]:
    with world.session() as s:
        wb = s.scalars(select(Workbook).where(Workbook.name == "Orders 2025")).one()
        handle = s.get_one(Person, wb.owner_id).handle
        wid = wb.id
    auth = {"Authorization": f"Bearer xoxp-{handle}"}
    return create_app(world).test_client(), wid, auth


def _values_batch(n: int, column: str = "Z") -> dict[str, Any]:
    data = [{"range": f"{column}{i + 1}", "values": [[HEAVY]]} for i in range(n)]
    return {"valueInputOption": "USER_ENTERED", "data": data}


def _requests_batch(n: int, sheet_id: int) -> dict[str, Any]:
    cell = {"userEnteredValue": {"formulaValue": HEAVY}}
    requests = [
        {
            "updateCells": {
                "rows": [{"values": [cell]}],
                "fields": "userEnteredValue",
                "start": {"sheetId": sheet_id, "rowIndex": 0, "columnIndex": 25},
            }
        }
        for _ in range(n)
    ]
    return {"requests": requests}


def _reads_of_one(client: FlaskClient, url: str, body: dict, auth: dict) -> int:
    """How many clock reads one entry's write takes (on a copy of the call: rolled back)."""
    with ticking() as reads, budget.limits(budget.Limits(seconds=10**9)):
        assert client.post(url, json=body, headers=auth).status_code == 200
        return reads()


def _first_sheet(world: World, wid: int) -> int:
    with world.session() as s:
        return s.scalar(select(func.min(Sheet.id)).where(Sheet.workbook_id == wid))


@pytest.mark.parametrize("kind", ["values:batchUpdate", "batchUpdate"])
def test_many_heavy_entries_share_one_budget_and_the_call_is_refused_whole(
    world: World, owner_client: tuple[FlaskClient, int, dict[str, str]], kind: str
) -> None:
    client, wid, auth = owner_client
    url = f"/gsheets/v4/spreadsheets/{wid}" + (
        "/values:batchUpdate" if "values" in kind else ":batchUpdate"
    )
    sheet = _first_sheet(world, wid)

    def body(n: int) -> dict:
        return _values_batch(n) if "values" in kind else _requests_batch(n, sheet)

    one = _reads_of_one(client, url, body(1), auth)
    fits_three = budget.Limits(seconds=3 * one + 1)  # each entry fits it many times over
    with ticking(), budget.limits(fits_three):
        assert client.post(url, json=body(2), headers=auth).status_code == 200
        before = client.get(f"/gsheets/v4/spreadsheets/{wid}/values/Z1:Z20", headers=auth)
        answer = client.post(url, json=body(20), headers=auth)
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert error["status"] == "INVALID_ARGUMENT" and "evaluation budget" in error["message"]
    assert "of 20" in error["message"] and "nothing was applied" in error["message"]
    after = client.get(f"/gsheets/v4/spreadsheets/{wid}/values/Z1:Z20", headers=auth)
    assert after.get_json() == before.get_json()  # the refused call left nothing behind


def test_a_values_batch_shares_one_cell_cap(
    owner_client: tuple[FlaskClient, int, dict[str, str]],
) -> None:
    client, wid, auth = owner_client
    rows = [["1"] * 100 for _ in range(60)]  # 6,000 cells an entry, 24,000 in all
    data = [{"range": f"Sheet1!A{1 + 100 * i}", "values": rows} for i in range(4)]
    answer = client.post(
        f"/gsheets/v4/spreadsheets/{wid}/values:batchUpdate",
        json={"valueInputOption": "RAW", "data": data},
        headers=auth,
    )
    assert answer.status_code == 400
    assert "cells per call (got 24000)" in answer.get_json()["error"]["message"]
