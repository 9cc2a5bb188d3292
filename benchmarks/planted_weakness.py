"""Does STaD's diagnosis find weaknesses that are known to be there, and with how many tasks?

    .venv/bin/python benchmarks/planted_weakness.py                 # the power tables (about 3 minutes on 2 cores)
    .venv/bin/python benchmarks/planted_weakness.py --repetitions 10 --sizes 25 100 400

Two simulated targets answer generated tasks (`stad_utils.models._simulated`; no model is called):

* **planted**: subtraction steps are done right alone with chance 0.4, steps that add minutes
  to a clock time with 0.75, every other step with 0.95, and each link of a chain fails with
  chance 0.3 (`stad_utils.analysis.PLANTED`);
* **none**: every step 0.95, no composition penalty: nothing to find.

For each number of tasks and repetition the whole chain runs in-process (generated tasks →
the oracle teacher's ladders → skills → the target's verdicts → outcomes) and the diagnosis is
compared with what was planted (`stad_utils.analysis._validation`: weak skills flagged by Fisher's test
against the other skills with Holm's correction at α = 0.05; the composition penalty by
maximum likelihood). The tables give, per number of tasks, the mean precision and recall of
the flagged skills, how often each planted skill was found, how often the flagged set was
exactly the planted one, how often any skill was flagged wrongly, how often the penalty
estimate came within 0.1 of the planted value, and the estimates' mean and spread; then the
number of tasks from which each rate stays at or above 80%.
"""

from __future__ import annotations

import argparse
import time

from stad_utils.analysis import PLANTED, power_curve, power_table, tasks_needed
from stad_utils.models import Simulation

SCENARIOS = {
    "planted": PLANTED,
    "none": {"step_accuracy": {"default": 0.95}, "composition_penalty": 0.0},
}


def report(name: str, simulation: dict, sizes: list[int], repetitions: int) -> None:
    planted = Simulation.model_validate(simulation)
    started = time.perf_counter()
    trials = power_curve(simulation, sizes, repetitions)
    table = power_table(trials, planted.weak_skills())
    print(f"\n## {name}: step accuracy {planted.step_accuracy}, composition penalty {planted.composition_penalty}")
    print(f"{repetitions} repetitions per number of tasks, {time.perf_counter() - started:.0f} s\n")
    print(table.drop(columns="repetitions").astype({"n_tasks": str}).to_markdown(index=False, floatfmt=".2f"))
    rates = [column for column in table.columns if column.startswith("found: ")]
    if planted.weak_skills():
        rates += ["skills_recovered"]
    if planted.composition_penalty:
        rates += ["penalty_recovered"]
    for column in rates:
        needed = tasks_needed(table, column)
        print(f"- {column} ≥ 80% from {needed} tasks on" if needed else f"- {column} stays below 80% up to "
              f"{max(sizes)} tasks")
    print(f"- any false flag: at most {table['any_false_flag'].max():.1%} of runs at any number of tasks (α = 0.05)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[25, 50, 100, 200, 400, 800])
    parser.add_argument("--repetitions", type=int, default=40)
    args = parser.parse_args()
    for name, simulation in SCENARIOS.items():
        report(name, simulation, args.sizes, args.repetitions)


if __name__ == "__main__":
    main()
