"""A client that pauses (an agent thinking) and then writes on the same connection
still gets through: `officegym serve`'s uvicorn keeps idle connections for
`KEEP_ALIVE_SECONDS` (uvicorn's own default, 5 s, broke Google's client with a broken
pipe). The server here is built by the same `server_config` the command uses."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time

from sqlalchemy import select

from officegym.apps.org.models import Person
from officegym.apps.sheets.models import Workbook
from officegym.mcp_wrappers.asgi import KEEP_ALIVE_SECONDS, build_asgi_app, server_config
from officegym.web import create_app
from officegym.world import World, world_image


def test_keep_alive_outlasts_a_pause_of_thought() -> None:
    assert KEEP_ALIVE_SECONDS >= 75
    world = World(world_image("default", 0))
    with world.session() as s:
        wb = s.scalars(select(Workbook).where(Workbook.name == "Vendor List")).one()
        handle, sid = s.get_one(Person, wb.owner_id).handle, wb.id
    app = build_asgi_app(world, create_app(world))
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    config = server_config(app, "127.0.0.1", sock.getsockname()[1])
    assert config.timeout_keep_alive == KEEP_ALIVE_SECONDS
    import uvicorn

    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started and thread.is_alive():
        time.sleep(0.02)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", sock.getsockname()[1], timeout=30)
        headers = {"Authorization": f"Bearer xoxp-{handle}", "Content-Type": "application/json"}
        conn.request("GET", f"/gsheets/v4/spreadsheets/{sid}", headers=headers)
        assert conn.getresponse().read() and conn.sock is not None
        first = conn.sock
        time.sleep(6)  # longer than uvicorn's default keep-alive of 5 s
        payload = json.dumps({"values": [["after a pause"]]})
        url = f"/gsheets/v4/spreadsheets/{sid}/values/Vendors!E1?valueInputOption=RAW"
        conn.request("PUT", url, body=payload, headers=headers)
        answer = conn.getresponse()
        assert answer.status == 200 and json.loads(answer.read())["updatedCells"] == 1
        assert conn.sock is first  # the same connection, not a new one
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()
        world.close()
