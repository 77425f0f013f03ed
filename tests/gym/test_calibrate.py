"""Calibration: noisy reference solvers of known skill are measured at the rate their skill
implies, 0% is told apart as broken or hard, and the calibration file is checked on load."""

from __future__ import annotations

import json
import random
from pathlib import Path
from statistics import NormalDist

import pytest
from gymnasium.envs.registration import registry
from sqlalchemy.orm import Session

from officegym.errors import ConfigError
from officegym.gym.agents import NoisyOracleAgent, fatal_steps, make_agent, parse_agent
from officegym.gym.calibrate import arms, calibrate
from officegym.gym.calibration import Calibration, Entry, load_calibration, wilson
from officegym.gym.registration import env_id
from officegym.tasks import TEMPLATES, make_task
from officegym.tasks.base import Spec, template
from officegym.tasks.checks import RowExists
from officegym.tasks.common import call
from officegym.tasks.steps import Step


def test_wilson_interval_matches_known_values() -> None:
    low, high = wilson(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)
    assert wilson(0, 20)[0] == 0.0 and 0.16 < wilson(0, 20)[1] < 0.17
    assert wilson(0, 0) == (0.0, 1.0)


def test_agent_specs_parse_and_refuse_bad_rates() -> None:
    assert parse_agent("noisy:0.25") == ("noisy", {"p": 0.25})
    assert parse_agent("oracle") == ("oracle", {})
    for bad in ("noisy", "noisy:x", "noisy:1.5", "oracle:0.2"):
        with pytest.raises(ValueError, match=r"noisy|takes no"):
            parse_agent(bad)
    assert isinstance(make_agent("noisy", seed=3, p=0.1), NoisyOracleAgent)


@pytest.mark.parametrize("template_id", ["slack.post-channel", "crm.close-case"])
def test_noisy_agents_pass_at_the_rate_their_skill_implies(template_id: str) -> None:
    """A solver erring with probability p per step passes about (1 - p) ** n of the
    episodes, n the steps that matter (writes and answer): within the interval that holds
    95% of the time for all six (template, level) rates at once (Bonferroni: each one's
    99.6%). Since readers fail closed no near-miss passes, so the rate is the draw's own:
    crm.close-case easy draws 14 wrong writes in 30 (16 passes, 0.53; 0.7 expected)."""
    p = 0.3
    result = calibrate("noisy", arms([template_id]), 30, agent_options={"p": p})
    assert [e.difficulty for e in result.entries] == ["easy", "medium", "hard"]
    z = NormalDist().inv_cdf(1 - 0.05 / (2 * 6))
    for e in result.entries:
        n = fatal_steps(make_task(template_id, 0, difficulty=e.difficulty))
        expected = (1 - p) ** n
        low, high = wilson(e.passed, e.episodes, z)
        assert low <= expected <= high, (e.difficulty, n, e.pass_rate, expected)
    rates = [e.pass_rate for e in result.entries]
    assert rates[0] > rates[2]  # more rows to change, more chances to err


def test_the_oracle_passes_everything_and_a_hopeless_agent_is_flagged_hard_not_broken() -> None:
    pairs = [("slack.dm-by-name", "hard")]
    oracle = calibrate("oracle", pairs, 3)
    assert oracle.entries[0].pass_rate == 1.0 and oracle.entries[0].flag == "too-easy"
    hopeless = calibrate("noisy", pairs, 3, agent_options={"p": 1.0})
    entry = hopeless.entries[0]
    assert (entry.passed, entry.flag, entry.reference_passes) == (0, "zero", True)


def test_a_template_whose_reference_fails_is_flagged_impossible() -> None:
    tid = "slack.calibration-probe"
    persona = make_task("slack.count-members", 0).persona

    def probe(w: Session, rng: random.Random) -> Spec:
        """A probe whose reference solution cannot pass (it wants a pin never made)."""
        return Spec(
            goal="Pin the message.",
            persona=persona,
            steps=[
                Step(
                    calls=[call("slack_list_channels")],
                    checks=[
                        RowExists(
                            name="a pin that never comes", table="slack_pin", where={"id": -1}
                        )
                    ],
                )
            ],
        )

    try:
        template(tid, difficulty="easy")(probe)
        entry = calibrate("oracle", [(tid, "easy")], 2).entries[0]
        assert (entry.passed, entry.flag, entry.reference_passes) == (0, "impossible", False)
    finally:
        TEMPLATES.pop(tid, None)
        registry.pop(env_id(tid), None)


def _entry(**changes: object) -> dict:
    base = Entry.measure("slack.post-channel", "easy", [1.0, 0.0], [True, False]).model_dump()
    return {**base, **changes}


def test_the_calibration_file_round_trips(tmp_path: Path) -> None:
    cal = Calibration(agent="noisy:0.2", rollouts=2, entries=[Entry(**_entry())])
    cal.save(tmp_path / "c.json")
    assert load_calibration(tmp_path / "c.json") == cal
    assert cal.rates() == {("slack.post-channel", "easy"): 0.5}


@pytest.mark.parametrize(
    ("data", "field"),
    [
        (
            {"agent": "x", "rollouts": 2, "entries": [_entry(difficulty="extreme")]},
            "entries.0.difficulty",
        ),
        ({"agent": "x", "rollouts": 0, "entries": []}, "rollouts"),
        ({"agent": "x", "rollouts": 2, "entries": [_entry(passed=3)]}, "entries.0"),
        ({"rollouts": 2, "entries": []}, "agent"),
        ({"format": "other/9", "agent": "x", "rollouts": 2, "entries": []}, "format"),
    ],
)
def test_a_bad_calibration_file_names_file_and_field(
    tmp_path: Path, data: dict, field: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ConfigError) as err:
        load_calibration(path)
    assert err.value.file == str(path) and err.value.field == field


def test_a_calibration_file_that_is_not_json_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text("{not json")
    with pytest.raises(ConfigError, match="not JSON"):
        load_calibration(path)
    with pytest.raises(ConfigError, match="cannot read"):
        load_calibration(tmp_path / "missing.json")
