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
# # Stage 2 · Decompose
#
# A *teacher* splits each question into at most six minimal steps — one concrete action
# each, with its own intermediate answer — and solves them in order.
#
# **Consistency filter.** If the teacher's last step does not reach the gold answer, the
# decomposition cannot be trusted and the task is dropped. The reason is kept.
#
# The `oracle` teacher serves generated tasks, whose steps are known by construction.
#
# An LLM teacher writes with the project's prompts by default. With `prompts: official` and
# `official_repo: <folder>` it uses the authors' prompts instead, read at run time from a
# checkout of `ibm-granite/scaffolded-task-design` (tag `stad-acl_2026`), filled and read as
# their code does.

# %% tags=["parameters"]
from typing import Union

run_dir: str = "results/notebook-defaults"  # folder for this run's records (relative: to this notebook's folder)
teacher: Union[str, dict] = "oracle"  # "oracle" (generated tasks), "gsm8k_solution", or an LLM teacher: {"endpoint": {...}, "prompts": ...}
judge: dict = {}  # an endpoint for the LLM judge stage of the filters; empty: deterministic and math-verify only
cache_path: str = "results/cache.sqlite"  # response cache shared by all runs

# %%
from stad_utils.stages import decompose

result = decompose.run(run_dir, decompose.Params.from_cell(globals()))  # the values above, as papermill may have set them
print(result)

# %%
result.table()
