"""Opening a world for a command says so while a world is built (a first build takes
minutes on a loaded machine), on stderr so stdout stays JSON or the MCP stream."""

from __future__ import annotations

import pytest

from officegym.cli_worlds import shown_world_image
from officegym.seed_data import build_image, generators


def test_a_build_reports_each_generator_then_done() -> None:
    told: list[tuple[str, int, int]] = []
    build_image("startup", 5, progress=lambda *step: told.append(step))
    names = [g.__name__.rsplit(".", 1)[-1] for g in generators()]
    total = len(names)
    assert told == [(n, i, total) for i, n in enumerate(names)] + [("done", total, total)]


def test_a_command_building_a_world_says_so_on_stderr(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("OFFICEGYM_CACHE", "off")
    image = shown_world_image("startup", 6)
    out, err = capsys.readouterr()
    assert image.seed == 6 and out == ""
    assert "Building world startup seed 6" in err
