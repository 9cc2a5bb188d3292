"""Stage 07: every pair of models compared on the same tasks, into ``comparison.json``, the comparison
section of ``report.md`` and ``figures/``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..analysis import Comparison, ModelFrames, RunSummary, compare_run, comparison_tables
from ..records import Ladder, Outcome, RunPaths, open_run, read_records, write_atomic
from ..report import comparison_figures, comparison_report
from . import StageParams, StageResult, run_paths
from ._figures import save_figures
from ._report import markdown_report


class Params(StageParams):
    """The parameters of stage 07 (the notebook's ``parameters`` cell)."""

    other_runs: list[str] = []
    n_permutations: int = 1000
    n_resamples: int = 1000
    min_support: int = 5
    max_shown: int = 12


@dataclass
class Result(StageResult):
    """What stage 07 wrote and what its notebook shows."""

    comparison: Comparison | None = None
    """What ``comparison.json`` holds: every pair's paired tests, and the validity checks."""
    report: str = ""
    """The comparison section appended to 06's summary in ``report.md``."""
    figures: dict = field(default_factory=dict)
    runs: list[Path] = field(default_factory=list)
    """This run and the other runs compared with it."""

    def disagreements(self):
        """The tasks on which the models disagree (`stad_utils.report.browser.disagreement_table`)."""
        from ..report.browser import disagreement_table

        return disagreement_table(self.runs)

    def browser(self):
        """The failure browser of every run compared, as a JupyterLab widget."""
        from ..report.browser import browser_widget

        return browser_widget(self.runs[0], self.runs[1:])


def run(run: RunPaths | Path | str, params: Params | None = None) -> Result:
    """Compare the models of this run (and of ``other_runs`` on the same tasks); write the comparison.

    A run folder named ``example`` that holds no outcomes is first filled with the saved example run
    (`stad_utils.records.open_run`).
    """
    paths, params = RunPaths(open_run(run_paths(run).root)), params or Params()
    runs = [paths.root, *map(Path, params.other_runs)]
    results = [o for run in runs for o in read_records(RunPaths(run).outcomes, Outcome.model_validate)]
    ladders = [ladder for ladder in read_records(paths.ladders, Ladder.model_validate) if ladder.verified]
    frames = ModelFrames(results)  # each model's frames, built once for the comparison and its figures
    comparison = compare_run(results, ladders, n_permutations=params.n_permutations,
                             n_resamples=params.n_resamples, min_support=params.min_support, frames=frames)
    report = comparison_report(comparison)
    summary = RunSummary.read(paths.summary) if paths.summary.exists() else RunSummary(funnel=None, models={})  # 06's
    written = [write_atomic(paths.comparison, comparison.json_text()),
               write_atomic(paths.report, markdown_report(paths.root.name, summary, report))]
    figures = comparison_figures(comparison, comparison_tables(results, max_shown=params.max_shown, frames=frames),
                                 min_support=params.min_support)
    written += save_figures(figures, paths.figures)
    return Result(written=written, comparison=comparison, report=report, figures=figures, runs=runs)
