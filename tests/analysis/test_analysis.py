"""One model's analysis on hand-built outcomes whose numbers are known by construction."""

import json

import pytest

from stad_utils.analysis import (
    UNRESOLVED,
    accuracy_scaffolded,
    bottleneck_attribution,
    help_from_content,
    k_shares,
    k_stability,
    skill_table,
    success_by_level,
    summarize,
    summarize_run,
    truncation_table,
    weakness_profile,
)
from stad_utils.method import is_non_monotonic, minimal_scaffolding_level
from stad_utils.records import Outcome
from stad_utils.report import usage_table, written_report


def outcome(task_id, curve, isolated=None, skills=None, *, model="m", sample=0, placebo=(), k="auto",
            policy="full", undetermined_by="error"):
    n_steps = len(curve)
    k = minimal_scaffolding_level(curve) if k == "auto" else k
    return Outcome(task_id=task_id, model=model, source="test", n_steps=n_steps,
                   skills=skills or [f"s{i}" for i in range(1, n_steps + 1)], curve=curve,
                   isolated=[True] * n_steps if isolated is None else isolated, placebo=list(placebo), k=k,
                   undetermined_by=undetermined_by if k is None else None, non_monotonic=is_non_monotonic(curve),
                   n_errors=curve.count(None), sample=sample, policy=policy)


DUCKS = ["addition", "subtraction", "multiplication"]


def test_the_bottleneck_is_step_k_and_unsolved_tasks_are_unresolved():
    # the paper's Figure 1: failed as asked and with step 1 given, solved with steps 1-2 given: k = 2
    solved = outcome("ducks", [False, False, True], skills=DUCKS)
    never = outcome("ducks-2", [False, False, False], skills=DUCKS)
    table = skill_table([solved, never]).set_index("skill")
    assert table.loc["subtraction", ["bottlenecks", "at_risk"]].tolist() == [1, 2]
    assert table.loc["addition", ["bottlenecks", "at_risk"]].tolist() == [0, 2]
    assert table.loc["multiplication", "at_risk"] == 0  # step K is never given
    assert table.loc["addition", "unresolved_share"] == 0.5
    # the cumulative measure, kept under its own name, counts addition as often as subtraction
    assert table.loc["addition", "needed_scaffold_share"] == table.loc["subtraction", "needed_scaffold_share"] == 1
    attribution = bottleneck_attribution([solved, never]).set_index("bottleneck")
    assert attribution.loc["subtraction", "tasks"] == attribution.loc[UNRESOLVED, "tasks"] == 1
    assert attribution["value"].sum() == pytest.approx(1)


def test_success_at_a_level_counts_the_tasks_answered_there():
    items = [outcome("a", [True, True]), outcome("b", [False, None]), outcome("c", [None, True]),
             outcome("d", [False, True])]
    table = success_by_level(items).set_index("level")
    assert table.loc[0, ["value", "n", "unanswered"]].tolist() == [1 / 3, 3, 1]
    assert table.loc[1, ["value", "n", "unanswered"]].tolist() == [1.0, 3, 1]
    assert (table["low"] <= table["value"]).all() and (table["value"] <= table["high"]).all()


def test_solved_with_scaffolding_counts_a_later_success_after_an_error():
    items = [outcome("a", [False, None, True]), outcome("b", [False, None, False]), outcome("c", [False, False, False])]
    row = accuracy_scaffolded(items).iloc[0]
    assert (row["value"], row["n"]) == (0.5, 2)  # b is undecided: it might have been solved at level 1


def test_each_task_weighs_the_same_whatever_its_number_of_samples():
    items = [outcome("a", [True], sample=s) for s in range(3)] + [outcome("b", [False])]
    assert summarize(items).accuracy_original.value == 0.5
    shares = k_shares(items).set_index("k")
    assert shares.loc[0, "value"] == shares.loc[-1, "value"] == 0.5 and shares.loc[0, "n"] == 2


def test_agreeing_repeated_samples_give_the_single_sample_statistics():
    single = [outcome("a", [False, True], [True, False], ["x", "y"]), outcome("b", [True, True], [False, True]),
              outcome("c", [False, False], [True, True]), outcome("d", [None, True], [True, None])]
    repeated = single + [o.model_copy(update={"sample": 1}) for o in single]
    one, two = summarize(single, n_resamples=200), summarize(repeated, n_resamples=200)
    for key in ("accuracy_original", "accuracy_scaffolded", "k_share", "bottlenecks", "per_skill", "success_by_level"):
        assert getattr(one, key) == getattr(two, key), key
    assert one.k_stability is None and two.k_stability.same_k.value == 1.0


def test_k_stability_reports_tasks_whose_k_changes_between_samples():
    items = [outcome("a", [True, True], sample=0), outcome("a", [True, True], sample=1),
             outcome("b", [False, True], sample=0), outcome("b", [True, True], sample=1),
             outcome("c", [None, True], sample=0), outcome("c", [True, True], sample=1)]
    table = k_stability(items).set_index("task_id")
    assert table.loc["a", "same_k"] == 1.0 and table.loc["b", "same_k"] == 0.0
    assert table.loc["b", "k_by_sample"] == [1, 0] and table.loc["c", "k_by_sample"] == [None, 0]
    assert table.loc["c", "samples"] == 1
    stability = summarize(items).k_stability
    assert stability.same_k.value == 0.5 and stability.same_k.n == 2  # c has one determined sample
    assert stability.k_distribution_by_sample == {"0": {"0": 1, "1": 1}, "1": {"0": 3}}


def test_help_from_content_pairs_scaffold_and_placebo_on_the_same_tasks():
    items = [outcome(f"t{i}", [False, True, True], placebo=[i == 0, None if i == 3 else False]) for i in range(4)]
    table = help_from_content(items, n_resamples=300).set_index("level")
    assert table.loc[1, ["scaffold", "placebo", "estimate", "n"]].tolist() == [1.0, 0.25, 0.75, 4]
    assert table.loc[2, ["estimate", "n"]].tolist() == [1.0, 3]  # the unanswered placebo of t3 is left out
    assert table.loc[1, "low"] <= 0.75 <= table.loc[1, "high"]
    assert help_from_content([outcome("t", [False, True])]).empty  # no placebo asked


def test_the_isolated_vs_whole_gap_pairs_occurrences_answered_both_ways():
    items = [outcome("a", [False, True], [True, True], ["x", "y"]), outcome("b", [True, True], [True, True], ["x", "y"]),
             outcome("c", [None, True], [True, True], ["x", "y"])]  # c: isolated answered, whole unanswered
    row = skill_table(items, n_resamples=0).set_index("skill").loc["x"]
    assert (row["isolated_accuracy"], row["isolated_n"]) == (1.0, 3)
    assert (row["isolated_vs_whole_gap"], row["gap_n"]) == (0.5, 2)


def test_the_summary_is_strict_json_and_the_report_has_headed_tables():
    items = [outcome(f"t{i}", [i % 3 == 0, i % 2 == 0, True], [True, i % 2 == 0, True], DUCKS) for i in range(12)]
    items.append(outcome("e", [None, None, None], k=None))
    summary = summarize_run(items, n_resamples=100)
    json.dumps(summary.as_dict(), allow_nan=False)  # NaN is written as null
    report = written_report("demo", summary)
    assert "## m" in report and "### Success per scaffold level" in report and "level j |" in report
    assert "1 outcome(s) without a determined k (1 error)" in report


def test_an_empty_run_is_summarised_without_numbers():
    summary = summarize([])
    assert summary.n_tasks == 0 and summary.accuracy_original.value is None
    assert weakness_profile(summary).startswith("No task was answered as asked")
    assert skill_table([]).empty and success_by_level([]).empty


def test_usage_and_cost():
    usage = {"05_evaluate": {"target": {"a": {"calls": 2, "cache_hits": 1, "errors": 0, "prompt_tokens": 1_000_000,
                                              "completion_tokens": 500_000, "seconds": 3.0}}}}
    table = usage_table(usage, {"a": {"prompt": 2.0, "completion": 10.0}})
    assert table.loc[0, "cost_usd"] == 7.0 and table.loc[0, "role"] == "target"
    assert usage_table({}).empty


def test_the_summary_reports_the_share_of_replies_cut_off_per_model_and_level():
    from stad_utils.analysis import summarize_run
    from stad_utils.records import Verdict

    def verdict(model, level, truncated):
        return Verdict(task_id=f"t{level}-{truncated}", model=model, variant="original" if level == 0 else "scaffold",
                       level=level, prompt="q", reference="1", response="So far we have", outcome="no_answer",
                       correct=False, decided_by="none", truncated=truncated, finish_reason="length" if truncated else "stop")

    verdicts = [verdict("a", 0, True), verdict("a", 0, False), verdict("a", 1, False), verdict("b", 0, False)]
    outcomes = [Outcome(task_id="t", model=m, source="s", n_steps=2, skills=["x", "y"], curve=[False, False],
                        isolated=[False, False], k=-1, non_monotonic=False, n_errors=0) for m in ("a", "b")]
    summary = summarize_run(outcomes, n_resamples=50, truncation=truncation_table(verdicts)).as_dict()["models"]
    assert summary["a"]["truncated"] == [
        {"variant": "original", "level": 0, "replies": 2, "cut_off": 1, "share": 0.5},
        {"variant": "scaffold", "level": 1, "replies": 1, "cut_off": 0, "share": 0.0}]
    assert "original 0: 50% of 2" in summary["a"]["weakness_profile"] and "raise max_tokens" in summary["a"]["weakness_profile"]
    assert "max_tokens" not in summary["b"]["weakness_profile"]
