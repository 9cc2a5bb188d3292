"""The judge against blind labels of real replies (tests/fixtures/judge_replies.jsonl, see benchmarks/judge_report.py).

The labels come from careful human-style readings of each reply's committed final answer, made
without seeing any verdict. Every split: no reply the judge calls correct is labelled otherwise
(precision 1.000). On the dev and held_out splits, issue 8's goal: recall ≥ 0.95 of "correct" on
decided replies, and at most 15% undecided among replies that commit to an answer. On the
blind MATH split of issue 24: precision ≥ 0.99, recall at least math-verify alone's on the same
replies, and at most 1% of the replies labelled correct called wrong (or no answer).
"""

import sys

import pytest
from helpers import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

from judge_report import judge_rows, load_labelled, math_verify_alone_frame, trust_table  # noqa: E402


@pytest.fixture(scope="module")
def labelled(shared_data):
    return load_labelled(data_dir=shared_data)


@pytest.fixture(scope="module")
def judged(labelled):
    return judge_rows(labelled)


def test_the_labelled_set_holds_real_replies_of_every_benchmark_with_each_label(judged):
    assert len(judged) >= 1200 and set(judged["split"]) == {"dev", "held_out", "held_out_r5", "blind_math", "blind_math_2",
                                                                       "blind_math_3", "blind_math_4",
                                                                       "blind_math_5", "blind_math_6"}
    assert {"generated", "gsm8k", "math_hard", "math500", "tot_arithmetic"} <= set(judged["benchmark"])
    assert {"correct", "wrong", "no_answer", "ambiguous"} == set(judged["label"])


@pytest.mark.parametrize("split", ["dev", "held_out", "held_out_r5"])
def test_every_reply_called_correct_is_labelled_correct_on_every_split(judged, split):
    assert trust_table(judged[judged["split"] == split], ["split"]).loc["all", "precision"] == 1.0


@pytest.mark.parametrize("split", ["blind_math", "blind_math_2", "blind_math_3", "blind_math_4", "blind_math_5",
                                   "blind_math_6"])
def test_on_the_blind_math_splits_the_judge_is_precise_credits_what_math_verify_credits_and_rarely_calls_right_wrong(
        labelled, judged, split):
    """Issue 24's acceptance, on replies written and labelled by someone who never saw the judge."""
    blind = [row for row in labelled if row["split"] == split]
    ours = trust_table(judged[judged["split"] == split], ["split"]).loc["all"]
    alone = trust_table(math_verify_alone_frame(blind), ["split"]).loc["all"]
    assert ours["precision"] >= 0.99, ours
    assert ours["recall"] >= alone["recall"], (ours, alone)
    assert ours["false_wrong"] <= 0.01, ours


def test_recall_and_the_undecided_share_meet_the_goal_on_the_splits_the_goal_was_set_for(judged):
    """The goal of issue 8, on its splits; held_out_r5 (issue 17's failing classes) is measured, not held to it."""
    overall = trust_table(judged[judged["split"].isin(["dev", "held_out"])], ["split"]).loc["all"]
    assert overall["recall"] >= 0.95, overall
    assert overall["undecided_of_committed"] <= 0.15, overall


def test_no_reply_a_grader_found_ambiguous_or_without_answer_is_called_correct(judged):
    credited = judged[(judged["outcome"] == "correct") & (judged["label"] != "correct")]
    assert credited.empty, credited[["id", "label", "reason", "extracted"]].to_string()


def test_the_llm_stage_table_counts_what_stages_1_and_2_leave_undecided(judged):
    from judge_report import llm_stage_table

    table = llm_stage_table(judged)
    assert table.loc[("all", "all"), "reach_llm"] == (judged["outcome"] == "undecided").sum()
    assert table.loc[("all", "all"), "cut_off_no_answer"] == ((judged["outcome"] == "no_answer")
                                                              & judged["truncated"]).sum()


@pytest.mark.parametrize("reply, reference, strict, flexible", [
    ("3 * 24 = 72.\n#### 1,875", "1875", "correct", "correct"),  # lm-eval drops the comma
    ("Each gets 18 pencils, 72 in all.", "18", "wrong", "wrong"),  # flexible takes the last number
    ("So she pays $18.", "18", "wrong", "correct"),  # no #### line; "$18." loses "$" and "."
])
def test_the_lm_eval_baselines_extract_as_lm_eval_does(reply, reference, strict, flexible):
    from judge_report import lm_eval_outcome

    assert lm_eval_outcome(reply, reference, flexible=False) == strict
    assert lm_eval_outcome(reply, reference, flexible=True) == flexible
