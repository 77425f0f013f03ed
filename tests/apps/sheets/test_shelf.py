"""The shelf of loaded workbooks is invisible: the grid shows an edit made through another
door (a tool, the Sheets API) between two of its requests, a reset or a write by
another process (a second World on the same PostgreSQL database, as a worker is) is
never answered with the book shelved before it, threads writing at once leave it
equal to the database, and a script's save is answered with the window itself."""

from __future__ import annotations

import re
import threading

import pytest
from flask.testing import FlaskClient
from sqlalchemy.orm import Session

from officegym.apps.sheets import service as sheets
from officegym.apps.sheets import store
from officegym.apps.sheets.shelf import Shelf, same
from officegym.runner import ToolRunner
from officegym.web import create_app
from officegym.world import World, world_image
from tests.apps.sheets.helpers import owner, workbook
from tests.postgres import postgres_world

ORDERS = "Orders 2025"


def _signed_in(world: World) -> tuple[FlaskClient, int, str]:
    """A test client of `world` signed in as the orders workbook's owner."""
    client = create_app(world, config={"TESTING": True, "SECRET_KEY": "t"}).test_client()
    with world.session() as s:
        wb_id, handle = workbook(s, ORDERS).id, owner(s, ORDERS).handle
    client.get(f"/login/{handle}")
    return client, wb_id, handle


def _shown(client: FlaskClient, wb_id: int, cell: str) -> str:
    """What the grid page shows in a cell of the Orders sheet (by its id)."""
    page = client.get(f"/sheets/{wb_id}?sheet=Orders&sel={cell}").get_data(as_text=True)
    found = re.search(rf'<input name="{cell.lower()}"[^>]*\svalue="([^"]*)"', page)
    assert found, cell
    return found.group(1)


def _shelf(world: World) -> Shelf:
    return world._directory["sheets.shelf"]  # type: ignore[return-value]


def test_the_grid_shows_edits_made_through_a_tool_and_the_api(world: World) -> None:
    client, wb_id, handle = _signed_in(world)
    assert _shown(client, wb_id, "K3") == ""
    assert len(_shelf(world)) == 1  # the page shelved the book it loaded
    runner = ToolRunner(world, handle)
    write = {"workbook": wb_id, "range": "Orders!K3", "values": [["41"]]}
    assert runner.call("sheets_write_range", write).ok
    runner.close()  # a runner keeps its book across calls: it owns its world meanwhile
    assert _shown(client, wb_id, "K3") == "41"
    put = client.put(
        f"/gsheets/v4/spreadsheets/{wb_id}/values/Orders!K3?valueInputOption=USER_ENTERED",
        json={"values": [["=K4+1"]]},
        headers={"Authorization": f"Bearer xoxp-{handle}"},
    )
    assert put.status_code == 200, put.get_data(as_text=True)
    assert _shown(client, wb_id, "K3") == "1"
    runner = ToolRunner(world, handle)
    assert runner.call("sheets_write_range", {**write, "range": "Orders!K4", "values": [[9]]}).ok
    runner.close()
    assert _shown(client, wb_id, "K3") == "10"  # the tool recalculated the API's formula


def _write_without_shelf(world: World, cell: str, value: str) -> None:
    """A write through a session `world.session` did not open (it shelves nothing)."""
    with Session(world.engine, info={"clock": world.clock}) as s:
        wb = workbook(s, ORDERS)
        sheets.write_range(s, owner(s, ORDERS), wb, f"Orders!{cell}", [[value]])
        s.commit()


def test_a_reset_is_never_answered_with_the_book_shelved_before_it(world: World) -> None:
    client, wb_id, _ = _signed_in(world)
    form = {"sheet": "Orders", "at": "A1", "sel": "K3", "k3": "1"}
    assert client.post(f"/sheets/{wb_id}/cells", data=form).status_code == 302
    assert _shown(client, wb_id, "K3") == "1"
    world.reset()
    assert _shown(client, wb_id, "K3") == ""
    # the change ids start again: the same number of edits reaches the shelved one's id
    client.post(f"/sheets/{wb_id}/cells", data=form)
    world.reset()
    _write_without_shelf(world, "K3", "2")
    assert _shown(client, wb_id, "K3") == "2"


def test_a_script_save_is_answered_with_the_window(world: World) -> None:
    client, wb_id, _ = _signed_in(world)
    form = {"sheet": "Orders", "at": "A1", "sel": "K3", "k3": "=G3*2"}
    answer = client.post(f"/sheets/{wb_id}/cells", data=form, headers={"X-Grid-Window": "1"})
    body = answer.get_data(as_text=True)
    assert answer.status_code == 200 and "<html" not in body
    cell = re.search(r'<input name="k3"[^>]*>', body)
    assert cell and 'data-input="=G3*2"' in cell.group(0)
    assert 'id="used-range"' in body and 'id="status-bar"' in body and "Saved 1 cell." in body
    with world.session() as s:
        expected = sheets.read_range(s, owner(s, ORDERS), workbook(s, ORDERS), "Orders!K3").rows
    assert f'value="{expected[0][0]:g}"' in cell.group(0)
    refused = client.post(
        f"/sheets/{wb_id}/cells", data={**form, "k3": "=SUM("}, headers={"X-Grid-Window": "1"}
    )
    assert refused.status_code == 200 and "flash-error" in refused.get_data(as_text=True)


def test_threads_writing_at_once_leave_the_shelf_equal_to_the_database(
    file_world: World,
) -> None:
    with file_world.session() as s:
        wb_id, handle = workbook(s, ORDERS).id, owner(s, ORDERS).handle

    def edit(i: int) -> None:
        runner = ToolRunner(file_world, handle)
        for j in range(5):
            cell = {"workbook": wb_id, "range": f"Orders!K{2 + i * 5 + j}", "values": [[i * j]]}
            assert runner.call("sheets_write_range", cell).ok
            assert runner.call("sheets_read_range", {"workbook": wb_id, "range": "A1:B2"}).ok
        runner.close()

    threads = [threading.Thread(target=edit, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    with file_world.session() as s:
        shelved = store.book(s, wb_id)
        loaded = store.load(s, wb_id)
    assert same(shelved, loaded)
    assert [loaded.value(*_k(loaded, r)) for r in (2, 7, 21)] == [0.0, 0.0, 12.0]


def _k(b: object, row: int) -> tuple[int, int, int]:
    sid = next(sid for sid, sh in b.sheets.items() if sh.name == "Orders")  # type: ignore[attr-defined]
    return sid, row, 11


@pytest.mark.postgres
def test_another_worker_s_writes_and_resets_reach_this_worker_s_grid() -> None:
    with postgres_world("og_shelf") as first:
        second = World(world_image("default", 0), url=first.url, fresh=False)
        try:
            client, wb_id, handle = _signed_in(first)
            assert _shown(client, wb_id, "K3") == ""
            runner = ToolRunner(second, handle)
            write = {"workbook": wb_id, "range": "Orders!K3", "values": [["5"]]}
            assert runner.call("sheets_write_range", write).ok
            runner.close()
            assert _shown(client, wb_id, "K3") == "5"
            client.post(f"/sheets/{wb_id}/cells", data={"sheet": "Orders", "sel": "K3", "k3": "6"})
            assert _shown(client, wb_id, "K3") == "6"
            second.reset()  # this worker's generation does not move: the database says so
            for cell, value in (("K4", "1"), ("K3", "7")):  # as many changes as before it
                _write_without_shelf(second, cell, value)
            assert _shown(client, wb_id, "K3") == "7"
        finally:
            second.close()
