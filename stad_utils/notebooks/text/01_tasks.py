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
# # Stage 1 · Tasks
#
# **STaD in one picture.** A model that fails a multi-step question may lack one skill, or may have
# every skill and fail to chain them. STaD (Scaffolded Task Design, An et al., ACL Findings 2026)
# tells the two apart by asking the same question again with help: a *teacher* splits each task into
# its steps (stage 2) and writes from them a *ladder* of variants (stage 3): the original; scaffold
# *j*, with the first *j* steps already solved in the text; each step asked alone; and, as this
# project's control, placebo scaffolds that restate the givens without giving any result. Every step
# is mapped to a *skill* (stage 4, e.g. "multiplication"). The *target* model answers every variant
# and a judge grades each reply (stage 5). The *minimal scaffolding level k* of a task is the fewest
# given steps with which it is solved, and step *k* is its *bottleneck*: the step whose provision
# turned failure into success. Two tests say where a model's reasoning breaks (stage 6): is a
# skill, asked alone, solved less often than the other steps (a missing skill), and are whole tasks
# solved less often than all their steps asked alone (a failure to chain them)? Bottleneck counts
# only describe; they depend on where a skill stands in its tasks. Stage 7 compares two models on
# the same tasks; stage 8 checks that a planted weakness is found. The chain writes
# `results/<run>/report.html`, which opens on that answer.
#
# This stage gives the tasks: ordinary questions with a gold answer. It loads them — from the
# built-in generator (offline, steps known exactly) or from a benchmark — normalises each
# gold answer so that it can be compared by value later, and keeps a seeded sample of N.
#
# Every task gets a stable `task_id` that follows it through every later stage.
#
# Two sources start from the authors' work: `stad_release` loads their published scaffolded
# tasks, or any final file of their pipeline (steps and variants included, served by the `oracle`
# teacher), and `official` reads their raw input rows (`question`, `answer`); rows without an `id`
# get `official-` and 12 hex digits of their question's SHA-256. A later file of their chain given
# to `official` is refused, with advice: `stad_release`, or `python -m stad_utils.official import`
# for the whole chain with its verdicts.

# %% tags=["parameters"]
run_dir: str = "results/notebook-defaults"  # folder for this run's records (relative: to this notebook's folder)
source: str = "generated"  # "generated", "gsm8k", "math_hard", "tot_arithmetic", "stad_release" or "official" (see above)
data_path: str = ""  # a local JSONL file or folder for a benchmark or the release; "" loads it from the Hugging Face hub
release: str = ""  # stad_release from a folder or the hub: which benchmark's file ("gsm8k", "math_hard", "tot_arithmetic")
n_tasks: int = 4  # how many tasks to keep (benchmarks: 0 keeps all)
seed: int = 0  # seed for generating or sampling tasks
families: list = ["word", "time"]  # generated tasks: GSM8K-style word problems and ToT-style time arithmetic
min_steps: int = 2  # generated tasks: fewest steps per task
max_steps: int = 3  # generated tasks: most steps per task (at most 6)
max_number: int = 5  # generated word problems: the largest operand
keep_format_instruction: bool = True  # ToT: keep the "Format your answer as a JSON…" instruction (the evidence: README)
skip_invalid: bool = False  # skip bad lines of a local file (and list them) instead of stopping at the first

# %%
from stad_utils.stages import tasks

result = tasks.run(run_dir, tasks.Params.from_cell(globals()))  # the values above, as papermill may have set them
print(result)

# %%
result.table()
