"""The failure browser: each task's question, steps, variants and every model's reply, side by side.

A researcher learns where a model breaks by reading its failures. The browser gathers, for
each evaluated task of one or more run folders, everything the records hold about it
(`stad_utils.records`) and shows it three ways:

* `browser_section`, embedded in ``report.html`` (`stad_utils.report`), and `browser_html`, a
  page of its own: a table of tasks with filters, and a drill-down per task, self-contained;
* `browser_widget`: the same drill-down in JupyterLab, with dropdown filters, a task
  selector and next/previous buttons;
* `disagreements`: a table of the tasks on which the models disagree.

At scale a page cannot carry every reply (a million verdicts would be a third of a gigabyte):
the table lists every task, computed from the verdicts without their texts
(`stad_utils.records.columnar`), while the drill-downs travel only for a bounded set of tasks
(`carried_tasks`: failures, disagreements and a seeded sample), and the page says so. The
widget and the local viewer (``python -m stad_utils.report.view RUN``, `stad_utils.report.view`) read any
task's replies on demand (`detail_html`).

The drill-down of a task shows the question and gold answer; the steps with their answers
and skills; per model, k with its success curve and isolated steps; then every variant
(original, scaffold levels, isolated steps, placebo levels) with its text, its reference, and
each model's reply, extracted answer, verdict, deciding stage and truncation flag.

Filters (the same in the page and the widget; a model choice narrows k, stage and flag to it):

* **k**: the task's minimal scaffolding level (``undetermined`` when an error or an undecided
  verdict leaves it open);
* **skill**: a skill of one of the task's steps;
* **judge stage**: a verdict decided by that stage (``decided_by``);
* **validity flag**: see `FLAGS`;
* **models disagree**: the models' k differ on the same sample, or their decided verdicts
  (correct vs wrong or no answer) differ on the same question; errors and undecided verdicts
  are never a disagreement.

Three modules, one concern each: ``_data`` gathers (DuckDB and the records), ``_html`` renders
(templates, gzip), ``_widget`` draws in JupyterLab. ``_widget`` alone imports ipywidgets, and
it is imported only when `browser_widget` or `FailureBrowser` is asked for: writing
report.html needs no ipywidgets.
"""

from __future__ import annotations

from ...records.columnar import RunDirs
from ._data import (
    FLAGS,
    JUDGE_STAGES,
    TRACE_HEAD_CHARS,
    TRACE_TAIL_CHARS,
    UNDETERMINED,
    BrowserRecords,
    browser_data,
    carried_tasks,
    disagreement_table,
    disagreements,
    k_filter_value,
    matching_tasks,
    shown_trace,
    variant_label,
)
from ._html import REPORT_DETAILS, browser_html, browser_section, detail_html, task_detail_html, write_browser

__all__ = [
    "FLAGS", "JUDGE_STAGES", "REPORT_DETAILS", "TRACE_HEAD_CHARS", "TRACE_TAIL_CHARS", "UNDETERMINED",
    "BrowserRecords", "FailureBrowser", "RunDirs", "browser_data", "browser_html", "browser_section",
    "browser_widget", "carried_tasks", "detail_html", "disagreement_table", "disagreements", "k_filter_value",
    "matching_tasks", "shown_trace", "task_detail_html", "variant_label", "write_browser",
]

_WIDGET_NAMES = ("FailureBrowser", "browser_widget")


def __getattr__(name: str):
    """The widget's names, importing ipywidgets only now: a notebook that draws the widget asks for them."""
    if name in _WIDGET_NAMES:
        from . import _widget

        return getattr(_widget, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
