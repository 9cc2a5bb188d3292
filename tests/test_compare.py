"""Paired comparison on synthetic models whose gaps are planted by construction."""

import random

from stad_utils import Outcome
from stad_utils.compare import (compare_models, help_needed, mcnemar_by_level, pair_composition_gaps,
                                validity_checks)
from helpers import ladder


def outcome(model, task_id, skills, curve, isolated=None):
    from stad_utils.metrics import is_non_monotonic, minimal_scaffolding_level
    return Outcome(task_id=task_id, model=model, source="test", n_steps=len(skills), skills=skills, curve=curve,
                   isolated=isolated or [True] * len(skills), k=minimal_scaffolding_level(curve),
                   non_monotonic=is_non_monotonic(curve), n_errors=0)


def planted(n_tasks=80, seed=0):
    """Two models with the same accuracy: A is blocked by 'mul', B by 'sub'."""
    rng = random.Random(seed)
    items = []
    for i in range(n_tasks):
        skills = ["mul", "add", "add"] if i % 2 == 0 else ["sub", "add", "add"]
        blocked_a, blocked_b = skills[0] == "mul", skills[0] == "sub"
        noise = rng.random() < 0.1
        items.append(outcome("A", f"t{i}", skills, [not blocked_a and not noise, True, True]))
        items.append(outcome("B", f"t{i}", skills, [not blocked_b and not noise, True, True]))
    return items


def test_equal_accuracy_but_different_planted_gaps_are_told_apart():
    result = compare_models(planted(), "A", "B", n_permutations=300)
    assert result["accuracy_original"]["A"] == result["accuracy_original"]["B"]
    assert result["mcnemar_original_p"] >= 0.05 or result["accuracy_original"]["A"] == result["accuracy_original"]["B"]
    # mul blocks A in its 40 tasks and sub blocks B in theirs (add, never in a needed scaffold, differs by 0)
    assert result["profile_p"] < 0.01 and result["profile_distance"] > 0.5
    assert result["statement"].endswith("Their accuracy is statistically indistinguishable, but they fail on "
                                        "different skills.")


def test_identical_models_show_no_difference():
    items = [o for o in planted() if o.model == "A"]
    twin = [o.model_copy(update={"model": "A2"}) for o in items]
    result = compare_models(items + twin, "A", "A2", n_permutations=200)
    assert result["k_differs_on"] == 0 and result["wilcoxon_help_p"] == 1.0 and result["profile_p"] > 0.5
    assert "Neither their accuracy nor their skill profiles differ" in result["statement"]


def test_a_better_model_is_detected():
    items = []
    for i in range(40):
        items.append(outcome("strong", f"t{i}", ["add", "mul"], [True, True]))
        items.append(outcome("weak", f"t{i}", ["add", "mul"], [i % 4 == 0, i % 2 == 0]))
    result = compare_models(items, "strong", "weak", n_permutations=100)
    assert result["mcnemar_original_p"] < 0.001 and result["wilcoxon_help_p"] < 0.001
    assert result["mean_help_difference"] < 0


def test_mcnemar_table_counts():
    a = [outcome("A", f"t{i}", ["x", "y"], c) for i, c in enumerate([[True, True], [True, True], [False, True],
                                                                      [False, False]])]
    b = [outcome("B", f"t{i}", ["x", "y"], c) for i, c in enumerate([[True, True], [False, True], [True, True],
                                                                      [False, False]])]
    table = mcnemar_by_level(list(zip(a, b)))
    row = table.iloc[0]
    assert (row["both"], row["only_a"], row["only_b"], row["neither"]) == (1, 1, 1, 1)
    assert row["p_value"] == 1.0


def test_help_needed_orders_intractable_last():
    assert [help_needed(outcome("m", "t", ["a", "b", "c"], c)) for c in
            ([True, False, False], [False, False, True], [False, False, False])] == [0, 2, 3]


def test_pair_composition_gap():
    items = [outcome("m", "t1", ["add", "mul"], [False, True], [True, True]),
             outcome("m", "t2", ["add", "mul"], [True, True], [True, False])]
    [row] = pair_composition_gaps(items).to_dict(orient="records")
    assert (row["first"], row["second"], row["composed"], row["expected"]) == ("add", "mul", 0.5, 0.5)
    assert row["gap"] == 0.0


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
    assert checks["possible_leakage"] == 1 and checks["leaking_tasks"] == ["leak"]
    assert checks["non_monotonic"] == 1 and checks["solved_but_steps_failed"] == 1
