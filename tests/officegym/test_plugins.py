"""An author's own package, installed beside officegym and registered by entry points,
gives templates that are listed, registered as env ids, made and validated like the
shipped ones, and scenarios found by name. The package is a real distribution on the
path (a ``.dist-info`` folder with its entry points, as pip writes one), used from fresh
processes, as an author's would be."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from officegym.seed_data.scenario import SCENARIO_DIR

TEMPLATE = '''
"""Acme's own chat templates."""

import random

from sqlalchemy.orm import Session

from officegym.tasks.base import Spec, template
from officegym.tasks.common import people, pick, post_step
from officegym.tasks.slack.common import channels_of
from officegym.tasks.statements import Says

TIMES = ["9:15", "9:30", "9:45", "10:05", "10:20"]


@template("slack.acme-standup", difficulty="easy")
def acme_standup(w: Session, rng: random.Random) -> Spec:
    """Tell one of your channels at what time today's stand-up starts."""
    me = pick(rng, people(w), "people")
    ch = pick(rng, channels_of(w, me), "channels")
    time = rng.choice(TIMES)
    says = Says(all_of=[[time]], none_of=[t for t in TIMES if t != time], act="announce")
    return Spec(
        goal=f"Let #{ch.name} know that today's stand-up starts at {time}.",
        persona=me.handle,
        steps=[
            post_step(
                me, ch.id, f"Today's stand-up starts at {time}.", says,
                name=f"start time posted in #{ch.name}", channel=ch.name,
            )
        ],
    )
'''

ENTRY_POINTS = """
[officegym.tasks]
acme = acme_office.tasks

[officegym.scenarios]
acme = acme_office.scenarios
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the installed package ``acme-office`` and its metadata."""
    root = tmp_path_factory.mktemp("site")
    package = root / "acme_office"
    (package / "tasks").mkdir(parents=True)
    (package / "scenarios").mkdir()
    (package / "__init__.py").write_text("")
    (package / "tasks" / "__init__.py").write_text('"""Acme\'s templates."""\n')
    (package / "tasks" / "chat.py").write_text(TEMPLATE)
    (package / "scenarios" / "__init__.py").write_text("")
    startup = (SCENARIO_DIR / "startup.toml").read_text()
    (package / "scenarios" / "acme-firm.toml").write_text(startup)
    info = root / "acme_office-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-office\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    return root


def _run(site: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *sys.path])}
    return subprocess.run(
        [sys.executable, *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900
    )


def test_a_plugins_template_is_listed_and_validated_like_a_shipped_one(
    site: Path, tmp_path: Path
) -> None:
    cli = "from officegym.cli import main; main()"
    listed = _run(site, tmp_path, "-c", cli, "tasks", "slack.acme-standup", "--json")
    assert listed.returncode == 0, listed.stderr
    (row,) = json.loads(listed.stdout)
    assert "stand-up starts" in json.dumps(row)
    checked = _run(site, tmp_path, "-c", cli, "validate", "slack.acme-standup", "--seeds", "3")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "slack.acme-standup" in checked.stdout


def test_a_plugins_template_is_an_env_id_that_makes_and_scores(site: Path, tmp_path: Path) -> None:
    code = textwrap.dedent(
        """
        import gymnasium, officegym
        env = gymnasium.make("officegym/slack.acme-standup-v0")
        obs, info = env.reset(seed=0)
        for call in env.unwrapped.task.solution:
            env.step({"tool": call.name, "arguments": call.arguments})
        print(obs["goal"])
        print(env.step({"tool": "submit", "arguments": {}})[1])
        """
    )
    out = _run(site, tmp_path, "-c", code)
    assert out.returncode == 0, out.stderr
    goal, reward = out.stdout.strip().splitlines()[-2:]
    assert "stand-up starts at" in goal and float(reward) == 1.0


def test_a_plugins_scenario_is_found_by_name(site: Path, tmp_path: Path) -> None:
    code = (
        "from officegym.seed_data.scenario import load_scenario, scenario_names\n"
        "print('acme-firm' in scenario_names(), load_scenario('acme-firm').source)"
    )
    out = _run(site, tmp_path, "-c", code)
    assert out.returncode == 0, out.stderr
    found, source = out.stdout.split()
    assert found == "True" and Path(source) == site / "acme_office/scenarios/acme-firm.toml"
