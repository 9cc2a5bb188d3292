"""From verdicts to outcomes: one outcome per (task, model, sample), k, and why k may stay open."""

from helpers import ladder, verdict, verdicts_for
from hypothesis import given
from hypothesis import strategies as st

from stad_utils.method import is_non_monotonic, k_distribution, minimal_scaffolding_level, outcomes
from stad_utils.records import StepSkill, latest_verdicts

answers = st.sampled_from([True, False, None])


@given(st.lists(answers, min_size=1, max_size=6))
def test_k_is_the_first_solved_level(curve):
    k = minimal_scaffolding_level(curve)
    if k is None:  # a level before the first success has no answer
        first_open = curve.index(None)
        assert True not in curve[:first_open]
    elif k == -1:
        assert all(solved is False for solved in curve)
    else:
        assert curve[k] is True and all(solved is False for solved in curve[:k])


@given(st.lists(answers, min_size=1, max_size=6))
def test_non_monotonic_means_a_failure_after_a_success(curve):
    answered = [solved for solved in curve if solved is not None]
    expected = any(answered[i] and not answered[j] for i in range(len(answered)) for j in range(i + 1, len(answered)))
    assert is_non_monotonic(curve) is expected


@given(st.lists(answers, min_size=1, max_size=6), st.lists(answers, min_size=6, max_size=6))
def test_outcomes_carry_every_verdict_into_curve_and_isolated(curve, isolated):
    isolated = isolated[:len(curve)]
    [outcome] = outcomes([ladder("a", len(curve))], verdicts_for("a", curve, isolated), [])
    assert outcome.curve == curve and outcome.isolated == isolated
    assert outcome.k == minimal_scaffolding_level(curve)
    assert outcome.n_errors == curve.count(None) + isolated.count(None)
    assert (outcome.undetermined_by == "error") is (outcome.k is None)


def test_outcomes_use_every_level_and_the_latest_verdict():
    ladders = [ladder("a", 3), ladder("b", 3), ladder("c", 2)]
    skills = [StepSkill(task_id="a", step=i, description="d", label=None, cluster=i, skill=f"s{i}") for i in (1, 2, 3)]
    records = (verdicts_for("a", [False, True, False], [True, True, False])
               + verdicts_for("b", [False, None, True], [True, None, True])
               + verdicts_for("c", [False, False], [True, False]))
    records.append(verdict("b", "scaffold", 1, False))  # the errored level of b, re-asked later
    found = {o.task_id: o for o in outcomes(ladders, records, skills)}
    assert found["a"].curve == [False, True, False] and found["a"].k == 1 and found["a"].non_monotonic
    assert found["a"].skills == ["s1", "s2", "s3"] and found["a"].isolated == [True, True, False]
    assert found["b"].curve == [False, False, True] and found["b"].k == 2 and found["b"].n_errors == 1
    assert found["c"].k == -1 and found["c"].skills == ["unmapped", "unmapped"]
    assert k_distribution(found.values()) == {"-1": 1, "1": 1, "2": 1}


def test_an_undecided_level_leaves_k_open_and_is_counted_apart_from_errors():
    records = verdicts_for("a", [False, True, True], [True, None, True])  # isolated step 2 errored
    records[1] = records[1].model_copy(update={"correct": None, "outcome": "undecided", "error": None,
                                               "decided_by": "none"})
    [outcome] = outcomes([ladder("a", 3)], records, [])
    assert outcome.curve == [False, None, True] and outcome.k is None
    assert outcome.undetermined_by == "undecided"
    assert (outcome.n_errors, outcome.n_undecided) == (1, 1)


def test_each_sample_is_its_own_outcome():
    first = verdicts_for("a", [False, True], [True, True])
    second = [v.model_copy(update={"sample": 1}) for v in verdicts_for("a", [True, True], [True, False])]
    found = {o.sample: o for o in outcomes([ladder("a", 2)], first + second, [])}
    assert (found[0].k, found[1].k) == (1, 0)
    assert found[1].isolated == [True, False]
    assert len(latest_verdicts(first + second)) == len(first) + len(second)  # the sample is part of the key


def test_placebo_truncation_policy_and_simulation_are_carried_over():
    records = verdicts_for("a", [False, False, True], [True, True, True])
    records[1] = records[1].model_copy(update={"truncated": True})  # scaffold level 1 cut off by max_tokens
    records += [verdict("a", "placebo", 1, False), verdict("a", "placebo", 2, True)]
    records = [v.model_copy(update={"policy": "on_failure", "simulated": True}) for v in records]
    [outcome] = outcomes([ladder("a", 3)], records, [])
    assert outcome.placebo == [False, True]
    assert outcome.truncated == [False, True, False]
    assert outcome.policy == "on_failure" and outcome.simulated


def test_no_placebo_asked_gives_an_empty_placebo_curve():
    [outcome] = outcomes([ladder("a", 3)], verdicts_for("a", [True, True, True], [True] * 3), [])
    assert outcome.placebo == []


def test_two_models_get_separate_outcomes():
    records = verdicts_for("a", [True, True, True], [True] * 3, "m1") + verdicts_for("a", [False] * 3, [False] * 3, "m2")
    found = {o.model: o.k for o in outcomes([ladder("a", 3)], records, [])}
    assert found == {"m1": 0, "m2": -1}
