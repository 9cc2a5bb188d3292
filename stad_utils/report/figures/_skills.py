"""The skill map of 04_skills: how many steps each skill holds."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd

from ._style import SMALL, WIDTH, _finish, projected, readable

BAR = 0.42
"""Inches a bar: room for a name wrapped in two lines of small text, and 30 skills (`skill_summary`'s default) on
one screen."""


@projected
def plot_skill_shares(summary: pd.DataFrame, title: str = "Which skills do the steps exercise?", max_label: int = 56):
    """Horizontal bars of each shown skill's share of steps, largest on top (from `skill_summary`).

    Names longer than ``max_label`` characters are shortened in two lines, never where two names differ
    (`readable`); ``$`` signs are shown as written.
    """
    fig, ax = plt.subplots(figsize=(WIDTH, 0.4 + BAR * len(summary)))
    rows = range(len(summary))
    ax.barh(rows, summary["share"] * 100, color=summary["folded"].map({False: "#4c72b0", True: "#999999"}))
    ax.set_yticks(rows, readable([str(name) for name in summary["skill"]], max(12, max_label // 2)))
    ax.set_ylim(len(summary) - 0.5, -0.5)
    ax.grid(False, axis="y")
    for y, (share, steps) in enumerate(zip(summary["share"], summary["steps"])):
        ax.text(share * 100, y, f"  {steps:,}", va="center", fontsize=SMALL)
    ax.set_xlim(0, summary["share"].max() * 100 * 1.15 if len(summary) else 1)
    ax.set_xlabel("share of steps (%)")
    _finish(fig, title, "The number of steps is written beside each bar; grey: rare skills folded together.",
            keep=(ax, BAR * len(summary)))
    return fig
