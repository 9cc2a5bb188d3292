"""The figure beside each model's diagnosis: the tested skills and the composition gap, with intervals."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ...analysis import (
    ContextTest,
    Estimate,
    ModelSummary,
    p_words,
    points,
)
from .._escaping import mathtext_plain
from .._names import short_names
from ._style import one_line, placeholder

DIAGNOSIS_ROWS = 8
"""Skills the front page's figure shows by name: every named one, then the closest calls."""

STANDING_WORDS = {"inseparable": "not named: cannot be told from its place", "unconfirmed": "weaker only overall",
                  "not weak": "not named"}
"""How the figure says why a tested skill is not named (`stad_utils.analysis.TestedSkill.standing`)."""


def _interval_row(ax, y: float, entry: Estimate, colour: str, marker: str, filled: bool = True) -> None:
    low, high = entry.ci95
    ax.hlines(y, low, high, color=colour, linewidth=2.5 if filled else 1.5)
    ax.scatter([entry.value], [y], s=70, marker=marker, zorder=3, color=colour if filled else "white",
               edgecolors=colour, linewidths=1.5)


def plot_diagnosis(numbers: ModelSummary, name: str, max_rows: int = DIAGNOSIS_ROWS):
    """The evidence of one model's diagnosis, as its sentence states it (a model's entry of ``summary.json``).

    Above, each tested skill asked alone (●, with its 95% interval and n) against the other steps
    standing where its steps stand (○: the same positions in tasks of the same length): red when the
    diagnosis names it weak (Holm-adjusted), grey otherwise, and said in words when it cannot be told
    from its place or is weaker only overall. Below, the composition gap with its interval: red when
    the diagnosis claims a failure to chain. Nothing is drawn that the diagnosis did not test, so the
    figure shows no skill as failing that the sentence does not name.
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
    like_with_like = any(entry.comparable_accuracy is not None for entry in shown)  # version 2 on
    for y, entry in enumerate(shown):
        colour = "tab:red" if entry.weak else "tab:gray"
        own = entry.comparable_accuracy or entry.isolated_accuracy
        neighbours = entry.neighbours_accuracy or entry.others_accuracy
        if neighbours.value is not None:
            _interval_row(skills_ax, y + 0.15, neighbours, "tab:gray", "o", filled=False)
        if own.value is not None:
            _interval_row(skills_ax, y - 0.15, own, colour, "o")
        verdict = (f"named weak (Holm {p_words(entry.p_adjusted)})" if entry.weak
                   else STANDING_WORDS.get(entry.standing or "", "not named"))
        skills_ax.text(1.05, y, f"n = {own.n:g} · {verdict}", va="center", fontsize="small", color=colour)
    skills_ax.set_yticks(range(len(shown)), [mathtext_plain(one_line([e.skill], 28)[0]) for e in shown])
    skills_ax.set(xlim=(-0.02, 1.02), ylim=(rows - 0.5, -0.5), xticks=[0, 0.25, 0.5, 0.75, 1])
    skills_ax.xaxis.set_major_formatter(lambda value, _: f"{value:.0%}")
    left_out = len(tested) - len(shown)
    others = "the other steps at its places" if like_with_like else "the other skills"
    skills_ax.set_title(f"Asked alone: ● the skill, ○ {others} ({len(tested)} tested"
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


def plot_context(numbers: ModelSummary, name: str):
    """The evidence of the context claims: accuracy asked alone by step position and by task length.

    Each point is the share of the steps at that position (left) or of the tasks of that length
    (right) answered right alone, with its 95% Wilson interval and n; the panel's title says what
    the stratified trend test found (Holm-adjusted, within skill and the other place). A fall here
    alone is no claim: the test compares steps of the same skill, which these pooled shares do not.
    """
    tests: dict[str, ContextTest] = {test.context: test for test in numbers.diagnosis.context}
    title = mathtext_plain(f"Is it the place, not the skill? {short_names([name], 40)[name]}")
    if not tests or not any(test.by_place for test in tests.values()):
        return placeholder(title, "no context test: the run holds no answered isolated step, or it was analysed "
                                  "before the context test existed")
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for ax, (context, label) in zip(axes, (("position", "position of the step in its task"),
                                           ("length", "steps in the task (K)"))):
        test = tests.get(context)
        if test is None or not test.by_place:
            ax.set_axis_off()
            continue
        colour = "tab:red" if test.claimed else "tab:gray"
        shown = [entry for entry in test.by_place if entry.value is not None]
        places = [entry.place for entry in shown]
        values = np.array([entry.value for entry in shown], dtype=float)
        bounds = np.array([entry.ci95 for entry in shown], dtype=float)  # None → NaN: no bar
        lows, highs = values - bounds[:, 0], bounds[:, 1] - values
        ax.errorbar(places, values, yerr=[lows, highs], marker="o", color=colour, capsize=4, linewidth=2)
        for entry in shown:
            ax.text(entry.place, 0.02, f"n={entry.n:g}", ha="center", fontsize="x-small", color="dimgray")
        claim = (f"falls: {-100 * (test.slope or 0):.0f} points per step, Holm {p_words(test.p_adjusted)}"
                 if test.claimed else f"no fall claimed (Holm {p_words(test.p_adjusted)})"
                 if test.informative else "not testable: no skill stands at two places here")
        ax.set_title(claim, fontsize="small", color=colour, loc="left")
        ax.set(xlabel=label, xticks=places, xlim=(min(places) - 0.5, max(places) + 0.5), ylim=(0, 1.04))
        ax.yaxis.set_major_formatter(lambda value, _: f"{value:.0%}")
        ax.spines[["top", "right"]].set_visible(False)
    axes[0].set_ylabel("right when asked alone")
    fig.suptitle(title, fontsize="large", x=0.01, ha="left")
    fig.tight_layout()
    return fig
