"""Figures for a workshop projector: large labels, one message per figure, intervals and counts on every rate.

Skills are shown by support: the ``max_shown`` most frequent by name, the rest folded into
"other (n skills)" (`stad_utils.method.fold_rare_skills`). Every figure says how many tasks
stand behind it and how many were left out (errors, undecided); a run without answered
tasks gets a placeholder that says so instead of an empty or crashing plot.
"""

from __future__ import annotations

import textwrap

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

from ...analysis import MIN_SUPPORT, ComparisonTables, RunAnalysis
from ...method import k_order
from .._escaping import mathtext_plain
from ._style import (
    NO_ANSWERS,
    _annotated_heatmap,
    _finish_with_legend,
    _grouped_bars,
    _left_out,
    _short_model_labels,
    _titled,
    by_support,
    k_label,
    model_names,
    models_with_data,
    placeholder,
    readable,
)

sns.set_theme(context="talk", style="whitegrid")


# ------------------------------------------------------------------------------------------ one model or several


def plot_k_shares(run: RunAnalysis):
    """Share of determined tasks at each k per model, with Wilson 95% intervals and the undetermined count.

    Examples
    --------
    >>> from stad_utils.analysis import analyze_run
    >>> from stad_utils.records import Outcome
    >>> failed = Outcome(task_id="t", model="m", source="s", n_steps=1, skills=["a"], curve=[None], isolated=[None],
    ...                  k=None, undetermined_by="error", non_monotonic=False, n_errors=2)
    >>> plot_k_shares(analyze_run([failed], n_resamples=0)).axes[0].texts[0].get_text().split(":")[0]
    'no answered tasks'
    """
    title = "How much help does each task need?"
    shares = run.table("k_shares")
    if shares.empty:
        return placeholder(title, f"{NO_ANSWERS}: no task has a determined k. {_left_out(run)}")
    order = sorted(shares["k"].unique(), key=k_order)
    fig, ax = plt.subplots(figsize=(11, 6))
    missing = _grouped_bars(ax, shares.assign(k=shares["k"].map(k_label)), "k", [k_label(k) for k in order],
                            model_names(run))
    ax.set(xlabel="minimal scaffolding level k", ylabel="share of tasks", ylim=(0, 1))
    counts = ", ".join(f"{model_names(run)[m]} n = {int(n)}" for m, n in shares.groupby("model")["n"].first().items())
    _titled(fig, ax, title, f"tasks with a determined k: {counts}. {missing}{_left_out(run) or 'None undetermined'}. "
                            "Bars: 95% Wilson intervals.")
    _finish_with_legend(fig, ax)
    return fig


def plot_success_by_level(run: RunAnalysis):
    """Success at each scaffold level per model over the tasks answered there (placebo levels dashed)."""
    title = "Success as more steps are given"
    table = pd.concat([run.table("levels").assign(kind="scaffold"),
                       run.table("placebo_levels").assign(kind="placebo")], ignore_index=True)
    table = table[table["n"] > 0]
    if table.empty:
        return placeholder(title, f"{NO_ANSWERS}. {_left_out(run)}")
    colours = dict(zip(model_names(run), sns.color_palette(n_colors=len(model_names(run)))))
    names, missing = models_with_data(model_names(run), table["model"])
    fig, ax = plt.subplots(figsize=(11, 6))
    for (model, kind), rows in table.groupby(["model", "kind"]):
        shift = (list(names).index(model) - (len(names) - 1) / 2) * 0.06
        ax.errorbar(rows["level"] + shift, rows["value"],
                    yerr=[rows["value"] - rows["low"], rows["high"] - rows["value"]],
                    marker="o" if kind == "scaffold" else "s", linestyle="-" if kind == "scaffold" else "--",
                    color=colours[model], capsize=4, label=f"{names[model]}{' · placebo' if kind == 'placebo' else ''}")
    answered = table[table["kind"] == "scaffold"].groupby("level")["n"].min().astype(int)
    ax.set_xticks(answered.index, [f"{level}\nn≥{n}" for level, n in answered.items()])
    ax.set(xlabel="steps given (scaffold level j); n = tasks answered", ylabel="share solved", ylim=(0, 1.05))
    ax.legend()
    note = ("Levels ≥ 1 were asked only of tasks failed as asked (policy on_failure). "
            if run.policy == "on_failure" else "")
    _titled(fig, ax, title, f"{note}{missing}Over tasks answered at each level; bars: 95% Wilson intervals.")
    _finish_with_legend(fig, ax)
    return fig


def plot_bottlenecks(run: RunAnalysis, min_support: int = MIN_SUPPORT):
    """Bottleneck attribution: among tasks that needed help, the share whose bottleneck is each skill."""
    title = "Which step's skill turned failure into success?"
    table = run.table("shown_bottlenecks")
    if table.empty:
        return placeholder(title, f"no task with a determined k needed help. {_left_out(run)}")
    order = by_support(table.groupby("bottleneck")["tasks"].sum())
    fig, ax = plt.subplots(figsize=(11, 2.5 + 0.45 * len(order) * max(1, len(model_names(run)) / 1.5)))
    missing = _grouped_bars(ax, table, "bottleneck", order, model_names(run), horizontal=True,
                            min_support=min_support)
    ax.set(xlabel="share of tasks that needed help", xlim=(0, 1))
    needed = ", ".join(f"{model_names(run)[m]} n = {n:g}" for m, n in table.groupby("model")["n"].first().items())
    _titled(fig, ax, title, f"bottleneck = step k, the step whose provision turned failure into success. Tasks that "
                            f"needed help: {needed}. {missing}{_left_out(run) or 'None undetermined'}. "
                            "Bars: 95% Wilson intervals.")
    _finish_with_legend(fig, ax)
    return fig


def plot_skills(run: RunAnalysis, min_support: int = MIN_SUPPORT):
    """Per shown skill: accuracy when asked alone, and bottleneck rate, each with its 95% interval."""
    title = "Skills: alone, and as the bottleneck"
    table = run.table("shown_skills")
    if table.empty or not table["isolated_n"].any() and not table["at_risk"].any():
        return placeholder(title, f"{NO_ANSWERS} with a step. {_left_out(run)}")
    order = by_support(table.groupby("skill")["occurrences"].sum())
    names = model_names(run)
    fig, axes = plt.subplots(1, 2, figsize=(14, 2.5 + 0.5 * len(order) * max(1, len(names) / 1.5)), sharey=True)
    missing = []
    for ax, measure, n, label in ((axes[0], "isolated_accuracy", "isolated_n", "accuracy asked alone"),
                                  (axes[1], "bottleneck_rate", "at_risk", "bottleneck rate (descriptive)")):
        missing.append(_grouped_bars(ax, table.rename(columns={measure: "value", f"{measure}_low": "low",
                                                               f"{measure}_high": "high", n: "n"}),
                                     "skill", order, names, horizontal=True, min_support=min_support))
        ax.set(xlabel=label, xlim=(0, 1))
    axes[1].get_legend().remove()
    missing_words = " ".join(f"{side}: {words}" for side, words in zip(("Left", "Right"), missing) if words)
    _titled(fig, axes[0], title, f"{len(order)} shown skills, most frequent first; bars: 95% Wilson intervals; "
                                 f"faded: fewer than {min_support} answered (left) or at-risk steps (right; at-risk "
                                 f"step: one whose task was still unsolved with it next to give). {missing_words}"
                                 f"{_left_out(run)}")
    _finish_with_legend(fig, axes[0])
    return fig


def plot_help_from_content(run: RunAnalysis):
    """Help from content per level (scaffold j − placebo j), with paired bootstrap 95% intervals, as
    ``summary.json`` holds them.
    """
    title = "Help from content: scaffold − placebo"
    table = pd.DataFrame([{"model": model, "level": entry.level, "value": entry.value, "low": entry.ci95[0],
                           "high": entry.ci95[1], "n": entry.n}
                          for model, numbers in run.summary.models.items()
                          for entry in numbers.help_from_content or []],
                         columns=["model", "level", "value", "low", "high", "n"])
    if table.empty:
        return placeholder(title, "no placebo question was answered")
    names = model_names(run)
    fig, ax = plt.subplots(figsize=(10, 5.5))
    missing = _grouped_bars(ax, table, "level", sorted(table["level"].unique()), names)
    ax.axhline(0, color="black", linewidth=1)
    ax.set(xlabel="scaffold level j", ylabel="success difference", ylim=(-1, 1))
    _titled(fig, ax, title, f"paired over tasks answered at both; bars: 95% bootstrap intervals. {missing}")
    _finish_with_legend(fig, ax)
    return fig


def plot_bottleneck_heatmap(run: RunAnalysis | ComparisonTables, min_support: int = MIN_SUPPORT):
    """Skill × model bottleneck rate; each cell shows the rate and its at-risk count n (grey below ``min_support``)."""
    title = "Where each model is blocked: bottleneck rate"
    table = run.table("shown_skills")
    table = table[table["at_risk"] > 0]
    if table.empty:
        return placeholder(title, f"no step was at risk (no task with a determined k needed help). {_left_out(run)}")
    rate = table.pivot(index="skill", columns="model", values="bottleneck_rate")
    risk = table.pivot(index="skill", columns="model", values="at_risk").reindex_like(rate).fillna(0)
    supported = risk.index[(risk >= min_support).any(axis=1)]
    if supported.empty:
        return placeholder(title, f"no skill was at risk {min_support} times for any model. {_left_out(run)}")
    dropped = len(risk) - len(supported)
    order = by_support(risk.loc[supported].sum(axis=1))
    rate, risk = rate.loc[order], risk.loc[order]
    shown = rate.where(risk >= min_support)
    labels = np.where(risk >= min_support, shown.map(lambda v: f"{v:.2f}") + risk.map(lambda n: f"\nn={n:g}"), "")
    columns, key = _short_model_labels(run, list(rate.columns))
    fig, ax = plt.subplots(figsize=(6 + 2.4 * rate.shape[1], max(4.5, 3.2 + 0.75 * rate.shape[0])))
    _annotated_heatmap(ax, shown, labels, readable(order), columns, label="bottleneck rate", vmin=0, vmax=1,
                       cmap="rocket_r")
    ax.set(xlabel="", ylabel="")
    left_out = f"{dropped} skill(s) with fewer for every model left out. " if dropped else ""
    _titled(fig, ax, title, f"n = at-risk steps (an at-risk step: its task was still unsolved with this skill next to "
                            f"give); grey: n < {min_support}. {left_out}{key}{_left_out(run)}")
    fig.tight_layout()
    return fig


def plot_isolated_vs_whole(run: RunAnalysis | ComparisonTables,
                           title: str = "Each skill alone and inside its whole tasks"):
    """Per shown skill and model: accuracy asked alone (●) vs success of its tasks as asked (✕)."""
    table = run.table("shown_skills")
    table = table[table["isolated_n"] > 0]
    if table.empty:
        return placeholder(title, f"no isolated step was answered. {_left_out(run)}")
    colours = dict(zip(model_names(run), sns.color_palette(n_colors=len(model_names(run)))))
    names, missing = models_with_data(model_names(run), table["model"])
    order = by_support(table.groupby("skill")["occurrences"].sum())
    fig, ax = plt.subplots(figsize=(12, 2.5 + 0.55 * len(order) * max(1, len(names) / 1.5)))
    for i, model in enumerate(names):
        rows = table[table["model"] == model].set_index("skill").reindex(order)
        y = np.arange(len(order)) + (i - (len(names) - 1) / 2) * 0.3
        ax.hlines(y, rows["whole_task_success"], rows["isolated_accuracy"], color=colours[model], linewidth=2)
        ax.scatter(rows["isolated_accuracy"], y, color=colours[model], marker="o", s=80, label=f"{names[model]}: alone")
        ax.scatter(rows["whole_task_success"], y, color=colours[model], marker="X", s=80,
                   label=f"{names[model]}: whole task")
        for y_row, (alone, whole, n) in zip(y, rows[["isolated_accuracy", "whole_task_success", "whole_n"]].values):
            if not pd.isna(n):  # the number of tasks behind ✕, written beyond the line's right end
                ax.text(np.nanmax([alone, whole]) + 0.02, y_row, f"{n:g} tasks", va="center", fontsize="xx-small",
                        color=colours[model])
    ax.set_yticks(range(len(order)), readable(order))
    ax.invert_yaxis()
    ax.set(xlim=(-0.03, 1.03), xticks=np.linspace(0, 1, 6), xlabel="share solved")
    ax.legend()
    _titled(fig, ax, title, "Descriptive, not a test: ● the skill's steps asked alone, ✕ the whole tasks that "
                            "contain it. A whole task has more steps, so ✕ lies left of ● even for a model that "
                            f"chains flawlessly; 06's composition gap is the measure of chaining. {missing}")
    _finish_with_legend(fig, ax)
    return fig


# ------------------------------------------------------------------------------------------ the notebooks' sets


def plot_k_stability(run: RunAnalysis):
    """Per model and task, the k of each repeated sample: how stable is the diagnosis of one task?"""
    title = "How stable is k across repeated samples?"
    table = run.stability
    models = list(model_names(run))
    fig, axes = plt.subplots(1, len(models), squeeze=False, sharey=True,
                             figsize=(4 + 4 * len(models), 2.5 + 0.28 * table["task_id"].nunique()))
    levels = sorted({k for ks in table["k_by_sample"] for k in ks if k is not None}, key=k_order)
    solved = [k for k in levels if k >= 0]
    colours = {**dict(zip(solved, sns.color_palette("viridis", n_colors=len(solved)))), -1: "indianred"}
    tasks = sorted(table["task_id"].unique())
    for ax, model in zip(axes[0], models):
        rows = table[table["model"] == model].set_index("task_id").reindex(tasks)
        left = np.zeros(len(tasks))
        for k in [*levels, None]:
            counts = rows["k_by_sample"].map(lambda ks, k=k: sum(value == k for value in ks)
                                             if isinstance(ks, list) else 0)
            ax.barh(range(len(tasks)), counts, left=left, color=colours.get(k, "lightgrey"),
                    label=k_label(k) if k is not None else "undetermined")
            left += counts.to_numpy(dtype=float)
        same = rows["same_k"].mean()
        ax.set(title=textwrap.fill(f"{model_names(run)[model]}: same k in every sample for {same:.0%} of tasks", 34),
               xlabel="samples")
        ax.set_yticks(range(len(tasks)), [mathtext_plain(task) for task in tasks], fontsize="x-small")
    axes[0][0].invert_yaxis()  # once: the panels share their y axis
    axes[0][0].legend()
    fig.suptitle(title, fontsize="large")
    _finish_with_legend(fig, axes[0][0])
    return fig


def analysis_figures(run: RunAnalysis, *, min_support: int = MIN_SUPPORT) -> dict:
    """The figures of ``06_analyze`` by file name (help from content only when placebos were asked)."""
    figures = {"k_distribution": plot_k_shares(run), "success_by_level": plot_success_by_level(run),
               "bottlenecks": plot_bottlenecks(run, min_support), "skills": plot_skills(run, min_support)}
    outcomes = run.frames.records(*run.frames.models)
    if any(o.placebo for o in outcomes):
        figures["help_from_content"] = plot_help_from_content(run)
    if any(o.sample > 0 for o in outcomes):
        figures["k_stability"] = plot_k_stability(run)
    return figures
