"""Stage 07: every pair of models compared on the same tasks, into ``comparison.json``, the comparison
section of ``report.md`` and ``figures/``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..compare import compare_run, comparison_report
from ..files import write_atomic
from ..plots import comparison_figures
from ..records import Ladder, Outcome
from ..store import RunPaths, read_records
from . import StageParams, StageResult
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

    comparison: dict = field(default_factory=dict)
    """What ``comparison.json`` holds: every pair's paired tests, and the validity checks."""
    report: str = ""
    """The comparison section appended to 06's summary in ``report.md``."""
    figures: dict = field(default_factory=dict)
    runs: list[Path] = field(default_factory=list)
    """This run and the other runs compared with it."""


def run(paths: RunPaths, params: Params | None = None) -> Result:
    """Compare the models of this run (and of ``other_runs`` on the same tasks); write the comparison."""
    params = params or Params()
    runs = [paths.root, *map(Path, params.other_runs)]
    results = [o for run in runs for o in read_records(RunPaths(run).outcomes, Outcome.model_validate)]
    ladders = [ladder for ladder in read_records(paths.ladders, Ladder.model_validate) if ladder.verified]
    comparison = compare_run(results, ladders, n_permutations=params.n_permutations,
                             n_resamples=params.n_resamples, min_support=params.min_support)
    report = comparison_report(comparison)
    summary = json.loads(paths.summary.read_text()) if paths.summary.exists() else {"models": {}}  # from 06
    written = [write_atomic(paths.comparison, json.dumps(comparison, indent=2, default=float)),
               write_atomic(paths.report, markdown_report(paths.root.name, summary, comparison))]
    figures = comparison_figures(results, comparison, max_shown=params.max_shown, min_support=params.min_support)
    written += save_figures(figures, paths.figures)
    return Result(written=written, comparison=comparison, report=report, figures=figures, runs=runs)
