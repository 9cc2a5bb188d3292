"""Planted-weakness validation: planted gaps are found where the power table says, and nothing is found by chance.

The sample sizes come from the table of ``benchmarks/planted_weakness.py`` (README): the strong
gap (subtraction at 0.4) is found in at least 80% of runs from 50 tasks on, both planted gaps
from 400, and the composition penalty is estimated within 0.1 from 50. The runs here use other
seeds than the benchmark's.
"""

from scipy.stats import binomtest

from stad_utils.analysis import PLANTED, flag_weak_skills, power_curve, power_table, run_chain
from stad_utils.records import Ladder, Outcome, Step, Task

ALPHA = 0.05


def test_planted_gaps_and_penalty_are_recovered_at_the_sizes_the_power_table_gives():
    table = power_table(power_curve(PLANTED, [50, 400], repetitions=10, seed=1000), ["subtraction"])
    at = table.set_index("n_tasks")
    assert at.loc[50, "found: subtraction"] >= 0.8
    assert at.loc[50, "penalty_recovered"] >= 0.8
    assert at.loc[400, "skills_recovered"] >= 0.8
    assert abs(at.loc[400, "penalty_mean"] - PLANTED["composition_penalty"]) <= 0.03
    assert at["precision"].min() >= 0.9


def test_a_target_without_weaknesses_flags_no_skill_above_chance():
    trials = power_curve({"step_accuracy": {"default": 0.95}}, [250], repetitions=40, seed=2000)
    false_flags = int((trials["false_flags"] > 0).sum())
    assert binomtest(false_flags, len(trials), ALPHA, alternative="greater").pvalue > 0.05, \
        f"{false_flags} of {len(trials)} runs flagged a skill"
    assert (trials["penalty"] == 0).all()


def test_the_chain_is_deterministic_by_seed():
    def curves(seed):
        return [(o.task_id, o.curve, o.isolated) for o in run_chain(60, PLANTED, seed=seed).outcomes]

    assert curves(4) == curves(4)
    assert curves(4) != curves(5)


def test_a_question_shared_by_several_tasks_counts_once():
    """Ten tasks ask the same 'sub' question (one observation); ten ask their own 'add' question."""
    def ladder(task):
        return Ladder(task=Task(task_id=task, source="s", question="Q?", answer="1"), teacher="t",
                      steps=[Step(description="d", answer="1")] * 2, scaffolds=["S?"],
                      isolated=[f"{task}: add?", "the same subtraction?"])

    def outcome(task):
        return Outcome(task_id=task, model="m", source="s", n_steps=2, skills=["add", "sub"], curve=[None, None],
                       isolated=[True, False], k=None, non_monotonic=False, n_errors=0)

    tasks = [f"t{i}" for i in range(10)]
    table = flag_weak_skills([outcome(t) for t in tasks], [ladder(t) for t in tasks]).set_index("skill")
    assert table.loc["sub", "asked"] == 1 and table.loc["add", "asked"] == 10
    assert not table["flagged"].any()  # one wrong answer is no evidence
