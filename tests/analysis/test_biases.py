"""One test per bias of issue #9's list; each failed on the analysis before the fix.

They use only the public names (``summarize``, ``weakness_profile``, ``compare_pair``,
``pair_composition_gaps``, ``validity_checks``, ``analyze_run``, ``plot_k_shares``; before the
analysis was split by concern, ``compare_models`` wrote the statement and ``validity_checks`` was
in ``compare``), so they can be run against the old modules to see them fail.
"""

import pytest

from stad_utils.analysis import (
    analyze_run,
    compare_pair,
    pair_composition_gaps,
    summarize,
    validity_checks,
    weakness_profile,
)
from stad_utils.method import is_non_monotonic, minimal_scaffolding_level
from stad_utils.records import Outcome


def outcome(task_id, curve, isolated=None, skills=None, *, model="m", policy="full"):
    k = minimal_scaffolding_level(curve)
    return Outcome(task_id=task_id, model=model, source="test", n_steps=len(curve),
                   skills=skills or ["read", "sub", "mul"][:len(curve)], curve=curve,
                   isolated=[True] * len(curve) if isolated is None else isolated, k=k,
                   undetermined_by="error" if k is None else None, non_monotonic=is_non_monotonic(curve),
                   n_errors=curve.count(None), policy=policy)


def test_errors_do_not_inflate_accuracy_as_asked():
    # two tasks solved as asked, two failed as asked whose level 1 then errored (k undetermined)
    items = [outcome("a", [True, True]), outcome("b", [True, True]), outcome("c", [False, None]),
             outcome("d", [False, None])]
    assert summarize(items).accuracy_original.value == 0.5  # not 2 of the 2 determined tasks
    other = [outcome(t, [True, True], model="other") for t in "abcd"]
    statement = compare_pair(items + other, "m", "other").statement
    assert "4 tasks" in statement  # McNemar at level 0 on every task both answered as asked


def test_on_failure_conditioning_is_refused_or_said():
    # policy on_failure: solved originals were asked nothing else
    items = [outcome("a", [True, None], [None, None], policy="on_failure"),
             outcome("b", [False, True], [True, True], policy="on_failure"),
             outcome("c", [False, False], [True, False], policy="on_failure")]
    with pytest.raises(ValueError, match="on_failure"):
        pair_composition_gaps(items)  # level K−2 = 0 of 2-step tasks is failed by selection
    assert validity_checks([], items).solved_but_steps_failed is None  # always 0 by selection
    assert "on_failure" in weakness_profile(summarize(items))


def test_a_misspelt_policy_is_an_error():
    items = [outcome("a", [True, True]).model_copy(update={"policy": "on-failure"})]
    with pytest.raises(ValueError, match="unknown policy 'on-failure'"):
        summarize(items)


def test_the_bottleneck_is_the_step_whose_provision_solved_the_task_not_the_earliest_step():
    # every task needs steps 1 and 2 given (k = 2): giving 'read' never helped, giving 'sub' always did
    items = [outcome(f"t{i}", [False, False, True], [False, True, True]) for i in range(10)]
    per_skill = summarize(items).per_skill
    assert per_skill["sub"].bottleneck_rate.value == 1 and per_skill["read"].bottleneck_rate.value == 0


def test_the_written_profile_names_a_skill_by_its_tested_isolated_accuracy_not_its_bottleneck_rate():
    # every task needs steps 1 and 2 given, but only 'read' fails when asked alone; 'read' is step 1 of half the
    # tasks and step 2 of the others, so it stands where 'sub' stands too
    items = [outcome(f"t{i}", [False, False, True], [False, True, True] if i % 2 else [True, False, True],
                     ["read", "sub", "mul"] if i % 2 else ["sub", "read", "mul"]) for i in range(20)]
    profile = weakness_profile(summarize(items))
    assert "'read' (asked alone, right in 0%" in profile and "'sub'" not in profile


def test_a_skill_that_always_stands_alone_at_its_place_is_not_named_but_said_inseparable():
    # 'read' is every first step and only 'read' is: a weak 'read' and a hard first step look the same
    items = [outcome(f"t{i}", [False, False, True], [False, True, True]) for i in range(10)]
    diagnosis = summarize(items).diagnosis
    assert diagnosis.weak_skills == [] and diagnosis.inseparable == ["read"]
    assert "cannot tell a weak 'read' from a hard place in its tasks, so neither is named" in diagnosis.headline


def test_equal_accuracy_and_different_k_on_the_same_tasks_is_not_called_a_skill_difference():
    items = [outcome(f"t{i}", [False, True, True], skills=["add", "mul", "sub"], model="A") for i in range(30)]
    items += [outcome(f"t{i}", [False, False, True], skills=["add", "mul", "sub"], model="B") for i in range(30)]
    statement = compare_pair(items, "A", "B").statement
    assert "different skills" not in statement and "A needs less help" in statement


def test_no_profile_claim_without_mapped_skills():
    items = [outcome(f"t{i}", [i % 3 == 0, True], skills=["unmapped"] * 2, model=m) for i in range(20) for m in "AB"]
    items += [outcome(f"u{i}", [False, i % 2 == 0], skills=["unmapped"] * 2, model="A") for i in range(10)]
    items += [outcome(f"u{i}", [False, i % 2 == 1], skills=["unmapped"] * 2, model="B") for i in range(10)]
    statement = compare_pair(items, "A", "B").statement
    assert "not compared: no step has a mapped skill" in statement


def test_no_significant_difference_is_not_called_indistinguishable():
    items = [outcome(f"t{i}", [i < 12, True], model="A") for i in range(30)]
    items += [outcome(f"t{i}", [8 <= i < 18, True], model="B") for i in range(30)]
    statement = compare_pair(items, "A", "B").statement
    assert "indistinguishable" not in statement
    assert "No significant difference detected (McNemar exact p = " in statement and ", n = 30; smallest difference " \
           "this sample could detect ≈ " in statement


def test_one_name_per_composition_quantity():
    items = [outcome(f"t{i}", [i % 2 == 0, True, True], skills=["read", "sub", "mul"]) for i in range(10)]
    per_skill = summarize(items).per_skill["sub"].as_dict()
    assert "composition_gap" not in per_skill and "isolated_vs_whole_gap" in per_skill
    assert "gap" in pair_composition_gaps(items).columns  # the pair composition gap keeps its own function


def test_the_written_profile_respects_sample_size():
    # 'rare' fails alone in its 3 tasks; 'sub' in 12 of its 20
    items = [outcome(f"r{i}", [False, True], [False, True], ["rare", "mul"]) for i in range(3)]
    items += [outcome(f"s{i}", [False, True], [i < 8, True], ["sub", "mul"]) for i in range(20)]
    profile = weakness_profile(summarize(items))
    assert "'rare'" not in profile  # 3 < the minimum support of 5: not tested
    assert "'sub'" in profile and "95% CI" in profile


def test_a_target_that_never_answered_gets_messages_not_a_crash():
    from stad_utils.report import plot_k_shares

    items = [outcome(f"t{i}", [None, None], [None, None], model=m) for i in range(5) for m in "AB"]
    assert "No task was answered" in weakness_profile(summarize(items))
    assert "No task was answered" in compare_pair(items, "A", "B").statement
    texts = [text.get_text() for ax in plot_k_shares(analyze_run(items, n_resamples=0)).axes for text in ax.texts]
    assert any("no answered tasks" in text for text in texts)
