"""officegym's tasks as a verifiers taskset (``vf-eval officegym-verifiers``).

verifiers 0.4 loads a taskset by id as a package that exports its `Taskset` subclass
(and here its `Env` subclass) through ``__all__``: the id ``officegym-verifiers`` imports
this package. It is its own top-level package so that ``import officegym`` never
imports verifiers (the ``verifiers`` extra). See `officegym_verifiers.taskset` (the
instances and the three action forms), `officegym_verifiers.gated` (native tool calls
stepped in the eval's process through verifiers' tool gate, the default),
`officegym_verifiers.native` (native tool calls through a tool server per rollout) and the
two MCP servers, `officegym_verifiers.listing` (one tool listing per eval) and
`officegym_verifiers.toolset` (a rollout's tool server), which this package does not
import: verifiers runs those modules as the servers' main programs.
"""

# The package exports what `taskset` exports (its `__all__`, the one list of them).
from officegym_verifiers.taskset import *  # noqa: F403
from officegym_verifiers.taskset import __all__ as __all__
