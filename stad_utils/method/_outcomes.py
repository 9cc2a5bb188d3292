"""The minimal scaffolding level k: what each value means, and how it is derived from verdicts.

k = 0: solved as asked; k = j > 0: solved once the first j steps are given (step k is the
*bottleneck*); k = −1 (`UNRESOLVED_K`): every level was answered and failed; ``None``: a level
before the first success is unanswered, so k is undetermined. Every reader asks this module what
a value of k means (`k_category`, `help_needed`, `needs_step`, `k_order`) instead of testing
``k == -1`` itself. The quantities (success curve, k, undetermined, non-monotonic) are defined
in `stad_utils.definitions`; `outcomes` computes them per (task, model, sample) from the latest
verdicts (`stad_utils.records.latest_verdicts`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from ..records import UNMAPPED, Ladder, Outcome, StepSkill, Verdict, is_error, is_undecided, latest_verdicts

UNRESOLVED_K = -1
"""k of a task no scaffold level solved, although every level was answered."""

def k_category(k: int | None) -> str:
    """Independent (k = 0), scaffoldable (k > 0), unresolved (k = −1) or undetermined (None).

    Examples
    --------
    >>> [k_category(k) for k in (0, 2, -1, None)]
    ['independent', 'scaffoldable', 'unresolved', 'undetermined']
    """
    return ("undetermined" if k is None else "independent" if k == 0 else "unresolved" if k == UNRESOLVED_K
            else "scaffoldable")


def help_needed(k: int | None, n_steps: int) -> int | None:
    """Steps that had to be given: k, with "never solved" (k = −1) counted as all K; None when undetermined.

    Examples
    --------
    >>> [help_needed(k, 3) for k in (0, 2, -1, None)]
    [0, 2, 3, None]
    """
    if k is None:
        return None
    return n_steps if k == UNRESOLVED_K else k


def needs_step(k: int | None, step: int) -> bool:
    """Whether the task was still unsolved with ``step`` next to give: level ``step`` − 1 failed (k = −1 or k ≥ step).

    Examples
    --------
    >>> [needs_step(k, 2) for k in (0, 1, 2, 3, -1, None)]
    [False, False, True, True, True, False]
    """
    return k is not None and (k == UNRESOLVED_K or k >= step)


def k_order(k: int) -> tuple[bool, int]:
    """Sort key that puts k = −1 (unresolved) after every solved level.

    Examples
    --------
    >>> sorted([-1, 2, 0], key=k_order)
    [0, 2, -1]
    """
    return k == UNRESOLVED_K, k


def minimal_scaffolding_level(curve: Sequence[bool | None]) -> int | None:
    """K from a success curve: the first solved level, −1 if all failed, None if undetermined.

    Examples
    --------
    >>> minimal_scaffolding_level([False, False, True])
    2
    >>> minimal_scaffolding_level([False, False])
    -1
    >>> minimal_scaffolding_level([False, None, True]) is None
    True
    >>> minimal_scaffolding_level([True, None])
    0
    """
    level, solved = _first_decisive(curve)
    return UNRESOLVED_K if level is None else level if solved else None


def first_unanswered_level(curve: Sequence[bool | None]) -> int | None:
    """The level that leaves k undetermined (the first ``None`` before any success), if any.

    Examples
    --------
    >>> first_unanswered_level([False, None, True]), first_unanswered_level([True, None])
    (1, None)
    """
    level, solved = _first_decisive(curve)
    return level if solved is None else None


def _first_decisive(curve: Sequence[bool | None]) -> tuple[int | None, bool | None]:
    """(level, its entry) of the first level that decides k — solved (True) or unanswered (None) — or
    (None, None) when every level was answered and failed: the one scan both rules read.
    """
    return next(((level, solved) for level, solved in enumerate(curve) if solved is not False), (None, None))


def is_non_monotonic(curve: Sequence[bool | None]) -> bool:
    """True if some level is solved and a higher level failed (``None`` entries are ignored).

    Examples
    --------
    >>> is_non_monotonic([False, True, False]), is_non_monotonic([False, True, None])
    (True, False)
    """
    solved_before = False
    for solved in curve:
        if solved is False and solved_before:
            return True
        solved_before = solved_before or solved is True
    return False


def outcome_of(ladder: Ladder, model: str, sample: int, asked: Sequence[Verdict], skills: Sequence[str]) -> Outcome:
    """One task's `Outcome` for one model and sample, from the latest verdicts of its questions.

    ``asked`` holds those verdicts; ``skills`` names each step's skill. The outcome's policy is
    the one its original was asked under; ``undetermined_by`` is the verdict kind at the
    level that leaves k open.
    """
    by_question: dict[tuple[str, int], Verdict] = {(v.variant, v.level): v for v in asked}

    def answers(variant: str, levels: range) -> list[bool | None]:
        return [getattr(by_question.get((variant, level)), "correct", None) for level in levels]

    scaffold_levels = range(1, ladder.n_steps)
    curve_verdicts = [by_question.get(("original", 0))] + [by_question.get(("scaffold", j)) for j in scaffold_levels]
    curve = [getattr(v, "correct", None) for v in curve_verdicts]
    blocking = first_unanswered_level(curve)
    blocking_verdict = curve_verdicts[blocking] if blocking is not None else None
    asked_placebo = any(v.variant == "placebo" for v in asked)
    return Outcome(
        task_id=ladder.task_id, model=model, source=ladder.task.source, n_steps=ladder.n_steps,
        skills=list(skills), curve=curve, isolated=answers("isolated", range(1, ladder.n_steps + 1)),
        placebo=answers("placebo", scaffold_levels) if asked_placebo else [],
        k=minimal_scaffolding_level(curve),
        undetermined_by=(None if blocking_verdict is None  # not asked: k is not held up by a verdict
                         else "undecided" if is_undecided(blocking_verdict) else "error"),
        non_monotonic=is_non_monotonic(curve),
        n_errors=sum(map(is_error, asked)), n_undecided=sum(map(is_undecided, asked)),
        truncated=[bool(v and v.truncated) for v in curve_verdicts],
        sample=sample, policy=(by_question.get(("original", 0)) or asked[0]).policy,
        simulated=any(v.simulated for v in asked),
    )


def outcomes(ladders: Sequence[Ladder], verdicts: Iterable[Verdict], skills: Sequence[StepSkill]) -> list[Outcome]:
    """One `Outcome` per (task, model, sample) that has verdicts, in ladder order.

    A step without a `StepSkill` gets the skill ``"unmapped"``.

    Examples
    --------
    >>> from stad_utils.records import Ladder, Step, Task, Verdict
    >>> task = Task(task_id="t", source="demo", question="Q?", answer="2")
    >>> ladder = Ladder(task=task, teacher="demo", steps=[Step(description="d", answer="1"),
    ...                 Step(description="e", answer="2")], scaffolds=["S1?"], isolated=["I1?", "I2?"])
    >>> def ask(variant, level, correct):
    ...     return Verdict(task_id="t", model="m", variant=variant, level=level, prompt="p", reference="2",
    ...                    response="x", correct=correct, decided_by="deterministic")
    >>> [o] = outcomes([ladder], [ask("original", 0, False), ask("scaffold", 1, True)], [])
    >>> o.curve, o.k, o.isolated, o.skills
    ([False, True], 1, [None, None], ['unmapped', 'unmapped'])
    """
    step_skill = {(s.task_id, s.step): s.skill for s in skills}
    asked: dict[tuple[str, str, int], list[Verdict]] = defaultdict(list)
    for (task_id, model, _, _, sample), verdict in latest_verdicts(verdicts).items():
        asked[task_id, model, sample].append(verdict)
    by_task: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for task_id, model, sample in sorted(asked):
        by_task[task_id].append((model, sample))
    return [outcome_of(ladder, model, sample, asked[ladder.task_id, model, sample],
                       [step_skill.get((ladder.task_id, i), UNMAPPED) for i in range(1, ladder.n_steps + 1)])
            for ladder in ladders for model, sample in by_task[ladder.task_id]]


def k_distribution(items: Iterable[Outcome]) -> dict[str, int]:
    """Counts of k over outcomes with a determined k, keyed ``"-1"``, ``"0"``, ``"1"`` …

    Examples
    --------
    >>> from stad_utils.records import Outcome
    >>> def o(k):
    ...     return Outcome(task_id="t", model="m", source="s", n_steps=2, skills=["a", "b"], curve=[], isolated=[],
    ...                    k=k, non_monotonic=False, n_errors=0)
    >>> k_distribution([o(0), o(-1), o(None), o(0)])
    {'-1': 1, '0': 2}
    """
    counts: dict[int, int] = defaultdict(int)
    for outcome in items:
        if outcome.k is not None:
            counts[outcome.k] += 1
    return {str(k): counts[k] for k in sorted(counts)}
