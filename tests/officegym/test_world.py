"""Worlds are deterministic across processes and reset restores them exactly."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

from officegym.db import serialize, sha256_digest
from officegym.runner import CallOutcome, ToolRunner
from officegym.world import World, latest_time, world_image

BUILD = "from officegym.seed_data import build_image; print(build_image('default', {seed}).digest)"


def act(runner: ToolRunner, tool: str, **arguments: object) -> CallOutcome:
    return runner.call(tool, arguments)


def _digest_in_fresh_process(seed: int, hash_seed: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "OFFICEGYM_CACHE": "off"}
    cmd = [sys.executable, "-c", BUILD.format(seed=seed)]
    return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, text=True)


def test_same_scenario_and_seed_give_identical_bytes_in_two_processes() -> None:
    procs = [_digest_in_fresh_process(0, h) for h in ("1", "2")]
    digests = [p.communicate(timeout=300)[0].strip() for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert digests[0] == digests[1] == world_image("default", 0).digest


def test_reset_restores_the_seeded_bytes(world: World) -> None:
    runner = ToolRunner(world, "kturner")
    assert act(runner, "slack_post_message", channel="general", text="temporary").ok
    runner.close()
    assert sha256_digest(serialize(world.engine)) != world.image.digest
    world.reset()
    assert sha256_digest(serialize(world.engine)) == world.image.digest


def test_worlds_are_isolated(world: World) -> None:
    other = World(world.image)
    runner = ToolRunner(world, "kturner")
    assert act(runner, "slack_post_message", channel="general", text="only here").ok
    assert sha256_digest(serialize(other.engine)) == world.image.digest
    other.close()


def test_clock_is_frozen_at_the_scenario_date_and_rewinds(world: World) -> None:
    start = world.image.start
    first = world.clock.now()
    assert first > start and (first - start).total_seconds() == 1
    world.reset()
    assert world.clock.now() == first


def test_initial_state_is_read_only(world: World) -> None:
    with world.initial_connection() as conn:
        try:
            conn.exec_driver_sql("DELETE FROM slack_message")
        except Exception as exc:
            assert "readonly" in str(exc).replace(" ", "").lower() or "query_only" in str(exc)
        else:
            raise AssertionError("the initial state accepted a write")


def test_a_kept_file_world_continues_after_its_latest_change(tmp_path: Path) -> None:
    image = world_image("default", 0)
    url = f"sqlite:///{tmp_path / 'w.sqlite'}"
    first = World(image, url)
    for _ in range(3):  # move the clock on, and store the times
        assert act(
            ToolRunner(first, "kturner"), "slack_post_message", channel="general", text="hi"
        ).ok
    stored = latest_time(first.engine)
    assert stored is not None and stored > image.start
    first.close()
    kept = World(image, url, fresh=False)
    assert kept.clock.now() > stored
    rewritten = World(image, url, fresh=True)
    assert rewritten.clock.now() == image.start + dt.timedelta(seconds=1)
