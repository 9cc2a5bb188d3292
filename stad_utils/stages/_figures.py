"""Figures of a stage: each written to the run's ``figures/`` folder and handed back for the notebook to show."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from ..records import write_atomic

DPI = 110


def save_figures(figures: dict, folder: Path) -> list[Path]:
    """Write each figure as ``<name>.png`` into ``folder`` and release it from pyplot.

    Released figures are not shown by the notebook's inline backend at the end of the cell; the
    notebook shows the ones it wants where it wants them (``display(result.figures[name])``).
    """
    import matplotlib.pyplot as plt

    written = []
    for name, figure in figures.items():
        written.append(write_atomic(folder / f"{name}.png", partial(figure.savefig, dpi=DPI)))
        plt.close(figure)
    return written
