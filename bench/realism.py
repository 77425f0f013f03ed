"""Print how believable a built world reads (issue 31's figures, `seed_data.realism`):
repeated chat texts, topic-free posts, stock replies, mis-named replies, off-role and
off-hours posts, CRM records that contradict themselves, review variety and counts; and
the CPU time the build took. Each figure is marked with its limit and whether it holds.

    python bench/realism.py [--scenario default] [--seed 0] [--json out.json]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time

from officegym.seed_data import build_image
from officegym.seed_data.realism import LIMITS, measure
from officegym.world import World


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", action="append", help="scenario name (repeatable)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", help="write the figures to this file")
    args = ap.parse_args()
    out = {}
    for name in args.scenario or ["default"]:
        t0 = time.process_time()
        image = build_image(name, args.seed)
        built = time.process_time() - t0
        world = World(image)
        with world.session() as s:
            figures = measure(s)
        world.close()
        out[name] = {"build_cpu_s": round(built, 2), **dataclasses.asdict(figures)}
        print(f"# {name} (seed {args.seed}): built in {built:.1f} s CPU")
        for key, value in dataclasses.asdict(figures).items():
            bound, kind = LIMITS.get(key, (None, ""))
            mark = ""
            if bound is not None:
                ok = value <= bound if kind == "max" else value >= bound
                mark = f"   ({kind} {bound}) {'ok' if ok else 'OVER'}"
            print(f"{key:28} {value:10.4g}{mark}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(out, fh, indent=1)


if __name__ == "__main__":
    main()
