"""officegym.tasks: task templates over seeded worlds, their checks and graders.

See README.md in this folder for how to write a template.
"""

from officegym.tasks.base import (
    TEMPLATES,
    BrokenTemplateWarning,
    Spec,
    Task,
    Template,
    load_templates,
    make_task,
    template,
)
from officegym.tasks.checks import (
    Allow,
    AnswerIs,
    Check,
    FieldEquals,
    GradeContext,
    Predicate,
    RowAbsent,
    RowExists,
    Same,
)
from officegym.tasks.facts import Fact
from officegym.tasks.freedom import Free
from officegym.tasks.grading import Grade, grade
from officegym.tasks.mutants import Equivalent
from officegym.tasks.splits import SPLITS
from officegym.tasks.statements import Says

__all__ = [
    "SPLITS",
    "TEMPLATES",
    "Allow",
    "AnswerIs",
    "BrokenTemplateWarning",
    "Check",
    "Equivalent",
    "Fact",
    "FieldEquals",
    "Free",
    "Grade",
    "GradeContext",
    "Predicate",
    "RowAbsent",
    "RowExists",
    "Same",
    "Says",
    "Spec",
    "Task",
    "Template",
    "grade",
    "load_templates",
    "make_task",
    "template",
]
