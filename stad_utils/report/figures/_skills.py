"""The skill map of 04_skills: how many steps each skill holds."""

from __future__ import annotations

import textwrap

import matplotlib.pyplot as plt
import pandas as pd


def plot_skill_shares(summary: pd.DataFrame, title: str = "Which skills do the steps exercise?", max_label: int = 50):
    """Horizontal bars of each shown skill's share of steps, largest on top (from `skill_summary`).

    Names longer than ``max_label`` characters are shortened; ``$`` signs are shown as written.
    """
    fig, ax = plt.subplots(figsize=(12, 1.6 + 0.45 * len(summary)))
    rows = range(len(summary))
    ax.barh(rows, summary["share"] * 100, color=summary["folded"].map({False: "#4c72b0", True: "#999999"}))
    ax.set_yticks(rows, [textwrap.shorten(name, max_label, placeholder=" …") for name in summary["skill"]],
                  fontsize=14, parse_math=False)
    ax.invert_yaxis()
    for y, (share, steps) in enumerate(zip(summary["share"], summary["steps"])):
        ax.text(share * 100, y, f"  {steps:,}", va="center", fontsize=13)
    ax.set_xlim(0, summary["share"].max() * 100 * 1.15 if len(summary) else 1)
    ax.set_xlabel("share of steps (%)", fontsize=14)
    ax.set_title(title, fontsize=16)
    ax.tick_params(axis="x", labelsize=13)
    fig.tight_layout()
    return fig
