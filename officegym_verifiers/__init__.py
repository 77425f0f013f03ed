"""officegym's tasks as a verifiers taskset (``vf-eval officegym-verifiers``).

verifiers 0.4 loads a taskset by id as a package that exports its `Taskset` subclass
(and here its `Env` subclass) through ``__all__``: the id ``officegym-verifiers`` imports
this package. It is its own top-level package so that ``import officegym`` never
imports verifiers (the ``verifiers`` extra). See `officegym_verifiers.taskset` (the
instances and the two action forms), `officegym_verifiers.native` (the task with native
tool calling) and `officegym_verifiers.toolset` (its per-rollout tool server, which this
package does not import: verifiers runs that module as the server's main program).
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
