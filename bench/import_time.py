"""What importing officegym costs, side by side with importing Gymnasium.

    python bench/import_time.py [--runs 7]

Each statement runs in a fresh interpreter (``python -c``), alternating between the
statements so machine load hits them alike; the figure is the median of the runs of
the child's CPU time (user + system, from the OS), which a loaded machine disturbs
less than wall time. ``python -c pass`` is measured too and subtracted, so the
figures are the import alone. The ratio ``import officegym`` / ``import gymnasium`` is
the one issue 23 asks to keep at or under 2; ``gymnasium.make("officegym/<app>-v0")``
(a usable env, its world cached) / ``import gymnasium`` is the one issue 36 asks to
bring to 2.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

STATEMENTS = {
    "python -c pass": "pass",
    "import gymnasium": "import gymnasium",
    "import officegym": "import officegym",
    "import officegym.errors": "import officegym.errors",
    "import gymnasium, officegym": "import gymnasium, officegym",
    "gymnasium.make slack": "import gymnasium, officegym; gymnasium.make('officegym/slack-v0')",
    "gymnasium.make crm": "import gymnasium, officegym; gymnasium.make('officegym/crm-v0')",
}


def child_cpu_seconds(code: str) -> float:
    """CPU seconds (user + system) of one fresh interpreter running `code`."""
    before = os.times()
    subprocess.run([sys.executable, "-c", code], check=True)
    after = os.times()
    return (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )


def measure(runs: int) -> dict[str, float]:
    """Median CPU seconds of each statement over `runs` alternating runs."""
    samples: dict[str, list[float]] = {name: [] for name in STATEMENTS}
    for _ in range(runs):
        for name, code in STATEMENTS.items():
            samples[name].append(child_cpu_seconds(code))
    return {name: statistics.median(values) for name, values in samples.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    medians = measure(args.runs)
    base = medians["python -c pass"]
    print(f"median CPU of {args.runs} fresh interpreters, less `python -c pass` ({base:.3f} s)")
    for name, seconds in medians.items():
        if name != "python -c pass":
            print(f"  {name:<30} {seconds - base:7.3f} s")
    ratio = (medians["import officegym"] - base) / (medians["import gymnasium"] - base)
    print(f"ratio import officegym / import gymnasium: {ratio:.2f} (target <= 2)")
    for app in ("slack", "crm"):
        made = (medians[f"gymnasium.make {app}"] - base) / (medians["import gymnasium"] - base)
        print(f"ratio gymnasium.make {app} / import gymnasium: {made:.2f} (target <= 2)")


if __name__ == "__main__":
    main()
