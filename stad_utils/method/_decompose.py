"""Decomposition: the teacher's steps for each task, with the paper's consistency filter."""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import pandas as pd

from ..judge import LLMJudgeFn, judge_answers
from ..models import Unavailable
from ..records import (
    Decomposition,
    Task,
    drop_code_of,
)
from ._teachers import Teacher

MAX_STEPS = 6


def decompose(tasks: Sequence[Task], teacher: Teacher, llm_judge: LLMJudgeFn | None = None) -> list[Decomposition]:
    """The teacher's steps for each task, with the paper's consistency filter.

    A decomposition is kept (``consistent=True``) when it has 1…6 steps and its last
    step's answer equals the gold answer; otherwise ``drop_reason`` says why. Tasks the
    teacher could not be reached for are left out (with a warning), so a re-run retries them.
    """
    proposals = teacher.decompose(tasks)
    _warn_unavailable(proposals, "decomposed")
    checks = judge_answers(
        [(steps[-1].answer if isinstance(steps, list) and steps else None, task.answer, task.answer_format)
         for task, steps in zip(tasks, proposals)],
        llm_judge,
    )
    result = []
    for task, steps, check in zip(tasks, proposals, checks):
        if isinstance(steps, Unavailable) or (isinstance(steps, list) and steps and check.outcome == "error"):
            continue  # the teacher or the judge was unavailable: not a failed filter, retried on re-run
        if isinstance(steps, str):
            result.append(Decomposition(task=task, teacher=teacher.name, steps=[], consistent=False,
                                        drop_reason=steps, drop_code=drop_code_of(steps)))
            continue
        reason, code = None, None
        if not steps:
            reason, code = "no steps", "no_steps"
        elif len(steps) > MAX_STEPS:
            reason, code = f"{len(steps)} steps (at most {MAX_STEPS})", "too_many_steps"
        elif check.outcome == "undecided":
            reason = f"the judge could not decide whether the last step answer {steps[-1].answer!r} equals the " \
                     f"gold answer {task.answer!r} ({check.explanation}; configure an LLM judge)"
            code = "last_step_undecided"
        elif not check.correct:
            reason = f"last step answer {steps[-1].answer!r} does not match the gold answer {task.answer!r}"
            code = "last_step_mismatch"
        result.append(Decomposition(task=task, teacher=teacher.name, steps=steps, consistent=reason is None,
                                    drop_reason=reason, drop_code=code))
    return result


def _warn_unavailable(results: Sequence, what: str) -> None:
    missing = [r for r in results if isinstance(r, Unavailable)]
    if missing:
        warnings.warn(f"{len(missing)} task(s) could not be {what} ({missing[0]}); re-run the stage to retry them",
                      stacklevel=3)


def decomposition_agreement(candidate: Sequence[Decomposition], reference: Sequence[Decomposition]) -> pd.DataFrame:
    """How a teacher's decompositions compare with reference ones (e.g. an LLM teacher vs GSM8K's solutions).

    One row per task both have: step counts, whether both passed the consistency filter, and the
    share of the reference's step answers that also appear among the candidate's step answers
    (compared by value with the judge's deterministic stage).
    """
    by_id = {d.task_id: d for d in reference}
    rows = []
    for mine in candidate:
        theirs = by_id.get(mine.task_id)
        if theirs is None:
            continue
        matched = [any(judge_answers([(m.answer, t.answer, None)])[0].correct for m in mine.steps)
                   for t in theirs.steps]
        rows.append({"task_id": mine.task_id, "steps": len(mine.steps), "reference_steps": len(theirs.steps),
                     "both_consistent": mine.consistent and theirs.consistent,
                     "reference_answers_found": sum(matched) / len(matched) if matched else None})
    return pd.DataFrame(rows, columns=["task_id", "steps", "reference_steps", "both_consistent",
                                       "reference_answers_found"])
