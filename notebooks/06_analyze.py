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
# # Stage 6 · Analyse
#
# Not a score, but where the model breaks:
#
# * the **k distribution** — how many given steps each task needed (−1: none sufficed);
# * **accuracy without and with scaffolding** — with 95% intervals from resampling tasks;
# * the **success curve** — how success grows as more steps are given;
# * per **skill**: accuracy when the step is asked alone, success of the tasks that must
#   compose it, and how often the skill sits inside the scaffold a task needed
#   (definitions in `stad_utils.analysis`). A skill solved alone but blocking when
#   composed is a *composition gap*; one failed even alone is a *skill gap*.

# %% tags=["parameters"]
run_dir: str = "../results/notebook-defaults"  # folder for this run's records
n_resamples: int = 1000  # bootstrap resamples for confidence intervals
prices: dict = {}  # USD per million tokens per model, e.g. {"gpt-4o": {"prompt": 2.5, "completion": 10}}

# %%
# NBVAL_IGNORE_OUTPUT
# (the model's answers may differ on another CPU)
import json

from stad_utils import Outcome, RunPaths, read_records, skill_table, summarize_run, written_report
from stad_utils.analysis import usage_table
from stad_utils.plots import plot_k_distribution, plot_skills, plot_success_by_level

paths = RunPaths(run_dir)
results = read_records(paths.outcomes, Outcome.model_validate)
summary = summarize_run(results, n_resamples=n_resamples)
usage = usage_table(json.loads(paths.usage.read_text()) if paths.usage.exists() else {}, prices)
summary["usage"] = usage.to_dict(orient="records")
paths.summary.write_text(json.dumps(summary, indent=2, default=float))
paths.report.write_text(written_report(paths.root.name, summary, results))
print(paths.report.read_text())

# %%
# NBVAL_IGNORE_OUTPUT
# (the model's answers may differ on another CPU)
paths.figures.mkdir(exist_ok=True)
figures = {"k_distribution": plot_k_distribution(results), "success_by_level": plot_success_by_level(results),
           "skills": plot_skills(results)}
for name, figure in figures.items():
    figure.savefig(paths.figures / f"{name}.png", dpi=110)

# %%
# NBVAL_IGNORE_OUTPUT
# (the model's answers may differ on another CPU)
usage  # model calls, cache hits, tokens and seconds per stage, role and model
