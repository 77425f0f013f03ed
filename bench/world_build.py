"""World build CPU time, this checkout beside another commit's (side by side, alternating,
so the machine's load weighs on both alike): each build runs in a fresh process that
prints the CPU seconds `build_image(scenario, seed)` took there.

    python bench/world_build.py [--ref main] [--scenario default] [--rounds 2]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHILD = (
    "import sys, time; from officegym.seed_data import build_image; t = time.process_time(); "
    "build_image(sys.argv[1], 0); print(time.process_time() - t)"
)


def checkout(ref: str, into: Path) -> Path:
    """The tree of commit `ref` written under `into` (no git state touched)."""
    archive = into / "tree.tar"
    with archive.open("wb") as fh:
        subprocess.run(["git", "-C", str(ROOT), "archive", ref], stdout=fh, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into / "tree", filter="data")
    return into / "tree"


def build_seconds(root: Path, scenario: str) -> float:
    """CPU seconds of one build with the code under `root` (the cache off)."""
    env = {"OFFICEGYM_CACHE": "off", "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", CHILD, scenario], cwd=root, env=env,
                         capture_output=True, text=True, check=True)  # fmt: skip
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ref", default="main", help="the commit to compare with")
    ap.add_argument("--scenario", action="append", help="scenario (repeatable)")
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        other = checkout(args.ref, Path(tmp))
        for scenario in args.scenario or ["default"]:
            times: dict[str, list[float]] = {args.ref: [], "this": []}
            for _ in range(args.rounds):
                times[args.ref].append(build_seconds(other, scenario))
                times["this"].append(build_seconds(ROOT, scenario))
            ref, this = (statistics.median(times[k]) for k in (args.ref, "this"))
            print(f"{scenario:12} {args.ref}: {ref:6.2f} s CPU   this: {this:6.2f} s CPU   "
                  f"ratio {this / ref:.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
