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
# # Stage 7 · Compare models
#
# Two models can reach the same accuracy and still break in different places. This stage
# puts every pair of models side by side **on the same tasks** (a task one model did not
# answer at a level is left out of that level):
#
# * at each scaffold level, the **paired difference** A − B with a 95% interval (Newcombe's score
#   interval with one sample per task, which keeps its coverage on a handful of tasks; a paired
#   bootstrap with repeated samples, and none below 30 tasks), McNemar's exact test (Wilcoxon
#   with repeated samples) and the **smallest difference the sample could detect** — "no
#   significant difference detected" is not "the same";
# * per skill, **isolated accuracy** of A and B on the same isolated questions (McNemar's exact
#   test, Holm's correction over the skills): the most direct evidence of different skill gaps;
# * each model's **composition gap** (whole task − every step alone; negative = fails to chain,
#   see 06's glossary) and their paired difference;
# * a Wilcoxon signed-rank test on the **help each task needed**, and — descriptive — a
#   permutation test of the **bottleneck profiles** on the tasks where *both* models needed help
#   (a different k by itself moves the bottleneck step, so profiles alone never claim different
#   skill gaps);
# * figures (k shares and success per level are 06's): the paired differences, a skill × model heatmap of
#   bottleneck rates, each skill alone vs whole, and the pair composition gap of the last two
#   steps' skills (cells with at least `min_support` tasks, each with its interval and count);
# * validity checks on the variants (possible answer leakage, non-monotonic curves).
#
# The sentences, tables and checks are appended to `report.md` after 06's summary.
# Definitions: `stad_utils.definitions`.

# %% tags=["parameters"]
run_dir: str = "results/example"  # a run folder (relative: to this notebook's folder); "example" is the saved quickstart run shipped with stad_utils
other_runs: list = []  # further run folders (other models on the same tasks) to compare with
n_permutations: int = 1000  # permutations for the bottleneck-profile test
n_resamples: int = 1000  # bootstrap resamples for the paired differences
min_support: int = 5  # fewest steps (or tasks) behind a skill's comparison, profile entry or heatmap cell
max_shown: int = 12  # skills shown by name in figures; the rest are folded into "other (n skills)"
interactive: bool = True  # show the failure browser widget (the pipeline sets False: no frontend draws it)

# %%
# NBVAL_IGNORE_OUTPUT
# (the model's answers may differ on another CPU)
from IPython.display import Markdown, display

from stad_utils.stages import compare

# the values above, as papermill may have set them; a folder named "example" is filled from the saved run
result = compare.run(run_dir, compare.Params.from_cell(globals()))
display(Markdown(result.report))

# %% [markdown]
# **Reading the validity checks** (the last lines above). *N ladder(s) may leak the answer in a
# variant* counts the tasks where a scaffold level, or an isolated question before the last, states
# the task's final answer although the original question does not: such a variant can be answered by
# copying rather than reasoning, and would make help look larger than it is. It is a place to look,
# not proof of a fault: a number can also appear by coincidence (a clock time, a small count). The
# failure browser at the end of report.html lists those tasks under the filter "a variant may state
# the answer", and `comparison.json` names the first 20 (`validity.leaking_tasks`). *Non-monotonic*
# outcomes were solved at some level and failed with more help; a task *solved as asked although a
# step failed alone* questions the teacher's step answer or the wording of the isolated question.

# %%
# NBVAL_IGNORE_OUTPUT
# (the model's answers may differ on another CPU)
for figure in result.figures.values():
    display(figure)

# %% [markdown]
# The tasks on which the models disagree (a different k, or different verdicts on the same
# question), then the failure browser to read them side by side.

# %%
# NBVAL_IGNORE_OUTPUT
# (the model's answers may differ on another CPU)
result.disagreements()

# %%
# NBVAL_IGNORE_OUTPUT
# (an interactive widget; its state differs on every run)
if interactive:
    display(result.browser())
