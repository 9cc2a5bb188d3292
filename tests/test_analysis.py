"""Each measure on hand-built outcomes whose values are known by construction."""

import math

import pytest

from stad_utils import Outcome, bootstrap_ci, skill_table, success_by_level, summarize, weakness_profile


def outcome(task_id, curve, isolated, skills, k, model="m"):
    return Outcome(task_id=task_id, model=model, source="test", n_steps=len(isolated), skills=skills, curve=curve,
                   isolated=isolated, k=k, non_monotonic=False, n_errors=0)


CASES = [
    outcome("a", [True, True], [True, True], ["add", "mul"], 0),
    outcome("b", [False, True], [True, False], ["add", "mul"], 1),
    outcome("c", [False, False], [True, True], ["add", "div"], -1),
    outcome("d", [False, False, True], [False, True, True], ["sub", "add", "mul"], 2),
]


def test_skill_measures():
    table = skill_table(CASES).set_index("skill")
    # add occurs 4 times: alone right in all 4; composed (k = 0) in 1 of 4 tasks
    assert table.loc["add", "occurrences"] == 4
    assert table.loc["add", "isolated_accuracy"] == 1.0
    assert table.loc["add", "composed_success"] == 0.25
    assert table.loc["add", "composition_gap"] == 0.75
    # needed scaffold: a none, b step 1 (add), c all (add, div), d steps 1-2 (sub, add) → add inside 3 of 4
    assert table.loc["add", "blocking_rate"] == 0.75
    assert table.loc["mul", "blocking_rate"] == 0.0 and table.loc["div", "blocking_rate"] == 1.0
    assert table.loc["mul", "isolated_accuracy"] == pytest.approx(2 / 3)


def test_summary_numbers():
    summary = summarize(CASES, n_resamples=200)
    assert summary["k_distribution"] == {"-1": 1, "0": 1, "1": 1, "2": 1}
    assert summary["accuracy_original"]["value"] == 0.25
    assert summary["accuracy_scaffolded"]["value"] == 0.75
    low, high = summary["accuracy_scaffolded"]["ci95"]
    assert 0 <= low <= 0.75 <= high <= 1
    assert summary["categories"] == {"independent": 1, "learnable": 2, "intractable": 1}
    assert success_by_level(CASES) == [0.25, 0.5, 1.0]
    low, high = summary["k_share_ci95"]["0"]
    assert 0 <= low <= 0.25 <= high <= 1
    add = summary["per_skill"]["add"]
    assert add["blocking_rate_low"] <= add["blocking_rate"] == 0.75 <= add["blocking_rate_high"]
    assert add["isolated_accuracy_low"] == add["isolated_accuracy_high"] == 1.0  # right in every resample
    profile = weakness_profile(summary)
    assert profile.startswith("Of 4 tasks, the model solves 25% as asked and 75% once enough steps are given")
    # div: solved alone every time (1/1) but its one task is never solved as asked: the largest gap
    assert "it solves 'div' alone in 100% of cases but only 0% of the tasks" in profile


def test_errors_and_empty_inputs():
    undetermined = outcome("e", [None, True], [None, True], ["add", "mul"], None)
    summary = summarize(CASES + [undetermined], n_resamples=50)
    assert summary["n_undetermined"] == 1 and summary["accuracy_original"]["value"] == 0.25
    empty = summarize([], n_resamples=10)
    assert empty["n_tasks"] == 0 and empty["accuracy_original"]["value"] is None
    assert weakness_profile(empty) == "No task could be scored."
    assert skill_table([]).empty


def test_all_solved_and_all_failed():
    solved = [outcome(str(i), [True], [True], ["add"], 0) for i in range(5)]
    failed = [outcome(str(i), [False], [False], ["add"], -1) for i in range(5)]
    assert summarize(solved, n_resamples=20)["accuracy_original"] == {"value": 1.0, "ci95": [1.0, 1.0]}
    assert summarize(failed, n_resamples=20)["accuracy_scaffolded"] == {"value": 0.0, "ci95": [0.0, 0.0]}


def test_bootstrap_resamples_tasks():
    low, high = bootstrap_ci([0, 1] * 50, n_resamples=500)
    assert 0.35 < low < 0.5 < high < 0.65  # binomial standard error 0.05: about ±0.1
    assert all(math.isnan(v) for v in bootstrap_ci([]))


def test_usage_and_cost():
    from stad_utils.analysis import usage_table

    usage = {"05_evaluate": {"target": {"a": {"calls": 2, "cache_hits": 1, "errors": 0, "prompt_tokens": 1_000_000,
                                              "completion_tokens": 500_000, "seconds": 3.0}}}}
    table = usage_table(usage, {"a": {"prompt": 2.0, "completion": 10.0}})
    assert table.loc[0, "cost_usd"] == 7.0 and table.loc[0, "role"] == "target"
    assert usage_table({}).empty
