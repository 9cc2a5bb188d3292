"""Figures of two or more models on the same tasks: paired differences and pair gaps."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd

from ...analysis import MIN_SUPPORT, PAIR_GAP_REFUSAL, Comparison, ComparisonTables, points
from .._escaping import mathtext_plain
from ._model import plot_bottleneck_heatmap, plot_isolated_vs_whole
from ._style import (
    NO_ANSWERS,
    SMALL,
    WIDTH,
    _annotated_heatmap,
    _finish,
    _grouped_bars,
    is_folded,
    model_names,
    models_with_data,
    placeholder,
    projected,
    readable,
    wrap,
)

# ------------------------------------------------------------------------------------------ comparisons


@projected
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
    fig, ax = plt.subplots(figsize=(WIDTH, 4.6))
    levels = sorted(table["level"].unique())
    _grouped_bars(ax, table, "level", levels, pairs)
    tasks = table.groupby("level")["tasks"].min()
    ax.set_xticks(range(len(levels)), [f"{level}\nn≥{tasks[level]}" for level in levels])
    ax.axhline(0, color="black", linewidth=1)
    ax.set(xlabel="scaffold level j; n = tasks both answered", ylabel="success A − B", ylim=(-1, 1))
    _finish(fig, title, "95% Newcombe score intervals (one sample per task); paired bootstrap with repeated "
                        "samples, none below 30 tasks.", legend=ax)
    return fig


def _gap_words(gap: float, low: float, high: float, n: float, min_support: int) -> str:
    """One cell of the pair-gap heatmap: the gap and its interval in points and its tasks (n only under the support)."""
    return (f"{points(gap)}\n[{points(low)}, {points(high)}]\nn={n:.0f}" if n >= min_support else f"n={n:.0f}")


@projected
def plot_pair_gaps(tables: ComparisonTables, min_support: int = MIN_SUPPORT):
    """Pair composition gap of the last two steps' skills, one panel per model, one under the other: cells with
    at least ``min_support`` tasks, each with its 95% interval and task count (grey: fewer tasks).
    """
    title = "Pair composition gap of the last two steps (points)"
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
    every = ordered(set(firsts) | set(seconds))
    row_label = dict(zip(every, readable(every, 24)))
    column_label = dict(zip(every, readable(every, max(10, int(60 / len(seconds))), lines=3)))
    # one panel per model, one under the other and sharing the skills of the last step, so that their titles
    # and cells have the figure's width; one colour bar for all
    fig = plt.figure(figsize=(WIDTH, len(names) * (0.7 * len(firsts) + 0.5) + 1.0))
    layout = fig.add_gridspec(len(names), 2, width_ratios=[1, 0.025])
    bar_ax = fig.add_subplot(layout[:, 1])
    panels = [fig.add_subplot(layout[index, 0]) for index in range(len(names))]
    for index, (ax, model) in enumerate(zip(panels, names)):
        rows = supported[supported["model"] == model].assign(
            label=lambda t: [_gap_words(g, lo, hi, n, min_support)
                             for g, lo, hi, n in zip(t["gap"], t["low"], t["high"], t["tasks"])])

        def grid(column: str, rows: pd.DataFrame = rows) -> pd.DataFrame:
            return rows.pivot(index="first", columns="second", values=column).reindex(index=firsts, columns=seconds)
        _annotated_heatmap(ax, grid("gap").where(grid("tasks") >= min_support), grid("label").fillna("").to_numpy(),
                           [row_label[s] for s in firsts], [column_label[s] for s in seconds],
                           cbar_ax=bar_ax if index == 0 else None, vmin=-1, vmax=1, center=0, cmap="vlag")
        ax.set_title(wrap(names[model], WIDTH - 3), fontsize=SMALL + 1)
        ax.set(xlabel="last step's skill" if index == len(names) - 1 else "", ylabel="previous step's skill")
        if index < len(names) - 1:
            ax.tick_params(axis="x", labelbottom=False)
    bar_ax.set_ylabel("pair composition gap (points)")
    bar_ax.yaxis.set_major_formatter(lambda value, _: points(value).replace("+0", "0"))
    _finish(fig, title, "Success with only the last two steps left (scaffold K−2) − the product of their successes "
                        "asked alone; negative = fails to chain them. [ ]: 95% Newcombe interval; grey: fewer than "
                        f"{min_support} tasks with this pair (or none). {missing}", keep=(panels[0], 0.7 * len(firsts)))
    return fig


def comparison_figures(comparison: Comparison, tables: ComparisonTables, *, min_support: int = MIN_SUPPORT) -> dict:
    """The figures of ``07_compare`` by file name (k shares and success per level are 06's)."""
    return {"compare_differences": plot_paired_differences(comparison),
            "compare_bottlenecks": plot_bottleneck_heatmap(tables, comparison.min_support),
            "compare_isolated_vs_whole": plot_isolated_vs_whole(tables),
            "compare_pair_gaps": plot_pair_gaps(tables, min_support=min_support)}
