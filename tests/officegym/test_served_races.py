"""Races over HTTP against `officegym serve --workers 2` on PostgreSQL: concurrent
clients, each on a connection of its own and so spread over both worker processes,
fire at one stay, one cell and one sheet's end at the same moment. Twenty cancellations
of one stay through its page refund it once and leave a ledger that sums; appends
through the Sheets API each land on a row of their own, all readable; writes to one
cell leave one cell row. One served process pair for the module."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterator

import pytest
import requests

from officegym.serve_process import Served, served_database
from officegym.world import World, world_image
from tests.apps.booking.test_money_races import booked, ledger
from tests.apps.sheets.test_races import ME, cells_at, new_workbook
from tests.postgres import SERVER, server_up

pytestmark = [pytest.mark.postgres, pytest.mark.xdist_group("serve-load")]  # heavy: one at a time


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[Served, World]]:
    """The seeded world on a PostgreSQL database of its own, served by two workers, and
    the same database opened here to set up and check (a kept world)."""
    if not server_up():
        pytest.skip(f"no PostgreSQL server at {SERVER}")
    with served_database(SERVER, workers=2) as server:
        world = World(world_image("default", 0), url=server.url, fresh=False)
        yield server, world
        world.close()


Prepare = Callable[[requests.Session], None]
Fire = Callable[[int, requests.Session], requests.Response]


def at_once(n: int, fire: Fire, prepare: Prepare | None = None) -> list[int]:
    """Run `fire(i, session)` for i < n on threads of their own, each with a session (a
    connection) of its own that `prepare` readied (a sign-in), all released together by
    a barrier; the HTTP statuses in order."""
    start = threading.Barrier(n, timeout=60)
    statuses: list[int] = [0] * n

    def run(i: int) -> None:
        with requests.Session() as http:
            if prepare is not None:
                prepare(http)
            start.wait()
            statuses[i] = fire(i, http).status_code

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(180)
    return statuses


def google(handle: str) -> dict[str, str]:
    return {"Authorization": f"Bearer xoxp-{handle}"}


def test_twenty_cancellations_of_one_stay_over_http_refund_once(
    served: tuple[Served, World],
) -> None:
    server, world = served
    code, handle = booked(world, ahead=40)

    def sign_in(http: requests.Session) -> None:
        answer = http.get(f"{server.base}/login/{handle}", allow_redirects=False)
        assert answer.status_code == 302

    def cancel(_i: int, http: requests.Session) -> requests.Response:
        url = f"{server.base}/booking/trips/{code}/cancel"
        return http.post(url, allow_redirects=False, timeout=120)

    statuses = at_once(20, cancel, sign_in)
    assert all(s in (302, 303) for s in statuses), statuses  # each answered (refused: flashed)
    r, net, refunds, nights = ledger(world, code)
    assert r.status == "cancelled" and nights == 0
    assert refunds == (1 if r.refund else 0)
    assert net == r.total - r.refund


def test_appends_over_http_each_land_on_a_row_of_their_own(served: tuple[Served, World]) -> None:
    server, world = served
    wid, sid = new_workbook(world)
    url = f"{server.base}/gsheets/v4/spreadsheets/{wid}/values/Data!A1:append"
    tag = uuid.uuid4().hex[:6]
    ranges: list[str] = [""] * 16

    def append(i: int, http: requests.Session) -> requests.Response:
        body = {"values": [[f"{tag} {i}", i]]}
        answer = http.post(url, params={"valueInputOption": "RAW"}, json=body,
                           headers=google(ME), timeout=120)  # fmt: skip
        if answer.status_code == 200:
            ranges[i] = answer.json()["updates"]["updatedRange"]
        return answer

    statuses = at_once(16, append)
    assert statuses == [200] * 16
    assert len(set(ranges)) == 16  # each acknowledged on a range of its own
    found = cells_at(world, sid)
    assert all(len(rows) == 1 for rows in found.values())
    assert sorted(k[0] for k in found if k[1] == 1) == list(range(1, 17))
    read = requests.get(f"{server.base}/gsheets/v4/spreadsheets/{wid}/values/Data!A1:B16",
                        headers=google(ME), timeout=60).json()["values"]  # fmt: skip
    assert sorted(row[0] for row in read) == sorted(f"{tag} {i}" for i in range(16))


def test_writes_of_one_cell_over_http_leave_one_row(served: tuple[Served, World]) -> None:
    server, world = served
    wid, sid = new_workbook(world)
    url = f"{server.base}/gsheets/v4/spreadsheets/{wid}/values/Data!C3"

    def write(i: int, http: requests.Session) -> requests.Response:
        body = {"values": [[i]]}
        return http.put(url, params={"valueInputOption": "RAW"}, json=body,
                        headers=google(ME), timeout=120)  # fmt: skip

    statuses = at_once(16, write)
    assert statuses == [200] * 16
    found = cells_at(world, sid)
    assert len(found[(3, 3)]) == 1 and found[(3, 3)][0].num in range(16)
