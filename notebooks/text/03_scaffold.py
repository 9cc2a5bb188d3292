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
# # Stage 3 · Scaffold
#
# For a task with K steps the teacher writes a **ladder** of questions:
#
# * level 0 is the original question;
# * level *j* (1 … K−1) is the question rewritten so that the first *j* steps are already
#   solved — their results are part of the wording, and the model must do the rest;
# * an **isolated** question per step asks for that step alone, earlier results given.
#
# **Verification filter.** The teacher must solve every scaffold level; a ladder with a
# level it fails is dropped, because that level may be broken rather than hard.
#
# A one-step task has no scaffold level. The authors' code drops it; `drop_single_step`
# does the same (the paper's params set it), otherwise it is kept with its original and
# isolated question only.

# %% tags=["parameters"]
from typing import Union

run_dir: str = "../results/notebook-defaults"  # folder for this run's records
teacher: Union[str, dict] = "oracle"  # "oracle" (generated tasks), "gsm8k_solution", or an LLM teacher: {"endpoint": {...}}
judge: dict = {}  # the LLM judge of the filters (an endpoint block); empty: deterministic and math-verify only
drop_single_step: bool = False  # drop one-step tasks (no scaffold level), as the authors' code does
placebo: bool = False  # also write each scaffold level's placebo: as long, true but useless statements, no step solved
cache_path: str = "../results/cache.sqlite"  # response cache shared by all runs

# %%
from stad_utils import (Decomposition, Ladder, RecordFile, RunPaths, build_ladders, open_judge, open_teacher,
                        read_records, record_usage)
from stad_utils.tables import ladder_table

paths = RunPaths(run_dir)
decompositions = read_records(paths.decompositions, Decomposition.model_validate)
consistent = [d for d in decompositions if d.consistent]
with open_teacher(teacher, cache_path=cache_path) as teaching, \
        open_judge(judge, cache_path=cache_path) as llm_judge:
    ladders = RecordFile(paths.ladders, Ladder).extend(
        consistent, key=lambda d: d.task.task_id,
        compute=lambda todo: build_ladders(todo, teaching, llm_judge, drop_single_step=drop_single_step,
                                           placebo=placebo))
record_usage(paths, "03_scaffold", {"teacher": teaching, "judge": llm_judge})
verified = [ladder for ladder in ladders if ladder.verified]
print(f"{len(verified)} of {len(ladders)} ladders pass verification")

# %% [markdown]
# One ladder, from the original question down to the last step:

# %%
ladder_table(verified[0]) if verified else None
