"""The figures beside each model's diagnosis: the tested skills and the composition gap with their intervals
(`plot_diagnosis`), the context (`plot_context`), and two or more targets side by side
(`plot_same_score_different_breaks`, the workshop's third exercise).
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np

from ...analysis import (
    Comparison,
    ContextTest,
    Estimate,
    ModelSummary,
    RunSummary,
    TestedSkill,
    difference_words,
    p_words,
    percent_text,
    points,
    simulated_label,
)
from .._escaping import mathtext_plain
from ._style import MAX_SHOWN, SMALL, TITLE, WIDTH, _finish, placeholder, projected, readable, wrap

DIAGNOSIS_ROWS = MAX_SHOWN
"""Skills the front page's figure shows by name: every named one, then the closest calls (the workshop's
runs test at most this many, so every tested skill is drawn)."""

STANDING_WORDS = {"inseparable": "not named: cannot be told from its place", "unconfirmed": "weaker only overall",
                  "not weak": "not named"}
"""How the figure says why a tested skill is not named (`stad_utils.analysis.TestedSkill.standing`)."""

CLAIMED, NOT_CLAIMED = "tab:red", "tab:gray"
ROW = 0.5
"""Inches per row of a skill: two lines of its name, or of its verdict."""
VERDICT_INCHES = 2.5
"""Inches of the words beside each row (n and the verdict), right of the axes."""
LABEL_BOX = {"facecolor": "white", "edgecolor": "none", "pad": 1.0}
"""Behind a value written over a line: the line does not cross the words."""
COLOURS_NOTE = "Lines: 95% intervals. Red: what the diagnosis claims (Holm-adjusted); grey: not claimed."


def _n(count: float) -> str:
    """'n = 20' (a count weighted over samples may be fractional: 'n = 9.5')."""
    return f"n = {count:g}"


def _interval_row(ax, y: float, entry: Estimate, colour: str, marker: str, filled: bool = True) -> None:
    low, high = entry.ci95
    ax.hlines(y, low, high, color=colour, linewidth=2.5 if filled else 1.5)
    ax.scatter([entry.value], [y], s=70, marker=marker, zorder=3, color=colour if filled else "white",
               edgecolors=colour, linewidths=1.5)


def _beside(ax, y: float, words: str, colour: str) -> None:
    """``words`` right of ``ax`` at data height ``y``, wrapped to `VERDICT_INCHES` (never inside 'p < 0.001')."""
    for sign in ("=", "<"):
        words = words.replace(f" {sign} ", f"\N{NO-BREAK SPACE}{sign}\N{NO-BREAK SPACE}")
    words = words.replace("Holm p", "Holm\N{NO-BREAK SPACE}p")
    ax.text(1.03, y, wrap(words, VERDICT_INCHES), transform=ax.get_yaxis_transform(), va="center", fontsize=SMALL,
            color=colour)


def _skill_rows(ax, shown: Sequence[TestedSkill | None], labels: Sequence[str]) -> bool:
    """Each tested skill asked alone (●) against the other steps at its places (○), red when named weak, its n
    and verdict beside; ``None``: a skill not tested here. True when like was compared with like (version 2 on).
    """
    like_with_like = any(entry is not None and entry.comparable_accuracy is not None for entry in shown)
    for y, entry in enumerate(shown):
        if entry is None:
            _beside(ax, y, "not tested: too few steps answered alone", "dimgray")
            continue
        colour = CLAIMED if entry.weak else NOT_CLAIMED
        own = entry.comparable_accuracy or entry.isolated_accuracy
        neighbours = entry.neighbours_accuracy or entry.others_accuracy
        if neighbours.value is not None:
            _interval_row(ax, y + 0.17, neighbours, NOT_CLAIMED, "o", filled=False)
        if own.value is not None:
            _interval_row(ax, y - 0.17, own, colour, "o")
        verdict = (f"named weak (Holm {p_words(entry.p_adjusted)})" if entry.weak
                   else STANDING_WORDS.get(entry.standing or "", "not named"))
        _beside(ax, y, f"{_n(own.n)} · {verdict}", colour)
    ax.set_yticks(range(len(shown)), labels)
    ax.set(xlim=(-0.02, 1.02), ylim=(max(len(shown), 1) - 0.5, -0.5), xticks=[0, 0.25, 0.5, 0.75, 1])
    ax.xaxis.set_major_formatter(lambda value, _: f"{value:.0%}")
    ax.grid(False, axis="y")
    return like_with_like


def _gap_row(ax, numbers: ModelSummary) -> None:
    """The composition gap with its interval, red when the diagnosis claims a failure to chain, and its words."""
    diagnosis = numbers.diagnosis
    effect = diagnosis.composition_effect
    if effect and effect.value is not None:
        claimed = diagnosis.composition_failure
        colour = CLAIMED if claimed else NOT_CLAIMED
        _interval_row(ax, 0, effect, colour, "D")
        adjusted = diagnosis.composition_p_adjusted
        verdict = ((f"fails to chain (Holm {p_words(adjusted)})" if adjusted is not None else "fails to chain")
                   if claimed else "no failure to chain claimed")
        _beside(ax, 0, f"{points(effect.value)} points, {_n(effect.n)} tasks · {verdict}", colour)
    else:
        _beside(ax, 0, "not computed", "dimgray")
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set(xlim=(-1.04, 1.04), ylim=(0.6, -0.6), yticks=[], xticks=[-1, -0.5, 0, 0.5, 1])
    ax.xaxis.set_major_formatter(lambda value, _: points(value).replace("+0", "0"))


def _tested_words(tested: int, shown: int, weak: int) -> str:
    """How many skills were tested, and which of them the figure draws.

    Examples
    --------
    >>> _tested_words(8, 8, 0), _tested_words(12, 12, 1)
    ('Every skill tested (8)', 'Every skill tested (12)')
    >>> _tested_words(20, 12, 1)
    '12 of the 20 skills tested: the one named weak, then the closest calls; the other 8 are not named'
    >>> _tested_words(13, 12, 0)
    '12 of the 13 skills tested, the closest calls; the other one is not named'
    """
    if shown >= tested:
        return f"Every skill tested ({tested})"
    first = {0: ", ", 1: ": the one named weak, then "}.get(weak, f": the {weak} named weak, then ")
    rest = "the other one is not named" if tested - shown == 1 else f"the other {tested - shown} are not named"
    return f"{shown} of the {tested} skills tested{first}the closest calls; {rest}"


@projected
def plot_diagnosis(numbers: ModelSummary, name: str, max_rows: int = DIAGNOSIS_ROWS):
    """The evidence of one model's diagnosis, as its sentence states it (a model's entry of ``summary.json``).

    Above, each tested skill asked alone (●, with its 95% interval and n) against the other steps
    standing where its steps stand (○: the same positions in tasks of the same length): red when the
    diagnosis names it weak (Holm-adjusted), grey otherwise, and said in words when it cannot be told
    from its place or is weaker only overall. Every skill named weak is drawn, then the closest calls
    up to ``max_rows``; the panel's title says how many were tested and drawn. Below, the composition
    gap with its interval: red when the diagnosis claims a failure to chain. Nothing is drawn that the
    diagnosis did not test, so the figure shows no skill as failing that the sentence does not name.
    """
    diagnosis = numbers.diagnosis
    tested = diagnosis.tested_skills
    shown = [e for e in tested if e.weak] + [e for e in tested if not e.weak]
    shown = shown[:max(max_rows, sum(e.weak for e in tested))]
    effect = diagnosis.composition_effect
    title = f"What the diagnosis of {mathtext_plain(name)} rests on"
    if not shown and not (effect and effect.value is not None):
        return placeholder(title, "nothing was tested: too few answered isolated questions and whole tasks")
    rows = max(len(shown), 1)
    fig, (skills_ax, gap_ax) = plt.subplots(2, 1, figsize=(WIDTH, ROW * rows + 1.9),
                                            gridspec_kw={"height_ratios": [ROW * rows, 0.5]})
    names = dict(zip([e.skill for e in tested], readable([e.skill for e in tested], 26)))  # distinct among all tested
    like_with_like = _skill_rows(skills_ax, shown, [names[e.skill] for e in shown])
    if not shown:
        skills_ax.text(0.5, 0, "no skill had enough answered isolated questions", ha="center", va="center",
                       fontsize=SMALL)
    others = "the other steps at its places" if like_with_like else "the other skills"
    panel = WIDTH - 3.2  # the axes' width and the words beside them, less the skills' names
    skills_ax.set_title(wrap(f"Asked alone: ● the skill, ○ {others}. "
                             f"{_tested_words(len(tested), len(shown), sum(e.weak for e in tested))}.", panel, TITLE),
                        fontsize=TITLE)
    _gap_row(gap_ax, numbers)
    gap_ax.set_title("Composition gap (points): whole task − every step alone", fontsize=TITLE)
    for ax in (skills_ax, gap_ax):
        ax.spines[["top", "right", "left"]].set_visible(False)
    _finish(fig, title, COLOURS_NOTE, keep=(skills_ax, ROW * rows))
    return fig


@projected
def plot_context(numbers: ModelSummary, name: str):
    """The evidence of the context claims: accuracy asked alone by step position and by task length.

    Each point is the share of the steps at that position (left) or of the tasks of that length
    (right) answered right alone, with its 95% Wilson interval and n; the panel's title says what
    the stratified trend test found (Holm-adjusted, within skill and the other place). A fall here
    alone is no claim: the test compares steps of the same skill, which these pooled shares do not.
    """
    tests: dict[str, ContextTest] = {test.context: test for test in numbers.diagnosis.context}
    title = f"Is it the place, not the skill? {mathtext_plain(name)}"
    if not tests or not any(test.by_place for test in tests.values()):
        return placeholder(title, "no context test: the run holds no answered isolated step, or it was analysed "
                                  "before the context test existed")
    fig, axes = plt.subplots(1, 2, figsize=(WIDTH, 3.6), sharey=True)
    for ax, (context, label) in zip(axes, (("position", "position of the step in its task"),
                                           ("length", "steps in the task (K)"))):
        test = tests.get(context)
        if test is None or not test.by_place:
            ax.set_axis_off()
            continue
        colour = CLAIMED if test.claimed else NOT_CLAIMED
        shown = [entry for entry in test.by_place if entry.value is not None]
        places = [entry.place for entry in shown]
        values = np.array([entry.value for entry in shown], dtype=float)
        bounds = np.array([entry.ci95 for entry in shown], dtype=float)  # None → NaN: no bar
        lows, highs = values - bounds[:, 0], bounds[:, 1] - values
        ax.errorbar(places, values, yerr=[lows, highs], marker="o", color=colour, capsize=4, linewidth=2)
        for entry in shown:
            ax.text(entry.place, 0.03, f"n={entry.n:g}", ha="center", fontsize=SMALL, color="dimgray", bbox=LABEL_BOX)
        claim = (f"falls: {-100 * (test.slope or 0):.0f} points per step, Holm {p_words(test.p_adjusted)}"
                 if test.claimed else f"no fall claimed (Holm {p_words(test.p_adjusted)})"
                 if test.informative else "not testable: no skill stands at two places here")
        ax.set_title(wrap(claim, WIDTH / 2 - 1.0), fontsize=SMALL, color=colour)
        ax.set(xlabel=label, xticks=places, xlim=(min(places) - 0.5, max(places) + 0.5), ylim=(0, 1.04))
        ax.yaxis.set_major_formatter(lambda value, _: f"{value:.0%}")
        ax.spines[["top", "right"]].set_visible(False)
    axes[0].set_ylabel("right when asked alone")
    _finish(fig, title, "Accuracy asked alone by the step's position and by its task's length, with 95% Wilson "
                        "intervals; red where the diagnosis says later steps or longer tasks are harder, whatever "
                        "their skill.")
    return fig


def _verdict(numbers: ModelSummary, names: dict[str, str]) -> str:
    """What one model's diagnosis claims, in a few words: its weak skills (by their ``names``), a failure to
    chain, or neither.
    """
    diagnosis = numbers.diagnosis
    weak = [names[skill].replace("\n", " ") for skill in diagnosis.weak_skills]
    claims = [f"named weak: {'; '.join(weak)}"] if weak else []
    if diagnosis.composition_failure:
        claims.append("fails to chain")
    return "; ".join(claims) or "no weakness detected"


def _pair_words(comparison: Comparison | None, models: Sequence[str]) -> str:
    """07's paired difference as asked between the first two ``models``, when ``comparison`` compared them."""
    pair = next((c for c in (comparison.comparisons if comparison else [])
                 if set(c.models) == set(models[:2]) and c.difference_original is not None), None)
    if pair is None or pair.difference_original is None:
        return ""
    difference, (a, b) = pair.difference_original, pair.models
    test = f", {difference.test} {p_words(difference.p_value)}" if difference.p_value is not None else ""
    return f"On the tasks both answered, {a} − {b} = {difference_words(difference)}{test} (07). "


@projected
def plot_same_score_different_breaks(summary: RunSummary, models: Sequence[str], *,
                                     comparison: Comparison | None = None,
                                     title: str = "The same score as asked, and where each one breaks"):
    """Two (or more) targets side by side, one column each, from ``summary.json`` (`RunSummary`): the accuracy as
    asked with its 95% interval, then the evidence that tells them apart: each skill named weak for any of
    them, asked alone (●) against the other steps at its places (○), and the composition gap; red where that
    target's diagnosis claims it. The workshop's third exercise in one picture: the same accuracy as asked
    can hide a missing skill in one target and a failure to chain in the other.

    ``comparison`` (07's ``comparison.json``): its paired difference as asked between the first two is quoted.

    Examples
    --------
    >>> from stad_utils.analysis import analyze_run
    >>> from stad_utils.records import Outcome
    >>> def o(model, task, solved):
    ...     return Outcome(task_id=task, model=model, source="s", n_steps=1, skills=["add"], curve=[solved],
    ...                    isolated=[True], k=0 if solved else -1, non_monotonic=False, n_errors=0)
    >>> summary = analyze_run([o(m, f"t{i}", i % 2 == 0) for m in "AB" for i in range(10)], n_resamples=0).summary
    >>> [ax.get_title(loc="left") for ax in plot_same_score_different_breaks(summary, ["A", "B"]).axes[:2]]
    ['A\\nno weakness detected', 'B\\nno weakness detected']
    """
    missing = [model for model in models if model not in summary.models]
    if missing or not models:
        raise ValueError(f"not in the summary: {missing or 'no model given'}; it holds {sorted(summary.models)}")
    numbers = [summary.models[model] for model in models]
    named = list(dict.fromkeys(skill for n in numbers for skill in n.diagnosis.weak_skills))
    rows = max(len(named), 1)
    fig, axes = plt.subplots(3, len(models), squeeze=False, sharex="row", sharey="row",
                             figsize=(WIDTH, 2.6 + ROW * rows + 0.6),
                             gridspec_kw={"height_ratios": [0.5, ROW * rows, 0.5]})
    column = WIDTH / len(models) - 0.6
    labels = readable(named, 22)
    for index, (model, entry) in enumerate(zip(models, numbers)):
        label = mathtext_plain(simulated_label(model, entry.simulated))
        score_ax, skills_ax, gap_ax = axes[:, index]
        verdict = _verdict(entry, dict(zip(named, labels)))
        score_ax.set_title(f"{wrap(label, column, TITLE)}\n{wrap(verdict, column, TITLE)}", fontsize=TITLE,
                           color=CLAIMED if verdict != "no weakness detected" else "black")
        accuracy = entry.accuracy_original
        if accuracy.value is not None:
            _interval_row(score_ax, 0.2, accuracy, "black", "o")
            score_ax.text(accuracy.value, -0.35, f"{percent_text(accuracy.value)} ({_n(accuracy.n)})",
                          ha="center", fontsize=SMALL, bbox=LABEL_BOX)
        score_ax.set(xlim=(-0.02, 1.02), ylim=(0.7, -0.9), yticks=[], xticks=[0, 0.5, 1])
        score_ax.xaxis.set_major_formatter(lambda value, _: f"{value:.0%}")
        tested = {e.skill: e for e in entry.diagnosis.tested_skills}
        for y, skill in enumerate(named):
            own = tested.get(skill)
            if own is None:
                skills_ax.text(0.5, y, "not tested", ha="center", va="center", fontsize=SMALL, color="dimgray")
                continue
            colour = CLAIMED if own.weak else NOT_CLAIMED
            _interval_row(skills_ax, y + 0.17, own.neighbours_accuracy or own.others_accuracy, NOT_CLAIMED, "o",
                          filled=False)
            _interval_row(skills_ax, y - 0.17, own.comparable_accuracy or own.isolated_accuracy, colour, "o")
        if not named:
            skills_ax.text(0.5, 0, "no skill named weak", ha="center", va="center", fontsize=SMALL, color="dimgray")
        skills_ax.set(xlim=(-0.02, 1.02), ylim=(rows - 0.5, -0.5), xticks=[0, 0.5, 1])
        skills_ax.set_yticks(range(len(named)), labels)
        skills_ax.xaxis.set_major_formatter(lambda value, _: f"{value:.0%}")
        _gap_ax(gap_ax, entry)
        for ax in (score_ax, skills_ax, gap_ax):
            ax.spines[["top", "right", "left"]].set_visible(False)
            ax.grid(False, axis="y")
    axes[0][0].set_ylabel("as asked", rotation=0, ha="right", va="center")
    axes[1][0].set_ylabel("" if named else "skills")
    axes[2][0].set_ylabel("composition\ngap (points)", rotation=0, ha="right", va="center")
    for ax in axes[:, 1:].flat:
        ax.tick_params(axis="y", labelleft=False)
    _finish(fig, title, f"{_pair_words(comparison, models)}Top: accuracy as asked. Middle: each skill named weak for "
                        "either, asked alone (● the skill, ○ the other steps at its places). Bottom: whole task − "
                        f"every step alone. {COLOURS_NOTE}", keep=(axes[1][0], ROW * rows))
    return fig


def _gap_ax(ax, numbers: ModelSummary) -> None:
    """The composition gap of one column of `plot_same_score_different_breaks`, its value written above it."""
    diagnosis = numbers.diagnosis
    effect = diagnosis.composition_effect
    if effect and effect.value is not None:
        colour = CLAIMED if diagnosis.composition_failure else NOT_CLAIMED
        _interval_row(ax, 0.2, effect, colour, "D")
        ax.text(effect.value, -0.35, f"{points(effect.value)} points", ha="center", fontsize=SMALL, color=colour,
                bbox=LABEL_BOX)
    else:
        ax.text(0, 0, "not computed", ha="center", va="center", fontsize=SMALL, color="dimgray")
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set(xlim=(-1.04, 1.04), ylim=(0.7, -0.9), yticks=[], xticks=[-1, 0, 1])
    ax.xaxis.set_major_formatter(lambda value, _: points(value).replace("+0", "0"))
