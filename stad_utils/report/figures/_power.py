"""08_validate's power curve: how often a planted weakness is found, by number of tasks."""

from __future__ import annotations

import pandas as pd

from ._style import WIDTH, _finish, projected


@projected
def plot_power(table: pd.DataFrame, power: float = 0.8):
    """The power curve: each recovery rate of `power_table` against the number of tasks, 80% marked.

    Examples
    --------
    >>> table = pd.DataFrame({"n_tasks": [25, 100], "repetitions": [5, 5], "skills_recovered": [0.2, 1.0],
    ...                       "any_false_flag": [0.0, 0.0], "penalty_recovered": [0.6, 1.0]})
    >>> [line.get_label() for line in plot_power(table).axes[0].get_lines()][:3]
    ['flagged skills = planted skills', 'penalty within tolerance', 'any skill flagged wrongly']
    """
    import matplotlib.pyplot as plt

    curves = {"skills_recovered": "flagged skills = planted skills", "penalty_recovered": "penalty within tolerance",
              "any_false_flag": "any skill flagged wrongly"}
    curves.update({column: column.replace("found: ", "found ") for column in table.columns
                   if column.startswith("found: ")})
    fig, ax = plt.subplots(figsize=(WIDTH, 4.4))
    for order, (column, label) in enumerate(curves.items()):
        # Curves often coincide (one planted skill: "found" is "flagged = planted"); each is drawn thinner and
        # with a smaller marker than the one before, so a curve under another still shows around it.
        ax.plot(table["n_tasks"], table[column], marker="osD^v<>"[order % 7], label=label, zorder=2 + order,
                markersize=max(13 - 2.5 * order, 4), linewidth=max(4.5 - 1.0 * order, 1),
                linestyle=":" if column == "any_false_flag" else "-")
    ax.axhline(power, color="gray", linewidth=1)
    ax.set(xscale="log", xlabel="number of tasks", ylabel="share of runs", ylim=(-0.03, 1.03))
    ax.set_xticks(table["n_tasks"], [str(n) for n in table["n_tasks"]])
    ax.set_xticks([], minor=True)  # the log scale's own minor ticks would label numbers no run has
    ax.legend()
    _finish(fig, "How often is a planted weakness found?",
            f"{int(table['repetitions'].min())} runs per number of tasks, each on fresh tasks; grey line: "
            f"{power:.0%} of runs.", legend=ax)
    return fig
