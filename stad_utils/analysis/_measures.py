"""What one model's outcomes say: accuracy per level, k, bottlenecks, skills alone and help from content.

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
interval over tasks and, with repeated samples, over samples within a task (both in
`stad_utils.analysis._stats`). With one sample per task everything reduces to the single-sample
statistics. This module owns the per-model measures only: the frames they are computed from
are in `stad_utils.analysis._frames`, their assembly into ``summary.json`` in `stad_utils.analysis._summary`, their
words in `stad_utils.analysis._wording`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..definitions import MIN_SUPPORT, UNRESOLVED
from ..method import k_category
from ..records import Outcome
from ._frames import OutcomeFrames, as_frames, task_rates
from ._stats import paired_bootstrap, share_estimates

Outcomes = Sequence[Outcome] | OutcomeFrames
"""What every measure takes: outcomes, or `OutcomeFrames` whose tables are already built."""

LEVELS_ASKED = {"full": "all tasks", "on_failure": "tasks failed as asked"}
"""The population of levels ≥ 1, isolated and placebo questions under each policy."""


# ------------------------------------------------------------------------------------------ per level and k


def success_by_level(items: Outcomes, variant: str = "curve") -> pd.DataFrame:
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
    frames = as_frames(items)
    if not any(getattr(o, variant) for o in frames.items):  # e.g. no placebo asked: nothing to count
        return pd.DataFrame(columns=columns)
    answers = frames.answers[frames.answers["variant"] == variant]
    rates = task_rates(answers, ["model", "level"])
    table = rates.groupby(["model", "level"]).agg(successes=("rate", "sum"), n=("rate", "count"),
                                                  asked=("asked", "sum")).reset_index()
    table = pd.concat([table, share_estimates(table["successes"], table["n"])[["value", "low", "high"]]], axis=1)
    table["unanswered"] = table["asked"] - table["n"]
    table["population"] = [LEVELS_ASKED[frames.policies[model]] if variant != "curve" or level > 0 else "all tasks"
                           for model, level in zip(table["model"], table["level"])]
    return table[columns]


def k_shares(items: Outcomes, k_values: Sequence[int] = ()) -> pd.DataFrame:
    """Share of determined tasks at each k per model (per-task rates over samples, Wilson 95%).

    Columns: ``model``, ``k``, ``value``, ``low``, ``high``, ``n`` (tasks with a determined k).
    A k that some model reached has a row for every model (a share of 0 with its interval), and
    so has every k of ``k_values`` (another run's, or another model's, that a figure sets beside).

    Examples
    --------
    >>> from stad_utils.records import Outcome
    >>> def o(task, sample, k):
    ...     return Outcome(task_id=task, model="m", source="s", n_steps=2, skills=["a", "b"], curve=[], isolated=[],
    ...                    k=k, non_monotonic=False, n_errors=0, sample=sample)
    >>> k_shares([o("t1", 0, 0), o("t1", 1, 1), o("t2", 0, 0)])[["k", "value", "n"]].to_dict(orient="records")
    [{'k': 0, 'value': 0.75, 'n': 2.0}, {'k': 1, 'value': 0.25, 'n': 2.0}]
    >>> k_shares([o("t1", 0, 0)], k_values=[-1])[["k", "value"]].to_dict(orient="records")
    [{'k': -1, 'value': 0.0}, {'k': 0, 'value': 1.0}]
    """
    frame = as_frames(items).outcomes
    frame = frame[frame["k"].notna()].astype({"k": int})
    if frame.empty:
        return pd.DataFrame(columns=["model", "k", "value", "low", "high", "n"])
    # each task weighs 1, split over its samples; a k some other model reached counts 0 tasks here
    weight = 1 / frame.groupby(["model", "task_id"])["k"].transform("size")
    counts = weight.groupby([frame["model"], frame["k"]]).sum().unstack("k", fill_value=0.0)
    counts = counts.reindex(columns=pd.Index(sorted({*counts.columns, *k_values}), name="k"), fill_value=0.0)
    successes = counts.stack().rename("successes").reset_index()
    successes["n"] = successes["model"].map(frame.groupby("model")["task_id"].nunique())
    return pd.concat([successes[["model", "k"]], share_estimates(successes["successes"], successes["n"])], axis=1)


def undetermined_counts(items: Outcomes) -> dict[str, int]:
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
    reasons = Counter(o.undetermined_by or "not asked" for o in as_frames(items).items if o.k is None)
    counts = {reason: reasons[reason] for reason in ("error", "undecided", "not asked")}
    return {**counts, "total": sum(counts.values())}


def accuracy_scaffolded(items: Outcomes) -> pd.DataFrame:
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
    frame = as_frames(items).outcomes
    frame = frame[frame["solved_somewhere"].notna()]
    per_task = (frame.assign(solved=frame["solved_somewhere"].astype(float))
                .groupby(["model", "task_id"])["solved"].mean())
    table = per_task.groupby(level="model").agg(["sum", "count"]).reset_index()
    return pd.concat([table[["model"]], share_estimates(table["sum"], table["count"])], axis=1)


def k_stability(items: Outcomes) -> pd.DataFrame:
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
    for o in sorted(as_frames(items).items, key=lambda o: o.sample):
        by_task.setdefault((o.model, o.task_id), []).append(o.k)
    table = pd.DataFrame([(model, task, ks) for (model, task), ks in by_task.items()],
                         columns=["model", "task_id", "k_by_sample"])
    determined = table["k_by_sample"].map(lambda ks: {k for k in ks if k is not None})
    table["samples"] = table["k_by_sample"].map(lambda ks: sum(k is not None for k in ks))
    table["same_k"] = (determined.map(len) == 1).astype(float).where(table["samples"] > 1)
    return table


# ------------------------------------------------------------------------------------------ skills and bottlenecks


def bottleneck_attribution(items: Outcomes, rename: dict[str, str] | None = None) -> pd.DataFrame:
    """Among determined tasks that needed help (k ≠ 0), the share whose bottleneck step has each skill.

    The bottleneck of k > 0 is step k's skill (renamed through ``rename`` if given); k = −1 is
    the category `UNRESOLVED`. Each task weighs 1 over its determined samples. Columns: ``model``, ``bottleneck``,
    ``tasks`` (weighted count), ``value``, ``low``, ``high``, ``n`` (tasks that needed help).

    Examples
    --------
    >>> from stad_utils.records import Outcome
    >>> def o(task, k):
    ...     return Outcome(task_id=task, model="m", source="s", n_steps=3, skills=["add", "sub", "mul"],
    ...                    curve=[], isolated=[], k=k, non_monotonic=False, n_errors=0)
    >>> table = bottleneck_attribution([o("ducks", 2), o("t2", 2), o("t3", -1), o("t4", 0)])
    >>> table[["bottleneck", "tasks", "value"]].round(2).to_dict(orient="records")  # doctest: +NORMALIZE_WHITESPACE
    [{'bottleneck': 'sub', 'tasks': 2.0, 'value': 0.67},
     {'bottleneck': 'unresolved (k = −1)', 'tasks': 1.0, 'value': 0.33}]
    """
    frames = as_frames(items)
    frame = frames.outcomes
    frame = frame[frame["k"].notna()].astype({"k": int})
    frame["weight"] = 1 / frame.groupby(["model", "task_id"])["k"].transform("size")
    helped = frame[frame["k"] != 0].copy()
    skills = {(o.model, o.task_id, o.sample): o.skills for o in frames.items}
    rename = rename or {}
    helped["bottleneck"] = [UNRESOLVED if k_category(k) == "unresolved"
                            else rename.get(skills[m, t, s][k - 1], skills[m, t, s][k - 1])
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


def skill_table(items: Outcomes, *, min_support: int = MIN_SUPPORT, n_resamples: int = 1000,
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
    frames = as_frames(items)
    steps = frames.steps_renamed(rename)
    if steps.empty:
        return pd.DataFrame(columns=SKILL_COLUMNS)
    occurrence = steps.groupby(["model", "skill", "task_id", "step"], sort=False)
    units = occurrence.agg(iso_successes=("isolated", "sum"), iso_trials=("isolated", "count"),
                           whole_successes=("whole", "sum"), whole_trials=("whole", "count"),
                           determined=("weight", "sum"), at_risk=("at_risk", "sum"), bottlenecks=("bottleneck", "sum"),
                           needed=("in_needed_scaffold", "sum"), unresolved=("unresolved", "sum")).reset_index()
    units["iso_rate"] = units["iso_successes"] / units["iso_trials"].where(units["iso_trials"] > 0)
    units["whole_rate"] = units["whole_successes"] / units["whole_trials"].where(units["whole_trials"] > 0)
    asked_all = [m for m in units["model"].unique() if frames.policies[m] == "full"]
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
    interval when at least ``min_support`` occurrences are paired.
    """
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


def help_from_content(items: Outcomes, *, n_resamples: int = 1000, seed: int = 0) -> pd.DataFrame:
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
    frames = as_frames(items)
    if not any(o.placebo for o in frames.items):
        return pd.DataFrame(columns=columns)
    answers = frames.answers
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


# ------------------------------------------------------------------------------------------ one model, once


@dataclass(frozen=True)
class ModelMeasures:
    """One model's measures, each computed once: what ``summary.json`` holds and what the figures draw.

    The ``shown_`` tables fold rare skills into "other (n skills)" by the run's folding, as the
    figures show them; ``k_shares`` has a row for every k the run reached (a 0 where this model
    did not reach it), so that the models' bars stand side by side.
    """

    levels: pd.DataFrame
    """`success_by_level`: the scaffold levels."""
    placebo_levels: pd.DataFrame
    """`success_by_level` of the placebo levels (empty when none was asked)."""
    k_shares: pd.DataFrame
    """`k_shares`, with the run's k values."""
    scaffolded: pd.DataFrame
    """`accuracy_scaffolded`."""
    undetermined: dict[str, int]
    """`undetermined_counts`."""
    bottlenecks: pd.DataFrame
    """`bottleneck_attribution` by skill as recorded."""
    shown_bottlenecks: pd.DataFrame
    """`bottleneck_attribution` with rare skills folded."""
    skills: pd.DataFrame
    """`skill_table` by skill as recorded, the isolated-vs-whole gap with its bootstrap interval."""
    shown_skills: pd.DataFrame
    """`skill_table` with rare skills folded and no bootstrap (no figure draws the gap's interval)."""
    content: pd.DataFrame
    """`help_from_content` (empty without placebo levels)."""


def measure(items: Outcomes, *, folding: dict[str, str] | None = None, k_values: Sequence[int] = (),
            min_support: int = MIN_SUPPORT, n_resamples: int = 1000, seed: int = 0) -> ModelMeasures:
    """Every measure of one model's outcomes, from its frames built once.

    ``folding`` maps each skill to its shown name (`stad_utils.method.fold_rare_skills` over the
    run); ``k_values`` are the run's k values (see `ModelMeasures`).
    """
    frames = as_frames(items)
    return ModelMeasures(
        levels=success_by_level(frames), placebo_levels=success_by_level(frames, variant="placebo"),
        k_shares=k_shares(frames, k_values), scaffolded=accuracy_scaffolded(frames),
        undetermined=undetermined_counts(frames), bottlenecks=bottleneck_attribution(frames),
        shown_bottlenecks=bottleneck_attribution(frames, rename=folding),
        skills=skill_table(frames, min_support=min_support, n_resamples=n_resamples, seed=seed),
        shown_skills=skill_table(frames, rename=folding, n_resamples=0),
        content=help_from_content(frames, n_resamples=n_resamples, seed=seed))
