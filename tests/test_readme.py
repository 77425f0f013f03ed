"""The Python snippets of the README and docs/ run as written: the env snippets after
the quick start's imports, the curriculum after the docs' own calibrate command, the client
snippets (slack_sdk, Bolt, Google's clients, gspread) against a served world, whose
address stands in for ``http://127.0.0.1:8000``. The CDP snippet runs in
tests/gym/browser/test_browser_external.py."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from officegym.web import create_app
from officegym.world import World, world_image
from tests.apps.slack.conftest import serving

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PRELUDE = "import gymnasium\nimport officegym\n"
SERVED = "http://127.0.0.1:8000"


def snippets() -> list[str]:
    """Every ```python block of the README and docs/, dedented (some sit in list items)."""
    text = "\n".join(doc.read_text() for doc in DOCS)
    blocks = re.findall(r"^( *)```python\n(.*?)^ *```", text, re.S | re.M)
    return [textwrap.dedent(code) for _, code in blocks]


def snippet(marker: str) -> str:
    found = [s for s in snippets() if marker in s]
    assert len(found) == 1, f"{len(found)} README snippets hold {marker!r}"
    return found[0]


def run(code: str, cwd: Path, **env: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, **env},
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


def test_every_snippet_is_run_by_a_test() -> None:
    """A new snippet must be added to a test below (or to the CDP test)."""
    markers = [*ENV_SNIPPETS, "curriculum=", 'responder="llm"', *CLIENT_SNIPPETS]
    markers.append("connect_over_cdp")
    for code in snippets():
        assert any(m in code for m in markers), code


ENV_SNIPPETS = (
    '"officegym/slack-v0", max_steps=30',
    'difficulty="hard"',
    'scenario="startup"',
    'attack="mixed"',
)


@pytest.mark.parametrize("marker", sorted(ENV_SNIPPETS))
def test_env_snippets_run(tmp_path: Path, marker: str) -> None:
    code = snippet(marker)
    run(code if code.startswith("import") else PRELUDE + code, tmp_path)


def test_the_curriculum_snippet_runs_after_the_readmes_calibrate_command(tmp_path: Path) -> None:
    text = (ROOT / "docs" / "gym.md").read_text()
    command = re.search(r"^officegym calibrate --agent noisy:\S+.*$", text, re.M)
    assert command is not None
    args = shlex.split(command.group(0))
    officegym = Path(sys.executable).with_name("officegym")
    subprocess.run([str(officegym), *args[1:]], cwd=tmp_path, check=True, capture_output=True)
    assert (tmp_path / "calibration.json").exists()
    run(PRELUDE + snippet("curriculum=") + "\nprint(env.reset(seed=0)[1]['task']['id'])", tmp_path)


def test_the_llm_responder_snippet_runs_with_its_settings(tmp_path: Path) -> None:
    """The settings the README names; the model is asked only when an agent asks."""
    code = PRELUDE + snippet('responder="llm"') + "\nenv.reset(seed=0)\n"
    url = "http://127.0.0.1:9/v1"
    run(code, tmp_path, OFFICEGYM_RESPONDER_MODEL="colleague", OFFICEGYM_RESPONDER_URL=url)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The default world served over HTTP, as `officegym serve` serves it; its base URL."""
    path = tmp_path_factory.mktemp("readme") / "world.sqlite"
    world = World(world_image("default", 0), url=f"sqlite:///{path}")
    with serving(create_app(world)) as api:
        yield api.removesuffix("/api/")
    world.close()


CLIENT_SNIPPETS = {
    "from slack_sdk import WebClient\n\nclient": "",
    "from slack_bolt import App": "kturner",
    "from googleapiclient.discovery import build": "",
    "import gspread": "",
}


@pytest.mark.parametrize("marker", sorted(CLIENT_SNIPPETS))
def test_client_snippets_run_against_a_served_world(
    tmp_path: Path, served: str, marker: str
) -> None:
    code = snippet(marker)
    assert SERVED in code
    out = run(code.replace(SERVED, served), tmp_path)
    assert CLIENT_SNIPPETS[marker] in out
