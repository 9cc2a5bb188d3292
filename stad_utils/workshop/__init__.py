"""The exercise notebook's runs (``notebooks/09_workshop.ipynb``): plant a weakness, run, read."""

from __future__ import annotations

from ._runs import (
    MARKER,
    exercise_ladders,
    headlines_markdown,
    how_often_found,
    matching_penalty,
    run_simulated,
    simulated_target,
)

__all__ = [
    "MARKER", "exercise_ladders", "headlines_markdown", "how_often_found", "matching_penalty", "run_simulated",
    "simulated_target",
]
