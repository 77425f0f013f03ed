"""Running LibreOffice headless once on a corpus workbook, its results cached by the
corpus digest and the LibreOffice version (a changed corpus or a fresh machine runs
it again)."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from tests.apps.sheets.corpus import Corpus, write_xlsx

# Recalculate every formula on load (LibreOffice otherwise trusts cached values).
PROFILE = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<oor:items xmlns:oor="http://openoffice.org/2001/registry" '
    'xmlns:xs="http://www.w3.org/2001/XMLSchema" '
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n'
    '<item oor:path="/org.openoffice.Office.Calc/Formula/Load">'
    '<prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>\n'
    "</oor:items>\n"
)


def soffice() -> str | None:
    return shutil.which("soffice") or shutil.which("libreoffice")


def version(binary: str) -> str:
    out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=120)
    return out.stdout.strip()


def _plain(v: Any) -> Any:
    if isinstance(v, dt.datetime):
        delta = v - dt.datetime(1899, 12, 30)
        return delta.days + delta.seconds / 86400
    if isinstance(v, dt.date):
        return (v - dt.date(1899, 12, 30)).days
    if isinstance(v, dt.time):
        return (v.hour * 3600 + v.minute * 60 + v.second) / 86400
    return v


def recalculate(corpus: Corpus, binary: str) -> dict[str, list[Any]]:
    """LibreOffice's values of Formulas!A (ours) and B (the equivalents)."""
    from openpyxl import load_workbook

    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp, "corpus.xlsx"), Path(tmp, "out")
        write_xlsx(corpus, str(src))
        profile = Path(tmp, "profile", "user")
        profile.mkdir(parents=True)
        (profile / "registrymodifications.xcu").write_text(PROFILE)
        cmd = [
            binary,
            f"-env:UserInstallation=file://{profile.parent}",
            "--headless",
            "--norestore",
            "--convert-to",
            "xlsx",
            "--outdir",
            str(out),
            str(src),
        ]
        subprocess.run(
            cmd, check=True, capture_output=True, timeout=300, env={**os.environ, "HOME": tmp}
        )
        ws = load_workbook(out / "corpus.xlsx", data_only=True)["Formulas"]
        a = [_plain(ws.cell(row=i + 1, column=1).value) for i in range(len(corpus.formulas))]
        b = [_plain(ws.cell(row=i + 1, column=2).value) for i in range(len(corpus.pairs))]
    return {"formulas": a, "pairs": b}


def cached_results(corpus: Corpus, binary: str) -> dict[str, list[Any]]:
    """`recalculate`, remembered in ~/.cache/officegym by corpus digest and version."""
    tag = hashlib.sha256(version(binary).encode()).hexdigest()[:8]
    key = f"{corpus.digest()}-{tag}"
    root = Path(os.environ.get("OFFICEGYM_CACHE", str(Path.home() / ".cache" / "officegym")))
    file = root / f"libreoffice-corpus-{key}.json"
    if root.name != "off" and file.exists():
        return json.loads(file.read_text())
    results = recalculate(corpus, binary)
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(json.dumps(results))
    except OSError:
        pass
    return results
