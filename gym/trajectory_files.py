"""Writing trajectory records as they finish: JSONL always, Parquet when pyarrow is there.

Each record (`officegym.gym.worker`) is one JSON line, flushed at once, so a run that
stops midway keeps every finished episode. The Parquet file (the ``parquet`` extra)
has one row per episode: the fields people filter on as columns (index, env id, task,
seed, split, reward, passed, steps, agent, failure) and the whole record as JSON text
in ``trajectory``; rows are written in row groups of `batch` episodes, the last at
`close`.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import TracebackType
from typing import Any

__all__ = ["PARQUET_COLUMNS", "TrajectoryWriter", "parquet_available", "read_jsonl"]

PARQUET_COLUMNS = (
    "index", "env_id", "task_id", "task_seed", "split", "difficulty", "reward", "passed",
    "n_steps", "agent", "failure", "trajectory",
)  # fmt: skip


def parquet_available() -> bool:
    """Whether pyarrow can be imported (without importing it)."""
    return importlib.util.find_spec("pyarrow") is not None


class TrajectoryWriter:
    """Appends records to `jsonl` (and `parquet`, if given) as they arrive."""

    def __init__(self, jsonl: str | Path, parquet: str | Path | None = None, batch: int = 64):
        self.jsonl = Path(jsonl)
        self.jsonl.parent.mkdir(parents=True, exist_ok=True)
        self._file = self.jsonl.open("a", encoding="utf-8")
        self.parquet = Path(parquet) if parquet is not None else None
        self.batch = batch
        self._rows: list[dict[str, Any]] = []
        self._writer: Any = None
        self.written = 0
        if self.parquet is not None and not parquet_available():
            raise ImportError("Parquet output needs pyarrow: pip install 'officegym[parquet]'")

    def write(self, record: dict[str, Any]) -> None:
        """Write one episode's record now."""
        text = json.dumps(record, ensure_ascii=False, default=repr)
        self._file.write(text + "\n")
        self._file.flush()
        self.written += 1
        if self.parquet is not None:
            self._rows.append(_row(record, text))
            if len(self._rows) >= self.batch:
                self._flush_rows()

    def _flush_rows(self) -> None:
        if not self._rows:
            return
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.Table.from_pylist(self._rows, schema=_schema())
        if self._writer is None:
            self.parquet.parent.mkdir(parents=True, exist_ok=True)  # type: ignore[union-attr]
            self._writer = pq.ParquetWriter(str(self.parquet), table.schema)
        self._writer.write_table(table)
        self._rows = []

    def close(self) -> None:
        """Write what is left and close both files."""
        if self.parquet is not None:
            self._flush_rows()
            if self._writer is not None:
                self._writer.close()
                self._writer = None
        self._file.close()

    def __enter__(self) -> TrajectoryWriter:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def _row(record: dict[str, Any], text: str) -> dict[str, Any]:
    task = record.get("task") or {}
    return {
        "index": record.get("index"),
        "env_id": record.get("env_id"),
        "task_id": task.get("id"),
        "task_seed": task.get("seed"),
        "split": task.get("split"),
        "difficulty": task.get("difficulty"),
        "reward": float(record.get("reward") or 0.0),
        "passed": bool(record.get("passed")),
        "n_steps": record.get("n_steps"),
        "agent": record.get("agent"),
        "failure": record.get("failure"),
        "trajectory": text,
    }


def _schema() -> Any:
    import pyarrow as pa

    types = {
        "index": pa.int64(), "task_seed": pa.int64(), "n_steps": pa.int64(),
        "reward": pa.float64(), "passed": pa.bool_(),
    }  # fmt: skip
    return pa.schema([(c, types.get(c, pa.string())) for c in PARQUET_COLUMNS])


def read_jsonl(path: str | Path) -> list[dict[str, Any]]:
    """Every record of a JSONL trajectory file."""
    with Path(path).open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]
