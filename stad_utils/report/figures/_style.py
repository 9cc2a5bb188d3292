"""What every figure shares: one size and one set of fonts chosen for a projector, names that are never
cut where they differ, a title with a grey note above the axes and the legend under them, grouped
bars with intervals, heatmaps, placeholders.

**Legible at 1,024 px.** A figure is drawn `WIDTH` inches wide and its smallest text is `SMALL`
points: shown 1,024 px wide (a projector, report.html's front page, a notebook), one point is
1024 / (72 · `WIDTH`) ≈ 1.42 px, so no text is under `MIN_PX` (14 px); `font_points` converts for a figure
of another width. Every figure function is wrapped in `projected`, which draws it with these fonts
(`RC`) whatever the caller's matplotlib settings.
"""

from __future__ import annotations

import functools
import math
import textwrap
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ParamSpec, TypeVar

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from cycler import cycler
from matplotlib.patches import Patch

from ...analysis import MIN_SUPPORT, UNRESOLVED, ComparisonTables, RunAnalysis, simulated_label, undetermined_words
from ...method import k_category
from .._escaping import mathtext_plain
from .._names import short_names

NO_ANSWERS = "no answered tasks"
MAX_SHOWN = 12
"""Skills shown by name in a figure; the others are folded into "other (n skills)"."""

SHOWN_PX = 1024
"""The width, in pixels, at which every figure must stay legible (a projector's)."""
MIN_PX = 14
"""The smallest text, in pixels, at `SHOWN_PX` wide."""
WIDTH = 10.0
"""Inches: the width of every figure (the method picture, a page of its own, is wider: `font_points` sizes its text)."""
SMALL, TEXT, TITLE, SUPTITLE = 11.5, 13.0, 14.0, 17.0
"""Font sizes in points: notes, legends and cell labels; tick and axis labels; panel titles; the figure's title."""
EM = 0.56
"""The width of an average character of the figures' font, in ems, with a margin: for wrapping text to inches."""
PAD = 0.12
"""Inches between the figure's edge and its title, note or legend, and between them and the axes."""


def font_points(px: float, width: float = WIDTH) -> float:
    """The font size in points whose text is ``px`` pixels high when a figure ``width`` inches wide is shown
    `SHOWN_PX` wide.

    Examples
    --------
    >>> round(font_points(MIN_PX), 2), round(font_points(MIN_PX, width=14), 2)
    (9.84, 13.78)
    >>> font_points(MIN_PX) < SMALL
    True
    """
    return px * width * 72 / SHOWN_PX


RC = {**sns.axes_style("whitegrid"), **sns.plotting_context("talk"),
      "font.size": TEXT, "axes.labelsize": TEXT, "axes.titlesize": TITLE, "xtick.labelsize": TEXT,
      "ytick.labelsize": TEXT, "legend.fontsize": SMALL, "legend.title_fontsize": SMALL, "figure.titlesize": SUPTITLE,
      "figure.figsize": (WIDTH, 5.5), "axes.titlelocation": "left", "axes.titlepad": 8.0,
      "axes.prop_cycle": cycler(color=sns.color_palette("deep"))}
"""The figures' matplotlib settings: seaborn's white grid, "deep" colours, "talk" lines and markers, the fonts above."""

Params = ParamSpec("Params")
Drawn = TypeVar("Drawn")


def projected(draw: Callable[Params, Drawn]) -> Callable[Params, Drawn]:
    """``draw`` run with the figures' settings (`RC`), whatever the caller's (and leaving the caller's as they were)."""
    @functools.wraps(draw)
    def styled(*args: Params.args, **kwargs: Params.kwargs) -> Drawn:
        with plt.rc_context(RC):
            return draw(*args, **kwargs)
    return styled


def wrap(text: str, inches: float, size: float = SMALL) -> str:
    """``text`` wrapped to lines that fit ``inches`` at ``size`` points.

    Examples
    --------
    >>> print(wrap("the share of tasks that needed help, per skill of the bottleneck step", 3))
    the share of tasks that needed
    help, per skill of the bottleneck
    step
    """
    return textwrap.fill(text, max(8, int(inches * 72 / (EM * size))))


@projected
def placeholder(title: str, message: str):
    """A figure that only says why there is nothing to plot.

    Examples
    --------
    >>> placeholder("Success per level", "no answered tasks").axes[0].texts[0].get_text()
    'no answered tasks'
    """
    text = wrap(message, WIDTH - 1, TEXT)
    fig, ax = plt.subplots(figsize=(WIDTH, 0.8 + 0.3 * (text.count("\n") + 1)))
    ax.axis("off")
    ax.text(0.5, 0.5, text, ha="center", va="center", fontsize=TEXT, color="dimgray")
    _finish(fig, title)
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


def model_colours(names: Iterable[str]) -> dict[str, tuple]:
    """Each model's colour, the same in every figure of a run (by the order of `model_names`)."""
    names = list(names)
    return dict(zip(names, sns.color_palette(n_colors=len(names))))


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


def _legend_columns(labels: Sequence[str], inches: float) -> int:
    """How many legend entries fit side by side in ``inches`` (a colour key and its widest label per column)."""
    widest = max((len(line) for label in labels for line in label.split("\n")), default=1)
    column = widest * EM * SMALL / 72 + 0.8
    return max(1, min(len(labels), math.floor(inches / column)))


def _finish(fig, title: str, note: str = "", *, legend=None, keep: tuple[Any, float] | None = None) -> None:
    """Lay a figure out for the projector: its title and a grey ``note`` above the axes, left-aligned and wrapped
    to the figure's width; the entries of ``legend`` (an Axes, whose own legend moves) under the axes, as many
    side by side as fit. The figure grows by what these take, so that the axes keep the height they were
    given, and `matplotlib.figure.Figure.tight_layout` lays the axes out between them.

    ``keep``: (an Axes, inches): the figure grows further until that Axes is at least so high after the
    layout (rows of two-line labels keep their room, whatever the titles and tick labels around them take).
    """
    width = fig.get_figwidth()
    handles, labels = [], []
    if legend is not None and legend.get_legend() is not None:
        shown = legend.get_legend()
        labels = [text.get_text() for text in shown.get_texts()]
        own, own_labels = legend.get_legend_handles_labels()  # the artists themselves draw the best keys …
        handles = own if own_labels == labels else shown.legend_handles  # … unless the legend was given others
        shown.remove()
    heading = fig.suptitle(wrap(title, width - 2 * PAD, SUPTITLE), x=PAD / width, ha="left", va="top",
                           fontsize=SUPTITLE)
    caption = fig.text(PAD / width, 0, wrap(note, width - 2 * PAD), ha="left", va="top", fontsize=SMALL,
                       color="dimgray") if note else None
    key = fig.legend(handles, labels, loc="lower center", ncol=_legend_columns(labels, width - 2 * PAD),
                     fontsize=SMALL, frameon=False, borderaxespad=0) if handles else None
    fig.canvas.draw()  # to measure them
    renderer = fig.canvas.get_renderer()

    def inches(artist) -> float:
        return artist.get_window_extent(renderer).height / fig.dpi if artist is not None else 0.0

    top = PAD + inches(heading) + (PAD / 2 + inches(caption) if caption else 0) + PAD
    bottom = PAD + inches(key) + (PAD if key else 0)

    def place(height: float) -> None:
        fig.set_figheight(height)
        heading.set_y(1 - PAD / height)
        if caption:
            caption.set_y(1 - (PAD + inches(heading) + PAD / 2) / height)
        if key:
            key.set_bbox_to_anchor((0.5, PAD / height), transform=fig.transFigure)
        heading.set_in_layout(False)  # its room is kept above: tight_layout would count it twice …
        fig.tight_layout(rect=(0, bottom / height, 1, 1 - top / height))
        heading.set_in_layout(True)  # … but savefig(bbox_inches="tight") must keep it

    place(fig.get_figheight() + top + bottom)
    if keep is None:
        return
    ax, wanted = keep
    for _ in range(4):  # the other axes take their share of what is added
        short = wanted - ax.get_position().height * fig.get_figheight()
        if short < 0.01:
            break
        place(fig.get_figheight() + short * 1.05)


def _left_out(run: RunAnalysis | ComparisonTables) -> str:
    """'undetermined: m1 3 outcome(s) … (2 errors, 1 undecided)' per model with any, for notes."""
    parts = [f"{name}: {words}" for model, name in model_names(run).items()
             if (words := undetermined_words(run.undetermined[model]))]
    return "; ".join(parts)


def _grouped_bars(ax, table: pd.DataFrame, category: str, order: list, names: dict[str, str], *,
                  horizontal: bool = False, min_support: int = MIN_SUPPORT, bar: float = 0.8,
                  colours: dict | None = None) -> str:
    """Bars of ``value`` per ``category`` (position) and model (colour) with ``low``–``high`` error bars.

    Bars resting on fewer than ``min_support`` units (column ``n``) are drawn faded; `_finish`
    moves the legend out of the axes so that it never covers a bar. A model without any unit here
    gets no slot and no legend entry: the returned words name it for the note ('' when every model
    has data). Colours follow ``names`` (or ``colours``), the same in every figure.
    """
    colours = colours or model_colours(names)
    names, missing = models_with_data(names, table.loc[table["n"].fillna(0) > 0, "model"])
    width = bar / max(1, len(names))
    for i, (model, name) in enumerate(names.items()):
        rows = table[table["model"] == model].set_index(category).reindex(order)
        value = rows["value"].fillna(0).to_numpy(dtype=float)
        errors = np.clip(np.nan_to_num([value - rows["low"].to_numpy(dtype=float),
                                        rows["high"].to_numpy(dtype=float) - value]), 0, None)  # 0: rounding
        positions = np.arange(len(order)) + (i - (len(names) - 1) / 2) * width
        bars = (ax.barh(positions, value, height=width * 0.95, xerr=errors, color=colours[model], label=name,
                        capsize=3) if horizontal else
                ax.bar(positions, value, width=width * 0.95, yerr=errors, color=colours[model], label=name, capsize=3))
        for drawn, n in zip(bars, rows["n"].fillna(0)):
            drawn.set_alpha(1.0 if n >= min_support else 0.35)
    labels = (readable([str(c) for c in order], 24, lines=3 if len(names) >= 3 else 2) if horizontal
              else readable([str(c) for c in order], max(11, int(60 / max(1, len(order))))))
    if horizontal:
        ax.set_yticks(range(len(order)), labels)
        ax.set_ylim(len(order) - 0.5, -0.5)  # most important first
        ax.grid(False, axis="y")
    else:
        ax.set_xticks(range(len(order)), labels)
        ax.grid(False, axis="x")
    ax.legend(handles=[Patch(color=colours[model], label=name) for model, name in names.items()])
    return missing


def _annotated_heatmap(ax, values: pd.DataFrame, labels: np.ndarray, rows: list[str], columns: list[str], *,
                       cbar_ax=None, **colours) -> None:
    """A heatmap whose cells carry their own text (value and count), grey where there is no value; its colour
    bar in ``cbar_ax`` (none without).
    """
    ax.set_facecolor("lightgrey")
    sns.heatmap(values, annot=labels, fmt="", ax=ax, annot_kws={"fontsize": SMALL}, cbar=cbar_ax is not None,
                cbar_ax=cbar_ax, linewidths=1, linecolor="white", **colours)
    if cbar_ax is not None:
        cbar_ax.set_axes_locator(None)  # the colour bar fills its grid cell, and tight_layout can place it
    ax.grid(False)
    ax.set_yticks(np.arange(len(rows)) + 0.5, rows, rotation=0)
    ax.set_xticks(np.arange(len(columns)) + 0.5, columns, rotation=0)


def _short_model_labels(run: RunAnalysis | ComparisonTables, models: Sequence[str],
                        width: int = 24) -> tuple[list[str], str]:
    """Tick labels of models (short names, `stad_utils.report._names.short_names`) and a key for those shortened."""
    full = model_names(run)
    shortened = short_names([full[model] for model in models], width)
    key = "; ".join(f"{short} = {name}" for name, short in shortened.items() if short != name)
    return [textwrap.fill(shortened[full[model]], 18) for model in models], f"Key: {key}. " if key else ""
