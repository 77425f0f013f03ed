"""The history row an operation logs through the DB-API cursor (`history.record`) is stored
byte for byte as SQLAlchemy stores a change: the same text for its time, NULL for no sheet,
and `history` reads it back."""

from __future__ import annotations

from sqlalchemy import text

from officegym.apps.org.models import Person
from officegym.apps.sheets import service as sheets
from officegym.apps.sheets.models import Change
from officegym.world import World

RAW = text(
    "SELECT typeof(at), at, sheet_id, actor_id, action, target, detail FROM sheets_change "
    "WHERE id = :id"
)


def test_a_logged_change_is_stored_as_sqlalchemy_stores_one(world: World) -> None:
    with world.session() as s:
        me = s.get_one(Person, 1)
        wb = sheets.create_workbook(s, me, "Logged")
        sheets.write_range(s, me, wb, "B2", [[7]])
        logged = sheets.history(s, wb)[0]
        assert (logged.action, logged.target, logged.actor_id) == ("write", "Sheet1!B2", me.id)
        twin = Change(
            workbook_id=wb.id,
            sheet_id=None,
            actor_id=me.id,
            at=logged.at,
            action="write",
            target="Sheet1!B2",
            detail=logged.detail,
        )
        s.add(twin)
        s.flush()
        ours = s.execute(RAW, {"id": logged.id}).one()
        theirs = s.execute(RAW, {"id": twin.id}).one()
        assert ours[0] == "text" and ours[1] == theirs[1]  # e.g. '2026-03-02 09:00:03.000000'
        assert ours[3:] == theirs[3:] and ours[2] is not None
        created = sheets.history(s, wb)[-1]
        assert created.action == "create_workbook"
        row = s.execute(RAW, {"id": created.id}).one()
        assert row[2] is None  # no sheet: NULL, as SQLAlchemy binds None
