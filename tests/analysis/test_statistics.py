"""Invariants of the statistics: property-based (hypothesis) and checked by simulation (seeded)."""

import random

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import kstest

from stad_utils.analysis import (
    minimal_detectable_difference,
    paired_bootstrap,
    paired_test,
    profile_matrices,
    profile_permutation_test,
    share_estimates,
    success_by_level,
    summarize,
)
from stad_utils.method import is_non_monotonic, minimal_scaffolding_level
from stad_utils.records import Outcome

SKILLS = ["add", "sub", "mul", "div"]


def outcome(task_id, curve, isolated, skills, sample=0, model="m"):
    k = minimal_scaffolding_level(curve)
    return Outcome(task_id=task_id, model=model, source="test", n_steps=len(curve), skills=skills, curve=curve,
                   isolated=isolated, k=k, undetermined_by="error" if k is None else None,
                   non_monotonic=is_non_monotonic(curve), n_errors=curve.count(None) + isolated.count(None),
                   sample=sample)


@st.composite
def outcome_sets(draw, min_size=1):
    """Outcomes of a few tasks (1-3 samples each), every answer true, false or unanswered."""
    items = []
    for t in range(draw(st.integers(min_size, 8))):
        n_steps = draw(st.integers(1, 4))
        skills = draw(st.lists(st.sampled_from(SKILLS), min_size=n_steps, max_size=n_steps))
        for sample in range(draw(st.integers(1, 3))):
            answers = st.lists(st.sampled_from([True, False, None]), min_size=n_steps, max_size=n_steps)
            items.append(outcome(f"t{t}", draw(answers), draw(answers), skills, sample))
    return items


def accuracies(items):
    """Every accuracy the summary reports, NaN-free for comparison."""
    summary = summarize(items, n_resamples=0)
    values = {"as asked": summary.accuracy_original.value, "scaffolded": summary.accuracy_scaffolded.value}
    values.update({f"level {e.level}": e.value for e in summary.success_by_level})
    values.update({f"k = {k}": e.value for k, e in summary.k_share.items()})
    values.update({f"{skill} alone": e.isolated_accuracy.value for skill, e in summary.per_skill.items()})
    return {name: value for name, value in values.items() if value is not None}


@settings(max_examples=20, deadline=None)
@given(outcome_sets(), st.data())
def test_unanswered_items_never_change_an_accuracy(items, data):
    # a new sample of existing tasks in which every question errored or stayed undecided
    task = data.draw(st.sampled_from(items))
    unanswered = outcome(task.task_id, [None] * task.n_steps, [None] * task.n_steps, task.skills, sample=99)
    # and a new task that was never answered at all
    never = outcome("never", [None] * 3, [None] * 3, ["add", "sub", "mul"])
    assert accuracies(items + [unanswered, never]) == accuracies(items)


@settings(max_examples=30, deadline=None)
@given(outcome_sets())
def test_each_level_accuracy_is_over_the_tasks_answered_there(items):
    table = success_by_level(items)
    for row in table.itertuples():
        answered = {o.task_id for o in items if row.level < o.n_steps and o.curve[row.level] is not None}
        assert row.n == len(answered)


units_of_tasks = st.lists(st.tuples(st.integers(0, 1), st.integers(1, 4), st.integers(0, 4), st.integers(1, 4),
                                    st.integers(0, 4)), min_size=1, max_size=25)


@settings(max_examples=40, deadline=None)
@given(units_of_tasks, st.booleans())
def test_a_bootstrap_interval_contains_its_point_estimate(rows, paired):
    units = pd.DataFrame([{"task_id": f"t{i}", "level": level, "a_trials": a_n, "a_successes": min(a_s, a_n),
                           "b_trials": b_n, "b_successes": min(b_s, b_n)}
                          for i, (level, a_n, a_s, b_n, b_s) in enumerate(rows)])
    if not paired:
        units = units.drop(columns=["b_trials", "b_successes"])
    result = paired_bootstrap(units, "level", n_resamples=300)
    assert ((result["low"] <= result["estimate"] + 1e-9) & (result["estimate"] <= result["high"] + 1e-9)).all()


@given(st.lists(st.tuples(st.floats(0, 50), st.integers(1, 50)), min_size=1, max_size=10))
def test_a_wilson_interval_contains_its_share(counts):
    successes, n = zip(*[(min(s, n), n) for s, n in counts])
    shares = share_estimates(successes, n)
    # exactly, without tolerance: error bars are value − low and high − value and must not be negative
    assert ((shares["low"] <= shares["value"]) & (shares["value"] <= shares["high"])).all()


def test_the_two_stage_bootstrap_covers_the_true_difference():
    """Tasks drawn with success p_A ~ U(0, 1) and p_B = 0.8·p_A, three samples each: E[p_A − p_B] = 0.1."""
    rng = np.random.default_rng(1)
    covered = 0
    for simulation in range(200):
        p_a = rng.random(40)
        units = pd.DataFrame({"task_id": np.arange(40), "level": 0, "a_trials": 3, "b_trials": 3,
                              "a_successes": rng.binomial(3, p_a), "b_successes": rng.binomial(3, 0.8 * p_a)})
        row = paired_bootstrap(units, "level", n_resamples=500, seed=simulation).iloc[0]
        covered += row["low"] <= 0.1 <= row["high"]
    assert 0.9 <= covered / 200 <= 0.99


def test_the_minimal_detectable_difference_is_detected_four_times_in_five():
    n, discordant = 200, 0.3
    delta = minimal_detectable_difference(n, discordant)
    rng = np.random.default_rng(2)
    cells = [(1 - discordant), (discordant + delta) / 2, (discordant - delta) / 2]  # tied, A better, B better
    detected = 0
    for _ in range(400):
        tied, a_better, b_better = rng.multinomial(n, cells)
        differences = np.array([0] * tied + [1] * a_better + [-1] * b_better)
        detected += paired_test(differences, single_sample=True)[1] < 0.05
    assert 0.7 <= detected / 400 <= 0.9  # 80% by the normal approximation; the exact test is a little conservative


@given(st.integers(4, 2000), st.integers(4, 2000), st.floats(0.01, 1))
def test_more_tasks_detect_smaller_differences(n, m, discordant):
    small, large = sorted((n, m))
    assert minimal_detectable_difference(large, discordant) <= minimal_detectable_difference(small, discordant)


def test_profile_permutation_p_values_are_uniform_under_the_null():
    """Two exchangeable models (k drawn from the same law per task): p-values ~ U(0, 1)."""
    rng = random.Random(3)
    p_values = []
    for simulation in range(200):
        items = []
        for t in range(30):
            skills = [rng.choice(SKILLS) for _ in range(3)]
            for model in ("A", "B"):
                k = rng.choice([1, 2, -1])
                curve = [False, False, False] if k == -1 else [level >= k for level in range(3)]
                items.append(outcome(f"t{t}", curve, [True] * 3, skills, model=model))
        skills, matrices = profile_matrices(items, "A", "B", min_support=1)
        p_values.append(profile_permutation_test(matrices, n_permutations=99, seed=simulation)[1])
    assert kstest(p_values, "uniform").pvalue > 0.01
