"""officegym: Gymnasium environments over clones of office apps on one shared database.

Importing the package makes its environments available to Gymnasium:

    import gymnasium, officegym
    env = gymnasium.make("officegym/slack-v0")

(or, with no import, ``gymnasium.make("officegym:officegym/slack-v0")``).

Importing it stays light: it imports neither Gymnasium nor any app or template. If
Gymnasium is already imported the env ids are registered at once; otherwise they are
registered the moment Gymnasium is imported (a one-shot import hook), so both import
orders work and ``import officegym.errors`` (every CLI call, every worker) pays for
neither. Registration itself reads only ids and entry-point strings
(`officegym.gym.registration`); templates load when an env or a command needs them.
"""

import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence as _Sequence
from pathlib import Path as _Path
from types import ModuleType as _ModuleType

__all__ = ["__version__", "register_envs"]

__version__ = "0.1.0"

# In a source checkout this folder holds the core modules only: the sub-packages live in
# the sibling folders pyproject.toml maps (apps/ is officegym.apps, gym/ officegym.gym,
# ...). Python finds this folder before an installed copy when run from the checkout's
# root; the root on __path__ then resolves officegym.gym and the others to those
# folders, as an install does. An installed package has them inside and is left alone.
_CHECKOUT = _Path(__file__).resolve().parent.parent
if not _Path(__file__).with_name("gym").is_dir() and (_CHECKOUT / "gym" / "__init__.py").is_file():
    __path__.append(str(_CHECKOUT))


def register_envs() -> list[str]:
    """Register every officegym env id with Gymnasium (idempotent); returns the ids."""
    from officegym.gym.registration import register_envs as register

    return register()


class _RegisterWhenGymnasiumLoads(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds nothing itself: when ``gymnasium`` is first imported it lets the other
    finders locate it, runs Gymnasium's own loader, then registers officegym's ids."""

    def find_spec(
        self, fullname: str, path: _Sequence[str] | None, target: _ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != "gymnasium":
            return None
        sys.meta_path.remove(self)  # one shot, and keeps the search below from recursing
        for finder in sys.meta_path:
            spec = (
                finder.find_spec(fullname, path, target) if hasattr(finder, "find_spec") else None
            )
            if spec is not None:
                if spec.loader is not None:  # else a namespace package: nothing to wrap
                    self._loader = spec.loader
                    spec.loader = self
                return spec
        return None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> _ModuleType | None:
        return self._loader.create_module(spec)  # type: ignore[union-attr]

    def exec_module(self, module: _ModuleType) -> None:
        module.__loader__ = module.__spec__.loader = self._loader  # type: ignore[union-attr]
        self._loader.exec_module(module)  # type: ignore[union-attr]
        registering = sys.modules.get("officegym.gym.registration")
        if registering is None or hasattr(registering, "register_envs"):
            register_envs()
        # else: Gymnasium is being imported by officegym.gym.registration itself, which
        # registers the ids once it is loaded.


if "gymnasium" in sys.modules:
    register_envs()
elif not any(isinstance(f, _RegisterWhenGymnasiumLoads) for f in sys.meta_path):
    sys.meta_path.insert(0, _RegisterWhenGymnasiumLoads())
