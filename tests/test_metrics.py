import pytest

from stad_utils import StepSkill, is_non_monotonic, k_distribution, minimal_scaffolding_level, outcomes
from helpers import ladder, verdict, verdicts_for


@pytest.mark.parametrize("curve, k", [
    ([True], 0), ([False], -1), ([True, False, False], 0), ([False, True, True], 1), ([False, False, True], 2),
    ([False, False, False], -1), ([None, True], None), ([False, None, True], None), ([True, None], 0),
    ([False, True, None], 1), ([False, False, None], None),
])
def test_minimal_scaffolding_level(curve, k):
    assert minimal_scaffolding_level(curve) == k


@pytest.mark.parametrize("curve, flagged", [
    ([False, True, False], True), ([True, False], True), ([True, True], False), ([False, False, True], False),
    ([False, True, None], False), ([None, True, False], True), ([False, False], False),
])
def test_non_monotonic(curve, flagged):
    assert is_non_monotonic(curve) is flagged


def test_outcomes_use_every_level_and_the_latest_verdict():
    ladders = [ladder("a", 3), ladder("b", 3), ladder("c", 2)]
    skills = [StepSkill(task_id="a", step=i, description="d", label=None, cluster=i, skill=f"s{i}") for i in (1, 2, 3)]
    records = (verdicts_for("a", [False, True, False], [True, True, False])
               + verdicts_for("b", [False, None, True], [True, None, True])
               + verdicts_for("c", [False, False], [True, False]))
    # an errored level of b re-asked later supersedes the error
    records.append(verdict("b", "scaffold", 1, False))
    found = {o.task_id: o for o in outcomes(ladders, records, skills)}
    assert found["a"].curve == [False, True, False] and found["a"].k == 1 and found["a"].non_monotonic
    assert found["a"].skills == ["s1", "s2", "s3"] and found["a"].isolated == [True, True, False]
    assert found["b"].curve == [False, False, True] and found["b"].k == 2 and found["b"].n_errors == 1
    assert found["c"].k == -1 and found["c"].skills == ["unmapped", "unmapped"]
    assert k_distribution(found.values()) == {"-1": 1, "1": 1, "2": 1}


def test_an_error_before_any_success_leaves_k_undetermined():
    records = verdicts_for("a", [False, None, True], [True, True, True])
    [outcome] = outcomes([ladder("a", 3)], records, [])
    assert outcome.k is None and outcome.n_errors == 1
    assert k_distribution([outcome]) == {}


def test_two_models_get_separate_outcomes():
    records = verdicts_for("a", [True, True, True], [True] * 3, "m1") + verdicts_for("a", [False] * 3, [False] * 3, "m2")
    found = {o.model: o.k for o in outcomes([ladder("a", 3)], records, [])}
    assert found == {"m1": 0, "m2": -1}
