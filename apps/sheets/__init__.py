"""The spreadsheet clone (Google Sheets-like): workbooks, sheets, cells with an
Excel-compatible formula engine, pivot tables, xlsx/CSV files. See service.py."""
