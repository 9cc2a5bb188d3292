"""Small data frames that notebooks show at the end of a stage."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ..records import Decomposition, Ladder, Task


def _short(text: str, width: int = 110) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def task_table(tasks: Sequence[Task]) -> pd.DataFrame:
    """One row per task: its id, source, question (shortened), answer and format."""
    return pd.DataFrame([{"task_id": t.task_id, "source": t.source, "question": _short(t.question),
                          "answer": t.answer, "format": t.answer_format,
                          "K": len(t.reference_steps) if t.reference_steps else None} for t in tasks])


def decomposition_table(decompositions: Sequence[Decomposition]) -> pd.DataFrame:
    """One row per decomposition: its task, K, whether it is consistent, and its steps."""
    return pd.DataFrame([{"task_id": d.task.task_id, "K": len(d.steps), "consistent": d.consistent,
                          "steps": " → ".join(f"{s.description} [{s.answer}]" for s in d.steps),
                          "drop_reason": d.drop_reason} for d in decompositions])


def ladder_table(ladder: Ladder) -> pd.DataFrame:
    """Every question of one ladder with its reference answer, level by level."""
    rows = [{"variant": "original", "level": 0, "question": ladder.task.question, "reference": ladder.task.answer}]
    rows += [{"variant": "scaffold", "level": j, "question": text, "reference": ladder.task.answer}
             for j, text in enumerate(ladder.scaffolds, start=1)]
    rows += [{"variant": "isolated", "level": i, "question": text, "reference": step.answer}
             for i, (text, step) in enumerate(zip(ladder.isolated, ladder.steps), start=1)]
    with pd.option_context("display.max_colwidth", None):
        return pd.DataFrame(rows)
