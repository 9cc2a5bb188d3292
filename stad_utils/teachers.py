"""Teachers: who decomposes a task, writes its variants and solves them for verification.

A teacher implements three verbs, and the stage functions in `stad_utils.stages` do the
rest (the consistency filter, the verification filter, the records) the same way for
every teacher:

* ``decompose(tasks)`` → steps with their answers, per task;
* ``write_variants(task, steps)`` → (scaffold texts for levels 1…K−1, isolated texts for steps 1…K);
* ``solve(questions)`` → the teacher's answer text per question (``None`` if it could not answer).

`OracleTeacher` serves generated tasks, whose steps and variants are known exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from .records import Step, Task


class Teacher(Protocol):
    name: str

    def decompose(self, tasks: Sequence[Task]) -> list[list[Step] | str]:
        """Steps per task, or a string saying why there are none (e.g. unparseable output)."""

    def write_variants(self, items: Sequence[tuple[Task, list[Step]]]) -> list[tuple[list[str], list[str]] | str]:
        """(scaffolds for levels 1…K−1, isolated questions for steps 1…K) per task, or why not."""

    def solve(self, questions: Sequence[tuple[Task, str]]) -> list[str | None]:
        """The teacher's answer to each (task, question) pair."""


class OracleTeacher:
    """The teacher of generated tasks: it reads the steps and variants the generator wrote.

    It answers a scaffold level with the task's known final answer, so verification
    checks the judge's path on the gold format rather than a model's ability.
    """

    name = "oracle"

    @staticmethod
    def _require_reference(task: Task) -> None:
        if task.reference_steps is None or task.reference_scaffolds is None or task.reference_isolated is None:
            raise ValueError(
                f"task {task.task_id} ({task.source}) has no reference steps: the oracle teacher only "
                "serves generated tasks; use teacher 'gsm8k_solution' or an LLM teacher for benchmarks"
            )

    def decompose(self, tasks: Sequence[Task]) -> list[list[Step] | str]:
        for task in tasks:
            self._require_reference(task)
        return [list(task.reference_steps) for task in tasks]

    def write_variants(self, items: Sequence[tuple[Task, list[Step]]]) -> list[tuple[list[str], list[str]] | str]:
        for task, _ in items:
            self._require_reference(task)
        return [(list(task.reference_scaffolds), list(task.reference_isolated)) for task, _ in items]

    def solve(self, questions: Sequence[tuple[Task, str]]) -> list[str | None]:
        return [f"The answer is {task.answer}." for task, _ in questions]
