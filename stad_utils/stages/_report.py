"""``report.md``: one text for the two stages that write it (06 the summary, 07 the summary and comparison)."""

from __future__ import annotations

from ..analysis import RunSummary
from ..report import written_report


def markdown_report(run: str, summary: RunSummary, comparison_section: str | None = None) -> str:
    """06's summary of every model, then 07's comparison section (`markdown.comparison_report`) when there is one."""
    text = written_report(run, summary)
    return text if comparison_section is None else text + "\n" + comparison_section
