"""Stage 06: one model's outcomes analysed — the diagnosis, the funnel, accuracy per level, k,
bottlenecks and skills — into ``summary.json``, ``report.md`` and ``figures/``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd

from ..analysis import RunSummary, analyze_run, run_funnel, run_truncation_table
from ..records import Ladder, Outcome, RunPaths, open_run, read_records, read_usage, write_atomic
from ..report import analysis_figures, plot_context, plot_diagnosis, usage_report, usage_table
from . import StageParams, StageResult, run_paths
from ._figures import save_figures
from ._report import markdown_report


class Params(StageParams):
    """The parameters of stage 06 (the notebook's ``parameters`` cell)."""

    n_resamples: int = 1000
    min_support: int = 5
    max_shown: int = 12
    prices: dict = {}


@dataclass
class Result(StageResult):
    """What stage 06 wrote and what its notebook shows."""

    summary: RunSummary | None = None
    """What ``summary.json`` holds: the funnel and, per model, its numbers and diagnosis."""
    report: str = ""
    """``report.md``: the funnel, then per model its weakness profile and tables."""
    figures: dict = field(default_factory=dict)
    """The figures written to ``figures/``, by file name."""
    diagnosis_figures: dict = field(default_factory=dict)
    """Per model, the evidence of its diagnosis (`plot_diagnosis`), as report.html shows it."""
    context_figures: dict = field(default_factory=dict)
    """Per model, accuracy asked alone by position and by task length (`plot_context`): the context's evidence."""
    usage: pd.DataFrame = field(default_factory=pd.DataFrame)
    """Model calls, cache hits, tokens and seconds per stage, role and model (`stad_utils.report.usage_table`)."""
    run_dir: Path = Path()
    """The run folder analysed."""

    def usage_report(self):
        """`usage` for reading: thousands separators, seconds to a tenth, cost to the cent."""
        return usage_report(self.usage)

    def browser(self):
        """The failure browser of the run, as a JupyterLab widget (`stad_utils.report.browser.browser_widget`)."""
        from ..report.browser import browser_widget

        return browser_widget(self.run_dir)


def run(run: RunPaths | Path | str, params: Params | None = None) -> Result:
    """Summarise every model of the run, write the summary, the report and the figures.

    A run folder named ``example`` that holds no outcomes is first filled with the saved example run
    (`stad_utils.records.open_run`).
    """
    paths, params = RunPaths(open_run(run_paths(run).root)), params or Params()
    results = read_records(paths.outcomes, Outcome.model_validate)
    ladders = read_records(paths.ladders, Ladder.model_validate, missing_ok=True)
    analysis = analyze_run(results, n_resamples=params.n_resamples, min_support=params.min_support,
                           max_shown=params.max_shown,
                           truncation=run_truncation_table(paths),  # replies cut off by max_tokens
                           ladders=[ladder for ladder in ladders if ladder.verified],
                           funnel=run_funnel(paths, ladders, results))
    summary = analysis.summary
    usage = usage_table(read_usage(paths), params.prices)
    summary.usage = usage.to_dict(orient="records")
    report = markdown_report(paths.root.name, summary)
    written = [write_atomic(paths.summary, summary.json_text()), write_atomic(paths.report, report)]
    if any(numbers.k_stability for numbers in summary.models.values()):
        written.append(write_atomic(paths.k_by_task, analysis.stability.to_csv(index=False)))
    figures = analysis_figures(analysis, min_support=params.min_support)
    written += save_figures(figures, paths.figures)
    diagnosis_figures = {model: plot_diagnosis(numbers, model) for model, numbers in summary.models.items()}
    context_figures = {model: plot_context(numbers, model) for model, numbers in summary.models.items()}
    for figure in [*diagnosis_figures.values(), *context_figures.values()]:
        plt.close(figure)  # shown where the notebook shows them, not at the end of its cell
    return Result(written=written, summary=summary, report=report, figures=figures,
                  diagnosis_figures=diagnosis_figures, context_figures=context_figures, usage=usage,
                  run_dir=paths.root)
