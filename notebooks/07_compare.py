# ---
# jupyter:
#   jupytext:
#     cell_metadata_filter: tags,-all
#     formats: ipynb,py:percent
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
# # Stage 7 · Compare models
#
# Two models can reach the same accuracy and still break in different places. This stage
# puts several models side by side **on the same tasks**:
#
# * paired tests — McNemar's test at each scaffold level (did A and B solve the same tasks?)
#   and a Wilcoxon signed-rank test on the help each task needed;
# * a permutation test of their **skill profiles** (blocking rate per skill): if accuracy is
#   indistinguishable but profiles differ, aggregate scores hide the difference;
# * figures: k shares with confidence intervals, success per level, a skill × model heatmap,
#   isolated vs composed accuracy per skill, and the composition gap of skill pairs;
# * validity checks on the variants (possible answer leakage, non-monotonic curves).
#
# Definitions are in `stad_utils.compare`.

# %% tags=["parameters"]
run_dir: str = "../results/notebook-defaults"  # folder for this run's records
other_runs: list = []  # further run folders (other models on the same tasks) to compare with
n_permutations: int = 1000  # permutations for the skill-profile test

# %%
# NBVAL_IGNORE_OUTPUT
# (the model's answers may differ on another CPU)
import itertools
import json

import pandas as pd

from stad_utils import Ladder, Outcome, RunPaths, read_records
from stad_utils.compare import compare_models, pair_composition_gaps, validity_checks
from stad_utils.plots import (plot_blocking_heatmap, plot_isolated_vs_composed, plot_k_shares, plot_pair_gaps,
                              plot_success_by_level)

paths = RunPaths(run_dir)
results = [o for run in [run_dir, *other_runs] for o in read_records(RunPaths(run).outcomes, Outcome.model_validate)]
ladders = read_records(paths.ladders, Ladder.model_validate)
models = sorted({o.model for o in results})
comparisons = [compare_models(results, a, b, n_permutations=n_permutations) for a, b in itertools.combinations(models, 2)]
checks = validity_checks([ladder for ladder in ladders if ladder.verified], results)
paths.comparison.write_text(json.dumps({"comparisons": comparisons, "validity": checks}, indent=2))
for comparison in comparisons:
    print(comparison["statement"])
print(f"validity checks: {checks}")

# %%
# NBVAL_IGNORE_OUTPUT
# (the model's answers may differ on another CPU)
pd.DataFrame([{"A": c["models"][0], "B": c["models"][1], **row} for c in comparisons
              for row in c.get("mcnemar_by_level", [])])

# %%
# NBVAL_IGNORE_OUTPUT
# (the model's answers may differ on another CPU)
paths.figures.mkdir(exist_ok=True)
figures = {"compare_k_shares": plot_k_shares(results), "compare_success_by_level": plot_success_by_level(results),
           "compare_blocking": plot_blocking_heatmap(results), "compare_isolated_vs_composed": plot_isolated_vs_composed(results),
           "compare_pair_gaps": plot_pair_gaps(pair_composition_gaps(results))}
for name, figure in figures.items():
    figure.savefig(paths.figures / f"{name}.png", dpi=110)
