"""What a reader sees: report.md, the figures, report.html and the failure browser.

``_markdown`` writes report.md, ``_costs`` the usage table, ``figures`` draws (for a
projector), ``_html`` writes report.html, ``browser`` is the failure browser (a page section and
a JupyterLab widget), ``view`` serves it locally (``python -m stad_utils.report.view RUN``);
``_tables`` are the small tables the first notebooks end with.
"""

from __future__ import annotations

from ._costs import usage_report, usage_table
from ._escaping import markdown_text
from ._html import model_entry, sanitise, write_html_report
from ._markdown import comparison_report, comparison_table, written_report
from ._tables import decomposition_table, ladder_table, task_table
from .figures import (
    MAX_SHOWN,
    analysis_figures,
    comparison_figures,
    plot_context,
    plot_diagnosis,
    plot_k_shares,
    plot_k_stability,
    plot_method_ladder,
    plot_power,
    plot_same_score_different_breaks,
    plot_skill_shares,
    readable,
    teaching_ladder,
)

__all__ = [
    "plot_context",
    "MAX_SHOWN", "analysis_figures", "comparison_figures", "comparison_report", "comparison_table",
    "decomposition_table", "ladder_table", "markdown_text", "model_entry", "plot_diagnosis", "plot_k_shares",
    "plot_k_stability", "plot_method_ladder", "plot_power", "plot_same_score_different_breaks", "plot_skill_shares",
    "readable", "sanitise", "task_table", "teaching_ladder", "usage_report", "usage_table", "write_html_report",
    "written_report",
]
