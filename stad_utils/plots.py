"""Figures for a workshop screen: large labels, one message per figure."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import pandas as pd
import seaborn as sns

from .analysis import outcome_frame, skill_table
from .records import Outcome

sns.set_theme(context="talk", style="whitegrid")


def _k_label(k: int) -> str:
    return "unsolved (−1)" if k == -1 else "alone (0)" if k == 0 else f"{k} step{'s' if k > 1 else ''} given"


def plot_k_distribution(items: Sequence[Outcome]):
    """Bar chart of the minimal scaffolding level k per model."""
    frame = outcome_frame(items)
    frame = frame[frame["k"].notna()].astype({"k": int})
    order = sorted(frame["k"].unique(), key=lambda k: (k == -1, k))
    fig, ax = plt.subplots(figsize=(9, 5))
    sns.countplot(data=frame, x=frame["k"].map(_k_label), hue="model", order=[_k_label(k) for k in order], ax=ax)
    ax.set(xlabel="minimal scaffolding level k", ylabel="tasks", title="How much help does each task need?")
    ax.tick_params(axis="x", labelrotation=15)
    fig.tight_layout()
    return fig


def plot_success_by_level(items: Sequence[Outcome]):
    """Share of tasks solved at each scaffold level (the dose-response curve of scaffolding)."""
    rows = [{"model": o.model, "level": j, "solved": float(solved)}
            for o in items for j, solved in enumerate(o.curve) if solved is not None]
    frame = pd.DataFrame(rows)
    fig, ax = plt.subplots(figsize=(9, 5))
    if not frame.empty:
        sns.pointplot(data=frame, x="level", y="solved", hue="model", errorbar=("ci", 95), ax=ax)
    ax.set(xlabel="steps given (scaffold level j)", ylabel="share solved", ylim=(0, 1.05),
           title="Success as more steps are given")
    fig.tight_layout()
    return fig


def plot_skills(items: Sequence[Outcome]):
    """Per skill: accuracy when asked alone vs success of the tasks composing it, and blocking rate."""
    table = skill_table(items)
    long = table.melt(id_vars="skill", value_vars=["isolated_accuracy", "composed_success", "blocking_rate"],
                      var_name="measure", value_name="rate")
    fig, ax = plt.subplots(figsize=(10, 0.7 * max(len(table), 3) + 2))
    sns.barplot(data=long, y="skill", x="rate", hue="measure", ax=ax)
    ax.set(xlim=(0, 1.05), xlabel="rate", ylabel="", title="Skills: alone, composed, blocking")
    ax.legend(loc="lower right", fontsize="small")
    fig.tight_layout()
    return fig


def plot_k_shares(items: Sequence[Outcome], n_resamples: int = 500, seed: int = 0):
    """Share of tasks at each k per model, with 95% bootstrap intervals over tasks."""
    import numpy as np

    frame = outcome_frame(items)
    frame = frame[frame["k"].notna()].astype({"k": int})
    rng = np.random.default_rng(seed)
    rows = []
    for model, group in frame.groupby("model"):
        ks = group["k"].to_numpy()
        for k in sorted(frame["k"].unique(), key=lambda k: (k == -1, k)):
            draws = [np.mean(ks[rng.integers(0, len(ks), len(ks))] == k) for _ in range(n_resamples)]
            low, high = np.percentile(draws, [2.5, 97.5])
            rows.append({"model": model, "k": _k_label(k), "share": np.mean(ks == k), "low": low, "high": high})
    table = pd.DataFrame(rows)
    fig, ax = plt.subplots(figsize=(10, 5))
    sns.barplot(data=table, x="k", y="share", hue="model", ax=ax, errorbar=None)
    for patch_group, (_, model_rows) in zip(ax.containers, table.groupby("model", sort=True)):
        for patch, (_, row) in zip(patch_group, model_rows.iterrows()):
            x = patch.get_x() + patch.get_width() / 2
            ax.errorbar(x, row["share"], yerr=[[row["share"] - row["low"]], [row["high"] - row["share"]]],
                        color="black", capsize=3, linewidth=1)
    ax.set(xlabel="minimal scaffolding level k", ylabel="share of tasks", ylim=(0, 1),
           title="How much help each model needs (95% CI)")
    ax.tick_params(axis="x", labelrotation=15)
    fig.tight_layout()
    return fig


def plot_blocking_heatmap(items: Sequence[Outcome]):
    """Skill × model: how often the skill lies inside the scaffold a task needed."""
    frame = pd.concat([skill_table([o for o in items if o.model == m]).assign(model=m)
                       for m in sorted({o.model for o in items})])
    pivot = frame.pivot(index="skill", columns="model", values="blocking_rate")
    fig, ax = plt.subplots(figsize=(3 + 2 * pivot.shape[1], 1 + 0.6 * pivot.shape[0]))
    sns.heatmap(pivot, annot=True, fmt=".2f", vmin=0, vmax=1, cmap="rocket_r", ax=ax, cbar_kws={"label": "blocking"})
    ax.set(title="Where each model is blocked", xlabel="", ylabel="")
    fig.tight_layout()
    return fig


def plot_isolated_vs_composed(items: Sequence[Outcome]):
    """Per skill and model: accuracy alone (x) vs success of the tasks composing it (y); below the line = gap."""
    frame = pd.concat([skill_table([o for o in items if o.model == m]).assign(model=m)
                       for m in sorted({o.model for o in items})])
    fig, ax = plt.subplots(figsize=(8, 7))
    sns.scatterplot(data=frame, x="isolated_accuracy", y="composed_success", hue="model", style="model",
                    size="occurrences", sizes=(60, 300), ax=ax)
    ax.plot([0, 1], [0, 1], color="grey", linestyle="--", linewidth=1)
    for _, row in frame.iterrows():
        ax.annotate(row["skill"], (row["isolated_accuracy"], row["composed_success"]), fontsize=9,
                    xytext=(4, 4), textcoords="offset points")
    ax.set(xlim=(-0.05, 1.05), ylim=(-0.05, 1.05), xlabel="accuracy when asked alone",
           ylabel="tasks solved as asked", title="Solved alone, failed composed?")
    ax.legend(loc="upper left", fontsize="x-small")
    fig.tight_layout()
    return fig


def plot_pair_gaps(gaps: pd.DataFrame):
    """Skill-pair composition gap (composed − product of isolated), one panel per model."""
    models = sorted(gaps["model"].unique())
    fig, axes = plt.subplots(1, max(len(models), 1), figsize=(7 * max(len(models), 1), 6), squeeze=False)
    for ax, model in zip(axes[0], models):
        pivot = gaps[gaps["model"] == model].pivot(index="first", columns="second", values="gap")
        sns.heatmap(pivot, annot=True, fmt=".2f", vmin=-1, vmax=1, cmap="vlag", center=0, ax=ax)
        ax.set(title=f"{model}: composition gap", xlabel="last step's skill", ylabel="previous step's skill")
    fig.tight_layout()
    return fig
