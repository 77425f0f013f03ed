"""Worlds are deterministic across processes and reset restores them exactly; a kept
world knows which world it is."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from sqlalchemy import text

from officegym.changes import CHANGE_TABLE, diff, full_diff
from officegym.db import Base, serialize, sha256_digest
from officegym.errors import Conflict, Invalid
from officegym.runner import CallOutcome, ToolRunner
from officegym.world import World, latest_time, world_image
from officegym.world_identity import (
    IDENTITY_TABLE,
    WorldIdentity,
    read_identity,
    record_identity,
    stored_identity,
)

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


def test_worlds_of_one_image_share_one_seeded_copy_that_outlives_them(world: World) -> None:
    other = World(world.image)
    assert other.initial_engine is world.initial_engine  # one copy per process, not per env
    runner = ToolRunner(other, "kturner")
    assert act(runner, "slack_post_message", channel="general", text="only here").ok
    runner.close()
    other.close()
    with world.initial_connection() as before, world.engine.connect() as after:
        assert diff(before, after) == []  # the other world's write is not in the seeded copy
        assert sha256_digest(serialize(world.initial_engine)) == world.image.digest


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


def test_a_file_world_records_its_identity_and_no_diff_sees_it(tmp_path: Path) -> None:
    image = world_image("default", 0)
    url = f"sqlite:///{tmp_path / 'w.sqlite'}"
    world = World(image, url)
    assert stored_identity(url) == image.identity == WorldIdentity("default", 0, image.digest)
    assert IDENTITY_TABLE not in Base.metadata.tables
    with world.engine.connect() as conn:
        assert conn.execute(text(f"SELECT count(*) FROM {CHANGE_TABLE}")).scalar() == 0
    assert act(ToolRunner(world, "kturner"), "slack_post_message", channel="general", text="x").ok
    with world.initial_connection() as before, world.engine.connect() as after:
        changed = {c.table for c in diff(before, after)}
        assert changed == {c.table for c in full_diff(before, after)}
    assert IDENTITY_TABLE not in changed and "slack_message" in changed
    world.close()


def test_an_in_memory_world_records_nothing(world: World) -> None:
    assert read_identity(world.engine) is None
    assert sha256_digest(serialize(world.engine)) == world.image.digest
    assert stored_identity("sqlite:///does/not/exist.sqlite") is None


def test_keeping_a_file_of_another_seed_is_refused_naming_the_file(tmp_path: Path) -> None:
    image = world_image("default", 0)
    path = tmp_path / "w.sqlite"
    World(image, f"sqlite:///{path}").close()
    with pytest.raises(Conflict) as refused:
        World(replace(image, seed=1), f"sqlite:///{path}", fresh=False)
    assert refused.value.code == "world_mismatch"
    assert str(path) in refused.value.message
    assert "holds the world of scenario 'default' seed 0, not scenario 'default' seed 1" in (
        refused.value.message
    )
    rewritten = World(replace(image, seed=1), f"sqlite:///{path}", fresh=True)
    assert read_identity(rewritten.engine) == replace(image, seed=1).identity
    rewritten.close()


def test_keeping_a_file_seeded_by_other_code_is_refused(tmp_path: Path) -> None:
    image = world_image("default", 0)
    url = f"sqlite:///{tmp_path / 'w.sqlite'}"
    world = World(image, url)
    record_identity(world.engine, replace(image.identity, digest="0" * 64))
    world.close()
    with pytest.raises(Conflict, match="another version of the seed data"):
        World(image, url, fresh=False)


def test_a_kept_file_without_identity_opens_as_the_image_says(tmp_path: Path) -> None:
    """Files written before identities were recorded still open (the caller vouches)."""
    image = world_image("default", 0)
    url = f"sqlite:///{tmp_path / 'w.sqlite'}"
    written = World(image, url)
    with written.engine.begin() as conn:
        conn.execute(text(f"DROP TABLE {IDENTITY_TABLE}"))
    written.close()
    kept = World(replace(image, seed=1), url, fresh=False)
    assert read_identity(kept.engine) is None
    kept.close()


def test_a_file_that_holds_no_world_is_named_as_such(tmp_path: Path) -> None:
    empty, junk = tmp_path / "empty.sqlite", tmp_path / "junk.sqlite"
    empty.touch()
    junk.write_bytes(b"not a database at all " * 50)
    with pytest.raises(Invalid, match=f"{empty} holds no officegym world"):
        stored_identity(f"sqlite:///{empty}")
    with pytest.raises(Invalid, match=f"{junk} is not a world database"):
        stored_identity(f"sqlite:///{junk}")
