"""kill -9 mid-load loses nothing acknowledged: `officegym serve` on a SQLite file is
SIGKILLed whole while clients append through the Sheets API and post through the Slack
API, restarted with ``--keep``, loaded on, killed and restarted again; every append
acknowledged is then readable at the range its answer named, every acknowledged post is
stored once, and no cell address holds two rows (`officegym.killtest`; the PostgreSQL
run with two workers is bench/serve_kill.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from officegym.killtest import check, general_member, kill_run
from officegym.serve_process import served_database

pytestmark = pytest.mark.xdist_group("serve-load")  # servers of their own: one at a time


def test_acknowledged_writes_survive_kill_9_and_restart(tmp_path: Path) -> None:
    with served_database(str(tmp_path / "world.sqlite")) as served:
        person = general_member(served.url)
        report = kill_run(served, person, clients=4, seconds=3.0)
        found = check(served, person, report)
    assert found["acknowledged_appends"] > 0 and found["acknowledged_posts"] > 0, found
    assert found["appends_not_readable"] == [] and found["posts_missing"] == [], found
    assert found["posts_stored_twice"] == [] and found["cell_addresses_doubled"] == 0, found
