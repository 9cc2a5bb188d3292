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

run_dir: str = "results/notebook-defaults"  # folder for this run's records (relative: to this notebook's folder)
teacher: Union[str, dict] = "oracle"  # "oracle" (generated tasks), "gsm8k_solution", or an LLM teacher: {"endpoint": {...}}
judge: dict = {}  # the LLM judge of the filters (an endpoint block); empty: deterministic and math-verify only
drop_single_step: bool = False  # drop one-step tasks (no scaffold level), as the authors' code does
placebo: bool = False  # also write each scaffold level's placebo: as long, true but useless statements, no step solved
cache_path: str = "results/cache.sqlite"  # response cache shared by all runs

# %%
from stad_utils.stages import scaffold

result = scaffold.run(run_dir, scaffold.Params.from_cell(globals()))  # the values above, as papermill may have set them
print(result)

# %% [markdown]
# One ladder, from the original question down to the last step:

# %%
result.first_ladder()
