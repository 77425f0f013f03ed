"""officegym.apps: one sub-package per clone, all of the same shape
(models.py, service.py, tools.py, routes.py + templates/<app>/). See README.md."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator
from types import ModuleType

__all__ = ["app_names", "iter_app_modules"]


def app_names() -> list[str]:
    """Every app sub-package, discovered from the folder (no hand-kept list)."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg)


def iter_app_modules(kind: str) -> Iterator[tuple[str, ModuleType]]:
    """Import and yield each app's `kind` module (models, tools, routes...) that exists."""
    for app in app_names():
        name = f"{__name__}.{app}.{kind}"
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        yield app, module
