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
# under diagnosis is a **simulated target** (`stad_utils.models._simulated`), not a language model: it
# answers the generated tasks with a chance of doing each step right that we choose per skill,
# and a **composition penalty**, the chance of failing to chain two steps although each would
# be done right alone. No model is called, the same seed gives the same answers, and every
# record calls it a simulation.
#
# The chain runs as for a real model: tasks → the oracle teacher's ladders → skills → the
# target answers every question and the judge reads every reply → outcomes. Then two questions:
#
# * **Which skills are weak?** A skill is flagged when its steps, asked alone, are answered right
#   less often than the steps of other skills *in the same context*: at the same step position of
#   tasks of the same length (a stratified exact test, Holm's correction because every skill is
#   tested, α = 0.05) — the rule of `stad_utils.analysis._claims`, the same that writes 06's
#   diagnosis. Precision: how many flags are right. Recall: how many planted weaknesses are found.
#   Set `position_logit_drop` or `length_logit_drop` to plant a harder context instead: 06 then
#   names the context, not a skill.
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
run_dir: str = "results/notebook-defaults"  # folder of the run (relative: to this notebook's folder); this notebook writes into its validation/ folder
n_tasks: int = 200  # generated tasks in the single run
seed: int = 0  # seed of the tasks and of the simulated target's draws
step_accuracy: dict = {"multiplication": 0.4, "default": 0.95}  # planted (the quickstart's): chance of doing a step of each skill alone ("default": every other skill)
composition_penalty: float = 0.3  # planted (the quickstart's): chance that one link of a chain fails
position_logit_drop: float = 0.0  # planted context: later steps harder (logit drop per later position; 0: none)
length_logit_drop: float = 0.0  # planted context: longer tasks harder at every step (logit drop per extra step)
task_logit_sd: float = 0.0  # planted context: tasks differ in difficulty (SD of a per-task logit shift)
alpha: float = 0.05  # chance of flagging any skill of a target without weaknesses (family-wise)
sizes: list = [25, 50, 100, 200]  # numbers of tasks on the power curve
repetitions: int = 10  # runs per number of tasks on the power curve

# %%
from stad_utils.stages import validate

result = validate.run(run_dir, validate.Params.from_cell(globals()))  # the values above, as papermill may have set them
print(result)

# %% [markdown]
# Above: the single run against what was planted (the skills flagged, with precision and recall),
# **does it fail to chain?** (06's diagnosis of these outcomes, and the planted composition penalty
# estimated under the simulation's own model of chaining), and how many tasks the power curve
# below needs to recover each finding 80% of the time.
#
# **Which skills are weak?** One row per skill, most suspicious first:

# %%
result.flag_table()

# %% [markdown]
# The standard analysis of stage 6 on the same outcomes: a planted skill gap shows as a low
# accuracy alone (the bottleneck rate, descriptive, also depends on where the skill stands).

# %%
result.skills[["skill", "occurrences", "isolated_accuracy", "bottleneck_rate"]].round(2)

# %% [markdown]
# **Power curve.** Each run draws fresh tasks and fresh answers; the lines show how often the
# diagnosis recovered what was planted, per number of tasks (grey: 80%).

# %%
result.figure

# %%
result.power.round(2)
