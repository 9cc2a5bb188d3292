"""The figures, for a projector: legible 1,024 px wide, one message each, intervals and counts on every rate.

``_style`` is what they share (one size and set of fonts); ``_model`` draws one run's models,
``_compare`` two or more on the same tasks, ``_diagnosis`` the evidence beside each model's diagnosis
(and targets side by side), ``_method`` the method in one picture, ``_skills`` the skill map,
``_power`` 08's power curve.
"""

from __future__ import annotations

from ._compare import comparison_figures, plot_pair_gaps, plot_paired_differences
from ._diagnosis import plot_context, plot_diagnosis, plot_same_score_different_breaks
from ._method import plot_method_ladder, teaching_ladder
from ._model import (
    analysis_figures,
    plot_bottleneck_heatmap,
    plot_bottlenecks,
    plot_help_from_content,
    plot_isolated_vs_whole,
    plot_k_shares,
    plot_k_stability,
    plot_skills,
    plot_success_by_level,
)
from ._power import plot_power
from ._skills import plot_skill_shares
from ._style import MAX_SHOWN, readable

__all__ = [
    "plot_context",
    "plot_bottleneck_heatmap", "plot_bottlenecks", "plot_help_from_content", "plot_isolated_vs_whole",
    "plot_pair_gaps", "plot_paired_differences", "plot_skills", "plot_success_by_level",
    "MAX_SHOWN", "analysis_figures", "comparison_figures", "plot_diagnosis", "plot_k_shares", "plot_k_stability",
    "plot_method_ladder", "plot_power", "plot_same_score_different_breaks", "plot_skill_shares", "readable",
    "teaching_ladder",
]
