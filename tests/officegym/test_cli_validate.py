"""`officegym validate` is an author's whole contract: it checks a template on every
shipped scenario with ``--scenario all``, and in a source checkout it fails, naming the
command that writes them again, when a checked template no longer builds what its
stored fingerprint says (the suite's fingerprint test would fail next)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from officegym.cli import main
from officegym.seed_data.scenario import scenario_names
from officegym.tasks import fingerprints

TEMPLATE = "slack.set-status"
QUICK = ["--seeds", "1", "--no-mutants", "--jobs", "1"]


@pytest.fixture
def prints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the stored prints that the test may change."""
    copy = tmp_path / "prints.json"
    copy.write_text(fingerprints.STORED.read_text())
    monkeypatch.setattr(fingerprints, "STORED", copy)
    return copy


def test_a_template_that_builds_its_stored_tasks_validates(prints: Path) -> None:
    result = CliRunner().invoke(main, ["validate", TEMPLATE, *QUICK])
    assert result.exit_code == 0, result.output
    assert "fingerprint" not in result.stderr


@pytest.mark.parametrize(("edit", "why"), [("changed", "changed"), ("dropped", "new")])
def test_a_stale_fingerprint_fails_validate_and_says_how_to_write_it(
    prints: Path, edit: str, why: str
) -> None:
    stored = json.loads(prints.read_text())
    key = next(k for k in stored if k.startswith(f"{TEMPLATE}@"))
    if edit == "changed":
        stored[key] = "0" * 16
    else:
        del stored[key]
    prints.write_text(json.dumps(stored))
    result = CliRunner().invoke(main, ["validate", TEMPLATE, *QUICK])
    assert result.exit_code == 1
    said = " ".join(result.stderr.split())
    assert f"fingerprint {why}: {key}" in said and fingerprints.WRITE_AGAIN in said


def test_scenario_all_checks_the_template_on_every_shipped_world() -> None:
    result = CliRunner().invoke(main, ["validate", TEMPLATE, *QUICK, "--scenario", "all", "--json"])
    assert result.exit_code == 0, result.output
    reports = json.loads(result.stdout)["worlds"]
    assert [r["scenario"] for r in reports] == scenario_names()
    assert all(r["templates"][TEMPLATE]["ok"] for r in reports)
