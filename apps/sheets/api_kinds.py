"""Every request kind of Google's spreadsheets.batchUpdate, as its Request object lists
them: the clone serves some (`api_requests.REQUESTS`) and refuses the others with a 400
that names the kind and says it is not supported — Google says "Unknown name … Cannot
find field" only for a misspelt kind, and so does the clone. `markdown()` is the row of
the docs' table (docs/serving.md), written from these lists (a test keeps them equal)."""

from __future__ import annotations

__all__ = ["GOOGLE_KINDS", "NOTES", "markdown"]

GOOGLE_KINDS = [
    "updateSpreadsheetProperties",
    "updateSheetProperties",
    "updateDimensionProperties",
    "updateNamedRange",
    "repeatCell",
    "addNamedRange",
    "deleteNamedRange",
    "addSheet",
    "deleteSheet",
    "autoFill",
    "cutPaste",
    "copyPaste",
    "mergeCells",
    "unmergeCells",
    "updateBorders",
    "updateCells",
    "addFilterView",
    "appendCells",
    "clearBasicFilter",
    "deleteDimension",
    "deleteEmbeddedObject",
    "deleteFilterView",
    "duplicateFilterView",
    "duplicateSheet",
    "findReplace",
    "insertDimension",
    "insertRange",
    "moveDimension",
    "updateEmbeddedObjectPosition",
    "pasteData",
    "textToColumns",
    "updateFilterView",
    "deleteRange",
    "appendDimension",
    "addConditionalFormatRule",
    "updateConditionalFormatRule",
    "deleteConditionalFormatRule",
    "sortRange",
    "setDataValidation",
    "setBasicFilter",
    "addProtectedRange",
    "updateProtectedRange",
    "deleteProtectedRange",
    "autoResizeDimensions",
    "addChart",
    "updateChartSpec",
    "updateBanding",
    "addBanding",
    "deleteBanding",
    "createDeveloperMetadata",
    "updateDeveloperMetadata",
    "deleteDeveloperMetadata",
    "randomizeRange",
    "addDimensionGroup",
    "deleteDimensionGroup",
    "updateDimensionGroup",
    "trimWhitespace",
    "deleteDuplicates",
    "updateEmbeddedObjectBorder",
    "addSlicer",
    "updateSlicerSpec",
    "addDataSource",
    "updateDataSource",
    "deleteDataSource",
    "refreshDataSource",
    "cancelDataSourceRefresh",
    "addTable",
    "updateTable",
    "deleteTable",
]

# What a served kind does and does not do, for the docs.
NOTES = {
    "updateSheetProperties": "title, index, frozen rows and columns",
    "updateSpreadsheetProperties": "title",
    "mergeCells": "MERGE_ALL, MERGE_COLUMNS, MERGE_ROWS; every cell keeps its content",
    "repeatCell": "values, formulas, number formats",
    "updateCells": "values, formulas, number formats; a pivotTable becomes a pivot table",
    "autoFill": "one source row or column",
    "copyPaste": "PASTE_NORMAL, the source repeated over a larger destination",
    "cutPaste": "PASTE_NORMAL; references to the moved cells follow them",
    "findReplace": "RAW text matched as shown, regex groups as $1, a 1 s budget",
    "trimWhitespace": "text cells of the range",
    "appendCells": "values and formulas under the sheet's last row",
}


def markdown(served: list[str]) -> str:
    """The docs' table row of batchUpdate kinds: the served ones (with their notes) and
    the refused ones."""
    shown = [f"{k} ({NOTES[k]})" if k in NOTES else k for k in served]
    refused = [k for k in GOOGLE_KINDS if k not in served]
    return (
        f"| batchUpdate kinds | {', '.join(shown)} | a 400 naming the kind: {', '.join(refused)} |"
    )
