"""Kill -9 mid-load: acknowledged writes must survive the server's death.

`kill_run` sends Sheets API appends (``values:append``) and Slack posts, each with a
marker of its own, from several client threads to a served world (`serve_process`);
partway through it SIGKILLs the whole server (every worker, no shutdown), starts it again
on the same database (``--keep``) while the clients keep trying, and at the end kills
it once more and restarts it. Then `check` reads back through the restarted server and
the database: every acknowledged append at the range its answer named, holding its
marker; every acknowledged post stored exactly once; no two cell rows at one address.
A write whose answer never came (the connection died) may or may not be stored: it is
counted, not checked. Only loopback servers are targets.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import requests
from sqlalchemy import create_engine, text

from officegym.serve_process import Served

__all__ = ["KillReport", "check", "general_member", "kill_run"]


@dataclass
class KillReport:
    """What the clients saw: acknowledged appends (marker -> range) and posts, and how
    many writes got no answer or were refused."""

    workbook: int
    acked_appends: dict[str, str] = field(default_factory=dict)
    acked_posts: list[str] = field(default_factory=list)
    outcomes: Counter[str] = field(default_factory=Counter)
    kills: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def note(self, outcome: str) -> None:
        with self.lock:
            self.outcomes[outcome] += 1


def general_member(db_url: str) -> str:
    """The handle of a person who may post to #general (the clients act as them)."""
    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            return str(conn.execute(text(_GENERAL)).scalars().first())
    finally:
        engine.dispose()


def _headers(person: str) -> dict[str, str]:
    return {"Authorization": f"Bearer xoxp-{person}"}


def new_workbook(base: str, person: str) -> int:
    """A workbook of `person`'s with one sheet "Data", made through the Sheets API."""
    body = {"properties": {"title": "Kill run"}, "sheets": [{"properties": {"title": "Data"}}]}
    made = requests.post(f"{base}/gsheets/v4/spreadsheets", json=body,
                         headers=_headers(person), timeout=60)  # fmt: skip
    made.raise_for_status()
    return int(made.json()["spreadsheetId"])


def _client(served: Served, report: KillReport, person: str, n: int, stop: threading.Event) -> None:
    """Alternate appends and posts until `stop`, each with a fresh marker."""
    seq = 0
    sheet = f"{served.base}/gsheets/v4/spreadsheets/{report.workbook}/values"
    while not stop.is_set():
        marker = f"kill-{n}-{seq}"
        seq += 1
        try:
            if seq % 2:
                answer = requests.post(f"{sheet}/Data!A1:append",
                                       params={"valueInputOption": "RAW"},
                                       json={"values": [[marker, seq]]},
                                       headers=_headers(person), timeout=30)  # fmt: skip
                if answer.status_code == 200:
                    with report.lock:
                        report.acked_appends[marker] = answer.json()["updates"]["updatedRange"]
            else:
                answer = requests.post(f"{served.base}/api/chat.postMessage",
                                       data={"channel": "general", "text": marker},
                                       headers=_headers(person), timeout=30)  # fmt: skip
                if answer.status_code == 200 and answer.json().get("ok"):
                    with report.lock:
                        report.acked_posts.append(marker)
            report.note("ok" if answer.status_code == 200 else f"http {answer.status_code}")
        except requests.RequestException:
            report.note("no answer")  # the server died under it, or is not back yet
            time.sleep(0.2)


def kill_run(served: Served, person: str, *, clients: int = 6, seconds: float = 6.0) -> KillReport:
    """Load `served` for `seconds` with a SIGKILL and restart a third of the way in, then
    kill and restart it once more at the end (see the module docstring)."""
    report = KillReport(new_workbook(served.base, person))
    stop = threading.Event()
    threads = [
        threading.Thread(target=_client, args=(served, report, person, n, stop))
        for n in range(clients)
    ]
    for t in threads:
        t.start()
    time.sleep(seconds / 3)
    served.kill()
    served.restart()
    time.sleep(seconds * 2 / 3)
    served.kill()  # writes in flight at the end die with it
    stop.set()
    for t in threads:
        t.join(60)
    served.restart()
    report.kills = 2
    return report


def check(served: Served, person: str, report: KillReport) -> dict[str, Any]:
    """Read back after the restarts: acknowledged appends missing or not where their
    answer said, acknowledged posts missing or stored twice, duplicated cell addresses."""
    moved = []
    for marker, where in sorted(report.acked_appends.items()):
        url = f"{served.base}/gsheets/v4/spreadsheets/{report.workbook}/values/{where}"
        rows = requests.get(url, headers=_headers(person), timeout=30).json().get("values")
        if not rows or rows[0][0] != marker:
            moved.append(marker)
    engine = create_engine(served.url)
    try:
        with engine.connect() as conn:
            posts = Counter(r[0] for r in conn.execute(
                text("SELECT text FROM slack_message WHERE text LIKE 'kill-%'")))  # fmt: skip
            doubled = conn.execute(text(_DOUBLED), {"w": report.workbook}).all()
    finally:
        engine.dispose()
    return {
        "acknowledged_appends": len(report.acked_appends),
        "appends_not_readable": moved,
        "acknowledged_posts": len(report.acked_posts),
        "posts_missing": sorted(set(report.acked_posts) - set(posts)),
        "posts_stored_twice": sorted(m for m, n in posts.items() if n > 1),
        "cell_addresses_doubled": len(doubled),
        "outcomes": dict(report.outcomes),
        "kills": report.kills,
    }


_GENERAL = """
SELECT p.handle FROM org_person p JOIN slack_membership m ON m.person_id = p.id
JOIN slack_channel c ON c.id = m.channel_id WHERE c.name = 'general' ORDER BY p.id
"""
_DOUBLED = """
SELECT c.sheet_id, c.row, c.col FROM sheets_cell c JOIN sheets_sheet s ON s.id = c.sheet_id
WHERE s.workbook_id = :w GROUP BY c.sheet_id, c.row, c.col HAVING count(*) > 1
"""
