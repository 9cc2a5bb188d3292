"""The judge cascade on the labelled set of 240 pairs built from all three benchmarks' real gold answers."""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from judge_report import FIXTURE, labelled_pairs, report  # noqa: E402

from stad_utils.judge import judge_answers  # noqa: E402


def test_labelled_set_covers_every_benchmark_and_both_labels(shared_data):
    rows = json.loads(FIXTURE.read_text())
    assert len(rows) >= 200
    assert {r["benchmark"] for r in rows} == {"gsm8k", "math_hard", "tot_arithmetic"}
    pairs = labelled_pairs(shared_data, rows)
    formats = {p["format"] for p in pairs}
    assert {"number", "latex", "date", "record"} <= formats
    assert sum(p["label"] for p in pairs) == len(pairs) // 2


def test_deterministic_and_math_verify_stages_are_right_whenever_they_decide(shared_data):
    pairs = labelled_pairs(shared_data, json.loads(FIXTURE.read_text()))
    verdicts = judge_answers([(p["response"], p["reference"], p["format"]) for p in pairs])
    table = report(pairs, verdicts)
    decided = [(stage, cell) for stages in table.values() for stage, cell in stages.items()
               if stage in ("deterministic", "math_verify")]
    assert sum(cell["decided"] for _, cell in decided) >= 0.7 * len(pairs)
    assert all(cell["accuracy"] == 1.0 for _, cell in decided), table
    # Left for the LLM judge (scored wrong without one): refusals, number words, and free-text answers that
    # differ from the reference — the deterministic stage never calls differing free text wrong by itself.
    left = [p for p, v in zip(pairs, verdicts) if v.decided_by == "no_answer"]
    assert left and all(p["transform"] in ("refusal", "number_words") or p["format"] == "text" for p in left)
