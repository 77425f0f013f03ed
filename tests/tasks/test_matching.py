"""Matching an episode's rows to the reference's: through the ids of rows already
matched, up to free columns, ties resolved by free columns agreeing."""

from __future__ import annotations

from officegym.changes import RowChange
from officegym.tasks.expected import Expected, Step
from officegym.tasks.freedom import Free, Freedoms
from officegym.tasks.matching import match, units


def _channel(row_id: int, name: str) -> RowChange:
    row = {"id": row_id, "name": name, "kind": "public", "topic": "", "purpose": ""}
    return RowChange("slack_channel", row_id, None, row)


def _member(row_id: int, channel_id: int, person_id: int = 7) -> RowChange:
    row = {"id": row_id, "channel_id": channel_id, "person_id": person_id, "last_read_id": 0}
    return RowChange("slack_membership", row_id, None, row)


def _expected(*changes: RowChange, free: tuple[Free, ...] = ()) -> Expected:
    keys = tuple((c.table, c.row_id) for c in changes)
    return Expected((Step(0, "tool", keys),), changes, Freedoms(free), ())


def test_a_row_naming_a_new_row_is_compared_through_the_rows_matched() -> None:
    exp = _expected(_channel(10, "launch"), _member(50, 10))
    ok = match(exp, [_channel(12, "launch"), _member(60, 12)])
    assert set(ok.verdicts.values()) == {None} and not ok.rest
    wrong = match(exp, [_channel(12, "launch"), _member(60, 3)])  # joined another channel
    assert wrong.verdicts[("slack_channel", 10)] is None
    detail = wrong.verdicts[("slack_membership", 50)] or ""
    assert "got channel_id=3; want channel_id=12" in detail  # the agent's own new channel
    assert [c.row_id for c in wrong.rest] == [60]


def test_text_is_compared_as_a_person_reads_it() -> None:
    exp = _expected(_channel(10, "Launch"))
    assert match(exp, [_channel(11, " launch ")]).verdicts[("slack_channel", 10)] is None
    assert match(exp, [_channel(11, "lunch")]).verdicts[("slack_channel", 10)] is not None


def test_free_columns_are_not_compared_but_break_ties() -> None:
    free = (Free("slack_channel", ("topic",), "demo"),)
    a, b = _channel(10, "x"), _channel(11, "y")
    a.after["topic"], b.after["topic"] = "first", "second"  # type: ignore[index]
    exp = _expected(a, free=free)
    x1, x2 = _channel(20, "x"), _channel(21, "x")
    x1.after["topic"], x2.after["topic"] = "other", "first"  # type: ignore[index]
    got = match(exp, [x1, x2])
    assert got.verdicts[("slack_channel", 10)] is None
    assert [c.row_id for c in got.matched] == [21] and [c.row_id for c in got.rest] == [20]


def test_a_change_costs_one_unit_per_row_or_changed_field() -> None:
    before = {"id": 1, "name": "a", "topic": "t", "purpose": "p", "created_at": 1}
    after = {"id": 1, "name": "b", "topic": "u", "purpose": "p", "created_at": 2}
    assert units(RowChange("slack_channel", 1, before, after)) == 2  # the clock stamp is free
    assert units(_channel(5, "new")) == 1
    assert units(RowChange("sheets_change", 1, None, {"id": 1})) == 0  # a derived log
