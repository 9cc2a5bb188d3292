"""What one model's outcomes say: accuracy per level, k, bottlenecks, skills, and the words for them.

Every quantity is defined in `stad_utils.definitions`, with a worked example of the
bottleneck step. In short: accuracy at a level is computed over the tasks answered at that
level; k-based statistics over outcomes with a determined k, the undetermined ones counted
beside them (errors, undecided, not asked); the bottleneck of a task is step k (the step whose
provision turned failure into success), and k = −1 is its own category, "unresolved".

Worked example: Janet's ducks (K = 3: addition, subtraction, multiplication) fails as asked
and with the addition given, and is solved once the subtraction is given too: k = 2, the
bottleneck is step 2 (subtraction). Addition and subtraction were *at risk* (the task was
still unsolved with them next); the bottleneck rate of subtraction counts 1 of 1, that of
addition 0 of 1.

Shares carry Wilson 95% intervals over their units; differences carry a paired bootstrap
interval over tasks and, with repeated samples, over samples within a task (`paired_bootstrap`).
With one sample per task everything reduces to the single-sample statistics.
"""

from __future__ import annotations

import re
import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy import sparse
from statsmodels.stats.proportion import proportion_confint

from .definitions import CONFIDENCE, MIN_SUPPORT, UNRESOLVED, check_policy
from .escaping import markdown_text
from .metrics import k_distribution
from .records import Decomposition, Ladder, Outcome, Task, Verdict
from .store import RunPaths, read_records

LEVELS_ASKED = {"full": "all tasks", "on_failure": "tasks failed as asked"}
"""The population of levels ≥ 1, isolated and placebo questions under each policy."""

POLICY_NOTES = {
    "full": [],
    "on_failure": [
        "Policy on_failure: variants were asked only for tasks failed as asked, so success at levels ≥ 1, "
        "isolated accuracy and help from content describe those tasks only.",
        "Not computed under on_failure (fixed by the selection): the isolated-vs-whole gap, the pair composition "
        "gap, and 'solved although a step failed'.",
    ],
}

# ------------------------------------------------------------------------------------------ policy


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


# ------------------------------------------------------------------------------------------ intervals


def share_estimates(successes, n, *, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Shares ``successes / n`` with Wilson score intervals; NaN where ``n`` is 0.

    ``successes`` may be fractional (a sum of per-task rates); see `definitions` (share interval).

    Examples
    --------
    >>> share_estimates([5, 0], [5, 0]).round(3).to_dict(orient="records")
    [{'value': 1.0, 'low': 0.566, 'high': 1.0, 'n': 5.0}, {'value': nan, 'low': nan, 'high': nan, 'n': 0.0}]
    >>> share_estimates([0], [25])["low"].item()  # never above its estimate (statsmodels gives 1.4e-17)
    0.0
    """
    successes, n = np.asarray(successes, dtype=float), np.asarray(n, dtype=float)
    has = n > 0
    value, low, high = (np.full(n.shape, np.nan) for _ in range(3))
    if has.any():
        value[has] = successes[has] / n[has]
        low[has], high[has] = proportion_confint(successes[has], n[has], alpha=1 - confidence, method="wilson")
        # statsmodels' bounds can miss an estimate of exactly 0 or 1 by rounding (1e-17): keep it inside
        low[has], high[has] = np.minimum(low[has], value[has]), np.maximum(high[has], value[has])
    return pd.DataFrame({"value": value, "low": low, "high": high, "n": n})


def paired_bootstrap(units: pd.DataFrame, by: str | list[str], *, n_resamples: int = 1000,
                     confidence: float = CONFIDENCE, seed: int = 0) -> pd.DataFrame:
    """Mean over units of ``rate_a − rate_b`` per group, with a two-stage percentile bootstrap interval.

    Parameters
    ----------
    units : DataFrame
        One row per unit (a task at a level, a step occurrence …) with ``task_id``, the ``by``
        columns, ``a_successes``/``a_trials`` and, for a difference, ``b_successes``/``b_trials``
        (successes and answered samples of each side). Units with no answered sample on a side
        are left out. Without the ``b_`` columns the mean of ``rate_a`` is bootstrapped.
    by : str or list of str
        The columns that name a group (one estimate each).
    n_resamples, confidence, seed
        Resamples (0: point estimates only, NaN bounds), interval coverage and the random seed.

    Returns
    -------
    DataFrame
        The ``by`` columns, ``estimate`` (the observed mean), ``low``, ``high`` and ``n`` (units).

    Notes
    -----
    Each resample draws tasks with replacement (all units of a drawn task come along, so the
    pairing is kept) and, within each copy of a task, its samples with replacement, each side
    independently. A unit's re-drawn rate over ``w`` copies is Binomial(w·trials, rate)/trials,
    so the second stage is one vectorised draw, and vanishes when a unit's samples agree
    (always, with one sample per task).

    Examples
    --------
    >>> units = pd.DataFrame({"task_id": ["t1", "t2", "t3", "t4"], "level": 0, "a_successes": [1, 1, 1, 0],
    ...                       "a_trials": 1, "b_successes": [0, 1, 0, 0], "b_trials": 1})
    >>> paired_bootstrap(units, "level", n_resamples=200)[["level", "estimate", "n"]].to_dict(orient="records")
    [{'level': 0, 'estimate': 0.5, 'n': 4}]
    """
    by = [by] if isinstance(by, str) else list(by)
    sides = [("a", 1.0)] + ([("b", -1.0)] if "b_trials" in units else [])
    columns = by + ["estimate", "low", "high", "n"]
    units = units[(units[[f"{side}_trials" for side, _ in sides]] > 0).all(axis=1)]
    if units.empty:
        return pd.DataFrame(columns=columns)
    difference = sum(sign * units[f"{side}_successes"] / units[f"{side}_trials"] for side, sign in sides)
    result = units.assign(difference=difference).groupby(by, sort=True).agg(
        estimate=("difference", "mean"), n=("difference", "size")).reset_index()
    result["low"], result["high"] = np.nan, np.nan
    if n_resamples:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a group absent from a resample is NaN there
            tail = (1 - confidence) / 2 * 100
            means = _resampled_means(units, by, sides, n_resamples, np.random.default_rng(seed))
            result["low"], result["high"] = np.nanpercentile(means, [tail, 100 - tail], axis=0)
    return result[columns]


RESAMPLE_CHUNK = 100
"""Resamples drawn at once: memory holds this many rows of task copies (100 × 25,000 tasks ≈ 20 MB)."""


def _resampled_means(units: pd.DataFrame, by: list[str], sides: list[tuple[str, float]], n_resamples: int,
                     rng: np.random.Generator) -> np.ndarray:
    """Resamples × groups: the mean of ``rate_a − rate_b`` in each two-stage resample (see `paired_bootstrap`)."""
    task = units["task_id"].factorize()[0]
    group = units.groupby(by, sort=True).ngroup().to_numpy()
    n_tasks, n_groups = task.max() + 1, group.max() + 1

    def per_task_group(values: np.ndarray) -> np.ndarray:
        matrix = np.zeros((n_tasks, n_groups))
        np.add.at(matrix, (task, group), values)
        return matrix

    trials = {side: units[f"{side}_trials"].to_numpy(dtype=float) for side, _ in sides}
    rates = {side: units[f"{side}_successes"].to_numpy(dtype=float) / trials[side] for side, _ in sides}
    sums = {side: per_task_group(rates[side]) for side, _ in sides}
    units_per_task = per_task_group(np.ones(len(units)))
    mixed = {side: np.flatnonzero((rates[side] > 0) & (rates[side] < 1)) for side, _ in sides}  # samples disagree
    membership = {side: sparse.csr_matrix((np.ones(mixed[side].size), (np.arange(mixed[side].size),
                                                                       group[mixed[side]])),
                                          shape=(mixed[side].size, n_groups)) for side, _ in sides}
    means = []
    for start in range(0, n_resamples, RESAMPLE_CHUNK):
        copies = _task_copies(n_tasks, min(RESAMPLE_CHUNK, n_resamples - start), rng)
        totals = np.zeros((len(copies), n_groups))
        for side, sign in sides:
            totals += sign * (copies @ sums[side])
            if mixed[side].size:  # second stage: re-draw the samples of units whose samples disagree
                unit_copies = copies[:, task[mixed[side]]]
                side_trials, side_rate = trials[side][mixed[side]], rates[side][mixed[side]]
                redrawn = rng.binomial((unit_copies * side_trials).astype(np.int64), side_rate) / side_trials
                totals += sign * (membership[side].T @ (redrawn - unit_copies * side_rate).T).T
        with np.errstate(invalid="ignore", divide="ignore"):
            means.append(totals / (copies @ units_per_task))
    return np.vstack(means)


def _task_copies(n_tasks: int, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """Resamples × tasks: how often each task is drawn when ``n_tasks`` are drawn with replacement.

    Counting uniform draws gives the multinomial counts ~2× faster than `Generator.multinomial`
    with many tasks (25,000 tasks × 1,000 resamples: 0.65 s against 1.5 s).
    """
    drawn = rng.integers(0, n_tasks, size=(n_resamples, n_tasks)) + np.arange(n_resamples)[:, None] * n_tasks
    return np.bincount(drawn.ravel(), minlength=n_resamples * n_tasks).reshape(n_resamples, n_tasks).astype(float)


def estimate(value: float, low: float, high: float, n: float, **extra) -> dict:
    """A JSON-ready estimate: ``{"value", "ci95", "n", …}`` with NaN written as ``None``."""
    def clean(x):
        return None if x is None or pd.isna(x) else float(x)

    return {"value": clean(value), "ci95": [clean(low), clean(high)],
            "n": int(n) if float(n).is_integer() else float(n), **extra}


# ------------------------------------------------------------------------------------------ frames


def outcome_frame(items: Sequence[Outcome]) -> pd.DataFrame:
    """One row per outcome (task, model, sample) with k, its category and why it is undetermined.

    ``undetermined`` is ``"error"``, ``"undecided"``, ``"not asked"`` (a level before the first
    success was never asked) or ``None`` for a determined k.
    """
    columns = ["model", "task_id", "sample", "n_steps", "k", "category", "undetermined", "solved_somewhere",
               "policy", "simulated", "n_errors", "n_undecided", "non_monotonic"]
    rows = [(o.model, o.task_id, o.sample, o.n_steps, o.k, category(o.k),
             None if o.k is not None else o.undetermined_by or "not asked", solved_somewhere(o.curve),
             o.policy, o.simulated, o.n_errors, o.n_undecided, o.non_monotonic) for o in items]
    return pd.DataFrame(rows, columns=columns)


def category(k: int | None) -> str:
    """independent (k = 0), scaffoldable (k > 0), unresolved (k = −1) or undetermined (None).

    Examples
    --------
    >>> [category(k) for k in (0, 2, -1, None)]
    ['independent', 'scaffoldable', 'unresolved', 'undetermined']
    """
    return "undetermined" if k is None else "independent" if k == 0 else "unresolved" if k == -1 else "scaffoldable"


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
    or not asked) and ``asked`` (False for the variants ``on_failure`` skipped)."""
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
        needed_depth = o.n_steps if o.k == -1 else o.k or 0
        for step, (skill, alone) in enumerate(zip(o.skills, o.isolated), start=1):
            failed_before = o.k is not None and (o.k == -1 or o.k >= step)
            rows.append((o.model, o.task_id, o.sample, step, skill, np.nan if alone is None else float(alone), whole,
                         weight, weight * (failed_before and step < o.n_steps), weight * (o.k == step),
                         weight * (step <= needed_depth), weight * (o.k == -1)))
    frame = pd.DataFrame(rows, columns=["model", "task_id", "sample", "step", "skill", "isolated", "whole", "weight",
                                        "at_risk", "bottleneck", "in_needed_scaffold", "unresolved"])
    if rename:
        frame["skill"] = frame["skill"].map(rename).fillna(frame["skill"])
    return frame


class ModelFrames:
    """`outcome_frame`, `answer_frame` and `step_frame` of each model's outcomes, each built once.

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
        self._items: dict[str, list[Outcome]] = {}
        for o in items:
            self._items.setdefault(o.model, []).append(o)
        self._computed: dict[tuple[Callable, str], object] = {}

    def records(self, *models: str) -> list[Outcome]:
        """The `Outcome` records of these models, model by model (the other methods give frames)."""
        return [o for model in models for o in self._items.get(model, [])]

    def outcomes(self, *models: str) -> pd.DataFrame:
        return self._joined(outcome_frame, models)

    def answers(self, *models: str) -> pd.DataFrame:
        return self._joined(answer_frame, models)

    def steps(self, *models: str) -> pd.DataFrame:
        return self._joined(step_frame, models)

    def of_model(self, function: Callable[[Sequence[Outcome]], Any], model: str) -> Any:
        """``function`` of the model's outcomes, computed once per function and model (do not change it)."""
        if (function, model) not in self._computed:
            self._computed[function, model] = function(self._items.get(model, []))
        return self._computed[function, model]

    def _joined(self, build: Callable[[Sequence[Outcome]], pd.DataFrame], models: Sequence[str]) -> pd.DataFrame:
        return pd.concat([self.of_model(build, model) for model in models], ignore_index=True)


# ------------------------------------------------------------------------------------------ per level and k


def success_by_level(items: Sequence[Outcome], variant: str = "curve") -> pd.DataFrame:
    """Success at each level per model over the tasks answered there (per-task rates, Wilson 95%).

    Columns: ``model``, ``level``, ``value``, ``low``, ``high``, ``n`` (tasks answered),
    ``unanswered`` (tasks asked but with no decided verdict) and ``population`` (which tasks
    were asked: all, or only those failed as asked under ``on_failure``). ``variant="placebo"``
    gives the placebo levels, ``"isolated"`` the steps asked alone.

    Examples
    --------
    >>> from stad_utils.records import Outcome
    >>> def o(task, curve):
    ...     return Outcome(task_id=task, model="m", source="s", n_steps=2, skills=["a", "b"], curve=curve,
    ...                    isolated=[None, None], k=None, non_monotonic=False, n_errors=0)
    >>> table = success_by_level([o("t1", [True, True]), o("t2", [False, None]), o("t3", [None, True])])
    >>> table[["level", "value", "n", "unanswered"]].to_dict(orient="records")
    [{'level': 0, 'value': 0.5, 'n': 2, 'unanswered': 1}, {'level': 1, 'value': 1.0, 'n': 2, 'unanswered': 1}]
    """
    columns = ["model", "level", "value", "low", "high", "n", "unanswered", "population"]
    if not any(getattr(o, variant) for o in items):  # e.g. no placebo asked: skip every other answer's frame
        return pd.DataFrame(columns=columns)
    answers = answer_frame(items)
    answers = answers[answers["variant"] == variant]
    rates = task_rates(answers, ["model", "level"])
    table = rates.groupby(["model", "level"]).agg(successes=("rate", "sum"), n=("rate", "count"),
                                                  asked=("asked", "sum")).reset_index()
    table = pd.concat([table, share_estimates(table["successes"], table["n"])[["value", "low", "high"]]], axis=1)
    table["unanswered"] = table["asked"] - table["n"]
    policies = {model: policy_of([o for o in items if o.model == model]) for model in table["model"].unique()}
    table["population"] = [LEVELS_ASKED[policies[model]] if variant != "curve" or level > 0 else "all tasks"
                           for model, level in zip(table["model"], table["level"])]
    return table[columns]


def k_shares(items: Sequence[Outcome]) -> pd.DataFrame:
    """Share of determined tasks at each k per model (per-task rates over samples, Wilson 95%).

    Columns: ``model``, ``k``, ``value``, ``low``, ``high``, ``n`` (tasks with a determined k).

    Examples
    --------
    >>> from stad_utils.records import Outcome
    >>> def o(task, sample, k):
    ...     return Outcome(task_id=task, model="m", source="s", n_steps=2, skills=["a", "b"], curve=[], isolated=[],
    ...                    k=k, non_monotonic=False, n_errors=0, sample=sample)
    >>> k_shares([o("t1", 0, 0), o("t1", 1, 1), o("t2", 0, 0)])[["k", "value", "n"]].to_dict(orient="records")
    [{'k': 0, 'value': 0.75, 'n': 2.0}, {'k': 1, 'value': 0.25, 'n': 2.0}]
    """
    frame = outcome_frame(items)
    frame = frame[frame["k"].notna()].astype({"k": int})
    if frame.empty:
        return pd.DataFrame(columns=["model", "k", "value", "low", "high", "n"])
    # each task weighs 1, split over its samples; a k some other model reached counts 0 tasks here
    weight = 1 / frame.groupby(["model", "task_id"])["k"].transform("size")
    successes = (weight.groupby([frame["model"], frame["k"]]).sum().unstack("k", fill_value=0.0).stack()
                 .rename("successes").reset_index())
    successes["n"] = successes["model"].map(frame.groupby("model")["task_id"].nunique())
    return pd.concat([successes[["model", "k"]], share_estimates(successes["successes"], successes["n"])], axis=1)


def k_order(k: int) -> tuple[bool, int]:
    """Sort key that puts k = −1 (unresolved) after every solved level."""
    return k == -1, k


def undetermined_counts(items: Sequence[Outcome]) -> dict[str, int]:
    """Outcomes whose k is undetermined, by reason: ``error``, ``undecided``, ``not asked``, and ``total``.

    Examples
    --------
    >>> from stad_utils.records import Outcome
    >>> def o(k, why=None):
    ...     return Outcome(task_id="t", model="m", source="s", n_steps=2, skills=["a", "b"], curve=[], isolated=[],
    ...                    k=k, undetermined_by=why, non_monotonic=False, n_errors=0)
    >>> undetermined_counts([o(0), o(None, "error"), o(None, "undecided"), o(None)])
    {'error': 1, 'undecided': 1, 'not asked': 1, 'total': 3}
    """
    reasons = Counter(o.undetermined_by or "not asked" for o in items if o.k is None)
    counts = {reason: reasons[reason] for reason in ("error", "undecided", "not asked")}
    return {**counts, "total": sum(counts.values())}


def accuracy_scaffolded(items: Sequence[Outcome]) -> pd.DataFrame:
    """Per model: share of tasks solved at some level, over tasks where that is decided (Wilson 95%).

    Examples
    --------
    >>> from stad_utils.records import Outcome
    >>> def o(task, curve):
    ...     return Outcome(task_id=task, model="m", source="s", n_steps=2, skills=["a", "b"], curve=curve,
    ...                    isolated=[], k=None, non_monotonic=False, n_errors=0)
    >>> accuracy_scaffolded([o("t1", [None, True]), o("t2", [False, False]), o("t3", [False, None])]
    ...                     )[["value", "n"]].to_dict(orient="records")
    [{'value': 0.5, 'n': 2.0}]
    """
    frame = outcome_frame(items)
    frame = frame[frame["solved_somewhere"].notna()]
    per_task = frame.assign(solved=frame["solved_somewhere"].astype(float)).groupby(["model", "task_id"])["solved"].mean()
    table = per_task.groupby(level="model").agg(["sum", "count"]).reset_index()
    return pd.concat([table[["model"]], share_estimates(table["sum"], table["count"])], axis=1)


def k_stability(items: Sequence[Outcome]) -> pd.DataFrame:
    """Per model and task: k in each sample, and whether it is the same in every determined sample.

    Columns: ``model``, ``task_id``, ``k_by_sample`` (k of samples 0, 1, … in order, ``None``
    where undetermined), ``samples`` (determined ones), ``same_k`` (one k in every determined
    sample; NaN with fewer than two).

    Examples
    --------
    >>> from stad_utils.records import Outcome
    >>> def o(sample, k):
    ...     return Outcome(task_id="t", model="m", source="s", n_steps=2, skills=["a", "b"], curve=[], isolated=[],
    ...                    k=k, non_monotonic=False, n_errors=0, sample=sample)
    >>> k_stability([o(0, 1), o(1, None), o(2, 1)]).drop(columns="model").to_dict(orient="records")
    [{'task_id': 't', 'k_by_sample': [1, None, 1], 'samples': 2, 'same_k': 1.0}]
    """
    by_task: dict[tuple[str, str], list[int | None]] = {}
    for o in sorted(items, key=lambda o: o.sample):
        by_task.setdefault((o.model, o.task_id), []).append(o.k)
    table = pd.DataFrame([(model, task, ks) for (model, task), ks in by_task.items()],
                         columns=["model", "task_id", "k_by_sample"])
    determined = table["k_by_sample"].map(lambda ks: {k for k in ks if k is not None})
    table["samples"] = table["k_by_sample"].map(lambda ks: sum(k is not None for k in ks))
    table["same_k"] = (determined.map(len) == 1).astype(float).where(table["samples"] > 1)
    return table


# ------------------------------------------------------------------------------------------ skills and bottlenecks


def bottleneck_attribution(items: Sequence[Outcome], rename: dict[str, str] | None = None) -> pd.DataFrame:
    """Among determined tasks that needed help (k ≠ 0), the share whose bottleneck step has each skill.

    The bottleneck of k > 0 is step k's skill (renamed through ``rename`` if given); k = −1 is
    the category `UNRESOLVED`. Each task weighs 1 over its determined samples. Columns: ``model``, ``bottleneck``, ``tasks``
    (weighted count), ``value``, ``low``, ``high``, ``n`` (tasks that needed help).

    Examples
    --------
    >>> from stad_utils.records import Outcome
    >>> def o(task, k):
    ...     return Outcome(task_id=task, model="m", source="s", n_steps=3, skills=["add", "sub", "mul"],
    ...                    curve=[], isolated=[], k=k, non_monotonic=False, n_errors=0)
    >>> table = bottleneck_attribution([o("ducks", 2), o("t2", 2), o("t3", -1), o("t4", 0)])
    >>> table[["bottleneck", "tasks", "value"]].round(2).to_dict(orient="records")
    [{'bottleneck': 'sub', 'tasks': 2.0, 'value': 0.67}, {'bottleneck': 'unresolved (k = −1)', 'tasks': 1.0, 'value': 0.33}]
    """
    frame = outcome_frame(items)
    frame = frame[frame["k"].notna()].astype({"k": int})
    frame["weight"] = 1 / frame.groupby(["model", "task_id"])["k"].transform("size")
    helped = frame[frame["k"] != 0].copy()
    skills = {(o.model, o.task_id, o.sample): o.skills for o in items}
    rename = rename or {}
    helped["bottleneck"] = [UNRESOLVED if k == -1 else rename.get(skills[m, t, s][k - 1], skills[m, t, s][k - 1])
                            for m, t, s, k in zip(helped["model"], helped["task_id"], helped["sample"], helped["k"])]
    table = helped.groupby(["model", "bottleneck"])["weight"].sum().rename("tasks").reset_index()
    table["n"] = table["model"].map(helped.groupby("model")["weight"].sum())
    table = pd.concat([table, share_estimates(table["tasks"], table["n"]).drop(columns="n")], axis=1)
    return table.sort_values(["model", "tasks"], ascending=[True, False], ignore_index=True)[
        ["model", "bottleneck", "tasks", "value", "low", "high", "n"]]


SKILL_COLUMNS = ["model", "skill", "occurrences", "isolated_accuracy", "isolated_accuracy_low",
                 "isolated_accuracy_high", "isolated_n", "whole_task_success", "whole_task_success_low",
                 "whole_task_success_high", "whole_n", "isolated_vs_whole_gap", "isolated_vs_whole_gap_low",
                 "isolated_vs_whole_gap_high", "gap_n", "bottleneck_rate", "bottleneck_rate_low",
                 "bottleneck_rate_high", "at_risk", "bottlenecks", "unresolved_share", "needed_scaffold_share"]


def skill_table(items: Sequence[Outcome], *, min_support: int = MIN_SUPPORT, n_resamples: int = 1000,
                seed: int = 0, rename: dict[str, str] | None = None) -> pd.DataFrame:
    """Per model and skill, the measures of `definitions` (skills alone, bottlenecks), most frequent first.

    The unit is a step occurrence (a task's step), valued by its per-task rate over samples.
    Shares carry Wilson 95% bounds (``_low``/``_high``) and their units (``isolated_n``,
    ``whole_n``, ``at_risk``); the isolated-vs-whole gap is paired on occurrences and carries a
    bootstrap interval when it has at least ``min_support`` of them (``n_resamples=0``: no
    interval). Under ``on_failure`` the gap is NaN (see `definitions`, Policies). ``rename``
    maps skills to shown names (folding).

    Examples
    --------
    >>> from stad_utils.records import Outcome
    >>> ducks = Outcome(task_id="ducks", model="m", source="s", n_steps=3, skills=["add", "sub", "mul"],
    ...                 curve=[False, False, True], isolated=[True, True, True], k=2, non_monotonic=False,
    ...                 n_errors=0)
    >>> table = skill_table([ducks]).set_index("skill")
    >>> table[["at_risk", "bottlenecks", "bottleneck_rate", "needed_scaffold_share"]].to_dict(orient="index")
    ... # doctest: +NORMALIZE_WHITESPACE
    {'add': {'at_risk': 1.0, 'bottlenecks': 0.0, 'bottleneck_rate': 0.0, 'needed_scaffold_share': 1.0},
     'mul': {'at_risk': 0.0, 'bottlenecks': 0.0, 'bottleneck_rate': nan, 'needed_scaffold_share': 0.0},
     'sub': {'at_risk': 1.0, 'bottlenecks': 1.0, 'bottleneck_rate': 1.0, 'needed_scaffold_share': 1.0}}
    """
    steps = step_frame(items, rename)
    if steps.empty:
        return pd.DataFrame(columns=SKILL_COLUMNS)
    occurrence = steps.groupby(["model", "skill", "task_id", "step"], sort=False)
    units = occurrence.agg(iso_successes=("isolated", "sum"), iso_trials=("isolated", "count"),
                           whole_successes=("whole", "sum"), whole_trials=("whole", "count"),
                           determined=("weight", "sum"), at_risk=("at_risk", "sum"), bottlenecks=("bottleneck", "sum"),
                           needed=("in_needed_scaffold", "sum"), unresolved=("unresolved", "sum")).reset_index()
    units["iso_rate"] = units["iso_successes"] / units["iso_trials"].where(units["iso_trials"] > 0)
    units["whole_rate"] = units["whole_successes"] / units["whole_trials"].where(units["whole_trials"] > 0)
    asked_all = [m for m in units["model"].unique() if policy_of([o for o in items if o.model == m]) == "full"]
    units["paired"] = units["iso_rate"].notna() & units["whole_rate"].notna() & units["model"].isin(asked_all)
    table = units.groupby(["model", "skill"]).agg(
        occurrences=("step", "size"), iso_sum=("iso_rate", "sum"), isolated_n=("iso_rate", "count"),
        whole_sum=("whole_rate", "sum"), whole_n=("whole_rate", "count"), gap_n=("paired", "sum"),
        at_risk=("at_risk", "sum"), bottlenecks=("bottlenecks", "sum"), determined=("determined", "sum"),
        needed=("needed", "sum"), unresolved=("unresolved", "sum")).reset_index()
    for name, successes, n in (("isolated_accuracy", "iso_sum", "isolated_n"),
                               ("whole_task_success", "whole_sum", "whole_n"),
                               ("bottleneck_rate", "bottlenecks", "at_risk")):
        shares = share_estimates(table[successes], table[n])
        table[name], table[f"{name}_low"], table[f"{name}_high"] = shares["value"], shares["low"], shares["high"]
    with np.errstate(invalid="ignore", divide="ignore"):
        table["unresolved_share"] = table["unresolved"] / table["determined"]
        table["needed_scaffold_share"] = table["needed"] / table["determined"]
    table = table.merge(_gap_table(units[units["paired"]], min_support, n_resamples, seed), on=["model", "skill"],
                        how="left")
    return table.sort_values(["model", "occurrences", "skill"], ascending=[True, False, True],
                             ignore_index=True)[SKILL_COLUMNS]


def _gap_table(paired_units: pd.DataFrame, min_support: int, n_resamples: int, seed: int) -> pd.DataFrame:
    """The isolated-vs-whole gap per (model, skill) over paired occurrences, with a bootstrap
    interval when at least ``min_support`` occurrences are paired."""
    columns = ["model", "skill", "isolated_vs_whole_gap", "isolated_vs_whole_gap_low", "isolated_vs_whole_gap_high"]
    units = paired_units.rename(columns={"iso_successes": "a_successes", "iso_trials": "a_trials",
                                         "whole_successes": "b_successes", "whole_trials": "b_trials"})
    supported = units.groupby(["model", "skill"])["step"].transform("size") >= min_support
    gaps = paired_bootstrap(units[supported], ["model", "skill"], n_resamples=n_resamples, seed=seed)
    rare = (units[~supported].assign(estimate=units["iso_rate"] - units["whole_rate"])
            .groupby(["model", "skill"])["estimate"].mean().reset_index())
    gaps = pd.concat([frame for frame in (gaps, rare) if not frame.empty] or [gaps], ignore_index=True)
    return gaps.rename(columns={"estimate": "isolated_vs_whole_gap", "low": "isolated_vs_whole_gap_low",
                                "high": "isolated_vs_whole_gap_high"}).reindex(columns=columns)


# ------------------------------------------------------------------------------------------ help from content


def help_from_content(items: Sequence[Outcome], *, n_resamples: int = 1000, seed: int = 0) -> pd.DataFrame:
    """Per model and level j: success(scaffold j) − success(placebo j) on tasks answered at both.

    Columns: ``model``, ``level``, ``scaffold``, ``placebo`` (the two success rates on those
    tasks), ``estimate``, ``low``, ``high`` (paired bootstrap, see `paired_bootstrap`), ``n``.
    Empty when no placebo was asked.

    Examples
    --------
    >>> from stad_utils.records import Outcome
    >>> def o(task, scaffold, placebo):
    ...     return Outcome(task_id=task, model="m", source="s", n_steps=2, skills=["a", "b"], curve=[False, scaffold],
    ...                    isolated=[], placebo=[placebo], k=None, non_monotonic=False, n_errors=0)
    >>> table = help_from_content([o("t1", True, False), o("t2", True, True), o("t3", False, False)], n_resamples=0)
    >>> table[["level", "scaffold", "placebo", "estimate", "n"]].round(2).to_dict(orient="records")
    [{'level': 1, 'scaffold': 0.67, 'placebo': 0.33, 'estimate': 0.33, 'n': 3}]
    """
    columns = ["model", "level", "scaffold", "placebo", "estimate", "low", "high", "n"]
    if not any(o.placebo for o in items):
        return pd.DataFrame(columns=columns)
    answers = answer_frame(items)
    rates = task_rates(answers[answers["variant"].isin(["curve", "placebo"]) & (answers["level"] > 0)],
                       ["model", "variant", "level"])
    wide = rates.pivot_table(index=["model", "level", "task_id"], columns="variant",
                             values=["successes", "trials"]).dropna().reset_index()
    units = pd.DataFrame({"model": wide["model"], "level": wide["level"], "task_id": wide["task_id"],
                          "a_successes": wide["successes", "curve"], "a_trials": wide["trials", "curve"],
                          "b_successes": wide["successes", "placebo"], "b_trials": wide["trials", "placebo"]})
    units = units[(units["a_trials"] > 0) & (units["b_trials"] > 0)]
    result = paired_bootstrap(units, ["model", "level"], n_resamples=n_resamples, seed=seed)
    side_rates = units.assign(scaffold=units["a_successes"] / units["a_trials"],
                              placebo=units["b_successes"] / units["b_trials"])
    means = side_rates.groupby(["model", "level"])[["scaffold", "placebo"]].mean().reset_index()
    return result.merge(means, on=["model", "level"])[columns]


# ------------------------------------------------------------------------------------------ summary and words


def summarize(items: Sequence[Outcome], *, n_resamples: int = 1000, seed: int = 0,
              min_support: int = MIN_SUPPORT, ladders: Sequence[Ladder] = ()) -> dict:
    """The numbers of one model's run, as written to ``summary.json`` (see `definitions` for each).

    Keys: ``model``, ``simulated``, ``policy``, ``notes`` (what the policy restricts),
    ``n_tasks``, ``n_samples``, ``n_outcomes``, ``n_errors``/``n_undecided`` (verdicts),
    ``undetermined`` (outcomes without k, by reason), ``accuracy_original`` and
    ``accuracy_scaffolded`` (estimates: value, ci95, n), ``success_by_level`` (one estimate per
    level with ``unanswered`` and ``population``), ``k_distribution`` (counts of determined
    outcomes), ``k_share`` (estimates), ``categories``, ``non_monotonic``, ``bottlenecks``
    (attribution), ``per_skill``, ``help_from_content`` and ``k_stability`` (``None`` when
    there is no placebo / a single sample), ``min_support``, and ``diagnosis``
    (`stad_utils.claims.diagnose`: the tested claims the sentences are written from; given the
    ``ladders``, an isolated question asked in several tasks counts once).

    Examples
    --------
    >>> from stad_utils.records import Outcome
    >>> def o(task, curve, k):
    ...     return Outcome(task_id=task, model="m", source="s", n_steps=2, skills=["add", "mul"], curve=curve,
    ...                    isolated=[True, True], k=k, undetermined_by="error" if k is None else None,
    ...                    non_monotonic=False, n_errors=curve.count(None))
    >>> summary = summarize([o("t1", [True, True], 0), o("t2", [False, None], None), o("t3", [None, None], None)],
    ...                     n_resamples=0)
    >>> summary["accuracy_original"]["value"], summary["accuracy_original"]["n"], summary["undetermined"]["total"]
    (0.5, 2, 2)
    """
    from .claims import diagnose  # claims builds on this module's estimates and words

    frame = outcome_frame(items)
    policy = policy_of(items)
    levels = success_by_level(items)
    scaffolded = accuracy_scaffolded(items)
    skills = skill_table(items, min_support=min_support, n_resamples=n_resamples, seed=seed)
    content = help_from_content(items, n_resamples=n_resamples, seed=seed)
    stability = k_stability(items)
    multi_sample = bool((stability["samples"] > 1).any()) if not stability.empty else False
    return {
        "model": frame["model"].iloc[0] if not frame.empty else None,
        "simulated": bool(frame["simulated"].any()),
        "policy": policy,
        "notes": POLICY_NOTES[policy],
        "min_support": min_support,
        "n_tasks": int(frame["task_id"].nunique()),
        "n_samples": int(frame.groupby("task_id")["sample"].nunique().max()) if not frame.empty else 0,
        "n_outcomes": len(frame),
        "n_errors": int(frame["n_errors"].sum()),
        "n_undecided": int(frame["n_undecided"].sum()),
        "undetermined": undetermined_counts(items),
        "accuracy_original": _level_estimate(levels, 0),
        "accuracy_scaffolded": (estimate(*scaffolded.iloc[0][["value", "low", "high", "n"]]) if not scaffolded.empty
                                else estimate(np.nan, np.nan, np.nan, 0)),
        "success_by_level": [_level_estimate(levels, level) for level in levels["level"]],
        "k_distribution": k_distribution(items),
        "k_share": {str(row.k): estimate(row.value, row.low, row.high, row.n)
                    for row in k_shares(items).sort_values("k", key=lambda ks: ks.map(k_order)).itertuples()},
        "categories": frame["category"].value_counts().to_dict(),
        "non_monotonic": int(frame["non_monotonic"].sum()),
        "bottlenecks": {row.bottleneck: estimate(row.value, row.low, row.high, row.n, tasks=float(row.tasks))
                        for row in bottleneck_attribution(items).itertuples()},
        "per_skill": {row["skill"]: _skill_entry(row) for row in skills.to_dict(orient="records")},
        "help_from_content": ([estimate(row.estimate, row.low, row.high, row.n, level=int(row.level),
                                        scaffold=float(row.scaffold), placebo=float(row.placebo))
                               for row in content.itertuples()] if not content.empty else None),
        "k_stability": _stability_entry(stability, items) if multi_sample else None,
        "diagnosis": diagnose(items, ladders, min_support=min_support),
    }


def _level_estimate(levels: pd.DataFrame, level: int) -> dict:
    rows = levels[levels["level"] == level]
    if rows.empty:
        return estimate(np.nan, np.nan, np.nan, 0, level=level, unanswered=0, population="all tasks")
    row = rows.iloc[0]
    return estimate(row["value"], row["low"], row["high"], row["n"], level=int(level),
                    unanswered=int(row["unanswered"]), population=row["population"])


def _skill_entry(row: dict) -> dict:
    entry = {"occurrences": int(row["occurrences"])}
    for name, n in (("isolated_accuracy", "isolated_n"), ("whole_task_success", "whole_n"),
                    ("isolated_vs_whole_gap", "gap_n"), ("bottleneck_rate", "at_risk")):
        entry[name] = estimate(row[name], row[f"{name}_low"], row[f"{name}_high"], row[n])
    entry["bottlenecks"] = float(row["bottlenecks"])
    entry["unresolved_share"] = None if pd.isna(row["unresolved_share"]) else float(row["unresolved_share"])
    entry["needed_scaffold_share"] = (None if pd.isna(row["needed_scaffold_share"])
                                      else float(row["needed_scaffold_share"]))
    return entry


def _stability_entry(stability: pd.DataFrame, items: Sequence[Outcome]) -> dict:
    repeated = stability[stability["samples"] > 1]
    share = share_estimates([repeated["same_k"].sum()], [len(repeated)]).iloc[0]
    by_sample = pd.crosstab(pd.Series([o.sample for o in items if o.k is not None], name="sample"),
                            pd.Series([o.k for o in items if o.k is not None], name="k"))
    return {"same_k": estimate(share["value"], share["low"], share["high"], share["n"]),
            "k_distribution_by_sample": {str(sample): {str(k): int(c) for k, c in row.items() if c}
                                         for sample, row in by_sample.iterrows()}}


def percent_text(value: float | None) -> str:
    """'42%', or '–' for a missing value."""
    return "–" if value is None else f"{value:.0%}"


def n_words(n: float) -> str:
    """'n = 20'; per-task weighting over samples can make a count fractional: 'n ≈ 20'.

    Examples
    --------
    >>> n_words(20), n_words(20.33)
    ('n = 20', 'n ≈ 20')
    """
    return f"n = {n:g}" if float(n).is_integer() else f"n ≈ {n:.0f}"


def points(value: float) -> str:
    """A difference of shares in percentage points, with its sign.

    Examples
    --------
    >>> points(0.123), points(-0.05)
    ('+12', '−5')
    """
    return f"{value * 100:+.0f}".replace("-", "−")


def share_words(entry: dict) -> str:
    """'42% (95% CI 30–55%, n = 50)', or '– (n = 0)' without a value.

    Examples
    --------
    >>> share_words({"value": 0.5, "ci95": [0.3, 0.7], "n": 20}), share_words({"value": None, "ci95": [None, None], "n": 0})
    ('50% (95% CI 30%–70%, n = 20)', '– (n = 0)')
    """
    low, high = entry["ci95"]
    if entry["value"] is None:
        return f"– ({n_words(entry['n'])})"
    return f"{percent_text(entry['value'])} (95% CI {percent_text(low)}–{percent_text(high)}, {n_words(entry['n'])})"


def difference_words(entry: dict) -> str:
    """'+12 points (95% CI −3 to +25)' for an estimate of a difference of shares.

    Examples
    --------
    >>> difference_words({"value": 0.12, "ci95": [-0.03, 0.25], "n": 40})
    '+12 points (95% CI −3 to +25, n = 40)'
    """
    low, high = entry["ci95"]
    interval = "no interval" if low is None else f"95% CI {points(low)} to {points(high)}"
    return f"{points(entry['value'])} points ({interval}, {n_words(entry['n'])})"


def undetermined_words(counts: dict) -> str:
    """'3 outcome(s) without a determined k (2 errors, 1 undecided)', or '' when there are none.

    Examples
    --------
    >>> undetermined_words({"error": 2, "undecided": 1, "not asked": 0, "total": 3})
    '3 outcome(s) without a determined k (2 errors, 1 undecided)'
    """
    if not counts["total"]:
        return ""
    parts = [f"{counts['error']} error{'s' if counts['error'] != 1 else ''}"] if counts["error"] else []
    parts += [f"{counts['undecided']} undecided"] if counts["undecided"] else []
    parts += [f"{counts['not asked']} not asked"] if counts["not asked"] else []
    return f"{counts['total']} outcome(s) without a determined k ({', '.join(parts)})"


def weakness_profile(summary: dict) -> str:
    """A plain-language paragraph from `summarize`'s numbers (template text, no model involved).

    The diagnosis comes first, written from the ``diagnosis`` block (`stad_utils.claims`): a
    skill is named, or a composition failure stated, only when its test says so. Every rate
    is given with its 95% interval and n.

    Examples
    --------
    >>> weakness_profile(summarize([]))[:58]
    'No task was answered as asked: all 0 outcome(s) lack a dec'
    """
    asked = summary["accuracy_original"]
    if not asked["n"]:
        reasons = undetermined_words(summary["undetermined"])
        return (f"No task was answered as asked: all {summary['n_outcomes']} outcome(s) lack a decided verdict "
                f"({summary['n_errors']} errored and {summary['n_undecided']} undecided verdicts; {reasons}). "
                "Check the target endpoint and the judge; no statistic is computed.")
    parts = [summary["diagnosis"]["headline"],
             f"As asked, the model solves {share_words(asked)} of the tasks it answered; with scaffolding, "
             f"{share_words(summary['accuracy_scaffolded'])} of the tasks where that is decided."]
    if summary["undetermined"]["total"]:
        parts.append(f"k is based on the others: {undetermined_words(summary['undetermined'])}.")
    parts += summary["notes"]
    unresolved = summary["bottlenecks"].get(UNRESOLVED)
    if unresolved and unresolved["n"] >= summary["min_support"]:
        parts.append(f"Of the tasks that needed help, {share_words(unresolved)} stayed unresolved (k = −1).")
    if summary["help_from_content"]:
        first = summary["help_from_content"][0]
        parts.append(f"Help from content at level {first['level']} (scaffold − placebo): {difference_words(first)}.")
    if summary["k_stability"]:
        parts.append(f"Over {summary['n_samples']} samples per task, k is the same in every sample for "
                     f"{share_words(summary['k_stability']['same_k'])} of the tasks.")
    return " ".join(parts)


def summarize_run(items: Sequence[Outcome], *, n_resamples: int = 1000, seed: int = 0,
                  min_support: int = MIN_SUPPORT, truncation: pd.DataFrame | None = None,
                  ladders: Sequence[Ladder] = (), funnel: dict | None = None) -> dict:
    """``summary.json`` of a run: per model, `summarize`, its `weakness_profile`, and (given the
    run's ``truncation``: `truncation_table` or `run_truncation_table`) the replies cut off by
    ``max_tokens`` per variant and level; ``funnel`` (`task_funnel`) as given, else ``None``."""
    truncation = truncation_table([]) if truncation is None else truncation
    per_model = {}
    for model in sorted({o.model for o in items}):
        summary = summarize([o for o in items if o.model == model], n_resamples=n_resamples, seed=seed,
                            min_support=min_support, ladders=ladders)
        summary["truncated"] = truncation[truncation["model"] == model].drop(columns="model").to_dict(orient="records")
        summary["weakness_profile"] = weakness_profile(summary) + truncation_words(summary["truncated"])
        per_model[model] = summary
    return {"funnel": funnel, "models": per_model}


DROP_REASONS = (
    (r"^\d+ steps \(at most", "more than 6 steps"),
    (r"^no (annotated )?steps?\b", "no step"),
    (r"does not match the gold answer", "last step ≠ gold answer"),
    (r"could not decide whether the last step", "judge undecided on the last step"),
    (r"^a single step", "single step (drop_single_step)"),
    (r"teacher failed scaffold level", "teacher failed a scaffold level"),
    (r"could not decide the teacher's answer", "judge undecided on a scaffold level"),
    (r"^expected \d+ scaffolds", "wrong number of variants"),
    (r"^teacher ran out of tokens while reasoning", "teacher ran out of tokens while reasoning"),
)
"""Drop reasons as the filters write them (`chain.decompose`, `chain.build_ladders`) → the funnel's names."""


def drop_category(reason: str) -> str:
    """The funnel's name for a filter's drop reason; any other reason of a teacher is "teacher: other".

    Examples
    --------
    >>> drop_category("7 steps (at most 6)"), drop_category("last step answer '3' does not match the gold answer '4'")
    ('more than 6 steps', 'last step ≠ gold answer')
    """
    return next((name for pattern, name in DROP_REASONS if re.search(pattern, reason)), "teacher: other")


def task_funnel(tasks: Sequence[Task], decompositions: Sequence[Decomposition], ladders: Sequence[Ladder],
                items: Sequence[Outcome]) -> dict:
    """loaded → consistent → verified → evaluated, with the number of tasks dropped per reason.

    *loaded*: tasks of 01; *consistent*: decompositions that passed the consistency filter;
    *verified*: ladders whose every scaffold level the teacher verified; *evaluated*: verified
    tasks with an outcome of some model. Tasks not (yet) decomposed or scaffolded — a teacher
    unavailable, to be retried — and verified tasks no model answered are counted as such.

    Examples
    --------
    >>> task_funnel([], [], [], [])
    {'loaded': 0, 'consistent': 0, 'verified': 0, 'evaluated': 0, 'dropped': {}}
    """
    dropped: dict[str, int] = {}

    def drop(reason: str, count: int = 1) -> None:
        if count:
            dropped[reason] = dropped.get(reason, 0) + count

    consistent = {d.task_id for d in decompositions if d.consistent}
    for d in decompositions:
        if not d.consistent:
            drop(drop_category(d.drop_reason or ""))
    drop("not decomposed yet", len({t.task_id for t in tasks} - {d.task_id for d in decompositions}))
    verified = {ladder.task_id for ladder in ladders if ladder.verified and ladder.task_id in consistent}
    for ladder in ladders:
        if not ladder.verified and ladder.task_id in consistent:
            drop(drop_category(ladder.drop_reason or ""))
    drop("not scaffolded yet", len(consistent - {ladder.task_id for ladder in ladders}))
    evaluated = verified & {o.task_id for o in items}
    drop("no model evaluated", len(verified - evaluated))
    return {"loaded": len(tasks), "consistent": len(consistent), "verified": len(verified),
            "evaluated": len(evaluated), "dropped": dict(sorted(dropped.items(), key=lambda item: -item[1]))}


def run_funnel(paths: RunPaths, ladders: Sequence[Ladder], items: Sequence[Outcome]) -> dict | None:
    """`task_funnel` of a run folder whose ``ladders`` the caller has read; ``None`` when it lacks the tasks,
    decompositions or ladders (a run put together from verdicts alone has no funnel to report)."""
    if not all(path.exists() for path in (paths.tasks, paths.decompositions, paths.ladders)):
        return None
    return task_funnel(read_records(paths.tasks, Task.model_validate),
                       read_records(paths.decompositions, Decomposition.model_validate), ladders, items)


def funnel_words(funnel: dict | None) -> str:
    """'Tasks: 1319 loaded → 1178 consistent → 1178 verified → 1178 evaluated; dropped: 92 last step ≠ …'.

    Examples
    --------
    >>> funnel_words({"loaded": 3, "consistent": 2, "verified": 2, "evaluated": 2, "dropped": {"no step": 1}})
    'Tasks: 3 loaded → 2 consistent → 2 verified → 2 evaluated; dropped: 1 no step.'
    """
    if not funnel:
        return ""
    reasons = ", ".join(f"{count} {reason}" for reason, count in funnel["dropped"].items()) or "none"
    return (f"Tasks: {funnel['loaded']} loaded → {funnel['consistent']} consistent → {funnel['verified']} verified → "
            f"{funnel['evaluated']} evaluated; dropped: {reasons}.")


def truncation_table(verdicts: Sequence[Verdict]) -> pd.DataFrame:
    """Per model, variant and level: replies obtained, how many ``max_tokens`` cut off, and their share.

    A high share means the verdicts there mostly say "no answer" because the reply had no room to
    conclude: raise the endpoint's ``max_tokens`` (``max_tokens_variants`` for variants).

    Examples
    --------
    >>> from stad_utils.records import Verdict
    >>> def v(level, truncated):
    ...     return Verdict(task_id=f"t{level}{truncated}", model="m", variant="original", level=level, prompt="q",
    ...                    reference="1", response="…", correct=False, decided_by="none", truncated=truncated)
    >>> truncation_table([v(0, True), v(0, False)]).to_dict(orient="records")
    [{'model': 'm', 'variant': 'original', 'level': 0, 'replies': 2, 'cut_off': 1, 'share': 0.5}]
    """
    columns = ["model", "variant", "level", "replies", "cut_off", "share"]
    frame = pd.DataFrame([{"model": v.model, "variant": v.variant, "level": v.level, "cut_off": v.truncated}
                          for v in verdicts if v.response is not None], columns=["model", "variant", "level", "cut_off"])
    if frame.empty:
        return pd.DataFrame(columns=columns)
    table = frame.groupby(["model", "variant", "level"], as_index=False).agg(replies=("cut_off", "size"),
                                                                             cut_off=("cut_off", "sum"))
    table["share"] = table["cut_off"] / table["replies"]
    return table[columns]


def run_truncation_table(runs: RunPaths | Path | str | Sequence[Path | str]) -> pd.DataFrame:
    """`truncation_table` of the runs' latest verdicts, counted by DuckDB in their Parquet copy.

    No reply is read, and no verdict becomes a Python object: a million verdicts take a second.
    """
    from .columnar import query

    runs = runs.root if isinstance(runs, RunPaths) else runs
    return query("SELECT model, variant, level::BIGINT AS level, count(*) AS replies, "
                 "count(*) FILTER (truncated) AS cut_off, cut_off / replies AS share FROM verdicts "
                 "WHERE response IS NOT NULL GROUP BY model, variant, level ORDER BY model, variant, level", runs)


def truncation_words(rows: list[dict], threshold: float = 0.1) -> str:
    """A sentence naming the variants and levels where at least ``threshold`` of the replies were cut off."""
    heavy = [row for row in rows if row["share"] >= threshold]
    if not heavy:
        return ""
    where = ", ".join(f"{row['variant']} {row['level']}: {row['share']:.0%} of {row['replies']}" for row in heavy)
    return (f" Replies cut off by max_tokens ({where}) count as no answer when they committed to none: "
            "raise max_tokens to see what the model would conclude.")


def level_table(summary: dict) -> pd.DataFrame:
    """Success per level of one model's summary, formatted for the report."""
    return pd.DataFrame([{"level j": e["level"], "success": percent_text(e["value"]),
                          "95% CI": f"{percent_text(e['ci95'][0])}–{percent_text(e['ci95'][1])}", "tasks answered": e["n"],
                          "unanswered": e["unanswered"], "asked of": e["population"]}
                         for e in summary["success_by_level"]])


def bottleneck_report_table(summary: dict, max_rows: int = 10) -> pd.DataFrame:
    """The most frequent bottleneck categories of one model's summary, formatted for the report."""
    rows = sorted(summary["bottlenecks"].items(), key=lambda item: -item[1]["tasks"])[:max_rows]
    return pd.DataFrame([{"bottleneck (step k's skill)": name, "tasks": round(e["tasks"], 1),
                          "share of tasks needing help": share_words(e)} for name, e in rows])


def skill_report_table(summary: dict, max_rows: int = 15) -> pd.DataFrame:
    """The most frequent skills with at least ``min_support`` occurrences, formatted for the report."""
    shown = [(name, e) for name, e in summary["per_skill"].items() if e["occurrences"] >= summary["min_support"]]
    return pd.DataFrame([{"skill": name, "occurrences": e["occurrences"],
                          "isolated accuracy": share_words(e["isolated_accuracy"]),
                          "bottleneck rate (descriptive)": share_words(e["bottleneck_rate"]),
                          "isolated − whole (points)": ("–" if e["isolated_vs_whole_gap"]["value"] is None
                                                        else points(e["isolated_vs_whole_gap"]["value"]))}
                         for name, e in shown[:max_rows]])


def diagnosis_table(diagnosis: dict) -> pd.DataFrame:
    """The claims of one model's ``diagnosis`` block, one row each, formatted for the report."""
    rows = [{"claim": f"weak skill '{e['skill']}'", "estimate": share_words(e["isolated_accuracy"]),
             "compared with": f"other skills {share_words(e['others_accuracy'])}",
             "Holm-adjusted p": f"{e['p_adjusted']:.2g}"} for e in diagnosis["weak_skill_evidence"]]
    effect = diagnosis["composition_effect"]
    if effect and effect["value"] is not None:
        adjusted = diagnosis["composition_p_adjusted"]
        rows.append({"claim": "fails to chain steps it can do alone" if diagnosis["composition_failure"]
                     else "no composition failure detected", "estimate": f"{effect['name']} {difference_words(effect)}",
                     "compared with": "0 (whole task as likely as every step alone)",
                     "Holm-adjusted p": f"{adjusted:.2g}"})
    return pd.DataFrame(rows, columns=["claim", "estimate", "compared with", "Holm-adjusted p"])


def markdown_table(table: pd.DataFrame, **options) -> str:
    """A table for ``report.md`` (``options`` go to `DataFrame.to_markdown`), every text cell and header
    escaped: skill and model names are data."""
    escaped = table.rename(columns=markdown_text).map(
        lambda cell: markdown_text(cell) if isinstance(cell, str) else cell)
    return escaped.to_markdown(index=False, **options)


def written_report(run: str, summary: dict) -> str:
    """``report.md``: the task funnel, then per model the weakness profile (diagnosis first) and tables
    of the tested claims, levels, bottlenecks and skills.

    Every name and sentence is escaped for markdown (`stad_utils.escaping.markdown_text`): a
    skill or model name shows as typed, never as a tag or a link.
    """
    parts = [f"# STaD summary: {markdown_text(run)}\n"]
    if summary.get("funnel"):
        parts.append(f"{funnel_words(summary['funnel'])}\n")
    for model, numbers in summary["models"].items():
        label = f"{model} (simulated target)" if numbers["simulated"] else model
        parts.append(f"## {markdown_text(label)}\n\n{markdown_text(numbers['weakness_profile'])}\n")
        if not numbers["accuracy_original"]["n"]:
            continue
        diagnosis = numbers["diagnosis"]
        claims = diagnosis_table(diagnosis)
        parts.append(f"### Diagnosis: {diagnosis['skills_tested']} skills tested, with the composition test, "
                     f"Holm-corrected at α = {diagnosis['alpha']}\n\n"
                     + (markdown_table(claims) if not claims.empty else "Nothing to test.") + "\n")
        parts.append(f"### Success per scaffold level\n\n{markdown_table(level_table(numbers))}\n")
        k_rows = [{"k": k, "share of determined tasks": share_words(e)} for k, e in numbers["k_share"].items()]
        reasons = undetermined_words(numbers["undetermined"]) or "none undetermined"
        parts.append(f"### Minimal scaffolding level k ({reasons})\n\n{markdown_table(pd.DataFrame(k_rows))}\n")
        if numbers["bottlenecks"]:
            parts.append("### Bottlenecks (descriptive: step k's skill depends on where the skill stands in its "
                         f"tasks, see `stad_utils.definitions`)\n\n"
                         f"{markdown_table(bottleneck_report_table(numbers))}\n")
        skills = skill_report_table(numbers)
        parts.append(f"### Skills with at least {numbers['min_support']} occurrences\n\n"
                     + (f"{markdown_table(skills)}\n" if not skills.empty else "None.\n"))
        if any(row["cut_off"] for row in numbers.get("truncated", [])):
            cut = pd.DataFrame(numbers["truncated"]).assign(share=lambda t: t["share"].map("{:.0%}".format))
            parts.append(f"### Replies cut off by max_tokens\n\n{markdown_table(cut)}\n")
    return "\n".join(parts)


REASONING_COUNTS = ("reasoning_tokens", "traces")
"""The counts of `stad_utils.client.UsageStats` that only reasoning models make."""


def usage_table(usage: dict, prices: dict | None = None) -> pd.DataFrame:
    """Calls, tokens, seconds and (with a price table) cost per stage, role and model.

    ``usage`` is ``usage.json`` (``{stage: {role: {model: stats}}}``); ``prices`` maps a model to
    ``{"prompt": USD per million prompt tokens, "completion": USD per million completion tokens}``.
    ``reasoning_tokens`` are the part of ``completion_tokens`` a reasoning model spent on its trace, as
    servers report them (and bill them: as completion tokens); ``traces`` counts the replies that came
    with a trace; both columns are there only when some model reasoned aloud (files written before
    they were counted read 0).
    """
    counts = ["calls", "cache_hits", "errors", "prompt_tokens", "completion_tokens", *REASONING_COUNTS]
    rows = [{"stage": stage, "role": role, "model": model, **dict.fromkeys(counts, 0), **stats}
            for stage, roles in usage.items() for role, models in roles.items() for model, stats in models.items()]
    table = pd.DataFrame(rows, columns=["stage", "role", "model", *counts, "seconds"])
    if not table[list(REASONING_COUNTS)].to_numpy().any():  # a run without reasoning models reads as before
        table = table.drop(columns=list(REASONING_COUNTS))
    if prices:
        rate = table["model"].map(lambda m: prices.get(m, {}))
        table["cost_usd"] = (table["prompt_tokens"] * rate.map(lambda r: r.get("prompt", float("nan")))
                             + table["completion_tokens"] * rate.map(lambda r: r.get("completion", float("nan")))) / 1e6
    return table


def usage_report(table: pd.DataFrame):
    """`usage_table` for reading: counts with thousands separators, seconds to a tenth, cost to the cent, no index."""
    formats = {**dict.fromkeys(["calls", "cache_hits", "errors", "prompt_tokens", "completion_tokens",
                                "reasoning_tokens", "traces"], "{:,.0f}"),
               "seconds": "{:,.1f}", "cost_usd": "${:,.2f}"}
    return table.style.hide(axis="index").format({column: form for column, form in formats.items() if column in table},
                                                 na_rep="–")
