"""What every figure shares: projector-sized text, names that are never cut where they differ,
titles with a subtitle, grouped bars with intervals, heatmaps, placeholders.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.patches import Patch

from ...analysis import MIN_SUPPORT, UNRESOLVED, ComparisonTables, RunAnalysis, simulated_label, undetermined_words
from ...method import k_category
from .._escaping import mathtext_plain
from .._names import short_names

NO_ANSWERS = "no answered tasks"
MAX_SHOWN = 12
"""Skills shown by name in a figure; the others are folded into "other (n skills)"."""
SUBTITLE_CHARS_PER_INCH = 10  # characters of a subtitle per inch of axes width (x-small font, with margin)


def placeholder(title: str, message: str):
    """A figure that only says why there is nothing to plot.

    Examples
    --------
    >>> placeholder("Success per level", "no answered tasks").axes[0].texts[0].get_text()
    'no answered tasks'
    """
    text = textwrap.fill(message, 55)
    fig, ax = plt.subplots(figsize=(10, 1.6 + 0.45 * text.count("\n")))
    ax.axis("off")
    ax.text(0.5, 0.5, text, ha="center", va="center", fontsize="medium", color="dimgray")
    ax.set_title(title)
    return fig


def readable(names: Sequence[str], width: int = 24, lines: int = 2) -> list[str]:
    """Tick labels for ``names``: each at most ``lines`` lines of ``width`` characters, distinct
    from the others (never cut where two names differ, `stad_utils.report._names.short_names`), with
    ``$`` shown as typed.

    Examples
    --------
    >>> readable(["Multiply the number of groups by the number of items in each group.",
    ...           "Multiply the number of items sold by the price of one item."], width=20)
    ['Multiply the number\\nof groups by the …', 'Multiply the number\\nof items sold by …']
    """
    room = width * lines
    while True:  # words wrap short of the full width: shorten until every label fits its lines
        wrapped = {name: textwrap.wrap(short, width) for name, short in short_names(list(names), room).items()}
        if room <= width or all(len(lines_of) <= lines for lines_of in wrapped.values()):
            return [mathtext_plain("\n".join(wrapped[name])) for name in names]
        room -= 4


def one_line(names: Sequence[str], width: int = 34) -> list[str]:
    """Labels for the rows of a heatmap (one row is one line high): see `readable`."""
    return readable(names, width, lines=1)


def k_label(k: int) -> str:
    """Axis label of a minimal scaffolding level.

    Examples
    --------
    >>> [k_label(k) for k in (0, 1, 2, -1)]
    ['alone (0)', '1 step given', '2 steps given', 'unresolved (−1)']
    """
    category = k_category(k)
    return ("unresolved (−1)" if category == "unresolved" else "alone (0)" if category == "independent"
            else f"{k} step{'s' if k > 1 else ''} given")


def model_names(run: RunAnalysis | ComparisonTables) -> dict[str, str]:
    """Each model's legend name, marking simulated targets (unless their name already says so), ``$`` as typed."""
    return {model: mathtext_plain(simulated_label(model, simulated))
            for model, simulated in sorted(run.simulated.items())}


def models_with_data(names: dict[str, str], present: Iterable[str]) -> tuple[dict[str, str], str]:
    """The models of ``names`` that have data in a figure, and the words naming those left out ('' if none)."""
    present = set(present)
    missing = [name for model, name in names.items() if model not in present]
    note = f"No data here for {', '.join(missing)}. " if missing else ""
    return {model: name for model, name in names.items() if model in present}, note


def is_folded(name: str) -> bool:
    """True for the categories shown after every skill: folded rare skills and unresolved tasks."""
    return name.startswith("other (") or name == UNRESOLVED


def by_support(support: pd.Series) -> list[str]:
    """Category names, most support first, with folded skills and "unresolved" last.

    Examples
    --------
    >>> by_support(pd.Series({"other (3 skills)": 9, "add": 2, "mul": 5}))
    ['mul', 'add', 'other (3 skills)']
    """
    return sorted(support.index, key=lambda name: (is_folded(name), -support[name]))


def _titled(fig, ax, title: str, subtitle: str = "") -> None:
    """The figure's title, and a small grey subtitle over ``ax`` wrapped to the axes' width."""
    fig.suptitle(title, fontsize="large")
    if subtitle:
        chars = int(ax.get_position().width * fig.get_figwidth() * SUBTITLE_CHARS_PER_INCH)
        ax.set_title(textwrap.fill(subtitle, chars), fontsize="x-small", color="dimgray")


def _finish_with_legend(fig, ax) -> None:
    """Move ``ax``'s legend under the figure, one entry per line when names are long, then lay out.

    Beside the axes, a long model name (a simulated target's planted weaknesses) would squeeze
    the plot to a sliver; under it, the plot keeps the figure's width.
    """
    handles, labels = ax.get_legend_handles_labels()
    if ax.get_legend() is not None:
        ax.get_legend().remove()
    columns = 1 if max(map(len, labels), default=0) > 40 else max(1, min(len(labels), 3))
    legend = fig.legend(handles, labels, loc="lower center", ncol=columns, fontsize="x-small", frameon=False)
    fig.canvas.draw()  # to measure the legend, then make the figure that much taller
    legend_inches = legend.get_window_extent().height / fig.dpi + 0.1
    fig.set_figheight(fig.get_figheight() + legend_inches)
    fig.tight_layout(rect=(0, legend_inches / fig.get_figheight(), 1, 1))


def _left_out(run: RunAnalysis | ComparisonTables) -> str:
    """'undetermined: m1 3 outcome(s) … (2 errors, 1 undecided)' per model with any, for subtitles."""
    parts = [f"{name}: {words}" for model, name in model_names(run).items()
             if (words := undetermined_words(run.undetermined[model]))]
    return "; ".join(parts)


def _grouped_bars(ax, table: pd.DataFrame, category: str, order: list, names: dict[str, str], *,
                  horizontal: bool = False, min_support: int = MIN_SUPPORT) -> str:
    """Bars of ``value`` per ``category`` (position) and model (colour) with ``low``–``high`` error bars.

    Bars resting on fewer than ``min_support`` units (column ``n``) are drawn faded; the figure
    moves the legend out of the axes (`_finish_with_legend`) so that it never covers a bar.
    A model without any unit here gets no slot and no legend entry: the returned words name it
    for the subtitle ('' when every model has data). Colours follow ``names``, the same in every figure.
    """
    colours = dict(zip(names, sns.color_palette(n_colors=len(names))))
    names, missing = models_with_data(names, table.loc[table["n"].fillna(0) > 0, "model"])
    width = 0.8 / max(1, len(names))
    for i, (model, name) in enumerate(names.items()):
        rows = table[table["model"] == model].set_index(category).reindex(order)
        value = rows["value"].fillna(0).to_numpy(dtype=float)
        errors = np.clip(np.nan_to_num([value - rows["low"].to_numpy(dtype=float),
                                        rows["high"].to_numpy(dtype=float) - value]), 0, None)  # 0: rounding
        positions = np.arange(len(order)) + (i - (len(names) - 1) / 2) * width
        bars = (ax.barh(positions, value, height=width * 0.95, xerr=errors, color=colours[model], label=name,
                        capsize=3) if horizontal else
                ax.bar(positions, value, width=width * 0.95, yerr=errors, color=colours[model], label=name, capsize=3))
        for bar, n in zip(bars, rows["n"].fillna(0)):
            bar.set_alpha(1.0 if n >= min_support else 0.35)
    labels = readable([str(c) for c in order], 24 if horizontal else 11)
    if horizontal:
        ax.set_yticks(range(len(order)), labels)
        if not ax.yaxis_inverted():  # most important first, once even on shared axes
            ax.invert_yaxis()
    else:
        ax.set_xticks(range(len(order)), labels)
    ax.legend(handles=[Patch(color=colours[model], label=name) for model, name in names.items()])
    return missing


def _annotated_heatmap(ax, values: pd.DataFrame, labels: np.ndarray, rows: list[str], columns: list[str], *,
                       label: str, rotate_columns: bool = False, fontsize: int = 12, colour_bar: bool = True,
                       **colours) -> None:
    """A heatmap whose cells carry their own text (value and count), grey where there is no value."""
    ax.set_facecolor("lightgrey")
    sns.heatmap(values, annot=labels, fmt="", ax=ax, annot_kws={"fontsize": fontsize}, cbar=colour_bar,
                cbar_kws={"label": label}, linewidths=1, linecolor="white", **colours)
    ax.grid(False)
    ax.set_yticks(np.arange(len(rows)) + 0.5, rows, rotation=0, fontsize="small")
    ax.set_xticks(np.arange(len(columns)) + 0.5, columns, fontsize="small", rotation=90 if rotate_columns else 0)


def _short_model_labels(run: RunAnalysis | ComparisonTables, models: Sequence[str]) -> tuple[list[str], str]:
    """Tick labels of models (short names, `stad_utils.report._names.short_names`) and a key for those shortened."""
    full = model_names(run)
    shortened = short_names([full[model] for model in models], 24)
    key = "; ".join(f"{short} = {name}" for name, short in shortened.items() if short != name)
    return [textwrap.fill(shortened[full[model]], 18) for model in models], f"Key: {key}. " if key else ""
