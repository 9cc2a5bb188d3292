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
