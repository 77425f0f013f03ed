"""Everyday Sheets API calls, made with the real clients (Google's and gspread) against a
served world, each checked against what Google answers: prints how many pass (Google's
result), how many are refused (a 4xx in Google's error shape naming what the clone does
not support) and how many are wrong (a 200 with another result, a 5xx or an HTML page).
The target is 0 wrong.

    python bench/api_everyday.py [-v]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import gspread  # noqa: E402
from googleapiclient.errors import HttpError  # noqa: E402

from tests.apps.sheets.api_clients import (  # noqa: E402
    google,
    grid,
    gspread_client,
    owner_of,
    serve_world,
)

TABLE = [["Name", "Region", "Amount"], ["Ann", "EMEA", 300], ["Bob", "APAC", 100]]


class Calls:
    """The clients, and a fresh spreadsheet (TABLE from Sheet1!A1) per call."""

    def __init__(self, base: str, world: Any) -> None:
        handle = owner_of(world, "Orders 2025")[0]
        self.api, self.gc = google(base, handle), gspread_client(base, handle)
        self.drive = google(base, handle, "drive", "v3")
        self.values = self.api.spreadsheets().values()

    def fresh(self, rows: list[list[Any]] = TABLE) -> tuple[str, int]:
        made = self.api.spreadsheets().create(body={"properties": {"title": "Bench"}}).execute()
        sid = made["spreadsheetId"]
        self.put(sid, "Sheet1!A1", rows)
        return sid, made["sheets"][0]["properties"]["sheetId"]

    def put(self, sid: str, ref: str, rows: list[list[Any]], how: str = "USER_ENTERED") -> Any:
        return self.values.update(
            spreadsheetId=sid, range=ref, valueInputOption=how, body={"values": rows}
        ).execute()

    def get(self, sid: str, ref: str, **kw: Any) -> list[list[Any]]:
        return self.values.get(spreadsheetId=sid, range=ref, **kw).execute().get("values", [])

    def batch(self, sid: str, *requests: dict[str, Any]) -> dict[str, Any]:
        body = {"requests": list(requests)}
        return self.api.spreadsheets().batchUpdate(spreadsheetId=sid, body=body).execute()


Check = Callable[[Calls], bool]
CHECKS: list[tuple[str, Check]] = []


def check(name: str) -> Callable[[Check], Check]:
    def add(f: Check) -> Check:
        CHECKS.append((name, f))
        return f

    return add


def _reads() -> None:
    cases = {
        "A1:C3": TABLE_STR,
        "Sheet1!A2:C": TABLE_STR[1:],
        "Sheet1!B:B": [["Region"], ["EMEA"], ["APAC"]],
        "Sheet1!2:2": [TABLE_STR[1]],
        "Sheet1": TABLE_STR,
        "'Sheet1'!C2": [["300"]],
        "Sheet1!$A$1:$B$2": [r[:2] for r in TABLE_STR[:2]],
        "Sheet1!C1:A1": [TABLE_STR[0]],
        "Sheet1!D1:F9": [],
        "sheet1!a1": [["Name"]],
    }
    for ref, want in cases.items():
        check(f"values.get {ref}")(lambda c, r=ref, w=want: c.get(c.fresh()[0], r) == w)
    renders = {
        "UNFORMATTED_VALUE": [[300], [100]],
        "FORMATTED_VALUE": [["300"], ["100"]],
        "FORMULA": [[300], [100]],
    }
    for opt, want in renders.items():
        check(f"values.get valueRenderOption={opt}")(
            lambda c, o=opt, w=want: c.get(c.fresh()[0], "C2:C3", valueRenderOption=o) == w
        )
    check("values.get majorDimension=COLUMNS")(
        lambda c: (
            c.get(c.fresh()[0], "A1:B2", majorDimension="COLUMNS")
            == [["Name", "Ann"], ["Region", "EMEA"]]
        )
    )
    check("values.batchGet")(
        lambda c: (
            [
                v.get("values")
                for v in c.values.batchGet(
                    spreadsheetId=c.fresh()[0], ranges=["A1", "B2"]
                ).execute()["valueRanges"]
            ]
            == [[["Name"]], [["EMEA"]]]
        )
    )


TABLE_STR = [[str(v) for v in row] for row in TABLE]


def _writes() -> None:
    typed = {
        "1,234.50": 1234.5,
        "$1,200": 1200,
        "12%": 0.12,
        "=2+3": 5,
        "TRUE": True,
        "'007": "007",
        "2024-02-29": 45351,
        "=SUM(C2:C3)": 400,
        "  x  ": "  x  ",
        '=REGEXREPLACE("a-b","(a)-(b)","$2$1")': "ba",
    }
    for text, want in typed.items():

        def run(c: Calls, t: str = text, w: Any = want) -> bool:
            sid, _ = c.fresh()
            c.put(sid, "E1", [[t]])
            return c.get(sid, "E1", valueRenderOption="UNFORMATTED_VALUE") == [[w]]

        check(f"values.update USER_ENTERED {text!r}")(run)
    for text in ("=1+1", "12%", "007", "TRUE"):

        def raw(c: Calls, t: str = text) -> bool:
            sid, _ = c.fresh()
            c.put(sid, "E1", [[t]], "RAW")
            return c.get(sid, "E1", valueRenderOption="UNFORMATTED_VALUE") == [[t]]

        check(f"values.update RAW {text!r}")(raw)

    def nulls(c: Calls) -> bool:
        sid, _ = c.fresh()
        c.put(sid, "A2:C2", [[None, "", "X"]])
        return c.get(sid, "A2:C2") == [["Ann", "", "X"]]

    check("values.update null keeps, '' clears")(nulls)

    def echo(c: Calls) -> bool:
        sid, _ = c.fresh()
        got = c.values.update(
            spreadsheetId=sid,
            range="E1",
            valueInputOption="USER_ENTERED",
            includeValuesInResponse=True,
            body={"values": [["=C2*2"]]},
        ).execute()
        return got["updatedData"]["values"] == [["600"]]

    check("values.update includeValuesInResponse")(echo)
    for how in ("OVERWRITE", "INSERT_ROWS"):

        def app(c: Calls, h: str = how) -> bool:
            sid, _ = c.fresh([*TABLE, [], ["after"]])
            got = c.values.append(
                spreadsheetId=sid,
                range="Sheet1!A1:C1",
                valueInputOption="USER_ENTERED",
                insertDataOption=h,
                includeValuesInResponse=True,
                body={"values": [["Cid", "EMEA", 5]]},
            ).execute()
            return (
                got["updates"]["updatedRange"] == "Sheet1!A4:C4"
                and got["updates"]["updatedData"]["values"] == [["Cid", "EMEA", "5"]]
                and c.get(sid, "A6" if h == "INSERT_ROWS" else "A5") == ([["after"]])
            )

        check(f"values.append {how}")(app)

    def clear(c: Calls) -> bool:
        sid, _ = c.fresh()
        c.values.clear(spreadsheetId=sid, range="A2:C2", body={}).execute()
        c.values.batchClear(spreadsheetId=sid, body={"ranges": ["A3"]}).execute()
        return c.get(sid, "A1:C3") == [TABLE_STR[0], [], ["", "APAC", "100"]]

    check("values.clear and batchClear")(clear)

    def batch_update(c: Calls) -> bool:
        sid, _ = c.fresh()
        got = c.values.batchUpdate(
            spreadsheetId=sid,
            body={
                "valueInputOption": "USER_ENTERED",
                "includeValuesInResponse": True,
                "data": [{"range": "D1", "values": [["=C2+C3"]]}, {"range": "E1", "values": [[1]]}],
            },
        ).execute()
        return got["totalUpdatedCells"] == 2 and got["responses"][0]["updatedData"]["values"] == [
            ["400"]
        ]

    check("values.batchUpdate includeValuesInResponse")(batch_update)


def _kinds() -> None:
    def fr(flags: dict[str, Any], rows: list[list[Any]], want: list[list[Any]]) -> Check:
        def run(c: Calls) -> bool:
            sid, sh = c.fresh()
            c.put(sid, "A1", rows, "RAW")
            c.batch(sid, {"findReplace": {"sheetId": sh, **flags}})
            return c.get(sid, f"A1:A{len(rows)}") == want

        return run

    rows = [["east"], ["Northeast"], ["EAST"]]
    check("findReplace matchEntireCell on RAW")(
        fr(
            {"find": "east", "replacement": "E", "matchEntireCell": True},
            rows,
            [["E"], ["Northeast"], ["E"]],
        )
    )
    check("findReplace anchored regex on RAW")(
        fr(
            {"find": "^n", "replacement": "S", "searchByRegex": True},
            rows,
            [["east"], ["Sortheast"], ["EAST"]],
        )
    )
    check("findReplace $1 groups")(
        fr(
            {"find": r"(\w)(\w+)", "replacement": "$2$1", "searchByRegex": True, "matchCase": True},
            [["ab"], ["xyz"]],
            [["ba"], ["yzx"]],
        )
    )
    check("findReplace matchCase")(
        fr(
            {"find": "EAST", "replacement": "W", "matchCase": True},
            rows,
            [["east"], ["Northeast"], ["W"]],
        )
    )

    def cut(c: Calls) -> bool:
        sid, sh = c.fresh([[1, "=A1*2"], ["=A1+B1", ""]])
        dest = {"sheetId": sh, "rowIndex": 4, "columnIndex": 4}
        c.batch(sid, {"cutPaste": {"source": grid(sh, 0, 1, 0, 2), "destination": dest}})
        return c.get(sid, "A2", valueRenderOption="FORMULA") == [["=E5+F5"]]

    check("cutPaste moves references")(cut)

    def copy(c: Calls) -> bool:
        sid, sh = c.fresh([[1, "=A1*2"], [2], [3]])
        src, dst = grid(sh, 0, 1, 1, 2), grid(sh, 1, 3, 1, 2)
        c.batch(sid, {"copyPaste": {"source": src, "destination": dst}})
        return c.get(sid, "B2:B3", valueRenderOption="FORMULA") == [["=A2*2"], ["=A3*2"]]

    check("copyPaste repeated over a multiple")(copy)
    simple: dict[str, tuple[Callable[[int], dict[str, Any]], Callable[[Calls, str], bool]]] = {
        "addSheet": (
            lambda sh: {"addSheet": {"properties": {"title": "New"}}},
            lambda c, sid: (
                len(c.api.spreadsheets().get(spreadsheetId=sid).execute()["sheets"]) == 2
            ),
        ),
        "updateSheetProperties title": (
            lambda sh: {
                "updateSheetProperties": {
                    "properties": {"sheetId": sh, "title": "T"},
                    "fields": "title",
                }
            },
            lambda c, sid: c.get(sid, "T!A1") == [["Name"]],
        ),
        "updateSheetProperties frozen": (
            lambda sh: {
                "updateSheetProperties": {
                    "properties": {
                        "sheetId": sh,
                        "gridProperties": {"frozenRowCount": 1, "frozenColumnCount": 1},
                    },
                    "fields": "gridProperties(frozenRowCount,frozenColumnCount)",
                }
            },
            lambda c, sid: (
                c.api.spreadsheets()
                .get(spreadsheetId=sid)
                .execute()["sheets"][0]["properties"]["gridProperties"]
                .get("frozenColumnCount")
                == 1
            ),
        ),
        "insertDimension rows": (
            lambda sh: {
                "insertDimension": {
                    "range": {"sheetId": sh, "dimension": "ROWS", "startIndex": 1, "endIndex": 2}
                }
            },
            lambda c, sid: c.get(sid, "A3") == [["Ann"]],
        ),
        "deleteDimension columns": (
            lambda sh: {
                "deleteDimension": {
                    "range": {"sheetId": sh, "dimension": "COLUMNS", "startIndex": 0, "endIndex": 1}
                }
            },
            lambda c, sid: c.get(sid, "A1") == [["Region"]],
        ),
        "sortRange": (
            lambda sh: {
                "sortRange": {
                    "range": grid(sh, 1, 3, 0, 3),
                    "sortSpecs": [{"dimensionIndex": 2, "sortOrder": "ASCENDING"}],
                }
            },
            lambda c, sid: c.get(sid, "A2:A3") == [["Bob"], ["Ann"]],
        ),
        "addNamedRange": (
            lambda sh: {
                "addNamedRange": {"namedRange": {"name": "Amounts", "range": grid(sh, 1, 3, 2, 3)}}
            },
            lambda c, sid: c.get(sid, "Amounts") == [["300"], ["100"]],
        ),
        "mergeCells": (
            lambda sh: {"mergeCells": {"range": grid(sh, 0, 1, 0, 2), "mergeType": "MERGE_ALL"}},
            lambda c, sid: (
                "merges" in c.api.spreadsheets().get(spreadsheetId=sid).execute()["sheets"][0]
            ),
        ),
        "repeatCell numberFormat": (
            lambda sh: {
                "repeatCell": {
                    "range": grid(sh, 1, 3, 2, 3),
                    "cell": {"userEnteredFormat": {"numberFormat": {"type": "CURRENCY"}}},
                    "fields": "userEnteredFormat.numberFormat",
                }
            },
            lambda c, sid: c.get(sid, "C2") == [["$300.00"]],
        ),
        "repeatCell scientific": (
            lambda sh: {
                "repeatCell": {
                    "range": grid(sh, 1, 3, 2, 3),
                    "cell": {"userEnteredFormat": {"numberFormat": {"type": "SCIENTIFIC"}}},
                    "fields": "userEnteredFormat.numberFormat",
                }
            },
            lambda c, sid: c.get(sid, "C2") == [["3.00E+02"]],
        ),
        "deleteDuplicates": (
            lambda sh: {"deleteDuplicates": {"range": grid(sh, 0, 3, 1, 2)}},
            lambda c, sid: True,
        ),
        "trimWhitespace": (
            lambda sh: {"trimWhitespace": {"range": grid(sh, 0, 3, 0, 3)}},
            lambda c, sid: c.get(sid, "A1") == [["Name"]],
        ),
        "autoFill": (
            lambda sh: {
                "autoFill": {
                    "sourceAndDestination": {
                        "source": grid(sh, 1, 2, 2, 3),
                        "dimension": "ROWS",
                        "fillLength": 1,
                    }
                }
            },
            lambda c, sid: c.get(sid, "C3") == [["300"]],
        ),
        "duplicateSheet": (
            lambda sh: {"duplicateSheet": {"sourceSheetId": sh, "newSheetName": "Copy"}},
            lambda c, sid: c.get(sid, "Copy!A2") == [["Ann"]],
        ),
        "updateSpreadsheetProperties": (
            lambda sh: {
                "updateSpreadsheetProperties": {
                    "properties": {"title": "Renamed"},
                    "fields": "title",
                }
            },
            lambda c, sid: (
                c.api.spreadsheets().get(spreadsheetId=sid).execute()["properties"]["title"]
                == "Renamed"
            ),
        ),
    }
    for name, (req, ok) in simple.items():

        def run(c: Calls, r=req, o=ok) -> bool:
            sid, sh = c.fresh()
            c.batch(sid, r(sh))
            return o(c, sid)

        check(f"batchUpdate {name}")(run)
    refused = [
        "setBasicFilter",
        "addConditionalFormatRule",
        "addFilterView",
        "addProtectedRange",
        "setDataValidation",
        "updateBorders",
        "updateDimensionProperties",
        "autoResizeDimensions",
        "addChart",
        "addBanding",
        "insertRange",
        "moveDimension",
        "textToColumns",
        "pasteData",
        "randomizeRange",
    ]
    for kind in refused:

        def unsupported(c: Calls, k: str = kind) -> bool:
            sid, _ = c.fresh()
            c.batch(sid, {k: {}})
            return False  # answered 200: not what a refusal is

        check(f"batchUpdate {kind}")(unsupported)


def _gspread() -> None:
    def ws(c: Calls) -> gspread.Worksheet:
        book = c.gc.create("Bench gspread")
        book.sheet1.update(TABLE, "A1", value_input_option="USER_ENTERED")
        return book.sheet1

    cases: dict[str, Callable[[gspread.Worksheet], bool]] = {
        "get_all_values": lambda w: w.get_all_values() == TABLE_STR,
        "get_all_records": lambda w: (
            w.get_all_records()[0] == {"Name": "Ann", "Region": "EMEA", "Amount": 300}
        ),
        "row_values": lambda w: w.row_values(2) == TABLE_STR[1],
        "col_values": lambda w: w.col_values(2) == ["Region", "EMEA", "APAC"],
        "acell": lambda w: w.acell("C2").value == "300",
        "cell numeric": lambda w: (
            w.cell(2, 3, value_render_option="UNFORMATTED_VALUE").value == 300
        ),
        "update_acell": lambda w: (w.update_acell("D1", "=C2*2"), w.acell("D1").value == "600")[1],
        "append_row": lambda w: (
            w.append_row(["Cid", "EMEA", 5]),
            w.row_values(4) == ["Cid", "EMEA", "5"],
        )[1],
        "append_rows": lambda w: (
            w.append_rows([["x"], ["y"]]),
            w.col_values(1)[-2:] == ["x", "y"],
        )[1],
        "insert_row": lambda w: (w.insert_row(["new"], 2), w.acell("A3").value == "Ann")[1],
        "delete_rows": lambda w: (w.delete_rows(2), w.acell("A2").value == "Bob")[1],
        "insert_cols": lambda w: (w.insert_cols([["c"]], 1), w.acell("B1").value == "Name")[1],
        "delete_columns": lambda w: (w.delete_columns(1), w.acell("A1").value == "Region")[1],
        "find": lambda w: w.find("APAC").address == "B3",
        "findall": lambda w: [x.address for x in w.findall("EMEA")] == ["B2"],
        "batch_get": lambda w: (
            [list(v) for v in w.batch_get(["A1", "B2"])] == [[["Name"]], [["EMEA"]]]
        ),
        "batch_clear": lambda w: (w.batch_clear(["A2"]), w.acell("A2").value is None)[1],
        "clear": lambda w: (w.clear(), w.get_all_values() in ([], [[]]))[1],
        "sort": lambda w: (w.sort((3, "asc"), range="A2:C3"), w.acell("A2").value == "Bob")[1],
        "freeze": lambda w: (w.freeze(rows=1, cols=1), w.frozen_col_count == 1)[1],
        "update_title": lambda w: (
            w.update_title("Renamed"),
            w.spreadsheet.sheet1.title == "Renamed",
        )[1],
        "format number": lambda w: (
            w.format("C2:C3", {"numberFormat": {"type": "NUMBER", "pattern": "0.0"}}),
            w.acell("C2").value == "300.0",
        )[1],
        "add_worksheet": lambda w: w.spreadsheet.add_worksheet("Two", 10, 5).title == "Two",
        "duplicate": lambda w: w.duplicate(new_sheet_name="Dup").acell("A2").value == "Ann",
        "copy_range": lambda w: (w.copy_range("A1:A2", "E1"), w.acell("E2").value == "Ann")[1],
        "cut_range": lambda w: (w.cut_range("A1:A2", "E1"), w.acell("A2").value is None)[1],
        "define_named_range": lambda w: (
            w.define_named_range("A1:B2", "Top"),
            w.get("Top")[0][0] == "Name",
        )[1],
        "share": lambda w: (
            w.spreadsheet.share(None, perm_type="anyone", role="reader"),
            any(p["type"] == "anyone" for p in w.spreadsheet.list_permissions()),
        )[1],
        "update_index": lambda w: (
            w.spreadsheet.add_worksheet("Z", 5, 5).update_index(0),
            w.spreadsheet.worksheets()[0].title == "Z",
        )[1],
        "merge_cells": lambda w: (
            w.merge_cells("A1:B1"),
            "merges" in w.spreadsheet.fetch_sheet_metadata()["sheets"][0],
        )[1],
    }
    for name, f in cases.items():
        check(f"gspread {name}")(lambda c, f=f: f(ws(c)))

    def by_key(c: Calls) -> bool:
        w = ws(c)
        return c.gc.open_by_key(w.spreadsheet.id).title == "Bench gspread"

    def copy(c: Calls) -> bool:
        w = ws(c)
        return c.gc.copy(w.spreadsheet.id, title="Copied").sheet1.acell("A2").value == "Ann"

    check("gspread open_by_key")(by_key)
    check("gspread copy")(copy)

    def by_url(c: Calls) -> bool:
        book = c.gc.create("By URL")
        url = book.fetch_sheet_metadata()["spreadsheetUrl"]
        return c.gc.open_by_url(url).id == book.id

    check("gspread open_by_url (spreadsheetUrl)")(by_url)


def _errors() -> None:
    for ref in ("Sheet1!A0", "Sheet1!A1:A0", "Nope!A1", "Sheet1!ZZZZ1"):

        def bad(c: Calls, r: str = ref) -> bool:
            c.get(c.fresh()[0], r)
            return False

        check(f"values.get {ref} is a 400")(bad)

    def drive_copy(c: Calls) -> bool:
        sid, _ = c.fresh()
        made = c.drive.files().copy(fileId=sid, body={"name": "D"}).execute()
        return c.get(made["id"], "C2") == [["300"]]

    check("drive files.copy")(drive_copy)
    check("drive files.list")(
        lambda c: any(
            f["name"] == "Orders 2025"
            for f in c.drive.files().list(q="name = 'Orders 2025'").execute()["files"]
        )
    )


EXPECTED_400 = "is a 400"


def classify(c: Calls, name: str, f: Check) -> tuple[str, str]:
    """pass / refused / wrong, and why."""
    try:
        ok = f(c)
    except HttpError as exc:
        status, content = exc.resp.status, exc.content.decode(errors="replace")
        shaped = content.lstrip().startswith("{") and '"error"' in content
        if EXPECTED_400 in name and status == 400 and shaped:
            return "pass", ""
        return ("refused" if 400 <= status < 500 and shaped else "wrong"), content[:160]
    except gspread.exceptions.APIError as exc:
        code = exc.response.status_code
        shaped = exc.response.text.lstrip().startswith("{")
        return ("refused" if 400 <= code < 500 and shaped else "wrong"), str(exc)[:160]
    except Exception as exc:  # a client that broke on the answer: a wrong answer
        return "wrong", f"{type(exc).__name__}: {exc}"[:160]
    return ("pass", "") if ok else ("wrong", "answered with another result")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="list every call")
    args = parser.parse_args()
    for build in (_reads, _writes, _kinds, _gspread, _errors):
        build()
    counts = {"pass": 0, "refused": 0, "wrong": 0}
    served = serve_world()
    base, world = next(served)
    calls = Calls(base, world)
    for name, f in CHECKS:
        verdict, why = classify(calls, name, f)
        counts[verdict] += 1
        if args.verbose or verdict == "wrong":
            print(f"{verdict:8} {name}" + (f"  [{why}]" if why and args.verbose else ""))
    print(
        f"{len(CHECKS)} calls: {counts['pass']} pass, {counts['refused']} refused, "
        f"{counts['wrong']} wrong"
    )
    next(served, None)


if __name__ == "__main__":
    main()
