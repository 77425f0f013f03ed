"""Spreadsheet task templates (pivots, formulas, look-ups, fixes, questions)."""
