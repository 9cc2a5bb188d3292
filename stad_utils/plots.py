"""Figures for a workshop projector: large labels, one message per figure, intervals and counts on every rate.

Skills are shown by support: the ``max_shown`` most frequent by name, the rest folded into
"other (n skills)" (`stad_utils.skills.fold_rare_skills`). Every figure says how many tasks
stand behind it and how many were left out (errors, undecided); a run without answered
tasks gets a placeholder that says so instead of an empty or crashing plot.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Iterable, Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.patches import Patch

from .analysis import (
    bottleneck_attribution,
    help_from_content,
    k_order,
    k_shares,
    k_stability,
    skill_table,
    success_by_level,
    undetermined_counts,
)
from .compare import PAIR_GAP_REFUSAL, pair_composition_gaps
from .definitions import MIN_SUPPORT, UNRESOLVED
from .escaping import mathtext_plain
from .frames import policy_of
from .names import short_names
from .records import Outcome
from .schema import Comparison, Estimate, ModelSummary, Undetermined
from .skills import fold_rare_skills
from .wording import p_words, points, simulated_label, undetermined_words

sns.set_theme(context="talk", style="whitegrid")

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
    from the others (never cut where two names differ, `stad_utils.names.short_names`), with
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
    return "unresolved (−1)" if k == -1 else "alone (0)" if k == 0 else f"{k} step{'s' if k > 1 else ''} given"


def model_names(items: Sequence[Outcome]) -> dict[str, str]:
    """Each model's legend name, marking simulated targets (unless their name already says so), ``$`` as typed."""
    simulated = {o.model for o in items if o.simulated}
    return {m: mathtext_plain(simulated_label(m, m in simulated)) for m in sorted({o.model for o in items})}


def models_with_data(names: dict[str, str], present: Iterable[str]) -> tuple[dict[str, str], str]:
    """The models of ``names`` that have data in a figure, and the words naming those left out ('' if none)."""
    present = set(present)
    missing = [name for model, name in names.items() if model not in present]
    note = f"No data here for {', '.join(missing)}. " if missing else ""
    return {model: name for model, name in names.items() if model in present}, note


def skill_folding(items: Sequence[Outcome], max_shown: int = MAX_SHOWN) -> dict[str, str]:
    """Shown name of every skill of ``items``: the ``max_shown`` most frequent ones, the rest folded."""
    return fold_rare_skills([skill for o in items for skill in o.skills], max_shown=max_shown)


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


def _left_out(items: Sequence[Outcome]) -> str:
    """'undetermined: m1 3 outcome(s) … (2 errors, 1 undecided)' per model with any, for subtitles."""
    parts = [f"{name}: {words}" for model, name in model_names(items).items()
             if (words := undetermined_words(Undetermined.model_validate(
                 undetermined_counts([o for o in items if o.model == model]))))]
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


# ------------------------------------------------------------------------------------------ one model or several


def plot_k_shares(items: Sequence[Outcome]):
    """Share of determined tasks at each k per model, with Wilson 95% intervals and the undetermined count.

    Examples
    --------
    >>> from stad_utils.records import Outcome
    >>> failed = Outcome(task_id="t", model="m", source="s", n_steps=1, skills=["a"], curve=[None], isolated=[None],
    ...                  k=None, undetermined_by="error", non_monotonic=False, n_errors=2)
    >>> plot_k_shares([failed]).axes[0].texts[0].get_text().split(":")[0]
    'no answered tasks'
    """
    title = "How much help does each task need?"
    shares = k_shares(items)
    if shares.empty:
        return placeholder(title, f"{NO_ANSWERS}: no task has a determined k. {_left_out(items)}")
    order = sorted(shares["k"].unique(), key=k_order)
    fig, ax = plt.subplots(figsize=(11, 6))
    missing = _grouped_bars(ax, shares.assign(k=shares["k"].map(k_label)), "k", [k_label(k) for k in order],
                            model_names(items))
    ax.set(xlabel="minimal scaffolding level k", ylabel="share of tasks", ylim=(0, 1))
    counts = ", ".join(f"{model_names(items)[m]} n = {int(n)}" for m, n in shares.groupby("model")["n"].first().items())
    _titled(fig, ax, title, f"tasks with a determined k: {counts}. {missing}{_left_out(items) or 'None undetermined'}. "
                            "Bars: 95% Wilson intervals.")
    _finish_with_legend(fig, ax)
    return fig


def plot_success_by_level(items: Sequence[Outcome]):
    """Success at each scaffold level per model over the tasks answered there (placebo levels dashed)."""
    title = "Success as more steps are given"
    table = pd.concat([success_by_level(items).assign(kind="scaffold"),
                       success_by_level(items, variant="placebo").assign(kind="placebo")], ignore_index=True)
    table = table[table["n"] > 0]
    if table.empty:
        return placeholder(title, f"{NO_ANSWERS}. {_left_out(items)}")
    colours = dict(zip(model_names(items), sns.color_palette(n_colors=len(model_names(items)))))
    names, missing = models_with_data(model_names(items), table["model"])
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
            if policy_of(items) == "on_failure" else "")
    _titled(fig, ax, title, f"{note}{missing}Over tasks answered at each level; bars: 95% Wilson intervals.")
    _finish_with_legend(fig, ax)
    return fig


def plot_bottlenecks(items: Sequence[Outcome], max_shown: int = MAX_SHOWN, min_support: int = MIN_SUPPORT):
    """Bottleneck attribution: among tasks that needed help, the share whose bottleneck is each skill."""
    title = "Which step's skill turned failure into success?"
    table = bottleneck_attribution(items, rename=skill_folding(items, max_shown))
    if table.empty:
        return placeholder(title, f"no task with a determined k needed help. {_left_out(items)}")
    order = by_support(table.groupby("bottleneck")["tasks"].sum())
    fig, ax = plt.subplots(figsize=(11, 2.5 + 0.45 * len(order) * max(1, len(model_names(items)) / 1.5)))
    missing = _grouped_bars(ax, table, "bottleneck", order, model_names(items), horizontal=True,
                            min_support=min_support)
    ax.set(xlabel="share of tasks that needed help", xlim=(0, 1))
    needed = ", ".join(f"{model_names(items)[m]} n = {n:g}" for m, n in table.groupby("model")["n"].first().items())
    _titled(fig, ax, title, f"bottleneck = step k, the step whose provision turned failure into success. Tasks that "
                            f"needed help: {needed}. {missing}{_left_out(items) or 'None undetermined'}. "
                            "Bars: 95% Wilson intervals.")
    _finish_with_legend(fig, ax)
    return fig


def plot_skills(items: Sequence[Outcome], max_shown: int = MAX_SHOWN, min_support: int = MIN_SUPPORT):
    """Per shown skill: accuracy when asked alone, and bottleneck rate, each with its 95% interval."""
    title = "Skills: alone, and as the bottleneck"
    table = shown_skill_table(items, max_shown)
    if table.empty or not table["isolated_n"].any() and not table["at_risk"].any():
        return placeholder(title, f"{NO_ANSWERS} with a step. {_left_out(items)}")
    order = by_support(table.groupby("skill")["occurrences"].sum())
    names = model_names(items)
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
                                 f"{_left_out(items)}")
    _finish_with_legend(fig, axes[0])
    return fig


def plot_help_from_content(items: Sequence[Outcome], n_resamples: int = 1000):
    """Help from content per level (scaffold j − placebo j), with paired bootstrap 95% intervals."""
    title = "Help from content: scaffold − placebo"
    table = help_from_content(items, n_resamples=n_resamples)
    if table.empty:
        return placeholder(title, "no placebo question was answered")
    names = model_names(items)
    fig, ax = plt.subplots(figsize=(10, 5.5))
    missing = _grouped_bars(ax, table.rename(columns={"estimate": "value"}), "level", sorted(table["level"].unique()),
                            names)
    ax.axhline(0, color="black", linewidth=1)
    ax.set(xlabel="scaffold level j", ylabel="success difference", ylim=(-1, 1))
    _titled(fig, ax, title, f"paired over tasks answered at both; bars: 95% bootstrap intervals. {missing}")
    _finish_with_legend(fig, ax)
    return fig


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


def shown_skill_table(items: Sequence[Outcome], max_shown: int = MAX_SHOWN) -> pd.DataFrame:
    """`skill_table` as the figures show it: rare skills folded, the gap without an interval.

    Several figures draw from it; computing it once for all of them (``skills=``) saves seconds at scale.
    """
    return skill_table(items, rename=skill_folding(items, max_shown), n_resamples=0)


def _skills_with(items: Sequence[Outcome], max_shown: int, count: str, skills: pd.DataFrame | None) -> pd.DataFrame:
    """The shown skill table's skills with at least one unit in column ``count``."""
    table = shown_skill_table(items, max_shown) if skills is None else skills
    return table[table[count] > 0]


def plot_bottleneck_heatmap(items: Sequence[Outcome], max_shown: int = MAX_SHOWN, min_support: int = MIN_SUPPORT, *,
                            skills: pd.DataFrame | None = None):
    """Skill × model bottleneck rate; each cell shows the rate and its at-risk count n (grey below ``min_support``).

    ``skills``: `shown_skill_table` of ``items``, when it is already computed.
    """
    title = "Where each model is blocked: bottleneck rate"
    table = _skills_with(items, max_shown, "at_risk", skills)
    if table.empty:
        return placeholder(title, f"no step was at risk (no task with a determined k needed help). {_left_out(items)}")
    rate = table.pivot(index="skill", columns="model", values="bottleneck_rate")
    risk = table.pivot(index="skill", columns="model", values="at_risk").reindex_like(rate).fillna(0)
    supported = risk.index[(risk >= min_support).any(axis=1)]
    if supported.empty:
        return placeholder(title, f"no skill was at risk {min_support} times for any model. {_left_out(items)}")
    dropped = len(risk) - len(supported)
    order = by_support(risk.loc[supported].sum(axis=1))
    rate, risk = rate.loc[order], risk.loc[order]
    shown = rate.where(risk >= min_support)
    labels = np.where(risk >= min_support, shown.map(lambda v: f"{v:.2f}") + risk.map(lambda n: f"\nn={n:g}"), "")
    columns, key = _short_model_labels(items, list(rate.columns))
    fig, ax = plt.subplots(figsize=(6 + 2.4 * rate.shape[1], max(4.5, 3.2 + 0.75 * rate.shape[0])))
    _annotated_heatmap(ax, shown, labels, readable(order), columns, label="bottleneck rate", vmin=0, vmax=1,
                       cmap="rocket_r")
    ax.set(xlabel="", ylabel="")
    left_out = f"{dropped} skill(s) with fewer for every model left out. " if dropped else ""
    _titled(fig, ax, title, f"n = at-risk steps (an at-risk step: its task was still unsolved with this skill next to "
                            f"give); grey: n < {min_support}. {left_out}{key}{_left_out(items)}")
    fig.tight_layout()
    return fig


def plot_isolated_vs_whole(items: Sequence[Outcome], max_shown: int = MAX_SHOWN,
                           title: str = "Each skill alone and inside its whole tasks", *,
                           skills: pd.DataFrame | None = None):
    """Per shown skill and model: accuracy asked alone (●) vs success of its tasks as asked (✕).

    ``skills``: `shown_skill_table` of ``items``, when it is already computed.
    """
    table = _skills_with(items, max_shown, "isolated_n", skills)
    if table.empty:
        return placeholder(title, f"no isolated step was answered. {_left_out(items)}")
    colours = dict(zip(model_names(items), sns.color_palette(n_colors=len(model_names(items)))))
    names, missing = models_with_data(model_names(items), table["model"])
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


def plot_pair_gaps(items: Sequence[Outcome], max_shown: int = 4, min_support: int = MIN_SUPPORT):
    """Pair composition gap of the last two steps' skills, one panel per model: cells with at least
    ``min_support`` tasks, each with its 95% interval and task count (grey: fewer tasks).
    """
    title = "Pair composition gap: success with two steps left − product alone (negative = fails to chain)"
    if policy_of(items) == "on_failure":
        return placeholder(title, PAIR_GAP_REFUSAL)
    gaps = pair_composition_gaps(items, rename=skill_folding(items, max_shown))
    if gaps.empty:
        return placeholder(title, f"{NO_ANSWERS} with both last steps answered alone and level K−2 answered")
    supported = gaps[gaps["tasks"] > 0]
    names, missing = models_with_data(model_names(items), supported["model"])
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


def _short_model_labels(items: Sequence[Outcome], models: Sequence[str]) -> tuple[list[str], str]:
    """Tick labels of models (short names, `stad_utils.names.short_names`) and a key for those shortened."""
    full = model_names(items)
    shortened = short_names([full[model] for model in models], 24)
    key = "; ".join(f"{short} = {name}" for name, short in shortened.items() if short != name)
    return [textwrap.fill(shortened[full[model]], 18) for model in models], f"Key: {key}. " if key else ""


DIAGNOSIS_ROWS = 8
"""Skills the front page's figure shows by name: every named one, then the closest calls."""


def _interval_row(ax, y: float, entry: Estimate, colour: str, marker: str, filled: bool = True) -> None:
    low, high = entry.ci95
    ax.hlines(y, low, high, color=colour, linewidth=2.5 if filled else 1.5)
    ax.scatter([entry.value], [y], s=70, marker=marker, zorder=3, color=colour if filled else "white",
               edgecolors=colour, linewidths=1.5)


def plot_diagnosis(numbers: ModelSummary, name: str, max_rows: int = DIAGNOSIS_ROWS):
    """The evidence of one model's diagnosis, as its sentence states it (a model's entry of ``summary.json``).

    Above, each tested skill asked alone (●, with its 95% interval and n) against the other skills' steps
    (○): red when the diagnosis names it weak (Holm-adjusted), grey otherwise. Below, the composition gap
    with its interval: red when the diagnosis claims a failure to chain. Nothing is drawn that the
    diagnosis did not test, so the figure shows no skill as failing that the sentence does not name.
    """
    diagnosis = numbers.diagnosis
    tested = diagnosis.tested_skills
    shown = [e for e in tested if e.weak] + [e for e in tested if not e.weak]
    shown = shown[:max(max_rows, sum(e.weak for e in tested))]
    effect = diagnosis.composition_effect
    title = mathtext_plain(f"What the diagnosis of {short_names([name], 40)[name]} rests on")
    if not shown and not (effect and effect.value is not None):
        return placeholder(title, "nothing was tested: too few answered isolated questions and whole tasks")
    rows = max(len(shown), 1)
    height = 2.6 + 0.34 * rows
    fig, (skills_ax, gap_ax) = plt.subplots(2, 1, figsize=(10, height),
                                            gridspec_kw={"height_ratios": [rows + 0.6, 1.4], "hspace": 0.6})
    # Margins in inches, not shares, so that the labels keep their room whatever the number of rows.
    fig.subplots_adjust(left=0.3, right=0.7, top=1 - 0.75 / height, bottom=0.45 / height)
    for y, entry in enumerate(shown):
        colour = "tab:red" if entry.weak else "tab:gray"
        _interval_row(skills_ax, y + 0.15, entry.others_accuracy, "tab:gray", "o", filled=False)
        _interval_row(skills_ax, y - 0.15, entry.isolated_accuracy, colour, "o")
        verdict = f"named weak (Holm {p_words(entry.p_adjusted)})" if entry.weak else "not named"
        skills_ax.text(1.05, y, f"n = {entry.isolated_accuracy.n:g} · {verdict}", va="center", fontsize="small",
                       color=colour)
    skills_ax.set_yticks(range(len(shown)), [mathtext_plain(one_line([e.skill], 28)[0]) for e in shown])
    skills_ax.set(xlim=(-0.02, 1.02), ylim=(rows - 0.5, -0.5), xticks=[0, 0.25, 0.5, 0.75, 1])
    skills_ax.xaxis.set_major_formatter(lambda value, _: f"{value:.0%}")
    left_out = len(tested) - len(shown)
    skills_ax.set_title(f"Asked alone: ● the skill, ○ the other skills ({len(tested)} tested"
                        + (f", {left_out} more not named)" if left_out else ")"), fontsize="small", loc="left")
    if not shown:
        skills_ax.text(0.5, 0, "no skill had enough answered isolated questions", ha="center", va="center",
                       fontsize="small")
    if effect and effect.value is not None:
        claimed = diagnosis.composition_failure
        colour = "tab:red" if claimed else "tab:gray"
        _interval_row(gap_ax, 0, effect, colour, "D")
        adjusted = diagnosis.composition_p_adjusted
        verdict = ((f"fails to chain (Holm {p_words(adjusted)})" if adjusted is not None else "fails to chain")
                   if claimed else "no failure to chain claimed")
        gap_ax.text(1.1, 0, f"{points(effect.value)} points, n = {effect.n:g} tasks · {verdict}",
                    va="center", fontsize="small", color=colour)
    else:
        gap_ax.text(1.1, 0, "not computed", va="center", fontsize="small", color="dimgray")
    gap_ax.axvline(0, color="black", linewidth=0.8)
    gap_ax.set(xlim=(-1.04, 1.04), ylim=(0.6, -0.6), yticks=[], xticks=[-1, -0.5, 0, 0.5, 1])
    gap_ax.xaxis.set_major_formatter(lambda value, _: points(value).replace("+0", "0"))
    gap_ax.set_title("Composition gap (points): whole task − every step alone", fontsize="small", loc="left")
    for ax in (skills_ax, gap_ax):
        ax.spines[["top", "right"]].set_visible(False)
    fig.suptitle(title, fontsize="large", x=0.01, ha="left", y=1 - 0.12 / height, va="top")
    return fig


# ------------------------------------------------------------------------------------------ the notebooks' sets


def plot_k_stability(items: Sequence[Outcome]):
    """Per model and task, the k of each repeated sample: how stable is the diagnosis of one task?"""
    title = "How stable is k across repeated samples?"
    table = k_stability(items)
    models = list(model_names(items))
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
        ax.set(title=textwrap.fill(f"{model_names(items)[model]}: same k in every sample for {same:.0%} of tasks", 34),
               xlabel="samples")
        ax.set_yticks(range(len(tasks)), [mathtext_plain(task) for task in tasks], fontsize="x-small")
    axes[0][0].invert_yaxis()  # once: the panels share their y axis
    axes[0][0].legend()
    fig.suptitle(title, fontsize="large")
    _finish_with_legend(fig, axes[0][0])
    return fig


def analysis_figures(items: Sequence[Outcome], *, max_shown: int = MAX_SHOWN, min_support: int = MIN_SUPPORT,
                     n_resamples: int = 1000) -> dict:
    """The figures of ``06_analyze`` by file name (help from content only when placebos were asked)."""
    figures = {"k_distribution": plot_k_shares(items), "success_by_level": plot_success_by_level(items),
               "bottlenecks": plot_bottlenecks(items, max_shown, min_support),
               "skills": plot_skills(items, max_shown, min_support)}
    if any(o.placebo for o in items):
        figures["help_from_content"] = plot_help_from_content(items, n_resamples)
    if any(o.sample > 0 for o in items):
        figures["k_stability"] = plot_k_stability(items)
    return figures


def comparison_figures(items: Sequence[Outcome], comparison: Comparison, *, max_shown: int = MAX_SHOWN,
                       min_support: int = MIN_SUPPORT) -> dict:
    """The figures of ``07_compare`` by file name (k shares and success per level are 06's)."""
    skills = shown_skill_table(items, max_shown)
    return {"compare_differences": plot_paired_differences(comparison),
            "compare_bottlenecks": plot_bottleneck_heatmap(items, max_shown, comparison.min_support, skills=skills),
            "compare_isolated_vs_whole": plot_isolated_vs_whole(items, max_shown, skills=skills),
            "compare_pair_gaps": plot_pair_gaps(items, min_support=min_support)}


# ------------------------------------------------------------------------------------------ the method, on one ladder

_VERDICT_WORDS = {"correct": ("✓", "solved", "forestgreen"), "wrong": ("✗", "wrong", "firebrick"),
                  "no_answer": ("✗", "no answer", "firebrick"), "undecided": ("?", "undecided", "darkorange"),
                  "error": ("!", "error", "dimgray")}
_BOTTLENECK_COLOUR = "darkorange"
_GIVEN_COLOUR = "#1b6e3a"


def _verdict_of(verdict, solved: bool | None) -> tuple[str, str, str]:
    """(symbol, word, colour) and, when the reply's answer is known, 'answered X' — of one question."""
    if verdict is not None and verdict.outcome in _VERDICT_WORDS:
        symbol, word, colour = _VERDICT_WORDS[verdict.outcome]
        if verdict.outcome == "correct":
            word = "right"
        answer = f"answered {verdict.extracted}" if verdict.extracted not in (None, "") else ""
        return f"{symbol} {word}", answer, colour
    if solved is None:
        return "– not asked", "", "dimgray"
    return ("✓ right", "", "forestgreen") if solved else ("✗ wrong", "", "firebrick")


def _step_words(ladder, i: int) -> str:
    """'step 1 · multiplication: 5 × 4 = 20' for 1-based step ``i`` of ``ladder``."""
    step = ladder.steps[i - 1]
    work = (step.explanation or step.answer).replace(" * ", " × ").replace(" / ", " ÷ ")
    return f"step {i} · {step.skill or 'unmapped'}: {work}"


def teaching_ladder(run_dir, model: str | None = None, task_id: str | None = None):
    """(ladder, outcome, verdicts) of one task of a run, for `plot_method_ladder`.

    Without ``task_id``: a verified ladder on which a simulated target (or ``model``) needed help
    (k > 0), preferring the most steps, then one with a step failed alone (a weak skill shows beside
    the ladder), then the highest k, then the shortest question; so the picture shows a failure, a
    level that helped and a bottleneck step.
    """
    from .records import Ladder, Verdict
    from .store import RunPaths, read_records

    paths = RunPaths(run_dir)
    ladders = {ladder.task.task_id: ladder for ladder in read_records(paths.ladders, Ladder.model_validate)
               if ladder.verified}
    outcomes = [o for o in read_records(paths.outcomes, Outcome.model_validate)
                if o.task_id in ladders and o.sample == 0 and (o.model == model if model else o.simulated)]
    if task_id is not None:
        outcomes = [o for o in outcomes if o.task_id == task_id]
    else:
        helped = [o for o in outcomes if o.k is not None and o.k > 0]
        outcomes = sorted(helped, key=lambda o: (-o.n_steps, False not in o.isolated, -(o.k or 0),  # k > 0 here
                                                 len(ladders[o.task_id].task.question), o.model, o.task_id))
    if not outcomes:
        raise ValueError(f"{run_dir}: no verified ladder with k > 0 for "
                         f"{model or 'a simulated target'}{f' on {task_id}' if task_id else ''}")
    chosen = outcomes[0]
    verdicts = [v for v in read_records(paths.verdicts, Verdict.model_validate, missing_ok=True)
                if v.task_id == chosen.task_id and v.model == chosen.model and v.sample == 0]
    return ladders[chosen.task_id], chosen, verdicts


def plot_method_ladder(ladder, outcome: Outcome, verdicts: Sequence = (), *, width: float = 14.0,
                       title: str = "One task, asked with more and more help"):
    """The method on one real ladder: the original question and each scaffold level with the steps it
    gives, the target's verdict at each level, k and the bottleneck step marked; below, each step
    asked alone with its verdict.

    ``ladder``: a `Ladder`; ``outcome``: the target's `Outcome` on it; ``verdicts``: its `Verdict`
    records on the task (the replies' answers are shown when given; later records win).
    """
    latest = {}
    for verdict in verdicts:
        if verdict.task_id == outcome.task_id and verdict.model == outcome.model and verdict.sample == outcome.sample:
            latest[(verdict.variant, verdict.level)] = verdict
    n_steps, k = len(ladder.steps), outcome.k
    fontsize, line = 15, 15 * 1.45 / 72  # points, and inches per line of text
    question_chars = int((width - 5.6) * 9.2)  # characters per line of the question column at this size
    left, question_x, verdict_x = 0.25, 2.75, width - 2.6

    given_chars = int(question_chars * 0.88)  # the given steps are bold, so wider per character
    rows = []  # (level, given lines with their colours, question lines)
    for level, question in enumerate([ladder.task.question, *ladder.scaffolds]):
        given = []
        for i in range(1, level + 1):
            is_bottleneck = k is not None and level == k and i == k
            words = "given: " + _step_words(ladder, i) + ("   ← bottleneck step" if is_bottleneck else "")
            colour = _BOTTLENECK_COLOUR if is_bottleneck else _GIVEN_COLOUR
            given += [(wrapped, colour) for wrapped in textwrap.wrap(words, given_chars)]
        rows.append((level, given, textwrap.wrap(question, question_chars)))
    step_chars = int((width - 0.5) / n_steps * 8.0)
    steps = []  # per step: its heading lines, and the isolated question's lines
    for i, step in enumerate(ladder.steps, start=1):
        work = (step.explanation or step.answer).replace(" * ", " × ").replace(" / ", " ÷ ")
        heading = textwrap.wrap(f"step {i} · {step.skill or 'unmapped'}", step_chars) + textwrap.wrap(work, step_chars)
        asked = ladder.isolated[i - 1] if i - 1 < len(ladder.isolated) else ""
        steps.append((heading, textwrap.wrap(f"asked: {asked}", int(step_chars * 1.15))))

    small = line * 13 / 15
    heights = [(len(given) + len(question)) * line + 0.25 for _, given, question in rows]
    step_height = (max(len(heading) for heading, _ in steps) * line + max(len(asked) for _, asked in steps) * small
                   + 3.2 * line + 0.2)
    total = 1.85 + 0.5 + sum(heights) + 0.22 * len(rows) + 0.9 + 0.55 + step_height + 0.1
    fig = plt.figure(figsize=(width, total))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set(xlim=(0, width), ylim=(total, 0))
    ax.axis("off")

    def text(x, y, words, **style):
        return ax.text(x, y, words, fontsize=style.pop("fontsize", fontsize), va="top", parse_math=False, **style)

    if k is None:
        verdict_words = "k undetermined (an unanswered level)"
    elif k == 0:
        verdict_words = "k = 0: solved as asked, no bottleneck"
    elif k == -1:
        verdict_words = "k = −1: no level solved (unresolved), no bottleneck"
    else:
        verdict_words = f"k = {k}: {k} step{'s' if k > 1 else ''} had to be given; bottleneck = step {k}"
    text(left, 0.2, title, fontsize=22, fontweight="bold")
    text(left, 0.72, f"target: {outcome.model}   ·   task {outcome.task_id}, K = {n_steps} steps",
         fontsize=14, color="dimgray")
    text(left, 1.05, verdict_words, fontsize=15, color=_BOTTLENECK_COLOUR if k else "dimgray", fontweight="bold")
    y = 1.85
    for x, words in ((left, "level"), (question_x, "what the target is asked (steps already given in green)"),
                     (verdict_x, "its verdict")):
        text(x, y, words, fontsize=14, color="dimgray", fontstyle="italic")
    y += 0.5

    for (level, given, question), height in zip(rows, heights):
        is_k = k is not None and level == k
        ax.add_patch(plt.Rectangle((question_x - 0.15, y - 0.12), verdict_x - question_x - 0.1, height,
                                   facecolor="#fff4e0" if is_k else "#f4f4f4",
                                   edgecolor=_BOTTLENECK_COLOUR if is_k else "lightgray", linewidth=3 if is_k else 1))
        name = "original\n(level 0)" if level == 0 else f"scaffold {level}\n({level} given)"
        text(left, y, name, fontweight="bold")
        if is_k:
            text(left, y + 2.3 * line, f"← k = {k}\nfirst level\nsolved", color=_BOTTLENECK_COLOUR, fontweight="bold")
        row_y = y
        for words, colour in given:
            text(question_x, row_y, words, color=colour, fontweight="bold")
            row_y += line
        text(question_x, row_y, "\n".join(question), linespacing=1.3)
        variant = "original" if level == 0 else "scaffold"
        solved = outcome.curve[level] if level < len(outcome.curve) else None
        verdict, answer, colour = _verdict_of(latest.get((variant, level)), solved)
        text(verdict_x, y, verdict, color=colour, fontweight="bold", fontsize=18)
        if answer:
            text(verdict_x, y + 1.4 * line, answer, color="dimgray", fontsize=14)
        y += height + 0.22

    y += 0.3
    text(left, y, "Each step asked alone (isolated steps, earlier results given)", fontsize=17, fontweight="bold")
    y += 0.55
    box = (width - 0.5) / n_steps
    for i, (lines, asked) in enumerate(steps, start=1):
        x = left + (i - 1) * box
        is_bottleneck = k is not None and k > 0 and i == k
        ax.add_patch(plt.Rectangle((x, y - 0.12), box - 0.2, step_height,
                                   facecolor="#fff4e0" if is_bottleneck else "#f4f4f4",
                                   edgecolor=_BOTTLENECK_COLOUR if is_bottleneck else "lightgray",
                                   linewidth=3 if is_bottleneck else 1))
        text(x + 0.15, y, "\n".join(lines), linespacing=1.3, fontweight="bold")
        below = y + len(lines) * line + 0.05
        text(x + 0.15, below, "\n".join(asked), linespacing=1.3, fontsize=13, color="dimgray")
        below += len(asked) * small + 0.15
        solved = outcome.isolated[i - 1] if i - 1 < len(outcome.isolated) else None
        verdict, answer, colour = _verdict_of(latest.get(("isolated", i)), solved)
        text(x + 0.15, below, verdict, color=colour, fontweight="bold", fontsize=17)
        if answer:
            text(x + 1.45, below + 0.03, answer, color="dimgray", fontsize=14)
        if is_bottleneck:
            text(x + 0.15, below + 1.3 * line, f"bottleneck step (step k = {k})", color=_BOTTLENECK_COLOUR,
                 fontweight="bold")
    bottom = y - 0.12 + step_height + 0.25  # the figure ends just under the boxes, one inch of drawing per inch
    fig.set_figheight(bottom)
    ax.set_ylim(bottom, 0)
    return fig
