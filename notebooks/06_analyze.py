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
# Not a score, but where the model breaks. For each model this stage reports:
#
# * **accuracy per level**: the share of tasks solved at each scaffold level *j*, over the
#   tasks *answered* there. An error (no reply) or an undecided reply is never counted as
#   wrong; it is left out and counted beside the number. Accuracy *as asked* is level 0.
# * the **minimal scaffolding level k**: how many given steps each task needed (−1: none
#   sufficed, "unresolved"). Tasks whose k stays open because of an error or an undecided
#   reply are counted apart (errors / undecided), never dropped silently.
# * the **bottleneck** of each task: **step k**, the step whose provision turned failure into
#   success. *Worked example* (the paper's Figure 1): Janet's ducks has three steps, addition
#   (3 + 4 eggs used), subtraction (16 − 7 left) and multiplication (9 × 2 dollars). The model
#   fails the original question and scaffold 1 (addition given), and solves scaffold 2
#   (addition and subtraction given): k = 2, and the bottleneck is step 2, subtraction.
#   Giving the addition did not help; giving the subtraction did. Had scaffold 2 failed as
#   well, the task would be *unresolved*: no step is blamed.
# * per **skill**: its **bottleneck rate** (when the skill was the next step to give to a task
#   still unsolved, how often giving it solved the task), its accuracy when asked **alone**,
#   and the **isolated-vs-whole gap** (alone vs the whole tasks that contain it).
# * with repeated samples, how **stable** k is; with placebo scaffolds, the **help from
#   content** (scaffold *j* − placebo *j*).
#
# Every rate comes with a 95% interval and the number of tasks behind it; sentences name a
# skill only with at least `min_support` of them. All definitions, in one place:
# `stad_utils.definitions`.

# %% tags=["parameters"]
run_dir: str = "../results/notebook-defaults"  # folder for this run's records
n_resamples: int = 1000  # bootstrap resamples for the intervals of differences
min_support: int = 5  # fewest tasks or steps behind a rate that a sentence may quote
max_shown: int = 12  # skills shown by name in figures; the rest are folded into "other (n skills)"
prices: dict = {}  # USD per million tokens per model, e.g. {"gpt-4o": {"prompt": 2.5, "completion": 10}}

# %%
# NBVAL_IGNORE_OUTPUT
# (the model's answers may differ on another CPU)
import json

from IPython.display import Markdown, display

from stad_utils import Outcome, RunPaths, read_records, summarize_run, written_report
from stad_utils.analysis import k_stability, usage_table
from stad_utils.columnar import verdict_facts
from stad_utils.plots import analysis_figures

paths = RunPaths(run_dir)
results = read_records(paths.outcomes, Outcome.model_validate)
verdicts = verdict_facts(run_dir)  # the latest verdict of each question, without the reply texts
summary = summarize_run(results, n_resamples=n_resamples, min_support=min_support, verdicts=verdicts)
usage = usage_table(json.loads(paths.usage.read_text()) if paths.usage.exists() else {}, prices)
summary["usage"] = usage.to_dict(orient="records")
paths.summary.write_text(json.dumps(summary, indent=2, default=float))
paths.report.write_text(written_report(paths.root.name, summary))
if any(numbers["k_stability"] for numbers in summary["models"].values()):
    k_stability(results).to_csv(paths.root / "k_by_task.csv", index=False)  # k of every sample, per task
display(Markdown(paths.report.read_text()))

# %%
# NBVAL_IGNORE_OUTPUT
# (the model's answers may differ on another CPU)
paths.figures.mkdir(exist_ok=True)
for name, figure in analysis_figures(results, max_shown=max_shown, min_support=min_support,
                                    n_resamples=n_resamples).items():
    figure.savefig(paths.figures / f"{name}.png", dpi=110)

# %%
# NBVAL_IGNORE_OUTPUT
# (the model's answers may differ on another CPU)
usage  # model calls, cache hits, tokens and seconds per stage, role and model

# %% [markdown]
# **Read the failures.** Each task's question, steps, variants and the model's replies with their
# verdicts, filtered by k, skill, judge stage or validity flag (the same view is at the end of
# `report.html`, which opens in any browser without a kernel).

# %%
# NBVAL_IGNORE_OUTPUT
# (an interactive widget; its state differs on every run)
from stad_utils.browser import browser_widget

browser_widget(run_dir)
