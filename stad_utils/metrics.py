"""From verdicts to a task's success curve and its minimal scaffolding level k.

Definitions (the paper's, made precise for errors):

* The **success curve** of a task with K steps is ``curve[j]`` for j = 0…K−1: whether the
  target solved the task with the first j steps given (j = 0 is the original). An entry
  is ``None`` when no answer could be obtained (an infrastructure error) or the level
  was not asked.
* The **minimal scaffolding level** k is the first j with ``curve[j]`` true; −1 if every
  level was asked and failed ("intractable"); ``None`` (undetermined, excluded from k
  statistics and counted) if a level before the first success has no answer.
* A curve is **non-monotonic** when a level is solved and a higher level is failed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from .records import Ladder, Outcome, StepSkill, Verdict


def minimal_scaffolding_level(curve: Sequence[bool | None]) -> int | None:
    """k from a success curve.

    Examples
    --------
    >>> minimal_scaffolding_level([False, False, True])
    2
    >>> minimal_scaffolding_level([False, False])
    -1
    >>> minimal_scaffolding_level([False, None, True]) is None
    True
    """
    for level, solved in enumerate(curve):
        if solved is None:
            return None
        if solved:
            return level
    return -1


def is_non_monotonic(curve: Sequence[bool | None]) -> bool:
    """True if some level is solved and a higher level failed (``None`` entries are ignored).

    >>> is_non_monotonic([False, True, False]), is_non_monotonic([False, True, None])
    (True, False)
    """
    solved_before = False
    for solved in curve:
        if solved is False and solved_before:
            return True
        solved_before = solved_before or solved is True
    return False


def latest_verdicts(verdicts: Iterable[Verdict]) -> dict[tuple[str, str, str, int], Verdict]:
    """The last verdict per (task, model, variant, level): a re-asked item supersedes an error."""
    return {(v.task_id, v.model, v.variant, v.level): v for v in verdicts}


def outcomes(ladders: Sequence[Ladder], verdicts: Iterable[Verdict], skills: Sequence[StepSkill]) -> list[Outcome]:
    """One `Outcome` per (task, model) pair that has verdicts."""
    by_key = latest_verdicts(verdicts)
    step_skill = {(s.task_id, s.step): s.skill for s in skills}
    asked_by_task: dict[tuple[str, str], list[Verdict]] = defaultdict(list)
    for (task_id, model, _, _), verdict in by_key.items():
        asked_by_task[task_id, model].append(verdict)
    models = sorted({model for (_, model) in asked_by_task})
    result = []
    for ladder in ladders:
        for model in models:
            asked = asked_by_task.get((ladder.task_id, model))
            if not asked:
                continue
            answered = {(v.variant, v.level): v.correct for v in asked}
            curve = [answered.get(("original", 0))] + [answered.get(("scaffold", j)) for j in range(1, ladder.n_steps)]
            isolated = [answered.get(("isolated", i)) for i in range(1, ladder.n_steps + 1)]
            result.append(Outcome(
                task_id=ladder.task_id, model=model, source=ladder.task.source, n_steps=ladder.n_steps,
                skills=[step_skill.get((ladder.task_id, i), "unmapped") for i in range(1, ladder.n_steps + 1)],
                curve=curve, isolated=isolated, k=minimal_scaffolding_level(curve),
                non_monotonic=is_non_monotonic(curve), n_errors=sum(v.error is not None for v in asked),
            ))
    return result


def k_distribution(items: Iterable[Outcome]) -> dict[str, int]:
    """Counts of k over outcomes with a determined k, keyed ``"-1"``, ``"0"``, ``"1"`` …"""
    counts: dict[int, int] = defaultdict(int)
    for outcome in items:
        if outcome.k is not None:
            counts[outcome.k] += 1
    return {str(k): counts[k] for k in sorted(counts)}
