"""Agreement of the formula engine with LibreOffice, before and after: the LibreOffice
corpora of the tests (`tests/apps/sheets/corpus.py` and the business corpus
`corpus_business.py`: formulas and Google-only pairs) evaluated by the engine of this
checkout and by the engine of another git revision (default: the commit before issue
30's formula work), each against LibreOffice's recalculation of the same workbook.

The other revision is exported with `git archive` and run in a subprocess from its own
folder (a source checkout imports its own `officegym`), so both engines see the very
same corpus. LibreOffice runs once per corpus (cached like the tests' runs).

    python bench/formula_agreement.py [--before de07c89]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from officegym.apps.sheets.values import XlError  # noqa: E402
from tests.apps.sheets import corpus, corpus_business, libreoffice  # noqa: E402
from tests.apps.sheets.test_libreoffice import same  # noqa: E402

# Evaluates a corpus (JSON on stdin) with whatever `officegym` the working folder holds.
EVALUATE = r"""
import json, sys
sys.path.insert(0, ".")
from officegym.apps.sheets.engine import Book
from officegym.apps.sheets.values import XlError
c = json.load(sys.stdin)
b = Book(1, 46000.0)
for sid, (name, rows) in enumerate(c["data"].items(), start=1):
    b.add_sheet(sid, name)
    for r, row in enumerate(rows, start=1):
        for col, v in enumerate(row, start=1):
            if v is None or v == "":
                continue
            text = ("TRUE" if v else "FALSE") if isinstance(v, bool) else str(v)
            quote = isinstance(v, str) and (v.strip() != v or v == "12")
            b.set_input(sid, r, col, "'" + text if quote else text)
fid = len(c["data"]) + 1
b.add_sheet(fid, "Formulas")
for i, f in enumerate(c["formulas"], start=1):
    b.set_input(fid, i, 1, "=" + f)
for i, (ours, _) in enumerate(c["pairs"], start=1):
    b.set_input(fid, i, 2, "=" + ours)
b.recalc_all()
def plain(v):
    if isinstance(v, list):
        v = v[0][0] if v and v[0] else None
    return {"error": v.code} if isinstance(v, XlError) else v
out = {
    "formulas": [plain(b.value(fid, i, 1)) for i in range(1, len(c["formulas"]) + 1)],
    "pairs": [plain(b.value(fid, i, 2)) for i in range(1, len(c["pairs"]) + 1)],
}
print(json.dumps(out))
"""


def values_in(folder: Path, c: corpus.Corpus) -> dict[str, list[Any]]:
    """The corpus's values by the engine of the checkout in `folder`."""
    blob = json.dumps({"data": c.data, "formulas": c.formulas, "pairs": c.pairs})
    run = subprocess.run(
        [sys.executable, "-c", EVALUATE],
        input=blob,
        capture_output=True,
        text=True,
        cwd=folder,
        check=True,
    )
    raw = json.loads(run.stdout)
    return {
        k: [XlError(v["error"]) if isinstance(v, dict) else v for v in vs] for k, vs in raw.items()
    }


def agreement(ours: dict[str, list[Any]], theirs: dict[str, list[Any]]) -> tuple[int, int]:
    hits = sum(same(o, t) for o, t in zip(ours["formulas"], theirs["formulas"], strict=True))
    hits += sum(same(o, t) for o, t in zip(ours["pairs"], theirs["pairs"], strict=True))
    return hits, len(ours["formulas"]) + len(ours["pairs"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="de07c89", help="the git revision to compare with")
    args = parser.parse_args()
    binary = libreoffice.soffice()
    if binary is None:
        sys.exit("no LibreOffice: scripts/setup --dev installs libreoffice-calc-nogui")
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", args.before], capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        print(f"{'corpus':<12}{'formulas':>9}{'before':>18}{'this branch':>18}")
        totals = [0, 0, 0]
        for name, c in (("general", corpus.build()), ("business", corpus_business.build())):
            theirs = libreoffice.cached_results(c, binary)
            before, n = agreement(values_in(Path(tmp), c), theirs)
            after, _ = agreement(values_in(ROOT, c), theirs)
            totals = [totals[0] + before, totals[1] + after, totals[2] + n]
            print(f"{name:<12}{n:>9}{_pct(before, n):>18}{_pct(after, n):>18}")
        b, a, n = totals
        print(f"{'all':<12}{n:>9}{_pct(b, n):>18}{_pct(a, n):>18}")


def _pct(hits: int, n: int) -> str:
    return f"{hits}/{n} {100 * hits / n:.1f}%"


if __name__ == "__main__":
    main()
