"""The workshop: the exercise notebook's runs (``09_workshop``: plant a weakness, run, read), its student
copy and one notebook per group (``python -m stad_utils.workshop``).
"""

from __future__ import annotations

from ._copies import (
    SOLUTION,
    WORKSHOP_NOTEBOOK,
    read_groups,
    student_copy,
    write_group_notebooks,
    write_student_copy,
)
from ._runs import (
    MARKER,
    exercise_ladders,
    headlines_markdown,
    how_often_found,
    matching_penalty,
    run_exercise,
    served_target,
    simulated_target,
)

__all__ = [
    "MARKER", "SOLUTION", "WORKSHOP_NOTEBOOK", "exercise_ladders", "headlines_markdown", "how_often_found",
    "matching_penalty", "read_groups", "run_exercise", "served_target", "simulated_target", "student_copy",
    "write_group_notebooks", "write_student_copy",
]
