"""The figure beside each model's diagnosis: the tested skills and the composition gap, with intervals."""

from __future__ import annotations

import matplotlib.pyplot as plt

from ...analysis import (
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
