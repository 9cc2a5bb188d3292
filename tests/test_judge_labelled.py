"""The judge against blind labels of real replies (tests/fixtures/judge_replies.jsonl, see benchmarks/judge_report.py).

The labels come from careful human-style readings of each reply's committed final answer, made
without seeing any verdict; the issue's goal is precision ≥ 0.99 and recall ≥ 0.95 of "correct" on
decided replies, and at most 15% undecided among replies that commit to an answer.
"""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from judge_report import judge_rows, load_labelled, trust_table  # noqa: E402


@pytest.fixture(scope="module")
def judged(shared_data):
    return judge_rows(load_labelled(data_dir=shared_data))


def test_the_labelled_set_holds_real_replies_of_every_benchmark_with_each_label(judged):
    assert len(judged) >= 300
    assert {"generated", "gsm8k", "math_hard", "tot_arithmetic"} <= set(judged["benchmark"])
    assert {"correct", "wrong", "no_answer", "ambiguous"} == set(judged["label"])


def test_precision_and_recall_of_correct_and_the_undecided_share_meet_the_goal(judged):
    overall = trust_table(judged, ["split"]).loc["all"]
    assert overall["precision"] >= 0.99, overall
    assert overall["recall"] >= 0.95, overall
    assert overall["undecided_of_committed"] <= 0.15, overall


def test_no_reply_a_grader_found_ambiguous_or_without_answer_is_called_correct(judged):
    credited = judged[(judged["outcome"] == "correct") & (judged["label"] != "correct")]
    assert credited.empty, credited[["id", "label", "reason", "extracted"]].to_string()
