"""Paired comparison on synthetic models whose differences are planted by construction."""

import random

import pandas as pd
import pytest
from helpers import ladder

from stad_utils.analysis import (
    ModelFrames,
    answer_frame,
    compare_pair,
    compare_run,
    outcome_frame,
    pair_composition_gaps,
    paired_levels,
    step_frame,
    validity_checks,
)
from stad_utils.method import is_non_monotonic, minimal_scaffolding_level
from stad_utils.records import Outcome
from stad_utils.report import comparison_report, comparison_table


def outcome(model, task_id, skills, curve, isolated=None, sample=0):
    return Outcome(task_id=task_id, model=model, source="test", n_steps=len(skills), skills=skills, curve=curve,
                   isolated=isolated or [True] * len(skills), k=minimal_scaffolding_level(curve),
                   non_monotonic=is_non_monotonic(curve), n_errors=0, sample=sample)


def stuck_until(k, n_steps=3):
    """A curve failed below level k and solved from k on."""
    return [level >= k for level in range(n_steps)]


def planted(n_tasks=80):
    """Two models that fail every task as asked and need the same help on average, at different skills.

    Half the tasks start with 'mul', half with 'sub'. A is unblocked by being given 'mul' (k = 1)
    and needs two steps on the others; B the other way round.
    """
    items = []
    for i in range(n_tasks):
        first = "mul" if i % 2 == 0 else "sub"
        skills = [first, "add", "add"]
        items.append(outcome("A", f"t{i}", skills, stuck_until(1 if first == "mul" else 2)))
        items.append(outcome("B", f"t{i}", skills, stuck_until(1 if first == "sub" else 2)))
    return items


def test_equal_accuracy_equal_help_but_different_bottleneck_skills_are_told_apart():
    result = compare_pair(planted(), "A", "B", n_permutations=300, n_resamples=200)
    assert result.difference_original.value == 0 and result.help_needed.wilcoxon_p > 0.5
    assert result.profile.p_value < 0.01 and result.profile.n_tasks == 80
    assert result.profile.largest_difference.rates["A"].value in (0.0, 1.0)
    assert "does not differ significantly, yet on the 80 tasks where both needed help they are blocked at different " \
           "skills" in result.statement


def test_identical_models_show_no_difference():
    items = [o for o in planted() if o.model == "A"]
    twin = [o.model_copy(update={"model": "A2"}) for o in items]
    result = compare_pair(items + twin, "A", "A2", n_permutations=200, n_resamples=200)
    assert result.help_needed.k_differs_on == 0 and result.profile.p_value == 1.0
    assert result.statement.count("No significant difference") == 3


def test_a_better_model_is_detected_with_its_paired_difference():
    items = []
    for i in range(40):
        items.append(outcome("strong", f"t{i}", ["add", "mul"], [True, True]))
        items.append(outcome("weak", f"t{i}", ["add", "mul"], [i % 4 == 0, i % 2 == 0]))
    result = compare_pair(items, "strong", "weak", n_permutations=100, n_resamples=500)
    difference = result.difference_original
    assert difference.value == 0.75 and difference.p_value < 0.001
    assert difference.ci95[0] > 0.5 and difference.ci95[1] <= 0.9
    assert result.help_needed.mean_difference < 0 and "weak needs" not in result.statement
    assert "The difference is significant (McNemar exact p < 0.001, n = 40)" in result.statement


def test_paired_levels_count_the_discordant_tasks_and_name_their_test():
    a = [outcome("A", f"t{i}", ["x", "y"], c) for i, c in enumerate([[True, True], [True, True], [False, True],
                                                                     [False, False]])]
    b = [outcome("B", f"t{i}", ["x", "y"], c) for i, c in enumerate([[True, True], [False, True], [True, True],
                                                                     [False, False]])]
    row = paired_levels(a + b, "A", "B", n_resamples=100).iloc[0]
    assert (row["a_better"], row["b_better"], row["tied"], row["p_value"]) == (1, 1, 2, 1.0)
    assert row["test"] == "McNemar exact" and row["difference"] == 0
    repeated = a + b + [o.model_copy(update={"sample": 1, "curve": [True, True], "k": 0}) for o in a]
    assert paired_levels(repeated, "A", "B", n_resamples=100).iloc[0]["test"] == "Wilcoxon signed-rank"


def test_only_tasks_both_models_answered_are_compared():
    items = [outcome("A", "t1", ["x", "y"], [True, True]), outcome("B", "t1", ["x", "y"], [None, True]),
             outcome("A", "t2", ["x", "y"], [False, True]), outcome("B", "t2", ["x", "y"], [True, True])]
    levels = paired_levels(items, "A", "B", n_resamples=50).set_index("level")
    assert levels.loc[0, "tasks"] == 1 and levels.loc[1, "tasks"] == 2


def test_pair_composition_gap_uses_per_task_rates():
    items = [outcome("m", "t1", ["add", "mul"], [False, True], [True, True]),
             outcome("m", "t2", ["add", "mul"], [True, True], [True, False]),
             outcome("m", "t2", ["add", "mul"], [True, True], [True, True], sample=1)]
    [row] = pair_composition_gaps(items).to_dict(orient="records")
    # t1: 0 − 1·1; t2: 1 − 1·0.5 → gap (−1 + 0.5) / 2
    assert (row["first"], row["second"], row["tasks"], row["gap"]) == ("add", "mul", 2, -0.25)


def test_validity_checks():
    leaking = ladder("leak", 3, answer="18")
    leaking.scaffolds[0] = "She has 18 eggs already?"
    clean = ladder("clean", 3, answer="18")
    clean.scaffolds[0] = "She has 180 eggs or 1.18 of them?"
    coincidence = ladder("coincidence", 3, answer="3")  # the answer is already a number of the question
    coincidence.task.question = "She has 3 bags and 2 friends?"
    coincidence.isolated[0] = "She has 3 bags?"
    items = [outcome("m", "a", ["x", "y"], [False, True], [True, True]),
             outcome("m", "b", ["x", "y"], [True, False], [True, False])]
    checks = validity_checks([leaking, clean, coincidence], items)
    assert checks.possible_leakage == 1 and checks.leaking_tasks == ["leak"]
    assert checks.non_monotonic == 1 and checks.solved_but_steps_failed == 1


def test_compare_run_writes_every_pair_and_a_readable_table():
    rng = random.Random(0)
    items = [outcome(m, f"t{i}", ["x", "y", "z"], stuck_until(rng.choice([0, 1, 2, 3]))) for i in range(20)
             for m in ("A", "B", "C")]
    comparison = compare_run(items, [], n_permutations=50, n_resamples=50)
    assert [c.models for c in comparison.comparisons] == [["A", "B"], ["A", "C"], ["B", "C"]]
    table = comparison_table(comparison)
    assert len(table) == 9 and set(table["asked of"]) == {"all tasks"}
    assert table["A − B (points)"].str.match(r"^[+−]?\d+$").all()
    report = comparison_report(comparison)
    assert report.count("### ") == 4 and report.count("| level j") == 3  # three pairs, then the validity checks


def test_sharing_each_models_frames_across_pairs_changes_no_number():
    """compare_run builds each model's frames once for all its pairs; each pair alone must say the same.

    Three models with repeated samples, isolated failures and errors (None), so that every measure
    (bootstrap and permutation included, same seed) has something to count.
    """
    rng = random.Random(3)
    items = [outcome(m, f"t{i}", ["x", "y", "z"], [rng.choice([True, False, None]) for _ in range(3)],
                     isolated=[rng.random() < 0.8 for _ in range(3)], sample=sample)
             for i in range(40) for m in ("A", "B", "C") for sample in range(2)]
    shared = compare_run(items, [], n_permutations=200, n_resamples=200, min_support=3).as_dict()["comparisons"]
    alone = [compare_pair(items, a, b, n_permutations=200, n_resamples=200, min_support=3)
             for a, b in (("A", "B"), ("A", "C"), ("B", "C"))]
    assert shared == [pair.as_dict() for pair in alone]
    assert all(pair.composition.difference.ci95[0] is not None for pair in alone)  # the bootstrap ran
    frames = ModelFrames(items)  # and the per-model frames, joined, are the frames of the pair's outcomes
    pair = [o for o in items if o.model in ("A", "C")]
    for joined, built in ((frames.answers("A", "C"), answer_frame(pair)), (frames.steps("A", "C"), step_frame(pair)),
                          (frames.outcomes("A", "C"), outcome_frame(pair))):
        order = ["model", "task_id", "sample", *(["variant", "level"] if "variant" in built else []),
                 *(["step"] if "step" in built else [])]
        pd.testing.assert_frame_equal(joined.sort_values(order, ignore_index=True),
                                      built.sort_values(order, ignore_index=True))


@pytest.mark.parametrize("n_tasks", [0, 1])
def test_too_few_tasks_still_give_a_sentence(n_tasks):
    items = [o for o in planted(2)[: 2 * n_tasks]]
    result = compare_pair(items, "A", "B", n_permutations=20, n_resamples=20)
    assert result.statement


def test_a_run_without_answers_is_reported_in_words():
    items = [outcome(m, f"t{i}", ["x", "y"], [None, None], [None, None]) for i in range(3) for m in ("A", "B")]
    report = comparison_report(compare_run(items, [], n_permutations=10, n_resamples=10))
    assert "No task was answered as asked by both A and B" in report and "Validity checks" in report
