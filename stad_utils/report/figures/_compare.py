"""Figures of two or more models on the same tasks: paired differences and pair gaps."""

from __future__ import annotations

import math
import textwrap

import matplotlib.pyplot as plt
import pandas as pd

from ...analysis import MIN_SUPPORT, PAIR_GAP_REFUSAL, Comparison, ComparisonTables
from .._escaping import mathtext_plain
from ._model import plot_bottleneck_heatmap, plot_isolated_vs_whole
from ._style import (
    NO_ANSWERS,
    _annotated_heatmap,
    _finish_with_legend,
    _grouped_bars,
    _titled,
    is_folded,
    model_names,
    models_with_data,
    one_line,
    placeholder,
)

# ------------------------------------------------------------------------------------------ comparisons


def plot_paired_differences(comparison: Comparison):
    """Accuracy A − B at each scaffold level for every model pair, with paired bootstrap 95% intervals."""
    title = "Paired difference A − B per scaffold level"
    rows = [{**row.as_dict(), "pair": mathtext_plain(f"{c.models[0]} − {c.models[1]}")} for c in comparison.comparisons
            for row in c.levels]
    if not rows:
        return placeholder(title, f"{NO_ANSWERS}: no level was answered by two models")
    table = pd.DataFrame(rows).rename(columns={"pair": "model", "difference": "value"})
    table["n"] = table["tasks"]
    pairs = {pair: pair for pair in table["model"].unique()}
    fig, ax = plt.subplots(figsize=(11, 5.5))
    levels = sorted(table["level"].unique())
    _grouped_bars(ax, table, "level", levels, pairs)
    tasks = table.groupby("level")["tasks"].min()
    ax.set_xticks(range(len(levels)), [f"{level}\nn≥{tasks[level]}" for level in levels])
    ax.axhline(0, color="black", linewidth=1)
    ax.set(xlabel="scaffold level j; n = tasks both answered", ylabel="success A − B", ylim=(-1, 1))
    _titled(fig, ax, title, "95% Newcombe score intervals (one sample per task); paired bootstrap with repeated "
                            "samples, none below 30 tasks.")
    _finish_with_legend(fig, ax)
    return fig


def plot_pair_gaps(tables: ComparisonTables, min_support: int = MIN_SUPPORT):
    """Pair composition gap of the last two steps' skills, one panel per model: cells with at least
    ``min_support`` tasks, each with its 95% interval and task count (grey: fewer tasks).
    """
    title = "Pair composition gap: success with two steps left − product alone (negative = fails to chain)"
    gaps = tables.shown_pair_gaps
    if gaps is None:
        return placeholder(title, PAIR_GAP_REFUSAL)
    if gaps.empty:
        return placeholder(title, f"{NO_ANSWERS} with both last steps answered alone and level K−2 answered")
    supported = gaps[gaps["tasks"] > 0]
    names, missing = models_with_data(model_names(tables), supported["model"])
    if supported.empty:
        return placeholder(title, f"{NO_ANSWERS}: no pair of last steps has a task behind it")
    def ordered(names: set[str]) -> list[str]:
        return sorted(names, key=lambda s: (is_folded(s), s))

    firsts, seconds = ordered(set(supported["first"])), ordered(set(supported["second"]))
    label_of = dict(zip(ordered(set(firsts) | set(seconds)), one_line(ordered(set(firsts) | set(seconds)), 18)))
    # cells of a fixed size, legible at 100%: a row or column only for a skill with a task behind it; panels
    # two abreast sharing the skills' names on the left, so that the figure still fits a projector
    cell, label_inches = 0.95, 0.09 * max(map(len, label_of.values()))
    columns = min(2, len(names))
    panel_rows = math.ceil(len(names) / columns)
    fig, axes = plt.subplots(panel_rows, columns, squeeze=False, sharey=True,
                             figsize=(label_inches + 1.8 + columns * (cell * len(seconds) + 0.4),
                                      panel_rows * (label_inches + 1.2 + cell * len(firsts)) + 0.8))
    for ax in axes.flat[len(names):]:
        ax.set_visible(False)
    for index, (ax, model) in enumerate(zip(axes.flat, names)):
        rows = supported[supported["model"] == model].assign(
            label=lambda t: [f"{g:+.2f}\n[{lo:+.2f}, {hi:+.2f}]\nn={n:.0f}" if n >= min_support else f"n={n:.0f}"
                             for g, lo, hi, n in zip(t["gap"], t["low"], t["high"], t["tasks"])])
        def grid(column: str, rows: pd.DataFrame = rows) -> pd.DataFrame:
            return rows.pivot(index="first", columns="second", values=column).reindex(index=firsts, columns=seconds)
        _annotated_heatmap(ax, grid("gap").where(grid("tasks") >= min_support), grid("label").fillna("").to_numpy(),
                           [label_of[s] for s in firsts], [label_of[s] for s in seconds], label="pair composition gap",
                           rotate_columns=True, fontsize=8, colour_bar=index == len(names) - 1,
                           vmin=-1, vmax=1, center=0, cmap="vlag")
        ax.set(title=textwrap.fill(names[model], 30), xlabel="last step's skill",
               ylabel="previous step's skill" if index % columns == 0 else "")
    fig.suptitle(textwrap.fill(f"{title}. {missing}", int(fig.get_figwidth() * 5.5)), fontsize="large")
    fig.text(0.5, 0.005, f"[ ]: 95% Newcombe interval; grey: fewer than {min_support} tasks with this pair (or none)",
             ha="center", fontsize="x-small", color="dimgray")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    return fig


def comparison_figures(comparison: Comparison, tables: ComparisonTables, *, min_support: int = MIN_SUPPORT) -> dict:
    """The figures of ``07_compare`` by file name (k shares and success per level are 06's)."""
    return {"compare_differences": plot_paired_differences(comparison),
            "compare_bottlenecks": plot_bottleneck_heatmap(tables, comparison.min_support),
            "compare_isolated_vs_whole": plot_isolated_vs_whole(tables),
            "compare_pair_gaps": plot_pair_gaps(tables, min_support=min_support)}
