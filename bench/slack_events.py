"""Benchmark: what the Events API costs a tool call, and how fast events arrive.

Prints the median CPU time of one ``slack_post_message`` tool call on an in-memory world
(1) with no app subscribed, (2) with an app subscribed to reactions only (the posts
cost the one extra query at commit, and send nothing), and (3) with an app whose bot
receives every post (envelopes built at commit, posted by the dispatcher's thread,
off the call's path); then the median wall time from a post's commit to its arrival
at a local receiver that verifies nothing and answers 200.

    python bench/slack_events.py [--calls 2000]
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

from sqlalchemy import select

from officegym.apps.org.models import Person
from officegym.apps.slack import delivery
from officegym.apps.slack import events as apps
from officegym.runner import ToolRunner
from officegym.world import World, world_image

ARRIVED: list[float] = []


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        ARRIVED.append(time.perf_counter())
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        """Quiet."""


def post_times(world: World, n: int) -> tuple[float, list[float]]:
    """Median CPU ms of `n` posts to #general, and each post's wall-clock commit time."""
    runner = ToolRunner(world, "kturner")
    cpu, committed = [], []
    for i in range(n):
        start = time.thread_time()
        assert runner.call("slack_post_message", {"channel": "general", "text": f"bench {i}"}).ok
        cpu.append(time.thread_time() - start)
        committed.append(time.perf_counter())
    runner.close()
    return statistics.median(cpu) * 1000, committed


def subscribe(world: World, url: str, kinds: list[str]) -> None:
    """An app whose bot user is @kturner (in #general), subscribed to `kinds`."""
    with world.session() as s:
        person = s.scalars(select(Person).where(Person.handle == "kturner")).one()
        apps.create_app(s, person, name="bench", request_url=url, events=kinds)
        s.commit()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    n = parser.parse_args().calls
    server = HTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}/events"
    world = World(world_image("default", 0))
    base, _ = post_times(world, n)
    print(f"tool call, no app subscribed:              {base:.3f} ms")
    world.reset()
    subscribe(world, url, ["reaction_added"])
    quiet, _ = post_times(world, n)
    print(f"tool call, an app subscribed to reactions: {quiet:.3f} ms")
    world.reset()
    subscribe(world, url, ["message.channels"])
    ARRIVED.clear()
    heard, committed = post_times(world, n)
    delivery.dispatcher().join(60)
    print(f"tool call, every post delivered:           {heard:.3f} ms")
    lag = [a - c for a, c in zip(ARRIVED, committed, strict=False)]
    print(f"events delivered: {len(ARRIVED)} of {n}; commit-to-arrival median "
          f"{statistics.median(lag) * 1000:.2f} ms")  # fmt: skip
    server.shutdown()


if __name__ == "__main__":
    main()
