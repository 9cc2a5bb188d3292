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
# # Stage 6 · Analyse
#
# Not a score, but where the model breaks. For each model this stage reports:
#
# * the **diagnosis** first: which skills are weak and whether the model fails to chain steps it
#   can do alone. A sentence names a skill, or a composition failure, only when a test says so
#   (`stad_utils.analysis._claims`: Fisher's exact test per skill against all other steps, McNemar's exact
#   test for composition, Holm's correction over all of them, α = 0.05); otherwise it says that
#   nothing stands out, how many skills were tested and the smallest deficit the sample could
#   detect. The same claims are in `summary.json` (`diagnosis`, per model).
# * the **funnel**: tasks loaded → consistent (the teacher's last step equals the gold answer) →
#   verified (every scaffold level) → evaluated, with the number dropped for each reason.
# * **accuracy per level**: the share of tasks solved at each scaffold level *j*, over the
#   tasks *answered* there. An error (no reply) or an undecided reply is never counted as
#   wrong; it is left out and counted beside the number. Accuracy *as asked* is level 0.
# * the **minimal scaffolding level k**: how many given steps each task needed (−1: none
#   sufficed, "unresolved"). Tasks whose k stays open because of an error or an undecided
#   reply are counted apart (errors / undecided), never dropped silently.
# * the **bottleneck** of each task, **step k** — descriptive only. *Worked example* (the
#   paper's Figure 1): Janet's ducks has three steps, addition (3 + 4 eggs used), subtraction
#   (16 − 7 left) and multiplication (9 × 2 dollars). The model fails the original question and
#   scaffold 1 (addition given), and solves scaffold 2 (addition and subtraction given): k = 2,
#   and the bottleneck is step 2, subtraction. How often a skill is the bottleneck depends on
#   where it stands in its tasks (a step one before the last is at risk far more often than an
#   early one, and a last step never), so no sentence names a skill by it.
# * with repeated samples, how **stable** k is; with placebo scaffolds, the **help from
#   content** (scaffold *j* − placebo *j*).
#
# Every rate comes with a 95% interval and the number of tasks behind it. All definitions, in
# one place: `stad_utils.definitions`.
#
# **Glossary: measures of composition** (one name and one sign each, in 06, 07, 08 and the figures; all terms: `docs/glossary.md`)
#
# | name | what it is | sign |
# |---|---|---|
# | **composition gap** | whole-task success as asked − success of every step of the task asked alone, averaged over tasks (06's diagnosis, 07) | negative = fails to chain steps it can do alone |
# | **pair composition gap** | the same for the last two steps only: success with those two left (level K−2) − product of their isolated successes, per pair of skills (07's heatmap) | negative = fails to chain |
# | **composition penalty** *c* | the simulated target's planted chance that one link of a chain fails (08) | positive = fails to chain; a task of K steps then has composition gap −Π p(skill) · (1 − (1 − c)^(K−1)) |
# | isolated-vs-whole gap | a skill's isolated accuracy − success of the whole tasks containing it: descriptive, **not** a composition measure (a whole task has more steps, so it is positive even for a flawless chainer) | positive = tasks fail more often than the step |

# %% tags=["parameters"]
run_dir: str = "results/example"  # a run folder (relative: to this notebook's folder); "example" is the saved quickstart run shipped with stad_utils
n_resamples: int = 1000  # bootstrap resamples for the intervals of differences
min_support: int = 5  # fewest answered isolated questions for a skill to be tested, or tasks behind a quoted rate
max_shown: int = 12  # skills shown by name in figures; the rest are folded into "other (n skills)"
interactive: bool = True  # show the failure browser widget (the pipeline sets False: no frontend draws it)
prices: dict = {}  # USD per million tokens per model, e.g. {"gpt-4o": {"prompt": 2.5, "completion": 10}}

# %%
# NBVAL_IGNORE_OUTPUT
# (the model's answers may differ on another CPU)
from IPython.display import Markdown, display

from stad_utils.stages import analyze

# the values above, as papermill may have set them; a folder named "example" is filled from the saved run
result = analyze.run(run_dir, analyze.Params.from_cell(globals()))

# %% [markdown]
# **The diagnosis**, model by model: the sentence, then the tests it rests on (each tested skill
# asked alone against the other skills, and the composition gap, each with its 95% interval; red
# where the sentence names a weakness).

# %%
# NBVAL_IGNORE_OUTPUT
# (the model's answers may differ on another CPU)
for model, figure in result.diagnosis_figures.items():
    display(Markdown(f"**{model}**: {result.summary.models[model].diagnosis.headline}"), figure)

# %% [markdown]
# **The report** (`report.md`): the funnel, then per model its profile and the tables behind it.

# %%
# NBVAL_IGNORE_OUTPUT
# (the model's answers may differ on another CPU)
display(Markdown(result.report))

# %% [markdown]
# **The figures** (`figures/`): k, success per level, bottlenecks (descriptive) and skills.

# %%
# NBVAL_IGNORE_OUTPUT
# (the model's answers may differ on another CPU)
for figure in result.figures.values():
    display(figure)

# %% [markdown]
# **What it cost**, per stage, role and model. The seconds add up the time of every call; calls
# run at the same time, so they exceed the stage's wall-clock time (`timings.json` has that).

# %%
# NBVAL_IGNORE_OUTPUT
# (the model's answers may differ on another CPU)
result.usage_report()  # model calls, cache hits, tokens and seconds per stage, role and model

# %% [markdown] tags=["notebook-only"]
# **Read the failures.** Each task's question, steps, variants and the model's replies with their
# verdicts, filtered by k, skill, judge stage or validity flag (the same view is at the end of
# `report.html`, which opens in any browser without a kernel).

# %%
# NBVAL_IGNORE_OUTPUT
# (an interactive widget; its state differs on every run)
if interactive:
    display(result.browser())
