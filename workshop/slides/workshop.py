# ---
# jupyter:
#   jupytext:
#     cell_metadata_filter: slideshow,-all
#     formats: py:percent
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

# %% [markdown] slideshow={"slide_type": "slide"}
# # Where does multi-step reasoning break?
#
# A hands-on workshop on **STaD**, Scaffolded Task Design
# (An et al., IBM Research, ACL Findings 2026)
#
# * 90 minutes, in groups of three to five
# * one notebook: `09_workshop`, on your laptop
# * you plant the weakness; the diagnosis has to find it

# %% [markdown] slideshow={"slide_type": "notes"}
# 5 minutes. Everyone has run the three install lines before the session (docs/workshop.md);
# the helper walks round while you talk.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## A score hides where a model breaks
#
# A model fails a question of three steps. Two reasons:
#
# * it **lacks a skill**: one step is wrong even when asked alone
# * it **fails to chain**: every step is right alone, the steps together are not
#
# An accuracy cannot tell them apart. STaD asks the same question again,
# **with help**, and **each step alone**.

# %% [markdown] slideshow={"slide_type": "slide"}
# <img class="whole-slide" src="docs/figures/method.png"
#      alt="The method in one picture: one task asked with more and more help, k = 2">

# %% [markdown] slideshow={"slide_type": "notes"}
# Read it top to bottom: original fails, scaffold 1 fails, scaffold 2 is solved, so k = 2.
# Then the bottom row: each step alone. This target fails to chain, yet its bottleneck is a
# skill it does well alone.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Four words
#
# * **scaffold *j***: the question with its first *j* steps already solved
# * **isolated step *i***: step *i* alone, the earlier results given
# * **k**: how many steps had to be given (0: none; −1: even all but the last did not help)
# * **bottleneck** (for k ≥ 1): step *k*, where help started to work,
#   **not** which skill is missing

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Three kinds of test, one family
#
# * **weak skill**: a skill's steps asked alone, right less often than the other steps
#   at the same position in tasks of the same length (its neighbours)
# * **harder place** (a *context claim* in the report): steps later in a task, or in
#   longer tasks, right less often whatever their skill
# * **failure to chain**: whole tasks solved less often than all their steps alone:
#   the **composition gap**, negative when it fails (McNemar's exact test)
# * Holm's correction over every test (one per skill tested, two for places, one for
#   chaining): a model without weakness gets any claim
#   with chance at most 5%
#
# **Not detected is not absent.**

# %% [markdown] slideshow={"slide_type": "slide"}
# ## How each exercise runs
#
# 1. **Predict** on the worksheet, before running anything
# 2. **Plant**: your group's values are in the notebook's parameters
# 3. **Run** the exercise's cells (10–60 seconds each)
# 4. **Read** the headline, the figure, the table
# 5. Open the folded **solution**; compare with your prediction
#
# Roles: **driver** (types), **reader** (reads results aloud), **skeptic** (asks "how sure?"),
# **scribe** (fills the worksheet)

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Exercise 1 · A missing skill
#
# Planted: one skill right alone 40% of the time, every other 95%, chaining never fails.
# Run at 30 and at 200 tasks.
#
# * How many steps of your skill are in 30 tasks?
# * Will the diagnosis name it at 30 tasks? At 200?
# * Will it name any other skill?

# %% [markdown] slideshow={"slide_type": "subslide"}
# ## Exercise 1 · What we saw (subtraction)
#
# * 30 tasks hold only 3 subtraction steps: **not tested**, so not named
# * the headline says so: "no weakness detected … detects only a deficit of about 52 points"
# * 200 tasks: **named**, right alone 25% (12%–45%, n = 24) against 100% for its neighbours
# * no other skill named, at either size

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Exercise 2 · A failure to chain
#
# Planted: every step 95% alone, each link between two steps fails with chance 0.3.
#
# * Will any skill be named weak?
# * Will a failure to chain be claimed at 30 tasks? At 200?
# * Will the gap at 200 tasks be −30 points, more negative, or less?

# %% [markdown] slideshow={"slide_type": "subslide"}
# ## Exercise 2 · What we saw
#
# * no skill named weak
# * 30 tasks: gap −17 points (−33 to −1), **not claimed**: Holm over 11 tests
# * 200 tasks: gap −30 points (−36 to −24), **claimed**
# * gap ≠ penalty: expected gap ≈ −35 points for a penalty of 0.3; the −30 seen is within its interval
# * report.html claims it at 30 tasks: penalty 0.36 and luckier draws

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Exercise 3 · Same score, different breaks
#
# Two targets on the same 200 tasks: one misses multiplication, the other fails to chain,
# planted to have the **same expected accuracy** as asked.
#
# * Will one be significantly more accurate?
# * Which has a skill named weak? Which a negative gap?
# * Could the accuracy alone tell them apart?

# %% [markdown] slideshow={"slide_type": "subslide"}
# ## Exercise 3 · What we saw
#
# * accuracy as asked: 59% and 60%, McNemar p = 1.000
# * weak skill: 'multiplication' named, gap 0 points
# * weak chaining: no skill named, gap −26 points, claimed
# * the same score, two different repairs

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Exercise 4 · Was it luck?
#
# Exercise 1 again on 20 fresh sets of tasks per size: 30, 100, 200.
#
# * In how many of 20 runs is the skill named at 30 tasks? At 100?
# * Will any run name a skill that was not planted?

# %% [markdown] slideshow={"slide_type": "subslide"}
# ## Exercise 4 · What we saw
#
# * 30 tasks: named in **2 of 20** runs
# * 100 tasks: in 18 of 20; 200 tasks: in every run
# * no run named a skill wrongly
#
# One run at 30 tasks that names nothing says little: ask how many steps were tested.

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Exercise 5 · A real model, served for the room
#
# One small model (SmolLM2-135M-Instruct) on the lecturer's laptop; its address is on the board.
# Nothing was planted.
#
# * How many of 20 tasks will it solve as asked?
# * Will the diagnosis name a weak skill, or a failure to chain?
# * If it names nothing, has the model no weakness?

# %% [markdown] slideshow={"slide_type": "slide"}
# ## Exercise 6 · A harder place, not a weak skill
#
# Planted: every skill 95% as a first step, each later step harder (logit −1.5 per position).
# No skill is weak.
#
# * Will a skill be named weak against all other steps? Against its neighbours?
# * What should the report say instead?

# %% [markdown] slideshow={"slide_type": "subslide"}
# ## Exercise 6 · What we saw
#
# * against all other steps: 'minutes between two clock times' (always a third step), 35% vs 82%
# * against its neighbours (51%): **unconfirmed**, not named
# * the report names the place: 94% right alone at step 1, 84% at step 2, 48% at step 3
#
# A harder place is a finding of its own: help it late in long tasks, not "teach this skill".

# %% [markdown] slideshow={"slide_type": "slide"}
# ## What to take away
#
# * "No weakness detected" is not "no weakness": look at what was tested
# * a claim is made only when it survives Holm's correction
# * equal accuracy, different breaks: isolated steps and the composition gap tell them apart
# * a harder place is not a weak skill: compare a skill with its neighbours
# * one run is one sample of tasks: a power curve says how many tasks a finding needs
