"""The quickstart's and the workshop's two simulated targets: the same accuracy as asked, different breaks.

One misses a skill (no composition penalty), the other fails to chain (every skill high, a composition
penalty): equal overall scores, different gaps, the paper's headline. Their expected accuracies are equal
on the runs' tasks by the simulation's model, and a seeded run at 30 and at 200 tasks shows them equal
within their intervals.
"""


import pytest
import yaml
from helpers import ROOT
from statsmodels.stats.proportion import proportion_confint

from stad_utils.models import EndpointConfig, SimulatedTarget, Simulation, expected_accuracy, matching_penalty
from stad_utils.records import Ladder
from stad_utils.tasks import generate_tasks

PARAMS = ROOT / "params"
RUNS = ("quickstart.yaml", "workshop.yaml")
FIGURE_TICK_WIDTH = 24
"""The width `stad_utils.report.figures._model` shortens model names to: these names must fit it whole."""


def simulated_targets(params_file: str) -> dict[str, Simulation]:
    targets = yaml.safe_load((PARAMS / params_file).read_text())["stages"]["05_evaluate"]["targets"]
    return {t["name"]: Simulation.model_validate(t["simulation"]) for t in targets if t["kind"] == "simulated"}


def ladders(params_file: str, n_tasks: int | None = None) -> list[Ladder]:
    """The oracle ladders of the run's generated tasks (``n_tasks`` of them instead of the run's number)."""
    settings = dict(yaml.safe_load((PARAMS / params_file).read_text())["stages"]["01_tasks"])
    del settings["source"]
    tasks = generate_tasks(n_tasks or settings.pop("n_tasks"), **{k: v for k, v in settings.items() if k != "n_tasks"})
    return [Ladder(task=t, teacher="oracle", steps=t.reference_steps, scaffolds=t.reference_scaffolds,
                   isolated=t.reference_isolated) for t in tasks]


@pytest.mark.parametrize("params_file", RUNS)
def test_one_target_misses_a_skill_and_the_other_fails_to_chain(params_file):
    targets = simulated_targets(params_file)
    assert set(targets) == {"simulated: weak skill", "simulated: weak chaining"}
    weak_skill, weak_chaining = targets["simulated: weak skill"], targets["simulated: weak chaining"]
    assert weak_skill.weak_skills() == ["multiplication"] and weak_skill.composition_penalty == 0
    assert weak_chaining.weak_skills() == [] and weak_chaining.composition_penalty > 0
    assert weak_chaining.accuracy("multiplication") == weak_skill.accuracy("addition") == 0.95
    assert all(len(name) <= FIGURE_TICK_WIDTH for name in targets)


def test_the_workshop_runs_the_quickstarts_simulated_targets_on_its_tasks():
    assert simulated_targets("workshop.yaml") == simulated_targets("quickstart.yaml")
    assert [l.task.question for l in ladders("workshop.yaml")] == [l.task.question for l in ladders("quickstart.yaml")]


@pytest.mark.parametrize("params_file", RUNS)
def test_their_expected_accuracies_as_asked_are_equal_on_the_runs_tasks(params_file):
    targets, run = simulated_targets(params_file), ladders(params_file)
    weak_skill, weak_chaining = targets["simulated: weak skill"], targets["simulated: weak chaining"]
    assert expected_accuracy(weak_chaining, run) == pytest.approx(expected_accuracy(weak_skill, run), abs=0.005)
    exact = matching_penalty(weak_chaining, expected_accuracy(weak_skill, run), run)
    assert weak_chaining.composition_penalty == pytest.approx(exact, abs=0.005)  # the penalty, rounded


@pytest.mark.parametrize("n_tasks", [30, 200])
def test_a_seeded_run_shows_their_accuracies_equal_within_their_intervals(n_tasks):
    run = ladders("quickstart.yaml", n_tasks)
    accuracy = {}
    for name, simulation in simulated_targets("quickstart.yaml").items():
        endpoint = EndpointConfig(kind="simulated", model="planted", name=name, simulation=simulation.model_dump())
        asked = [v.correct for v in SimulatedTarget(endpoint, run).direct_verdicts() if v.variant == "original"]
        assert len(asked) == n_tasks
        accuracy[name] = (sum(asked) / n_tasks, proportion_confint(sum(asked), n_tasks, method="wilson"))
    (first, (low_1, high_1)), (second, (low_2, high_2)) = accuracy.values()
    assert low_2 <= first <= high_2 and low_1 <= second <= high_1, accuracy
