"""officegym's tasks as a verifiers taskset (``vf-eval officegym-verifiers``).

verifiers 0.4 loads a taskset by id as a package that exports its `Taskset` subclass
(and here its `Env` subclass) through ``__all__``: the id ``officegym-verifiers`` imports
this package. It is its own top-level package so that ``import officegym`` never
imports verifiers (the ``verifiers`` extra). See `officegym_verifiers.taskset`.
"""

from officegym_verifiers.taskset import (
    OfficeData,
    OfficeEnv,
    OfficeEnvConfig,
    OfficeTask,
    OfficeTaskset,
    OfficeTasksetConfig,
    OfficeTextTask,
)

__all__ = [
    "OfficeData",
    "OfficeEnv",
    "OfficeEnvConfig",
    "OfficeTask",
    "OfficeTaskset",
    "OfficeTasksetConfig",
    "OfficeTextTask",
]
