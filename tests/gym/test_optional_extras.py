"""The core never imports the optional stacks: `import officegym` (and its gym and CLI)
loads none of openai, ray, openenv, verifiers, pyarrow, playwright, pillow, skyrl_gym."""

from __future__ import annotations

import subprocess
import sys

OPTIONAL = ("openai", "ray", "openenv", "verifiers", "pyarrow", "playwright", "PIL", "skyrl_gym")


def test_importing_officegym_loads_no_optional_stack() -> None:
    code = (
        "import sys, officegym, officegym.gym, officegym.cli, officegym.gym.llm\n"
        f"print(sorted(m for m in {OPTIONAL!r} if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
