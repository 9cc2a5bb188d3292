"""The judge cascade on the labelled set of 240 rewrites of all three benchmarks' real gold answers.

Rewrites are no real replies (a real-reply set is to replace them); they check that each
deterministic stage is right whenever it decides, on every kind of gold answer.
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from judge_report import FIXTURE, judge_rows, report, rewrite_rows  # noqa: E402


def test_labelled_set_covers_every_benchmark_and_both_labels(shared_data):
    rows = rewrite_rows(shared_data)
    assert len(rows) == len(json.loads(FIXTURE.read_text())) >= 200
    assert {r["benchmark"] for r in rows} == {"gsm8k", "math_hard", "tot_arithmetic"}
    assert {"number", "latex", "date", "record"} <= {r["answer_format"] for r in rows}
    assert sum(r["label"] == "correct" for r in rows) == len(rows) // 2


def test_the_deterministic_and_math_verify_stages_are_right_whenever_they_decide(shared_data):
    rows = rewrite_rows(shared_data)
    verdicts = judge_rows(rows)
    table = report(rows, verdicts)
    stages = table[table.index.get_level_values("stage").isin(["deterministic", "math_verify"])]
    assert stages.decided.sum() >= 0.7 * len(rows)
    assert (stages.agree == 1.0).all(), table
    # Left undecided without an LLM judge: number words, refusals of a LaTeX or free-text answer, and
    # free text that differs from the reference; the cascade never calls differing free text wrong by itself.
    left = [row for row, verdict in zip(rows, verdicts) if verdict.outcome == "undecided"]
    assert left and all(row["transform"] in ("refusal", "number_words") or row["answer_format"] == "text"
                        for row in left)
