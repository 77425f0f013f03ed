"""Benchmark of the booking site's hot paths, through the tools (as agents call them):
stay search over a 5,000-listing world with every filter, a quote, and world reset.

Prints medians (and p90) in milliseconds of CPU time on one core, with the targets:
search <= 5 ms p50, quote <= 1 ms, reset <= 1 ms.

    python bench/booking_search.py [--listings 5000] [--calls 400]
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from officegym.runner import ToolRunner
from officegym.seed_data.scenario import scenario_path
from officegym.world import World, world_image

DAY = dt.timedelta(days=1)
CITIES = ("new-york-ny", "chicago-il", "portland-me", "london-uk", "austin-tx", "paris-fr")


def scenario_with(listings: int) -> str:
    """The default scenario with `listings` listings, as a file of its own."""
    text = scenario_path("default").read_text()
    text = text.replace("listings = 3000", f"listings = {listings}")
    path = Path(tempfile.gettempdir()) / f"booking-bench-{listings}.toml"
    path.write_text(text.replace('name = "default"', f'name = "booking{listings}"'))
    return str(path)


def timed(fn, n: int) -> list[float]:
    out = []
    for i in range(n):
        t = time.thread_time()
        fn(i)
        out.append((time.thread_time() - t) * 1e3)
    return out


def measure(listings: int, calls: int) -> list[tuple[str, list[float], str]]:
    world = World(world_image(scenario_with(listings), 0))
    runner = ToolRunner(world, "rgreen")
    start = world.image.start.date() + 20 * DAY

    def search(i: int) -> None:
        ci = start + (i % 30) * DAY
        args = {"city": CITIES[i % len(CITIES)], "check_in": ci.isoformat(),
                "check_out": (ci + 3 * DAY).isoformat(), "guests": 2, "bedrooms": 1, "beds": 1,
                "min_price": 50, "max_price": 600, "property_type": "apartment",
                "amenities": ["wifi"], "instant_book": True, "min_rating": 3.5,
                "sort": "total_price", "limit": 20}  # fmt: skip
        assert runner.call("booking_search_stays", args).ok

    def bare_search(i: int) -> None:
        ci = start + (i % 30) * DAY
        args = {"city": CITIES[i % len(CITIES)], "check_in": ci.isoformat(),
                "check_out": (ci + 3 * DAY).isoformat(), "sort": "total_price"}  # fmt: skip
        assert runner.call("booking_search_stays", args).ok

    def quote(i: int) -> None:
        ci = start + (i % 60) * DAY
        args = {"listing_id": 1 + i % listings, "check_in": ci.isoformat(),
                "check_out": (ci + 4 * DAY).isoformat()}  # fmt: skip
        runner.call("booking_quote_stay", args)

    search(0), quote(0)  # statements built outside the timings
    figures = [
        ("search, every filter (tool call)", timed(search, calls), "<= 5 ms p50"),
        ("search, city and dates only (tool call)", timed(bare_search, calls), ""),
        ("quote (tool call)", timed(quote, calls), "<= 1 ms"),
        ("world.reset()", timed(lambda i: world.reset(), calls), "<= 1 ms"),
    ]
    runner.close()
    size = len(world.image.data) / 1e6
    world.close()
    default = World(world_image("default", 0))
    figures.append(("world.reset(), default world", timed(lambda i: default.reset(), calls), ""))
    default_size = len(default.image.data) / 1e6
    default.close()
    Console().print(f"world image: {size:.2f} MB with {listings:,} listings; "
                    f"default world {default_size:.2f} MB")  # fmt: skip
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listings", type=int, default=5000)
    parser.add_argument("--calls", type=int, default=400)
    args = parser.parse_args()
    table = Table(title=f"booking hot paths ({args.listings:,} listings, CPU time)")
    for column in ("measure", "p50 ms", "p90 ms", "target"):
        table.add_column(column)
    for name, samples, target in measure(args.listings, args.calls):
        p90 = statistics.quantiles(samples, n=10)[-1]
        table.add_row(name, f"{statistics.median(samples):.3f}", f"{p90:.3f}", target)
    Console().print(table)


if __name__ == "__main__":
    main()
