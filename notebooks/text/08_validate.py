# ---
# jupyter:
#   jupytext:
#     cell_metadata_filter: tags,-all
#     formats: ipynb,text//py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Validation · Does the diagnosis find a weakness we planted?
#
# A diagnosis is worth trusting if it finds a weakness that we *know* is there. Here the model
# under diagnosis is a **simulated target** (`stad_utils.simulate`), not a language model: it
# answers the generated tasks with a chance of doing each step right that we choose per skill,
# and a **composition penalty**, the chance of failing to chain two steps although each would
# be done right alone. No model is called, the same seed gives the same answers, and every
# record calls it a simulation.
#
# The chain runs as for a real model: tasks → the oracle teacher's ladders → skills → the
# target answers every question and the judge reads every reply → outcomes. Then two questions:
#
# * **Which skills are weak?** A skill is flagged when its steps, asked alone, are answered right
#   less often than the steps of all the other skills (Fisher's exact test per skill, Holm's
#   correction because every skill is tested, α = 0.05) — the rule of `stad_utils.claims`, the
#   same that writes 06's diagnosis. Precision: how many flags are right. Recall: how many
#   planted weaknesses are found.
# * **Does it fail to chain?** 06's diagnosis on the same outcomes: the **composition gap**
#   (whole task − every step alone; negative = fails to chain, see 06's glossary) with its
#   test; and, because this target's model of chaining is known, the **composition penalty**
#   it planted (the chance that one link fails; positive = fails to chain): among tasks whose
#   remaining steps were each done right alone, how often chaining them still failed (maximum
#   likelihood, 95% interval).
#
# The planted weaknesses are the quickstart's simulated target's (multiplication steps right
# alone 40% of the time, every other step 95%, composition penalty 0.3), so this notebook
# checks the diagnosis the demo shows.
#
# Last, a **power curve**: the chain again with fresh tasks, to see how often the diagnosis
# recovers what was planted with 25, 50, 100 … tasks. `benchmarks/planted_weakness.py` prints
# the full table.

# %% tags=["parameters"]
run_dir: str = "../results/notebook-defaults"  # folder of the run; this notebook writes into its validation/ folder
n_tasks: int = 200  # generated tasks in the single run
seed: int = 0  # seed of the tasks and of the simulated target's draws
step_accuracy: dict = {"multiplication": 0.4, "default": 0.95}  # planted (the quickstart's): chance of doing a step of each skill alone ("default": every other skill)
composition_penalty: float = 0.3  # planted (the quickstart's): chance that one link of a chain fails
alpha: float = 0.05  # chance of flagging any skill of a target without weaknesses (family-wise)
sizes: list = [25, 50, 100, 200]  # numbers of tasks on the power curve
repetitions: int = 10  # runs per number of tasks on the power curve

# %%
import json

from stad_utils import RunPaths
from stad_utils.analysis import skill_table
from stad_utils.claims import flag_weak_skills
from stad_utils.schema import Diagnosis
from stad_utils.summary import diagnosis_block
from stad_utils.simulate import Simulation
from stad_utils.validation import (estimate_composition_penalty, plot_power, power_curve, power_table, recovery,
                                   run_chain, tasks_needed)

simulation = {"step_accuracy": step_accuracy, "composition_penalty": composition_penalty, "seed": seed}
planted = Simulation.model_validate(simulation)
folder = RunPaths(run_dir).root / "validation"
folder.mkdir(parents=True, exist_ok=True)
verdicts = folder / "verdicts.jsonl"
verdicts.unlink(missing_ok=True)  # the simulation is cheap and deterministic: never resume another setting's answers
chain = run_chain(n_tasks, simulation, seed=seed, store=verdicts)
print(f"{chain.target.model}: {len(chain.outcomes)} tasks, {chain.target.usage.calls} replies judged")

# %% [markdown]
# **Which skills are weak?** One row per skill, most suspicious first:

# %%
flags = flag_weak_skills(chain.outcomes, chain.ladders, alpha=alpha)
found = recovery(chain.outcomes, chain.ladders, planted, alpha=alpha)
print(f"planted: {planted.weak_skills()}\nflagged: {found['flagged']}\n"
      f"precision {found['precision']:.2f}, recall {found['recall']:.2f}")
flags.round(4)

# %% [markdown]
# **Does it fail to chain?** 06's diagnosis of these outcomes (its headline, then the composition
# gap), and the planted composition penalty estimated under the simulation's own model of chaining.

# %%
diagnosis = Diagnosis.model_validate(diagnosis_block(chain.outcomes, chain.ladders, alpha=alpha))
print(diagnosis.headline)
print(f"weak skills: {diagnosis.weak_skills}; composition failure: {diagnosis.composition_failure}")
fit = estimate_composition_penalty(chain.outcomes)
print(f"planted {composition_penalty}; estimated {fit['estimate']:.3f} "
      f"(95% interval {fit['low']:.3f} to {fit['high']:.3f}, from {fit['n']} tasks)")

# %% [markdown]
# The standard analysis of stage 6 on the same outcomes: a planted skill gap shows as a low
# accuracy alone (the bottleneck rate, descriptive, also depends on where the skill stands).

# %%
skill_table(chain.outcomes)[["skill", "occurrences", "isolated_accuracy", "bottleneck_rate"]].round(2)

# %% [markdown]
# **Power curve.** Each run draws fresh tasks and fresh answers; the lines show how often the
# diagnosis recovered what was planted, per number of tasks (grey: 80%).

# %%
trials = power_curve(simulation, sizes, repetitions, seed=seed, alpha=alpha)
table = power_table(trials, planted.weak_skills())
rates = [column for column in table.columns if column.startswith("found: ")] + ["skills_recovered",
                                                                               "penalty_recovered"]
needed = {column: tasks_needed(table, column) for column in rates}
table.to_csv(folder / "power.csv", index=False)
(folder / "validation.json").write_text(json.dumps(
    {"target": chain.target.model, "planted": planted.model_dump(), "n_tasks": n_tasks, "alpha": alpha,
     "single_run": found, "diagnosis": diagnosis.as_dict(), "tasks_needed_for_80_percent": needed}, indent=2, default=float))
figure = plot_power(table)
figure.savefig(folder / "power.png", dpi=110)
print(f"tasks needed for 80%: {needed}")
table.round(2)
