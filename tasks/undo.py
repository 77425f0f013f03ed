"""The inverse of each write tool: what undoes a call, for validate's `undo` policy.

`officegym validate` replays each reference solution followed by the inverse of one of
its writes (cancel the booking, delete the message, set the field back), and requires
every such run to fail: work done and then undone earns nothing. An inverse is built
from the call, its result on the reference's run, and the rows it changed (their
values before the episode). Tools with no inverse among the tools (a CRM record cannot
be deleted, an invitation not withdrawn) are listed in `NO_INVERSE`, not faked.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from typing import Any

from officegym.apps.sheets.refs import a1, split_sheet
from officegym.changes import RowChange
from officegym.tools import ToolCall

__all__ = ["INVERSES", "NO_INVERSE", "inverse"]

Inverse = Callable[[ToolCall, Any, Sequence[RowChange]], list[ToolCall]]

_CELLS_MAX = 200  # cells restored one call each; a larger write is undone in part


def _call(name: str, **arguments: Any) -> list[ToolCall]:
    return [ToolCall(name, arguments)]


def _same_args(name: str) -> Inverse:
    """The paired tool with the same arguments (react/unreact, pin/unpin, join/leave)."""
    return lambda call, _result, _rows: [ToolCall(name, dict(call.arguments))]


def _delete_message(call: ToolCall, result: Any, _rows: Sequence[RowChange]) -> list[ToolCall]:
    return _call("slack_delete_message", message_id=result["message_id"])


def _initial(value: Any) -> Any:
    return value.isoformat() if isinstance(value, (dt.date, dt.datetime)) else value


def _restore(key: str) -> Inverse:
    """The same tool on the same record (argument `key`), every other argument set to the
    value its column held before the episode."""

    def undo(call: ToolCall, _result: Any, rows: Sequence[RowChange]) -> list[ToolCall]:
        before = next((r.before for r in rows if r.kind == "update" and r.before), None)
        if before is None:
            return []
        args = {k: _initial(before[k]) for k in call.arguments if k != key and k in before}
        return [ToolCall(call.name, {key: call.arguments[key], **args})] if args else []

    return undo


def _set_status(call: ToolCall, _result: Any, rows: Sequence[RowChange]) -> list[ToolCall]:
    before = next((r.before for r in rows if r.table == "slack_status"), None) or {}
    return _call("slack_set_status", text=before.get("text", ""), emoji=before.get("emoji", ""))


def _edit_message(call: ToolCall, _result: Any, rows: Sequence[RowChange]) -> list[ToolCall]:
    before = next((r.before for r in rows if r.table == "slack_message" and r.before), None)
    if before is None:
        return []
    return _call("slack_edit_message", message_id=call.arguments["message_id"], text=before["text"])


def _restore_cells(call: ToolCall, _result: Any, rows: Sequence[RowChange]) -> list[ToolCall]:
    """Every changed cell's place back as it was: each cell's earlier input typed at its
    earlier place (a sort moves cells), places that held nothing cleared."""
    ref = str(call.arguments.get("range") or call.arguments.get("destination") or "")
    sheet = split_sheet(ref)[0] or call.arguments.get("sheet")
    prefix = f"'{sheet}'!" if sheet else ""
    book = call.arguments["workbook"]
    cells = [r for r in rows if r.table == "sheets_cell"]
    typed = {(r.before["row"], r.before["col"]): r.before["input"] for r in cells if r.before}
    now = {(r.after["row"], r.after["col"]) for r in cells if r.after}
    out = []
    for (row, col), text in sorted(typed.items())[:_CELLS_MAX]:
        args = {"workbook": book, "range": prefix + a1(row, col), "values": [[text or ""]]}
        out.append(ToolCall("sheets_write_range", args))
    for row, col in sorted(now - typed.keys())[:_CELLS_MAX]:
        out.append(
            ToolCall("sheets_clear_range", {"workbook": book, "range": prefix + a1(row, col)})
        )
    return out


INVERSES: dict[str, Inverse] = {
    "booking_book_stay": lambda c, res, _r: _call(
        "booking_cancel_stay", code=res["reservation"]["code"]
    ),
    "booking_book_flight": lambda c, res, _r: _call(
        "booking_cancel_flight", code=res["booking"]["code"]
    ),
    "booking_change_stay": _restore("code"),
    "booking_save_listing": _same_args("booking_unsave_listing"),
    "booking_unsave_listing": _same_args("booking_save_listing"),
    "slack_post_message": _delete_message,
    "slack_reply_in_thread": _delete_message,
    "slack_send_dm": _delete_message,
    "slack_edit_message": _edit_message,
    "slack_add_reaction": _same_args("slack_remove_reaction"),
    "slack_remove_reaction": _same_args("slack_add_reaction"),
    "slack_pin_message": _same_args("slack_unpin_message"),
    "slack_unpin_message": _same_args("slack_pin_message"),
    "slack_join_channel": _same_args("slack_leave_channel"),
    "slack_leave_channel": _same_args("slack_join_channel"),
    "slack_create_channel": lambda c, _res, _r: _call(
        "slack_archive_channel", channel=c.arguments["name"]
    ),
    "slack_set_status": _set_status,
    "slack_set_channel_topic": _restore("channel"),
    "crm_update_opportunity": _restore("opportunity"),
    "crm_change_opportunity_stage": _restore("opportunity"),
    "crm_update_account": _restore("account"),
    "crm_update_contact": _restore("contact"),
    "crm_update_lead": _restore("lead"),
    "crm_update_case": _restore("case"),
    "sheets_create_sheet": lambda c, _res, _r: _call(
        "sheets_delete_sheet", workbook=c.arguments["workbook"], sheet=c.arguments["name"]
    ),
    "sheets_create_workbook": lambda c, _res, _r: _call(
        "sheets_delete_workbook", workbook=c.arguments["name"]
    ),
    "sheets_define_name": lambda c, _res, _r: _call(
        "sheets_delete_name", workbook=c.arguments["workbook"], name=c.arguments["name"]
    ),
    "sheets_create_pivot": lambda c, res, _r: _call(
        "sheets_delete_pivot", workbook=c.arguments["workbook"], pivot_id=res["pivot_id"]
    ),
    "sheets_insert_dimension": _same_args("sheets_delete_dimension"),
    **dict.fromkeys(
        (
            "sheets_write_range",
            "sheets_append_rows",
            "sheets_fill_range",
            "sheets_copy_range",
            "sheets_clear_range",
            "sheets_sort_range",
            "sheets_remove_duplicates",
        ),
        _restore_cells,
    ),
}

NO_INVERSE: dict[str, str] = {
    "booking_cancel_stay": "a cancellation cannot be taken back",
    "booking_cancel_flight": "a cancellation cannot be taken back",
    "booking_change_flight": "the earlier flight may be sold out or its fare gone",
    "booking_message_host": "a message to a host cannot be deleted",
    "booking_decide_approval": "a manager's decision is final: an approved stay is charged, "
    "a declined one's nights are released",
    "crm_create_account": "CRM records cannot be deleted",
    "crm_create_contact": "CRM records cannot be deleted",
    "crm_create_lead": "CRM records cannot be deleted",
    "crm_create_opportunity": "CRM records cannot be deleted",
    "crm_create_case": "CRM records cannot be deleted",
    "crm_log_activity": "CRM activities cannot be deleted",
    "crm_convert_lead": "a conversion cannot be taken back",
    "crm_close_case": "a closed case cannot be reopened by a tool",
    "crm_complete_task": "a completed task cannot be reopened by a tool",
    "crm_escalate_case": "an escalation cannot be withdrawn",
    "crm_reassign_owner": "the tool takes a person, the change records an id",
    "slack_invite_to_channel": "no tool removes someone else from a channel",
    "slack_delete_message": "a deleted message cannot be restored",
    "slack_archive_channel": "no tool unarchives a channel",
    "sheets_share_workbook": "no tool withdraws a share",
    "sheets_delete_dimension": "the deleted cells are gone",
    "sheets_delete_sheet": "the deleted sheet is gone",
    "sheets_delete_workbook": "the deleted workbook is gone",
    "sheets_delete_name": "restoring a name needs its range",
    "sheets_delete_pivot": "restoring a pivot needs its definition",
    "sheets_rename_sheet": "not yet paired",
    "sheets_rename_workbook": "not yet paired",
    "sheets_set_number_format": "formats differ cell by cell",
    "sheets_freeze_rows": "not yet paired",
    "sheets_refresh_pivot": "a refresh recomputes, nothing to undo",
    "sheets_import_csv": "not yet paired",
}


def inverse(call: ToolCall, result: Any, rows: Sequence[RowChange]) -> list[ToolCall] | None:
    """The calls that undo `call` (None: the tool has no inverse; [] when the call's rows
    say there is nothing to set back)."""
    undo = INVERSES.get(call.name)
    if undo is None:
        return None
    try:
        return undo(call, result, rows)
    except (KeyError, TypeError):  # a result without what the inverse needs
        return []
