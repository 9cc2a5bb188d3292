"""The tables every measure is computed from: one row per outcome, per question, per step.

Owns: the ladder policy of a set of outcomes (`policy_of`), the outcome, answer and step
frames (`outcome_frame`, `answer_frame`, `step_frame`) and per-task rates over samples
(`task_rates`), a set of outcomes with its frames built once (`OutcomeFrames`; every measure
takes one, or the outcomes themselves), each model's `OutcomeFrames` (`ModelFrames`), the
distinct isolated questions with their places (`isolated_steps`) and the (whole, every step alone) pair of one
outcome (`whole_and_alone`). What a value of k means is `stad_utils.method`'s (`k_category`,
`needs_step`, `help_needed`). No statistic and no sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

from ..method import help_needed, k_category, needs_step
from ..records import Ladder, Outcome, check_policy


def policy_of(items: Sequence[Outcome]) -> str:
    """The ladder policy of a set of outcomes: ``on_failure`` if any was asked under it, else ``full``.

    Raises `ValueError` for an unknown policy name (see `definitions.check_policy`).

    Examples
    --------
    >>> policy_of([])
    'full'
    """
    policies = {check_policy(o.policy) for o in items}
    return "on_failure" if "on_failure" in policies else "full"


def outcome_frame(items: Sequence[Outcome]) -> pd.DataFrame:
    """One row per outcome (task, model, sample) with k, its category and why it is undetermined.

    ``undetermined`` is ``"error"``, ``"undecided"``, ``"not asked"`` (a level before the first
    success was never asked) or ``None`` for a determined k.
    """
    columns = ["model", "task_id", "sample", "n_steps", "k", "category", "undetermined", "solved_somewhere",
               "policy", "simulated", "n_errors", "n_undecided", "non_monotonic"]
    rows = [(o.model, o.task_id, o.sample, o.n_steps, o.k, k_category(o.k),
             None if o.k is not None else o.undetermined_by or "not asked", solved_somewhere(o.curve),
             o.policy, o.simulated, o.n_errors, o.n_undecided, o.non_monotonic) for o in items]
    return pd.DataFrame(rows, columns=columns)


def solved_somewhere(curve: Sequence[bool | None]) -> bool | None:
    """True if some level was solved, False if every level was answered and failed, else None.

    Examples
    --------
    >>> solved_somewhere([False, None, True]), solved_somewhere([False, False]), solved_somewhere([False, None])
    (True, False, None)
    """
    if True in curve:
        return True
    return None if None in curve else False


def answer_frame(items: Sequence[Outcome]) -> pd.DataFrame:
    """One row per question of each outcome: ``variant`` ("curve", "isolated", "placebo"), ``level``
    (the scaffold/placebo level, or the isolated step), ``solved`` (1.0, 0.0 or NaN when unanswered
    or not asked) and ``asked`` (False for the variants ``on_failure`` skipped).
    """
    rows = []
    for o in items:
        variants_asked = o.policy == "full" or o.curve[0] is False
        for variant, values, first in (("curve", o.curve, 0), ("isolated", o.isolated, 1), ("placebo", o.placebo, 1)):
            for level, solved in enumerate(values, start=first):
                rows.append((o.model, o.task_id, o.sample, variant, level, np.nan if solved is None else float(solved),
                             variants_asked or (variant == "curve" and level == 0)))
    return pd.DataFrame(rows, columns=["model", "task_id", "sample", "variant", "level", "solved", "asked"])


def task_rates(answers: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Per task and ``keys``: ``successes`` and ``trials`` (answered samples), ``rate``, and ``asked``."""
    grouped = answers.groupby(keys + ["task_id"], sort=False)
    rates = grouped.agg(successes=("solved", "sum"), trials=("solved", "count"), asked=("asked", "any")).reset_index()
    rates["rate"] = rates["successes"] / rates["trials"].where(rates["trials"] > 0)
    return rates


def step_frame(items: Sequence[Outcome], rename: dict[str, str] | None = None) -> pd.DataFrame:
    """One row per step of each outcome, with what the definitions need per occurrence.

    Columns: ``skill`` (renamed through ``rename`` if given), ``isolated`` and ``whole``
    (success of the step alone and of its task as asked: 1.0, 0.0 or NaN), and the k-based
    indicators ``at_risk``, ``bottleneck``, ``in_needed_scaffold``, ``unresolved``, each
    weighted by ``weight`` = 1 / (determined samples of the task), 0 when k is undetermined.
    """
    determined = pd.Series([(o.model, o.task_id) for o in items if o.k is not None]).value_counts().to_dict()
    rows = []
    for o in items:
        weight = 1 / determined[o.model, o.task_id] if o.k is not None else 0.0
        whole = np.nan if o.curve[0] is None else float(o.curve[0])
        needed_depth = help_needed(o.k, o.n_steps) or 0
        unresolved = k_category(o.k) == "unresolved"
        for step, (skill, alone) in enumerate(zip(o.skills, o.isolated), start=1):
            rows.append((o.model, o.task_id, o.sample, step, skill, np.nan if alone is None else float(alone), whole,
                         weight, weight * (needs_step(o.k, step) and step < o.n_steps), weight * (o.k == step),
                         weight * (step <= needed_depth), weight * unresolved))
    frame = pd.DataFrame(rows, columns=["model", "task_id", "sample", "step", "skill", "isolated", "whole", "weight",
                                        "at_risk", "bottleneck", "in_needed_scaffold", "unresolved"])
    if rename:
        frame["skill"] = frame["skill"].map(rename).fillna(frame["skill"])
    return frame


class OutcomeFrames:
    """A set of outcomes with the tables every measure reads, each built once, when first read.

    Every measure of `stad_utils.analysis` takes one of these or the outcomes themselves
    (`as_frames`): a stage that computes many measures of one model builds its frames once.

    Examples
    --------
    >>> from stad_utils.records import Outcome
    >>> frames = OutcomeFrames([Outcome(task_id="t", model="A", source="s", n_steps=1, skills=["add"], curve=[True],
    ...                                 isolated=[True], k=0, non_monotonic=False, n_errors=0)])
    >>> frames.policy, len(frames.answers), frames.outcomes["category"].tolist()
    ('full', 2, ['independent'])
    """

    def __init__(self, items: Sequence[Outcome]):
        self.items = list(items)

    @cached_property
    def outcomes(self) -> pd.DataFrame:
        """`outcome_frame` of the outcomes."""
        return outcome_frame(self.items)

    @cached_property
    def answers(self) -> pd.DataFrame:
        """`answer_frame` of the outcomes."""
        return answer_frame(self.items)

    @cached_property
    def steps(self) -> pd.DataFrame:
        """`step_frame` of the outcomes (skills as recorded; a measure renames a copy)."""
        return step_frame(self.items)

    @cached_property
    def policy(self) -> str:
        """`policy_of` the outcomes."""
        return policy_of(self.items)

    @cached_property
    def policies(self) -> dict[str, str]:
        """Each model's `policy_of` its outcomes."""
        by_model: dict[str, list[Outcome]] = {}
        for o in self.items:
            by_model.setdefault(o.model, []).append(o)
        return {model: policy_of(outcomes) for model, outcomes in by_model.items()}

    def steps_renamed(self, rename: dict[str, str] | None) -> pd.DataFrame:
        """`steps` with each skill shown by its name in ``rename`` (folding), or as recorded."""
        if not rename:
            return self.steps
        steps = self.steps.copy()
        steps["skill"] = steps["skill"].map(rename).fillna(steps["skill"])
        return steps


def as_frames(items: Sequence[Outcome] | OutcomeFrames) -> OutcomeFrames:
    """``items`` as `OutcomeFrames` (unchanged when it already is)."""
    return items if isinstance(items, OutcomeFrames) else OutcomeFrames(items)


class ModelFrames:
    """Each model's `OutcomeFrames`, built once and joined per pair of models.

    Comparing six models is fifteen pairs, and each pair's measures read the same two models'
    frames: built per model and joined per pair, a run of 25,000 tasks × 6 models is compared
    in a fraction of the time.

    Examples
    --------
    >>> from stad_utils.records import Outcome
    >>> def o(model):
    ...     return Outcome(task_id="t", model=model, source="s", n_steps=1, skills=["add"], curve=[True],
    ...                    isolated=[True], k=0, non_monotonic=False, n_errors=0)
    >>> frames = ModelFrames([o("A"), o("B"), o("C")])
    >>> frames.answers("A", "B")[["model", "variant", "level"]].to_dict(orient="records")
    ... # doctest: +NORMALIZE_WHITESPACE
    [{'model': 'A', 'variant': 'curve', 'level': 0}, {'model': 'A', 'variant': 'isolated', 'level': 1},
     {'model': 'B', 'variant': 'curve', 'level': 0}, {'model': 'B', 'variant': 'isolated', 'level': 1}]
    """

    def __init__(self, items: Sequence[Outcome]):
        by_model: dict[str, list[Outcome]] = {}
        for o in items:
            by_model.setdefault(o.model, []).append(o)
        self.models = sorted(by_model)
        self._frames = {model: OutcomeFrames(outcomes) for model, outcomes in by_model.items()}
        self._computed: dict[tuple[Callable, str], object] = {}

    def of(self, model: str) -> OutcomeFrames:
        """The model's `OutcomeFrames` (empty for a model without outcomes)."""
        return self._frames.get(model) or OutcomeFrames([])

    def records(self, *models: str) -> list[Outcome]:
        """The `Outcome` records of these models, model by model (the other methods give frames)."""
        return [o for model in models for o in self.of(model).items]

    def outcomes(self, *models: str) -> pd.DataFrame:
        """The models' `outcome_frame`, computed once per model."""
        return pd.concat([self.of(model).outcomes for model in models], ignore_index=True)

    def answers(self, *models: str) -> pd.DataFrame:
        """The models' `answer_frame`, computed once per model."""
        return pd.concat([self.of(model).answers for model in models], ignore_index=True)

    def steps(self, *models: str) -> pd.DataFrame:
        """The models' `step_frame`, computed once per model."""
        return pd.concat([self.of(model).steps for model in models], ignore_index=True)

    def of_model(self, function: Callable[[Sequence[Outcome]], Any], model: str) -> Any:
        """``function`` of the model's outcomes, computed once per function and model (do not change it)."""
        if (function, model) not in self._computed:
            self._computed[function, model] = function(self.of(model).items)
        return self._computed[function, model]


def isolated_steps(items: Sequence[Outcome], ladders: Sequence[Ladder] = ()) -> pd.DataFrame:
    """One row per distinct decided isolated question and sample: ``task_id``, ``skill``, ``step`` (its
    position i, 1 = first), ``n_steps`` (its task's K) and ``right`` (0/1): what the skill and
    context tests read.

    With ``ladders``, a question is its text (asked in several tasks, it keeps its first
    occurrence, with that task's position and length); without, it is (task, step).

    Examples
    --------
    >>> o = Outcome(task_id="t", model="m", source="s", n_steps=2, skills=["a", "b"], curve=[True, True],
    ...             isolated=[True, None], k=0, non_monotonic=False, n_errors=0)
    >>> isolated_steps([o]).to_dict(orient="records")
    [{'task_id': 't', 'skill': 'a', 'step': 1, 'n_steps': 2, 'right': 1}]
    """
    questions = {(ladder.task_id, step): text for ladder in ladders
                 for step, text in enumerate(ladder.isolated, start=1)}
    rows = [(questions.get((o.task_id, step), (o.task_id, step)), o.sample, o.task_id, skill, step, o.n_steps,
             int(alone))
            for o in items for step, (skill, alone) in enumerate(zip(o.skills, o.isolated), start=1)
            if alone is not None]
    frame = pd.DataFrame(rows, columns=["question", "sample", "task_id", "skill", "step", "n_steps", "right"])
    return frame.drop_duplicates(["question", "sample"]).drop(columns=["question", "sample"]).reset_index(drop=True)


def whole_and_alone(outcome: Outcome) -> tuple[bool, bool] | None:
    """(solved as asked, every step solved alone), or ``None`` when level 0 or a step alone is unanswered:
    the pair every composition measure is built on.

    Examples
    --------
    >>> def o(whole, alone):
    ...     return Outcome(task_id="t", model="m", source="s", n_steps=2, skills=["a", "b"], curve=[whole, True],
    ...                    isolated=alone, k=None, non_monotonic=False, n_errors=0)
    >>> whole_and_alone(o(False, [True, True])), whole_and_alone(o(True, [True, None]))
    ((False, True), None)
    """
    if outcome.curve and outcome.curve[0] is not None and outcome.isolated and None not in outcome.isolated:
        return bool(outcome.curve[0]), all(outcome.isolated)
    return None
