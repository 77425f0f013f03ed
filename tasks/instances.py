"""Task instances built ahead, so drawing a fresh one costs about what a cached one does.

Building an instance costs two things an episode otherwise pays at every fresh reset:
the template reads the world to make the task (`make_task`), and grading replays the
reference solution to learn the end state it expects (`officegym.tasks.expected`). An
instance store holds both, computed once per (template, level, seed) on one world, for
every process to read: ``officegym instances build --app slack --seeds 500`` writes it,
and an env made with ``instance_pool=True`` draws each reset's task from it.

A store is one SQLite file next to the world cache (`officegym.world.cache_root`), named
by the world and by a key over the world image's digest, the source of every officegym
module (core, apps, seed data, tasks), the Python version and the pickler's, so a
changed template or tool never serves a stale instance: it opens another (absent) store.
Instances are pickled with cloudpickle, which keeps the checks templates build as
closures; the store is a cache of this machine's own making, read like the world cache.
"""

from __future__ import annotations

import functools
import hashlib
import sqlite3
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from pathlib import Path

import cloudpickle

from officegym.tasks.base import Task, get_template, make_task, task_level
from officegym.tasks.difficulty import Difficulty
from officegym.tasks.expected import Expected, expected, remember
from officegym.tasks.splits import Split, split_of
from officegym.world import cache_root, world_image

__all__ = ["InstanceStore", "build_store", "open_store", "store_path"]

STORE_VERSION = 1
RECENT = 8  # instances a store keeps unpickled
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS instances (template TEXT NOT NULL, level TEXT NOT NULL, "
    "seed INTEGER NOT NULL, split TEXT, data BLOB, PRIMARY KEY (template, level, seed))"
)

# Told (template id, instances done, instances in all) as a store is built.
Progress = Callable[[str, int, int], None]


@functools.cache
def _code_key() -> bytes:
    """A hash of every officegym source file and of the pickling runtime."""
    import officegym

    roots = {Path(p) for p in officegym.__path__}
    for sub in ("apps", "seed_data", "tasks"):
        module = __import__(f"officegym.{sub}", fromlist=["__path__"])
        roots |= {Path(p) for p in module.__path__}
    h = hashlib.sha256(f"{STORE_VERSION}|{sys.version}|{cloudpickle.__version__}".encode())
    for root in sorted(roots):
        for f in sorted(root.rglob("*.py")):
            h.update(f.relative_to(root).as_posix().encode() + b"\0" + f.read_bytes())
    return h.digest()


def store_path(scenario: str, world_seed: int) -> Path | None:
    """The file of the store of world (scenario, world_seed) for this code (None: the
    cache is off, ``OFFICEGYM_CACHE=off``)."""
    root = cache_root()
    if root is None:
        return None
    digest = world_image(scenario, world_seed).digest
    key = hashlib.sha256(digest.encode() + _code_key()).hexdigest()[:20]
    return root / f"instances-{scenario}-{world_seed}-{key}.sqlite"


class InstanceStore:
    """The instances built ahead on one world: each (template, level, seed)'s task and
    expected end state, and its split (None: the template cannot build that seed here)."""

    def __init__(self, path: Path, scenario: str, world_seed: int) -> None:
        self.path, self.scenario, self.world_seed = path, scenario, world_seed
        self._db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        self._lock = threading.Lock()
        self._seeds: dict[tuple[str, str, str], tuple[int, ...]] = {}
        self._recent: OrderedDict[tuple[str, int, str], Task] = OrderedDict()

    def seeds(self, template_id: str, level: Difficulty, split: Split) -> tuple[int, ...]:
        """The seeds of `split` the store holds for the template at `level`, in order."""
        key = (template_id, level, split)
        if key not in self._seeds:
            with self._lock:
                rows = self._db.execute(
                    "SELECT seed FROM instances WHERE template = ? AND level = ? AND split = ? "
                    "ORDER BY seed",
                    key,
                ).fetchall()
            self._seeds[key] = tuple(r[0] for r in rows)
        return self._seeds[key]

    def task(self, template_id: str, seed: int, level: Difficulty) -> Task | None:
        """The stored task of (template, seed, level), its expected end state handed to
        the grader's cache (`officegym.tasks.expected.remember`); None if not stored. The
        last few read are kept (a reset reads its instance twice: its split, then its task)."""
        key = (template_id, seed, level)
        with self._lock:
            task = self._recent.get(key)
            if task is not None:
                return task
            row = self._db.execute(
                "SELECT data FROM instances WHERE template = ? AND level = ? AND seed = ?",
                (template_id, level, seed),
            ).fetchone()
        if row is None or row[0] is None:
            return None
        task, found = cloudpickle.loads(row[0])
        remember(task, found)
        with self._lock:
            self._recent[key] = task
            if len(self._recent) > RECENT:
                self._recent.popitem(last=False)
        return task

    def close(self) -> None:
        self._db.close()


_OPEN: dict[tuple[str, int], InstanceStore | None] = {}
_OPEN_LOCK = threading.Lock()


def open_store(scenario: str, world_seed: int) -> InstanceStore | None:
    """This process's store of the world for this code, or None if none was built."""
    key = (scenario, world_seed)
    with _OPEN_LOCK:
        if key not in _OPEN:
            path = store_path(scenario, world_seed)
            exists = path is not None and path.exists()
            _OPEN[key] = InstanceStore(path, scenario, world_seed) if exists else None  # type: ignore[arg-type]
        return _OPEN[key]


def instance(
    template_id: str,
    seed: int,
    scenario: str,
    world_seed: int,
    level: Difficulty | None,
    store: InstanceStore | None,
) -> Task:
    """The task of (template, seed, level) on the world: from `store` when it holds it,
    else built (`make_task`)."""
    if store is not None:
        found = store.task(template_id, seed, task_level(get_template(template_id), level))
        if found is not None:
            return found
    return make_task(template_id, seed, scenario, world_seed, level)


def _built(template_id: str, seed: int, scenario: str, world_seed: int, level: Difficulty):
    """One row of a store: (split, pickled (task, expected)), or (None, None)."""
    try:
        task = make_task(template_id, seed, scenario, world_seed, level)
    except LookupError:
        return None, None
    found: Expected = expected(task)
    return split_of(task), cloudpickle.dumps((task, found), protocol=5)


def build_store(
    template_ids: Iterable[str],
    seeds: int,
    scenario: str = "default",
    world_seed: int = 0,
    *,
    progress: Progress | None = None,
) -> tuple[Path, int]:
    """Add seeds ``0..seeds-1`` of every level of each template to the world's store (kept
    ones are not built again); returns the store's path and how many were built."""
    path = store_path(scenario, world_seed)
    if path is None:
        raise ValueError("the cache is off (OFFICEGYM_CACHE=off): there is nowhere to keep a store")
    path.parent.mkdir(parents=True, exist_ok=True)
    ids = list(template_ids)
    cells = [(t, lv) for t in ids for lv in get_template(t).levels]
    built = done = 0
    db = sqlite3.connect(path)
    try:
        db.execute(_SCHEMA)
        for tid, level in cells:
            have = {r[0] for r in db.execute(
                "SELECT seed FROM instances WHERE template = ? AND level = ?", (tid, level)
            )}  # fmt: skip
            for seed in range(seeds):
                if seed not in have:
                    split, data = _built(tid, seed, scenario, world_seed, level)
                    db.execute("INSERT INTO instances VALUES (?, ?, ?, ?, ?)",
                               (tid, level, seed, split, data))  # fmt: skip
                    built += 1
                done += 1
                if progress is not None:
                    progress(tid, done, len(cells) * seeds)
            db.commit()
            make_task.cache_clear()  # bounded memory: the store holds them now
    finally:
        db.close()
    with _OPEN_LOCK:  # a store this process opened before now holds more
        stale = _OPEN.pop((scenario, world_seed), None)
    if stale is not None:
        stale.close()
    return path, built
