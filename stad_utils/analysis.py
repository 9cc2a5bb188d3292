"""What the outcomes say: k distributions, accuracies with and without scaffolding, skills.

Measures, per model (tasks with an undetermined k are excluded and counted):

* ``accuracy_original``: share of tasks with k = 0 (solved as asked).
* ``accuracy_scaffolded``: share with k ≥ 0 (solved at some level).
* ``success_by_level[j]``: share of tasks with more than j steps solved at level j.
* Per skill *s*, over occurrences of *s* as a step of a task:
  - ``isolated_accuracy``: share of those steps answered correctly when asked alone;
  - ``composed_success``: share of the tasks containing *s* solved as asked (k = 0);
  - ``composition_gap``: ``isolated_accuracy − composed_success`` (large: the skill works
    alone but the model fails to compose it);
  - ``blocking_rate``: share of occurrences inside the *needed scaffold*: steps 1…k for
    k > 0, every step for k = −1 (no scaffold sufficed), none for k = 0.

Confidence intervals resample whole tasks (a task's variants are not independent); in
``summary.json`` every per-skill rate has ``_low``/``_high`` bounds.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .metrics import k_distribution
from .records import Outcome


def outcome_frame(items: Sequence[Outcome]) -> pd.DataFrame:
    """One row per (task, model) with k and its category."""
    frame = pd.DataFrame([o.model_dump() for o in items])
    if frame.empty:
        return frame
    frame["category"] = frame["k"].map(
        lambda k: "undetermined" if pd.isna(k) else "independent" if k == 0 else "intractable" if k == -1
        else "learnable")
    return frame


def needed_depth(outcome: Outcome) -> int:
    """Steps 1…this number form the *needed scaffold*: k for k ≥ 0, every step for k = −1."""
    return outcome.n_steps if outcome.k == -1 else outcome.k


def step_frame(items: Sequence[Outcome]) -> pd.DataFrame:
    """One row per step occurrence: its skill, isolated success, and whether it was in the needed scaffold."""
    rows = []
    for o in items:
        if o.k is None:
            continue
        needed = needed_depth(o)
        for i, (skill, alone) in enumerate(zip(o.skills, o.isolated), start=1):
            rows.append({"task_id": o.task_id, "model": o.model, "step": i, "skill": skill,
                         "isolated_correct": alone, "in_needed_scaffold": i <= needed, "composed": o.k == 0})
    return pd.DataFrame(rows, columns=["task_id", "model", "step", "skill", "isolated_correct",
                                       "in_needed_scaffold", "composed"])


def skill_table(items: Sequence[Outcome]) -> pd.DataFrame:
    """Per-skill measures (see the module docstring), one row per skill, worst blockers first."""
    steps = step_frame(items)
    if steps.empty:
        return pd.DataFrame(columns=["skill", "occurrences", "isolated_accuracy", "composed_success",
                                     "composition_gap", "blocking_rate"])
    steps["isolated_correct"] = steps["isolated_correct"].astype("float")  # None (error) → NaN, skipped
    table = steps.groupby("skill").agg(
        occurrences=("step", "size"),
        isolated_accuracy=("isolated_correct", "mean"),
        composed_success=("composed", "mean"),
        blocking_rate=("in_needed_scaffold", "mean"),
    )
    table["composition_gap"] = table["isolated_accuracy"] - table["composed_success"]
    columns = ["occurrences", "isolated_accuracy", "composed_success", "composition_gap", "blocking_rate"]
    return table[columns].sort_values("blocking_rate", ascending=False).reset_index()


def skill_table_with_ci(items: Sequence[Outcome], *, n_resamples: int = 1000, level: float = 0.95,
                        seed: int = 0) -> pd.DataFrame:
    """`skill_table` with percentile intervals (``<measure>_low``/``_high``) from resampling whole tasks.

    Each resample weights the tasks by how often they were drawn, so the per-skill sums of all
    resamples come from one matrix product instead of recomputing the table.
    """
    table = skill_table(items)
    steps = step_frame(items)
    if table.empty:
        return table
    steps["row"] = steps.groupby(["task_id", "model"], sort=False).ngroup()
    skills = table["skill"].tolist()
    column = steps["skill"].map({skill: i for i, skill in enumerate(skills)})
    n_rows = steps["row"].max() + 1

    def per_task(values: pd.Series) -> np.ndarray:
        matrix = np.zeros((n_rows, len(skills)))
        np.add.at(matrix, (steps["row"].to_numpy(), column.to_numpy()), values.to_numpy(dtype=float))
        return matrix

    answered = steps["isolated_correct"].notna()
    sums = {"occurrences": per_task(pd.Series(1.0, index=steps.index)),
            "answered": per_task(answered.astype(float)),
            "isolated": per_task(steps["isolated_correct"].fillna(False).astype(float)),
            "composed": per_task(steps["composed"].astype(float)),
            "needed": per_task(steps["in_needed_scaffold"].astype(float))}
    rng = np.random.default_rng(seed)
    weights = np.stack([np.bincount(rng.integers(0, n_rows, n_rows), minlength=n_rows) for _ in range(n_resamples)])
    totals = {name: weights @ matrix for name, matrix in sums.items()}
    with np.errstate(invalid="ignore", divide="ignore"):
        draws = {"isolated_accuracy": totals["isolated"] / totals["answered"],
                 "composed_success": totals["composed"] / totals["occurrences"],
                 "blocking_rate": totals["needed"] / totals["occurrences"]}
    draws["composition_gap"] = draws["isolated_accuracy"] - draws["composed_success"]
    tail = (1 - level) / 2 * 100
    for measure, values in draws.items():
        low, high = np.nanpercentile(values, [tail, 100 - tail], axis=0)
        table[f"{measure}_low"] = low
        table[f"{measure}_high"] = high
    return table


def bootstrap_ci(values: Sequence[float] | np.ndarray, *, n_resamples: int = 1000, level: float = 0.95,
                 seed: int = 0) -> tuple[float, float]:
    """Percentile interval of the mean of per-task ``values`` over resamples of the tasks.

    >>> bootstrap_ci([1.0] * 10)
    (1.0, 1.0)
    """
    values = np.asarray(values, dtype=float)
    if values.size == 0:
        return (float("nan"), float("nan"))
    rng = np.random.default_rng(seed)
    means = values[rng.integers(0, values.size, (n_resamples, values.size))].mean(axis=1)
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(means, [tail, 100 - tail])
    return float(low), float(high)


def success_by_level(items: Sequence[Outcome]) -> list[float | None]:
    """Share of tasks solved at each scaffold level j, over tasks that have level j and an answer there."""
    deepest = max((o.n_steps for o in items), default=0)
    rates = []
    for level in range(deepest):
        answered = [o.curve[level] for o in items if level < len(o.curve) and o.curve[level] is not None]
        rates.append(float(np.mean(answered)) if answered else None)
    return rates


def summarize(items: Sequence[Outcome], *, n_resamples: int = 1000, seed: int = 0) -> dict:
    """The headline numbers of one model's run, as written to ``summary.json``."""
    frame = outcome_frame(items)
    determined = frame[frame["k"].notna()] if not frame.empty else frame
    skills = skill_table_with_ci([o for o in items if o.k is not None], n_resamples=n_resamples, seed=seed)

    ks = determined["k"] if not determined.empty else pd.Series(dtype=float)

    def with_ci(indicator: pd.Series) -> dict[str, float | list[float] | None]:
        if indicator.empty:
            return {"value": None, "ci95": [None, None]}
        return {"value": float(indicator.mean()),
                "ci95": list(bootstrap_ci(indicator, n_resamples=n_resamples, seed=seed))}

    counts = k_distribution(items)
    n = int(len(determined))
    return {
        "n_tasks": int(len(frame)),
        "n_undetermined": int(len(frame) - n),
        "n_errors": int(frame["n_errors"].sum()) if not frame.empty else 0,
        "k_distribution": counts,
        "k_share": {k: c / n for k, c in counts.items()} if n else {},
        "k_share_ci95": {k: list(bootstrap_ci(ks == int(k), n_resamples=n_resamples, seed=seed)) for k in counts},
        "categories": frame["category"].value_counts().to_dict() if not frame.empty else {},
        "accuracy_original": with_ci(ks == 0),
        "accuracy_scaffolded": with_ci(ks >= 0),
        "success_by_level": success_by_level(items),
        "non_monotonic": int(frame["non_monotonic"].sum()) if not frame.empty else 0,
        "per_skill": skills.set_index("skill").to_dict(orient="index") if not skills.empty else {},
    }


def weakness_profile(summary: dict) -> str:
    """A plain-language paragraph from the numbers (template text, no model involved)."""
    n = summary["n_tasks"] - summary["n_undetermined"]
    if n == 0:
        return "No task could be scored."
    acc0, acc = summary["accuracy_original"]["value"], summary["accuracy_scaffolded"]["value"]
    parts = [f"Of {n} tasks, the model solves {acc0:.0%} as asked and {acc:.0%} once enough steps are given "
             f"(k distribution {summary['k_distribution']})."]
    skills = summary["per_skill"]
    gaps = sorted(((s, v) for s, v in skills.items() if pd.notna(v["composition_gap"])),
                  key=lambda item: -item[1]["composition_gap"])
    if gaps and gaps[0][1]["composition_gap"] > 0:
        skill, values = gaps[0]
        parts.append(f"Largest composition gap: it solves '{skill}' alone in {values['isolated_accuracy']:.0%} "
                     f"of cases but only {values['composed_success']:.0%} of the tasks that need it are solved "
                     f"as asked.")
    blockers = sorted(skills.items(), key=lambda item: -item[1]["blocking_rate"])
    if blockers:
        skill, values = blockers[0]
        parts.append(f"Most blocking skill: '{skill}' lies inside the needed scaffold in "
                     f"{values['blocking_rate']:.0%} of its {values['occurrences']} occurrences.")
    if summary["n_undetermined"]:
        parts.append(f"{summary['n_undetermined']} task(s) were excluded because answers could not be obtained.")
    return " ".join(parts)


def summarize_run(items: Sequence[Outcome], *, n_resamples: int = 1000, seed: int = 0) -> dict:
    """``summary.json`` of a run: per model, `summarize` and its `weakness_profile`."""
    models = sorted({o.model for o in items})
    per_model = {}
    for model in models:
        summary = summarize([o for o in items if o.model == model], n_resamples=n_resamples, seed=seed)
        summary["weakness_profile"] = weakness_profile(summary)
        per_model[model] = summary
    return {"models": per_model}


def written_report(run: str, summary: dict, items: Sequence[Outcome]) -> str:
    """``report.md``: the weakness profile and the per-skill table of each model."""
    parts = [f"# STaD summary: {run}\n"]
    for model, numbers in summary["models"].items():
        table = skill_table([o for o in items if o.model == model])
        parts.append(f"## {model}\n\n{numbers['weakness_profile']}\n\n{table.to_markdown(index=False, floatfmt='.2f')}\n")
    return "\n".join(parts)


def usage_table(usage: dict, prices: dict | None = None) -> pd.DataFrame:
    """Calls, tokens, seconds and (with a price table) cost per stage, role and model.

    ``usage`` is ``usage.json`` (``{stage: {role: {model: stats}}}``); ``prices`` maps a model to
    ``{"prompt": USD per million prompt tokens, "completion": USD per million completion tokens}``.
    """
    rows = [{"stage": stage, "role": role, "model": model, **stats}
            for stage, roles in usage.items() for role, models in roles.items() for model, stats in models.items()]
    table = pd.DataFrame(rows, columns=["stage", "role", "model", "calls", "cache_hits", "errors", "prompt_tokens",
                                        "completion_tokens", "seconds"])
    if prices:
        rate = table["model"].map(lambda m: prices.get(m, {}))
        table["cost_usd"] = (table["prompt_tokens"] * rate.map(lambda r: r.get("prompt", float("nan")))
                             + table["completion_tokens"] * rate.map(lambda r: r.get("completion", float("nan")))) / 1e6
    return table
