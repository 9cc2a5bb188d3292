"""Two models on the same tasks: paired differences and tests, bottleneck profiles, pair gaps.

The quantities (help needed, paired test, minimal detectable difference, skill profile, pair
composition gap) are defined in `stad_utils.definitions`. Everything is paired over tasks:
model A's and model B's answers to the same question are compared, and the tasks one model
did not answer at a level are left out of that level's comparison (and counted). The
statement of a comparison is written in `stad_utils.analysis._wording`, ``comparison.json`` assembled in
`stad_utils.analysis._summary`, the validity checks are in `stad_utils.analysis._validity`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.stats import wilcoxon

from ..definitions import ALPHA, BOOTSTRAP_MIN_TASKS, MIN_SUPPORT
from ..method import fold_rare_skills, help_needed
from ..records import UNMAPPED, Outcome
from ._claims import composition_gap
from ._frames import ModelFrames, policy_of, task_rates, whole_and_alone
from ._measures import skill_table, undetermined_counts
from ._schema import (
    CompositionComparison,
    DetectableDifference,
    Estimate,
    HelpNeeded,
    LargestDifference,
    PairComparison,
    PairedDifference,
    PairedLevel,
    Profile,
    SkillComparison,
    Undetermined,
)
from ._stats import (
    holm,
    mcnemar_exact,
    minimal_detectable_difference,
    paired_bootstrap,
    paired_difference_interval,
    paired_test,
    share_estimates,
)

PAIRED_LEVELS_ASKED = {"full": "all tasks", "on_failure": "tasks both failed as asked"}
"""The population of paired levels ≥ 1 under each policy (see `analysis.LEVELS_ASKED`)."""

PAIR_GAP_REFUSAL = ("Pair composition gaps are not computed under policy on_failure: variants were asked only for "
                    "tasks failed as asked, which fixes level K−2 of 2-step tasks at 'failed'.")


def paired_levels(items: Sequence[Outcome], model_a: str, model_b: str, *, n_resamples: int = 1000,
                  seed: int = 0, frames: ModelFrames | None = None) -> pd.DataFrame:
    """Per scaffold level, on tasks both models answered there: their success, A − B with its 95%
    interval, the paired test, and the minimal detectable difference.

    The interval (`paired_interval`) is Newcombe's score interval with one sample per task, else
    the two-stage paired bootstrap from ``BOOTSTRAP_MIN_TASKS`` tasks on and none below.
    Columns: ``level``, ``tasks``, ``a``, ``b`` (success rates), ``difference``, ``low``, ``high``,
    ``interval`` (its method), ``a_better``, ``b_better``, ``tied`` (tasks), ``test``, ``p_value``,
    ``minimal_detectable_difference``, ``population`` (which tasks were asked).

    Examples
    --------
    >>> from stad_utils.records import Outcome
    >>> def o(model, task, curve):
    ...     return Outcome(task_id=task, model=model, source="s", n_steps=2, skills=["a", "b"], curve=curve,
    ...                    isolated=[], k=None, non_monotonic=False, n_errors=0)
    >>> items = [o("A", "t1", [True, True]), o("B", "t1", [False, True]), o("A", "t2", [True, None]),
    ...          o("B", "t2", [True, True])]
    >>> paired_levels(items, "A", "B", n_resamples=0)[["level", "tasks", "difference", "a_better", "test"]
    ...                                               ].to_dict(orient="records")  # doctest: +NORMALIZE_WHITESPACE
    [{'level': 0, 'tasks': 2, 'difference': 0.5, 'a_better': 1, 'test': 'McNemar exact'},
     {'level': 1, 'tasks': 1, 'difference': 0.0, 'a_better': 0, 'test': 'McNemar exact'}]
    """
    columns = ["level", "tasks", "a", "b", "difference", "low", "high", "interval", "a_better", "b_better", "tied",
               "test", "p_value", "minimal_detectable_difference", "population"]
    frames = frames or ModelFrames(items)
    answers = frames.answers(model_a, model_b)
    rates = task_rates(answers[answers["variant"] == "curve"], ["model", "level"])
    rates = rates[rates["trials"] > 0].set_index(["level", "task_id"])[["model", "successes", "trials"]]
    sides = [rates[rates["model"] == m].drop(columns="model").add_prefix(f"{side}_")
             for m, side in ((model_a, "a"), (model_b, "b"))]
    units = sides[0].join(sides[1], how="inner").reset_index()
    if units.empty:
        return pd.DataFrame(columns=columns)
    units["a"] = units["a_successes"] / units["a_trials"]
    units["b"] = units["b_successes"] / units["b_trials"]
    later = PAIRED_LEVELS_ASKED[policy_of(frames.records(model_a, model_b))]
    rows = []
    for level, group in units.groupby("level"):
        differences = (group["a"] - group["b"]).to_numpy()
        single_sample = bool((group[["a_trials", "b_trials"]] == 1).all(axis=None))
        test, p_value = paired_test(differences, single_sample)
        low, high, method = paired_interval(group, single_sample, n_resamples=n_resamples, seed=seed)
        rows.append({"level": int(level), "tasks": len(group), "a": group["a"].mean(), "b": group["b"].mean(),
                     "difference": differences.mean(), "low": low, "high": high, "interval": method,
                     "a_better": int((differences > 0).sum()),
                     "b_better": int((differences < 0).sum()), "tied": int((differences == 0).sum()), "test": test,
                     "p_value": p_value,
                     "minimal_detectable_difference": minimal_detectable_difference(len(group),
                                                                                    float(np.mean(differences ** 2))),
                     "population": "all tasks" if level == 0 else later})
    return pd.DataFrame(rows, columns=columns)


NEWCOMBE = "Newcombe score"
BOOTSTRAP = "paired bootstrap"


def paired_interval(units: pd.DataFrame, single_sample: bool, *, n_resamples: int = 1000,
                    seed: int = 0) -> tuple[float, float, str]:
    """(low, high, method) of the 95% interval of the mean of ``a − b`` over paired units.

    One sample per unit: Newcombe's score interval on the 2 × 2 table of the units' outcomes
    (`stats.paired_difference_interval`). Repeated samples: the two-stage paired bootstrap
    (`stats.paired_bootstrap`) from ``BOOTSTRAP_MIN_TASKS`` units on; below, no interval
    (NaN, method ``"none: fewer than 30 tasks"``), because a percentile bootstrap over a handful
    of tasks gives intervals that are too narrow (zero-width at n = 1).

    Examples
    --------
    >>> units = pd.DataFrame({"task_id": ["t1"], "a": [1.0], "b": [1.0], "a_successes": [1], "a_trials": [1],
    ...                       "b_successes": [1], "b_trials": [1]})
    >>> low, high, method = paired_interval(units, single_sample=True)
    >>> round(low, 2), round(high, 2), method
    (-0.79, 0.79, 'Newcombe score')
    """
    if single_sample:
        a, b = units["a"].to_numpy() > 0.5, units["b"].to_numpy() > 0.5
        return (*paired_difference_interval((a & b).sum(), (a & ~b).sum(), (~a & b).sum(), (~a & ~b).sum()), NEWCOMBE)
    if len(units) < BOOTSTRAP_MIN_TASKS:
        return math.nan, math.nan, f"none: fewer than {BOOTSTRAP_MIN_TASKS} tasks"
    row = paired_bootstrap(units.assign(group=0), "group", n_resamples=n_resamples, seed=seed).iloc[0]
    return float(row["low"]), float(row["high"]), BOOTSTRAP


def skill_accuracy_comparison(items: Sequence[Outcome], model_a: str, model_b: str, *,
                              min_support: int = MIN_SUPPORT, alpha: float = ALPHA,
                              frames: ModelFrames | None = None) -> pd.DataFrame:
    """Per skill, isolated accuracy of A and B on the same isolated questions, paired and Holm-corrected.

    A unit is a step occurrence (task, step) both models answered alone; with repeated
    samples, its cells are the products of the two models' per-occurrence rates (samples of A
    and B are not paired with each other). Skills with at least ``min_support`` units are
    tested: McNemar's exact test (two-sided) on the discordant units, Holm's adjustment over
    the skills, Newcombe's score interval for A − B. Columns: ``skill``, ``n``, ``a``, ``b``,
    ``difference``, ``low``, ``high``, ``p_value``, ``p_adjusted``, ``differs``; most
    significant first.

    Examples
    --------
    >>> def o(model, task, alone):
    ...     return Outcome(task_id=task, model=model, source="s", n_steps=2, skills=["add", "sub"], curve=[None, None],
    ...                    isolated=alone, k=None, non_monotonic=False, n_errors=0)
    >>> items = [o("A", f"t{i}", [True, True]) for i in range(20)] + [o("B", f"t{i}", [True, i < 4]) for i in range(20)]
    >>> table = skill_accuracy_comparison(items, "A", "B")
    >>> table[["skill", "n", "difference", "differs"]].to_dict(orient="records")  # doctest: +NORMALIZE_WHITESPACE
    [{'skill': 'sub', 'n': 20, 'difference': 0.8, 'differs': True},
     {'skill': 'add', 'n': 20, 'difference': 0.0, 'differs': False}]
    """
    columns = ["skill", "n", "a", "b", "difference", "low", "high", "p_value", "p_adjusted", "differs"]
    steps = (frames or ModelFrames(items)).steps(model_a, model_b)
    steps = steps[steps["isolated"].notna() & (steps["skill"] != UNMAPPED)]
    rates = steps.pivot_table(index=["task_id", "step", "skill"], columns="model", values="isolated", aggfunc="mean")
    if rates.empty or not {model_a, model_b} <= set(rates.columns):
        return pd.DataFrame(columns=columns)
    rates = rates[[model_a, model_b]].dropna().reset_index()
    rows = []
    for skill, group in rates.groupby("skill"):
        if len(group) < min_support:
            continue
        a, b = group[model_a].to_numpy(), group[model_b].to_numpy()
        cells = [(a * b).sum(), (a * (1 - b)).sum(), ((1 - a) * b).sum(), ((1 - a) * (1 - b)).sum()]
        low, high = paired_difference_interval(*cells)
        rows.append({"skill": skill, "n": len(group), "a": a.mean(), "b": b.mean(), "difference": a.mean() - b.mean(),
                     "low": low, "high": high, "p_value": mcnemar_exact(cells[1], cells[2])})
    if not rows:
        return pd.DataFrame(columns=columns)
    table = pd.DataFrame(rows)
    table["p_adjusted"] = holm(table["p_value"])
    table["differs"] = table["p_adjusted"] < alpha
    return table.sort_values(["p_value", "skill"], ignore_index=True)[columns]


def composition_comparison(items: Sequence[Outcome], model_a: str, model_b: str, *, n_resamples: int = 1000,
                           seed: int = 0, frames: ModelFrames | None = None) -> CompositionComparison | None:
    """Each model's composition gap (`composition_gap`) and their paired difference A − B.

    The difference is over tasks where both have a gap (whole task and every step answered),
    per task (whole − every step alone) of A minus that of B; its interval is the paired
    bootstrap from ``BOOTSTRAP_MIN_TASKS`` tasks on (none below), its test Wilcoxon's
    signed-rank test. ``None`` under policy ``on_failure``.
    """
    frames = frames or ModelFrames(items)
    gaps = {model: frames.of_model(composition_gap, model) for model in (model_a, model_b)}
    if None in gaps.values():
        return None
    both = pd.concat({model: frames.of_model(task_composition_gaps, model) for model in (model_a, model_b)}, axis=1,
                     join="inner")
    differences = (both[model_a] - both[model_b]).to_numpy() if len(both) else np.array([])
    if len(differences) >= BOOTSTRAP_MIN_TASKS:
        units = pd.DataFrame({"task_id": both.index, "group": 0, "a_successes": differences, "a_trials": 1})
        interval = paired_bootstrap(units, "group", n_resamples=n_resamples, seed=seed).iloc[0][["low", "high"]]
        low, high = float(interval["low"]), float(interval["high"])
    else:
        low = high = math.nan
    p_value = (float(wilcoxon(differences, zero_method="zsplit").pvalue) if differences.any() else 1.0) \
        if len(differences) else None
    return CompositionComparison(
        gaps={model: gap.estimate for model, gap in gaps.items() if gap is not None},
        difference=PairedDifference.of(differences.mean() if len(differences) else math.nan, low, high,
                                       len(differences), test="Wilcoxon signed-rank", p_value=p_value))


def task_composition_gaps(items: Sequence[Outcome]) -> pd.Series:
    """Per task with its whole and every step answered: whole − every step alone, averaged over samples.

    Examples
    --------
    >>> from stad_utils.records import Outcome
    >>> def o(task, whole, alone, sample=0):
    ...     return Outcome(task_id=task, model="m", source="s", n_steps=2, skills=["a", "b"], curve=[whole, True],
    ...                    isolated=alone, k=0, non_monotonic=False, n_errors=0, sample=sample)
    >>> task_composition_gaps([o("t1", False, [True, True]), o("t1", True, [True, True], 1),
    ...                        o("t2", True, [None, True])]).to_dict()
    {'t1': -0.5}
    """
    rows = [(o.task_id, *pair) for o in items if (pair := whole_and_alone(o)) is not None]
    frame = pd.DataFrame(rows, columns=["task_id", "whole", "alone"]).astype({"whole": float, "alone": float})
    return (frame["whole"] - frame["alone"]).groupby(frame["task_id"]).mean()


def help_comparison(items: Sequence[Outcome], model_a: str, model_b: str, *, frames: ModelFrames | None = None
                    ) -> HelpNeeded:
    """Help needed (mean over determined samples per task) on tasks with a determined k for both models.

    Returns ``n`` (tasks), ``mean_difference`` (A − B, in steps), ``k_differs_on`` (tasks whose
    help needed differs) and ``wilcoxon_p`` (signed-rank test of the per-task differences).

    Examples
    --------
    >>> from stad_utils.records import Outcome
    >>> def o(model, task, k):
    ...     return Outcome(task_id=task, model=model, source="s", n_steps=3, skills=["a"] * 3, curve=[], isolated=[],
    ...                    k=k, non_monotonic=False, n_errors=0)
    >>> help_comparison([o("A", "t1", 0), o("B", "t1", -1), o("A", "t2", 1), o("B", "t2", 1)],
    ...                 "A", "B").mean_difference
    -1.5
    """
    frames = frames or ModelFrames(items)
    rows = [(o.model, o.task_id, help_needed(o.k, o.n_steps)) for o in frames.records(model_a, model_b)
            if o.k is not None]
    frame = pd.DataFrame(rows, columns=["model", "task_id", "help"])
    per_task = frame.pivot_table(index="task_id", columns="model", values="help", aggfunc="mean")
    if not {model_a, model_b} <= set(per_task.columns):
        return HelpNeeded(n=0, mean_difference=None, k_differs_on=0, wilcoxon_p=None)
    differences = (per_task[model_a] - per_task[model_b]).dropna().to_numpy()
    return HelpNeeded(n=len(differences), mean_difference=float(differences.mean()) if len(differences) else None,
                      k_differs_on=int((differences != 0).sum()),
                      wilcoxon_p=(float(wilcoxon(differences, zero_method="zsplit").pvalue) if differences.any()
                                  else 1.0))


def profile_matrices(items: Sequence[Outcome], model_a: str, model_b: str, min_support: int = MIN_SUPPORT, *,
                     frames: ModelFrames | None = None) -> tuple[list[str], dict[str, np.ndarray]]:
    """Per-task bottleneck and at-risk counts of each model, on tasks where both needed help.

    Returns the profile skills (mapped, at risk at least ``min_support`` times for both models)
    and ``{"bottleneck_a", "at_risk_a", "bottleneck_b", "at_risk_b"}``, each tasks × skills.
    """
    frames = frames or ModelFrames(items)
    steps, outcomes = frames.steps(model_a, model_b), frames.outcomes(model_a, model_b)
    needed_help = outcomes[outcomes["k"].notna() & (outcomes["k"] != 0)]
    both = needed_help.groupby("task_id")["model"].nunique() == 2
    steps = steps[steps["task_id"].isin(both[both].index) & (steps["skill"] != UNMAPPED)]
    sums = steps.pivot_table(index=["task_id", "skill"], columns="model", values=["bottleneck", "at_risk"],
                             aggfunc="sum", fill_value=0.0)
    if sums.empty or not {model_a, model_b} <= set(sums.columns.get_level_values("model")):
        return [], {}
    matrices = {f"{value}_{side}": sums[value, model].unstack("skill", fill_value=0.0)
                for value in ("bottleneck", "at_risk") for model, side in ((model_a, "a"), (model_b, "b"))}
    risk = pd.DataFrame({side: matrices[f"at_risk_{side}"].sum() for side in ("a", "b")})
    skills = sorted(risk.index[(risk >= min_support).all(axis=1)])
    return skills, {name: matrix[skills].to_numpy() for name, matrix in matrices.items()}


def _profile_distance(bottleneck_a, at_risk_a, bottleneck_b, at_risk_b) -> np.ndarray:
    """Mean absolute difference of bottleneck rates over skills (the last axis), skills at risk in both."""
    with np.errstate(invalid="ignore", divide="ignore"):
        gaps = np.abs(bottleneck_a / at_risk_a - bottleneck_b / at_risk_b)
    return np.nanmean(np.where(np.isfinite(gaps), gaps, np.nan), axis=-1)


def profile_permutation_test(matrices: dict[str, np.ndarray], n_permutations: int = 1000,
                             seed: int = 0) -> tuple[float, float]:
    """(profile distance, p-value): how often swapping the two models within random tasks gives a
    distance at least as large as the observed one (vectorised over permutations).

    Examples
    --------
    >>> same = {name: np.ones((6, 2)) for name in ("bottleneck_a", "at_risk_a", "bottleneck_b", "at_risk_b")}
    >>> profile_permutation_test(same, n_permutations=99)
    (0.0, 1.0)
    """
    totals = {name: matrix.sum(axis=0) for name, matrix in matrices.items()}
    observed = float(_profile_distance(totals["bottleneck_a"], totals["at_risk_a"], totals["bottleneck_b"],
                                       totals["at_risk_b"]))
    n_tasks = matrices["at_risk_a"].shape[0]
    swaps = (np.random.default_rng(seed).random((n_permutations, n_tasks)) < 0.5).astype(float)
    moved = {value: swaps @ (matrices[f"{value}_b"] - matrices[f"{value}_a"]) for value in ("bottleneck", "at_risk")}
    distances = _profile_distance(totals["bottleneck_a"] + moved["bottleneck"], totals["at_risk_a"] + moved["at_risk"],
                                  totals["bottleneck_b"] - moved["bottleneck"], totals["at_risk_b"] - moved["at_risk"])
    exceed = int((distances >= observed - 1e-12).sum())
    return observed, (exceed + 1) / (n_permutations + 1)


def profile_comparison(items: Sequence[Outcome], model_a: str, model_b: str, *, n_permutations: int = 1000,
                       seed: int = 0, min_support: int = MIN_SUPPORT, frames: ModelFrames | None = None) -> Profile:
    """The bottleneck profiles of two models on tasks where both needed help, or why they are not compared.

    Returns ``n_tasks``, ``skills``, ``distance``, ``p_value`` and ``largest_difference`` (the
    skill with the largest rate difference, each model's rate as an estimate), or ``refused``.

    Examples
    --------
    >>> from stad_utils.records import Outcome
    >>> def o(model, task):
    ...     return Outcome(task_id=task, model=model, source="s", n_steps=2, skills=["add", "mul"], curve=[False, True],
    ...                    isolated=[True, True], k=1, non_monotonic=False, n_errors=0)
    >>> profile_comparison([o("A", "t1"), o("B", "t1")], "A", "B").refused
    'no skill was at risk at least 5 times for both models on the 1 tasks where both needed help'
    """
    if all(skill == UNMAPPED for o in items for skill in o.skills):
        return Profile(refused="no step has a mapped skill")
    skills, matrices = profile_matrices(items, model_a, model_b, min_support, frames=frames)
    n_tasks = len(next(iter(matrices.values()))) if matrices else 0
    if not skills:
        return Profile(refused=f"no skill was at risk at least {min_support} times for both models on the {n_tasks} "
                               "tasks where both needed help", n_tasks=n_tasks)
    distance, p_value = profile_permutation_test(matrices, n_permutations, seed)
    totals = {name: matrix.sum(axis=0) for name, matrix in matrices.items()}
    rates = {side: share_estimates(totals[f"bottleneck_{side}"], totals[f"at_risk_{side}"]) for side in ("a", "b")}
    largest = int(np.nanargmax(np.abs(rates["a"]["value"] - rates["b"]["value"])))
    return Profile(n_tasks=n_tasks, skills=skills, distance=distance, p_value=p_value,
                   largest_difference=LargestDifference(skill=skills[largest], rates={
                       model: Estimate.of(*rates[side].iloc[largest][["value", "low", "high", "n"]])
                       for model, side in ((model_a, "a"), (model_b, "b"))}))


def compare_models(items: Sequence[Outcome], model_a: str, model_b: str, *, n_permutations: int = 1000,
                   n_resamples: int = 1000, seed: int = 0, min_support: int = MIN_SUPPORT,
                   frames: ModelFrames | None = None) -> PairComparison:
    """Paired comparison of two models on the tasks both answered (as ``comparison.json`` holds it).

    ``levels``: `paired_levels` rows; ``accuracy_original``: each model's success as asked on
    the tasks both answered as asked; ``difference_original``: A − B there, with its test and
    minimal detectable difference; ``help_needed``: `help_comparison`; ``isolated_accuracy``:
    `skill_accuracy_comparison` rows; ``composition``: `composition_comparison`; ``profile``:
    `profile_comparison` (descriptive). Its ``statement`` is written by
    `stad_utils.analysis.comparison_statement` (`compare_pair` adds it). ``frames``
    (`ModelFrames` of ``items``) lets the comparisons of many pairs share each model's frames;
    the functions above take it too. Example: `compare_pair`.
    """
    frames = frames or ModelFrames(items)
    pair = frames.records(model_a, model_b)
    levels = paired_levels(items, model_a, model_b, n_resamples=n_resamples, seed=seed, frames=frames)
    result = PairComparison(
        models=[model_a, model_b], min_support=min_support,
        simulated=sorted({o.model for o in pair if o.simulated}),
        n_tasks=len({o.task_id for o in frames.records(model_a)} & {o.task_id for o in frames.records(model_b)}),
        levels=[PairedLevel(**row) for row in levels.replace({np.nan: None}).to_dict(orient="records")],
        help_needed=help_comparison(items, model_a, model_b, frames=frames),
        isolated_accuracy=[SkillComparison(**row) for row in skill_accuracy_comparison(
            items, model_a, model_b, min_support=min_support, frames=frames).replace({np.nan: None}).to_dict(
            orient="records")],
        composition=composition_comparison(items, model_a, model_b, n_resamples=n_resamples, seed=seed,
                                           frames=frames),
        profile=profile_comparison(items, model_a, model_b, n_permutations=n_permutations, seed=seed,
                                   min_support=min_support, frames=frames))
    if not levels.empty and levels["level"].iloc[0] == 0:
        first = levels.iloc[0]
        shares = share_estimates([first["a"] * first["tasks"], first["b"] * first["tasks"]], [first["tasks"]] * 2)
        result.accuracy_original = {model: Estimate.of(*shares.iloc[i][["value", "low", "high", "n"]])
                                    for i, model in enumerate((model_a, model_b))}
        result.difference_original = DetectableDifference.of(
            first["difference"], first["low"], first["high"], first["tasks"], test=first["test"],
            p_value=float(first["p_value"]), minimal_detectable_difference=first["minimal_detectable_difference"])
    return result


def pair_composition_gaps(items: Sequence[Outcome], rename: dict[str, str] | None = None) -> pd.DataFrame:
    """Per model and final skill pair (a, b): success with two steps left minus the product of isolated successes.

    Per task, each success is its per-task rate over samples; tasks need the level K−2 and both
    isolated steps answered. Columns: ``model``, ``first``, ``second``, ``tasks``, ``composed``,
    ``expected``, ``gap`` and its Newcombe 95% interval ``low``, ``high``. ``rename`` maps skills to shown
    names (folding). Raises `ValueError` under policy ``on_failure`` (see `definitions`, Policies).

    Examples
    --------
    >>> from stad_utils.records import Outcome
    >>> def o(task, curve, isolated):
    ...     return Outcome(task_id=task, model="m", source="s", n_steps=2, skills=["add", "mul"], curve=curve,
    ...                    isolated=isolated, k=None, non_monotonic=False, n_errors=0)
    >>> pair_composition_gaps([o("t1", [False, True], [True, True]), o("t2", [True, True], [True, False])]
    ...                       ).to_dict(orient="records")
    ... # doctest: +ELLIPSIS, +NORMALIZE_WHITESPACE
    [{'model': 'm', 'first': 'add', 'second': 'mul', 'tasks': 2, 'composed': 0.5, 'expected': 0.5, 'gap': 0.0,
      'low': -0.81..., 'high': 0.81...}]
    """
    if policy_of(items) == "on_failure":
        raise ValueError(PAIR_GAP_REFUSAL)
    rename = rename or {}
    rows = [(o.model, o.task_id, rename.get(o.skills[-2], o.skills[-2]), rename.get(o.skills[-1], o.skills[-1]),
             float(composed), float(first), float(second))
            for o in items if o.n_steps >= 2
            for composed, first, second in [(o.curve[-2], o.isolated[-2], o.isolated[-1])]
            if composed is not None and first is not None and second is not None]
    frame = pd.DataFrame(rows, columns=["model", "task_id", "first", "second", "composed", "alone_first",
                                        "alone_second"])
    per_task = frame.groupby(["model", "task_id", "first", "second"]).mean().reset_index()
    per_task["expected"] = per_task["alone_first"] * per_task["alone_second"]
    composed, expected = per_task["composed"], per_task["expected"]
    per_task["both"], per_task["composed_only"] = composed * expected, composed * (1 - expected)
    per_task["alone_only"], per_task["neither"] = (1 - composed) * expected, (1 - composed) * (1 - expected)
    grouped = per_task.groupby(["model", "first", "second"]).agg(
        tasks=("composed", "size"), composed=("composed", "mean"), expected=("expected", "mean"),
        both=("both", "sum"), composed_only=("composed_only", "sum"), alone_only=("alone_only", "sum"),
        neither=("neither", "sum")).reset_index()
    grouped["gap"] = grouped["composed"] - grouped["expected"]
    intervals = [paired_difference_interval(*cells) for cells in
                 grouped[["both", "composed_only", "alone_only", "neither"]].itertuples(index=False)]
    grouped["low"], grouped["high"] = ([bound for bound, _ in intervals], [bound for _, bound in intervals]) \
        if intervals else ([], [])
    return grouped[["model", "first", "second", "tasks", "composed", "expected", "gap", "low", "high"]]


@dataclass(frozen=True)
class ComparisonTables:
    """What 07's figures draw beside ``comparison.json``, each computed once: every model's skills
    with rare ones folded, the pair composition gaps with rare skills folded (``None`` under
    ``on_failure``), and each model's undetermined outcomes.
    """

    shown_skills: pd.DataFrame
    shown_pair_gaps: pd.DataFrame | None
    simulated: dict[str, bool]
    undetermined: dict[str, Undetermined]

    def table(self, measure: str) -> pd.DataFrame:
        """A table by name, as `RunAnalysis.table` gives it (``"shown_skills"``)."""
        return getattr(self, measure)


def comparison_tables(items: Sequence[Outcome], *, max_shown: int = 12, pair_max_shown: int = 4,
                      frames: ModelFrames | None = None) -> ComparisonTables:
    """The `ComparisonTables` of ``items``: skills beyond the ``max_shown`` most frequent folded
    (``pair_max_shown`` for the pairs of last steps, whose grid grows with the square).
    """
    frames = frames or ModelFrames(items)
    skills = [skill for o in items for skill in o.skills]
    folding = fold_rare_skills(skills, max_shown=max_shown)
    shown = [skill_table(frames.of(model), rename=folding, n_resamples=0) for model in frames.models]
    return ComparisonTables(
        shown_skills=pd.concat(shown, ignore_index=True) if shown else skill_table([]),
        shown_pair_gaps=(pair_composition_gaps(items, rename=fold_rare_skills(skills, max_shown=pair_max_shown))
                         if policy_of(items) == "full" else None),
        simulated={model: any(o.simulated for o in frames.of(model).items) for model in frames.models},
        undetermined={model: Undetermined.model_validate(undetermined_counts(frames.of(model)))
                      for model in frames.models})
