"""Figures for a workshop projector: large labels, one message per figure, intervals and counts on every rate.

Skills are shown by support: the ``max_shown`` most frequent by name, the rest folded into
"other (n skills)" (`stad_utils.method.fold_rare_skills`). Every figure says how many tasks
stand behind it and how many were left out (errors, undecided); a run without answered
tasks gets a placeholder that says so instead of an empty or crashing plot.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator

from ...analysis import MIN_SUPPORT, ComparisonTables, RunAnalysis
from ...method import k_order
from .._escaping import mathtext_plain
from .._names import short_names
from ._style import (
    NO_ANSWERS,
    SMALL,
    WIDTH,
    _annotated_heatmap,
    _finish,
    _grouped_bars,
    _left_out,
    _short_model_labels,
    by_support,
    k_label,
    model_colours,
    model_names,
    models_with_data,
    placeholder,
    projected,
    readable,
    wrap,
)

BOTTLENECK_WORDS = ("the bottleneck step is where help started to work (step k, given last when the task was "
                    "first solved), not which skill is missing: 06's tests of each skill asked alone name weak skills")
"""What every bottleneck figure says of what it shows (docs/method.md: never read a bottleneck as a missing skill)."""


def _bar_rows(categories: int, models: int) -> float:
    """Inches of axes for horizontal bars: each category a slot of its models' bars, at least two lines of labels."""
    return categories * max(0.5, 0.22 * models + 0.12)


# ------------------------------------------------------------------------------------------ one model or several


@projected
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
    fig, ax = plt.subplots(figsize=(WIDTH, 4.6))
    missing = _grouped_bars(ax, shares.assign(k=shares["k"].map(k_label)), "k", [k_label(k) for k in order],
                            model_names(run))
    ax.set(xlabel="minimal scaffolding level k", ylabel="share of tasks", ylim=(0, 1))
    counts = ", ".join(f"{model_names(run)[m]} n = {int(n)}" for m, n in shares.groupby("model")["n"].first().items())
    _finish(fig, title, f"Tasks with a determined k: {counts}. {missing}{_left_out(run) or 'None undetermined'}. "
                        "Bars: 95% Wilson intervals.", legend=ax)
    return fig


@projected
def plot_success_by_level(run: RunAnalysis):
    """Success at each scaffold level per model over the tasks answered there (placebo levels dashed)."""
    title = "Success as more steps are given"
    table = pd.concat([run.table("levels").assign(kind="scaffold"),
                       run.table("placebo_levels").assign(kind="placebo")], ignore_index=True)
    table = table[table["n"] > 0]
    if table.empty:
        return placeholder(title, f"{NO_ANSWERS}. {_left_out(run)}")
    colours = model_colours(model_names(run))
    names, missing = models_with_data(model_names(run), table["model"])
    fig, ax = plt.subplots(figsize=(WIDTH, 4.6))
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
    _finish(fig, title, f"{note}{missing}Over the tasks answered at each level; bars: 95% Wilson intervals.",
            legend=ax)
    return fig


@projected
def plot_bottlenecks(run: RunAnalysis, min_support: int = MIN_SUPPORT):
    """Bottleneck attribution: among tasks that needed help, the share whose bottleneck step has each skill.

    The bottleneck step says where help started to work, not which skill is missing (`BOTTLENECK_WORDS`).
    """
    title = "Where did help start to work? The bottleneck step's skill"
    table = run.table("shown_bottlenecks")
    if table.empty:
        return placeholder(title, f"no task with a determined k needed help. {_left_out(run)}")
    order = by_support(table.groupby("bottleneck")["tasks"].sum())
    names = model_names(run)
    fig, ax = plt.subplots(figsize=(WIDTH, _bar_rows(len(order), len(names)) + 0.8))
    missing = _grouped_bars(ax, table, "bottleneck", order, names, horizontal=True, min_support=min_support)
    ax.set(xlabel="share of the tasks that needed help (k > 0 or unresolved)", xlim=(0, 1))
    needed = ", ".join(f"{names[m]} n = {n:g}" for m, n in table.groupby("model")["n"].first().items())
    _finish(fig, title, f"Among the tasks that needed help, the share whose bottleneck step has each skill; "
                        f"{BOTTLENECK_WORDS}. Tasks that needed help: {needed}. {missing}"
                        f"{_left_out(run) or 'None undetermined'}. Bars: 95% Wilson intervals; faded: fewer than "
                        f"{min_support} tasks.", legend=ax, keep=(ax, _bar_rows(len(order), len(names))))
    return fig


@projected
def plot_skills(run: RunAnalysis, min_support: int = MIN_SUPPORT):
    """Per shown skill: accuracy when asked alone, and bottleneck rate, each with its 95% interval."""
    title = "Each skill asked alone, and where help started to work"
    table = run.table("shown_skills")
    if table.empty or not table["isolated_n"].any() and not table["at_risk"].any():
        return placeholder(title, f"{NO_ANSWERS} with a step. {_left_out(run)}")
    order = by_support(table.groupby("skill")["occurrences"].sum())
    names = model_names(run)
    fig, axes = plt.subplots(1, 2, figsize=(WIDTH, _bar_rows(len(order), len(names)) + 0.8), sharey=True)
    missing = []
    for ax, measure, n, label in ((axes[0], "isolated_accuracy", "isolated_n", "accuracy asked alone"),
                                  (axes[1], "bottleneck_rate", "at_risk", "bottleneck rate (descriptive)")):
        missing.append(_grouped_bars(ax, table.rename(columns={measure: "value", f"{measure}_low": "low",
                                                               f"{measure}_high": "high", n: "n"}),
                                     "skill", order, names, horizontal=True, min_support=min_support))
        ax.set(xlabel=label, xlim=(0, 1), xticks=[0, 0.5, 1])
    axes[1].get_legend().remove()
    missing_words = " ".join(f"{side}: {words}" for side, words in zip(("Left", "Right"), missing) if words)
    _finish(fig, title, f"{len(order)} shown skills, most frequent first. Left: accuracy of the skill's steps asked "
                        f"alone. Right: how often a step of the skill, next to give in a task still unsolved (at "
                        f"risk), was the bottleneck; {BOTTLENECK_WORDS}. Bars: 95% Wilson intervals; faded: fewer "
                        f"than {min_support} answered (left) or at-risk steps (right). {missing_words}"
                        f"{_left_out(run)}", legend=axes[0], keep=(axes[0], _bar_rows(len(order), len(names))))
    return fig


@projected
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
    fig, ax = plt.subplots(figsize=(WIDTH, 4.6))
    missing = _grouped_bars(ax, table, "level", sorted(table["level"].unique()), names)
    ax.axhline(0, color="black", linewidth=1)
    ax.set(xlabel="scaffold level j", ylabel="success difference", ylim=(-1, 1))
    _finish(fig, title, f"Paired over the tasks answered at both; bars: 95% bootstrap intervals. {missing}", legend=ax)
    return fig


@projected
def plot_bottleneck_heatmap(run: RunAnalysis | ComparisonTables, min_support: int = MIN_SUPPORT):
    """Skill × model bottleneck rate; each cell shows the rate and its at-risk count n (grey below ``min_support``).

    One skill only: bars, one per model, with their 95% intervals (a heatmap of one row says less).
    """
    title = "Where help started to work: bottleneck rate per skill"
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
    left_out = f"{dropped} skill(s) with fewer for every model left out. " if dropped else ""
    about = (f"The share of a skill's at-risk steps (next to give in a task still unsolved) that were the "
             f"bottleneck; {BOTTLENECK_WORDS}.")
    if len(order) == 1:  # one skill: a bar per model, with its interval and n
        names = model_names(run)
        bars = table[table["skill"] == order[0]].set_index("model").reindex(list(names)).dropna(subset=["at_risk"])
        colours = model_colours(names)
        values = bars["bottleneck_rate"].to_numpy(dtype=float)
        errors = np.clip(np.nan_to_num([values - bars["bottleneck_rate_low"].to_numpy(dtype=float),
                                        bars["bottleneck_rate_high"].to_numpy(dtype=float) - values]), 0, None)
        fig, ax = plt.subplots(figsize=(WIDTH, 0.6 * len(bars) + 0.8))
        drawn = ax.barh(range(len(bars)), values, height=0.7, xerr=errors, capsize=3,
                        color=[colours[model] for model in bars.index])
        for bar, n in zip(drawn, bars["at_risk"]):
            bar.set_alpha(1.0 if n >= min_support else 0.35)
        labels, key = _short_model_labels(run, list(bars.index))
        ax.set_yticks(range(len(bars)), labels)
        ax.set(xlabel="bottleneck rate", xlim=(0, 1), ylim=(len(bars) - 0.5, -0.5))
        ax.grid(False, axis="y")
        counts = ", ".join(f"{names[m]} n = {n:g}" for m, n in bars["at_risk"].items())
        _finish(fig, f"Where help started to work: bottleneck rate of {mathtext_plain(order[0])}",
                f"{about} At-risk steps: {counts}; bars: 95% Wilson intervals; faded: n < {min_support}. "
                f"{left_out}{key}{_left_out(run)}", keep=(ax, 0.6 * len(bars)))
        return fig
    rate, risk = rate.loc[order], risk.loc[order]
    shown = rate.where(risk >= min_support)
    cells = np.where(risk >= min_support, shown.map(lambda v: f"{v:.2f}") + risk.map(lambda n: f"\nn={n:g}"), "")
    columns, key = _short_model_labels(run, list(rate.columns))
    fig, (ax, bar_ax) = plt.subplots(1, 2, figsize=(WIDTH, 1.0 + 0.62 * rate.shape[0]),
                                     gridspec_kw={"width_ratios": [1, 0.03]})
    _annotated_heatmap(ax, shown, cells, readable(order), columns, cbar_ax=bar_ax, vmin=0, vmax=1, cmap="rocket_r")
    bar_ax.set_ylabel("bottleneck rate")
    ax.set(xlabel="", ylabel="")
    _finish(fig, title, f"{about} n = at-risk steps; grey: n < {min_support}. {left_out}{key}{_left_out(run)}",
            keep=(ax, 0.62 * rate.shape[0]))
    return fig


@projected
def plot_isolated_vs_whole(run: RunAnalysis | ComparisonTables,
                           title: str = "Each skill alone and inside its whole tasks"):
    """Per shown skill and model: accuracy asked alone (●) vs success of its tasks as asked (✕)."""
    table = run.table("shown_skills")
    table = table[table["isolated_n"] > 0]
    if table.empty:
        return placeholder(title, f"no isolated step was answered. {_left_out(run)}")
    colours = model_colours(model_names(run))
    names, missing = models_with_data(model_names(run), table["model"])
    order = by_support(table.groupby("skill")["occurrences"].sum())
    slots = len(order) * max(0.55, 0.27 * len(names) + 0.1)  # inches: each skill a slot of its models' rows
    fig, ax = plt.subplots(figsize=(WIDTH, slots + 0.6))
    step = 0.8 / max(1, len(names))
    for i, model in enumerate(names):
        rows = table[table["model"] == model].set_index("skill").reindex(order)
        y = np.arange(len(order)) + (i - (len(names) - 1) / 2) * step
        ax.hlines(y, rows["whole_task_success"], rows["isolated_accuracy"], color=colours[model], linewidth=2)
        ax.scatter(rows["isolated_accuracy"], y, color=colours[model], marker="o", s=60, zorder=3)
        ax.scatter(rows["whole_task_success"], y, color=colours[model], marker="X", s=60, zorder=3)
        for y_row, (alone, whole, n) in zip(y, rows[["isolated_accuracy", "whole_task_success", "whole_n"]].values):
            if not pd.isna(n):  # the number of tasks behind ✕, written beyond the line's right end
                ax.text(np.nanmax([alone, whole]) + 0.025, y_row, f"{n:g} tasks", va="center", fontsize=SMALL,
                        color=colours[model])
    ax.set_yticks(range(len(order)), readable(order))
    ax.set(xlim=(-0.03, 1.03), ylim=(len(order) - 0.5, -0.5), xticks=np.linspace(0, 1, 6), xlabel="share solved")
    ax.grid(False, axis="y")
    ax.legend(handles=[*(Patch(color=colours[model], label=name) for model, name in names.items()),
                       Line2D([], [], color="dimgray", marker="o", linestyle="", label="asked alone"),
                       Line2D([], [], color="dimgray", marker="X", linestyle="", label="whole task")])
    _finish(fig, title, "Descriptive, not a test: ● the skill's steps asked alone, ✕ the whole tasks that contain it. "
                        "A whole task has more steps, so ✕ lies left of ● even for a model that chains flawlessly; "
                        f"06's composition gap is the measure of chaining. {missing}", legend=ax, keep=(ax, slots))
    return fig


# ------------------------------------------------------------------------------------------ the notebooks' sets

LABELLED_TASKS = 30
"""Up to this many tasks, the k-stability figure names each task; beyond, it draws them as one column."""


@projected
def plot_k_stability(run: RunAnalysis):
    """Per model and task, the k of each repeated sample: how stable is the diagnosis of one task?

    One panel per model asked more than once per task, titled with the share of tasks with the same k in
    every sample (``summary.json``'s ``k_stability``); models asked once are named in the note.
    """
    title = "How stable is k across repeated samples?"
    table = run.stability
    names = model_names(run)
    repeated = table[table["k_by_sample"].map(len) > 1]
    models = [model for model in names if model in set(repeated["model"])]
    once = [names[model] for model in names if model not in models]
    once_words = f"Asked once per task (not drawn): {', '.join(once)}." if once else ""
    if not models:
        return placeholder(title, f"no task was asked more than once. {once_words}")
    tasks = sorted(repeated["task_id"].unique())
    labelled = len(tasks) <= LABELLED_TASKS
    fig, axes = plt.subplots(1, len(models), squeeze=False, sharey=True,
                             figsize=(WIDTH, 1.2 + (0.3 * len(tasks) if labelled else 5.0)))
    levels = sorted({k for ks in table["k_by_sample"] for k in ks if k is not None}, key=k_order)
    solved = [k for k in levels if k >= 0]
    colours = {**dict(zip(solved, sns.color_palette("viridis", n_colors=len(solved)))), -1: "indianred"}
    panel = WIDTH / len(models) - 0.3
    shortened = short_names([names[model] for model in models], 40)
    for ax, model in zip(axes[0], models):
        rows = table[table["model"] == model].set_index("task_id").reindex(tasks)
        left = np.zeros(len(tasks))
        for k in [*levels, None]:
            counts = rows["k_by_sample"].map(lambda ks, k=k: sum(value == k for value in ks)
                                             if isinstance(ks, list) else 0)
            ax.barh(range(len(tasks)), counts, left=left, height=0.8 if labelled else 1.0, linewidth=0,
                    color=colours.get(k, "lightgrey"), label=k_label(k) if k is not None else "undetermined")
            left += counts.to_numpy(dtype=float)
        stability = run.summary.models[model].k_stability
        same = (f"same k in every sample for {stability.same_k.value:.0%} of tasks"
                if stability is not None and stability.same_k.value is not None else "no task with two samples")
        ax.set_title(wrap(f"{shortened[names[model]]}: {same}", panel), fontsize=SMALL)
        ax.set(xlabel="samples")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.grid(False, axis="y")
        if labelled:
            ax.set_yticks(range(len(tasks)), [mathtext_plain(task) for task in tasks], fontsize=SMALL)
        else:
            ax.set_yticks([])
    axes[0][0].set_ylim(len(tasks) - 0.5, -0.5)  # once: the panels share their y axis
    if not labelled:
        axes[0][0].set_ylabel(f"{len(tasks)} tasks, in the order of their ids")
    axes[0][0].legend()
    _finish(fig, title, f"Each bar: one task's samples, coloured by the k each sample reached. {once_words}",
            legend=axes[0][0])
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
