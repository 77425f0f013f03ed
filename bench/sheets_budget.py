"""What the evaluation budget costs an ordinary edit: the workbook of
`sheets_engine.py` (10,000 cells, 2,000 formulas), one input cell typed and its
dependents recalculated, with the budget's checks enforced and with them switched off
(`budget.Limits(enforced=False)`), alternating in one run so both see the same machine.
Prints the medians and their ratio (on / off).

    python bench/sheets_budget.py [--runs 300]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from officegym.apps.sheets import budget, store
from officegym.apps.sheets.engine import Book
from officegym.world import World, world_image

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sheets_engine import ROWS, build
from timing import pin_to_one_core

OFF = budget.Limits(enforced=False)


def edit_times(b: Book, runs: int) -> tuple[list[float], list[float]]:
    """Per-edit CPU seconds with the budget on and off, the two alternating."""
    sid = next(iter(b.sheets))
    rng = random.Random(3)
    on: list[float] = []
    off: list[float] = []
    for i in range(2 * runs):
        r, c = rng.randint(2, ROWS + 1), rng.randint(1, 4)
        b.set_input(sid, r, c, str(rng.randint(1, 1000)))
        t = time.thread_time()
        if i % 2:
            with budget.limits(OFF):
                b.recalc([(sid, r, c)])
            off.append(time.thread_time() - t)
        else:
            b.recalc([(sid, r, c)])
            on.append(time.thread_time() - t)
    return on, off


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300)
    args = parser.parse_args()
    where = pin_to_one_core()
    world = World(world_image("default", 0))
    wb_id, _ = build(world)
    with world.session() as s:
        b = store.load(s, wb_id)
    edit_times(b, 20)  # warm the compile cache and the interpreter
    on, off = edit_times(b, args.runs)
    m_on, m_off = statistics.median(on) * 1e3, statistics.median(off) * 1e3
    print(f"edit + recalc, {args.runs} each ({where}, cpu time):")
    print(f"  budget on   {m_on:.3f} ms")
    print(f"  budget off  {m_off:.3f} ms")
    print(f"  ratio on/off {m_on / m_off:.3f}")


if __name__ == "__main__":
    main()
