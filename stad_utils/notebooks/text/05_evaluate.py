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
# # Stage 5 · Evaluate the target
#
# The model under diagnosis answers every question of every ladder: the original, each
# scaffold level and each isolated step, with the settings of its endpoint block (the paper's
# protocol: the question as the only user turn, no system prompt, greedy decoding).
# A cascade judges each reply: it first reads the answer the reply *commits to* (a boxed
# value, an "Answer:" line, a JSON `answer`, or the closing sentence), then compares it by
# value (numbers, times, dates, lists), then tries `math-verify`, then (if configured) an LLM
# judge. Each verdict records its outcome — correct, wrong, *undecided* (a hedge, two
# answers, nothing a stage could compare) or *no answer* — and which stage decided.
#
# From the verdicts comes each task's **success curve** over levels 0 … K−1 and its
# **minimal scaffolding level k**: 0 if solved as asked, *j* if it took *j* given steps,
# −1 if even the fullest scaffold did not help. A reply that could not be obtained (a
# server error) is an *error*, never a wrong answer; errors and undecided verdicts leave a
# task's k undetermined, and such tasks are counted, not guessed. Several targets are
# evaluated at the same time, each verdict written as soon as it is judged.
#
# With `export_official` set to a folder, the stage also writes the authors' files: their
# generation chain, whose last file (the verified ladders) is their test script's input, and,
# per target, the six files their test script would have written (`stad_utils.official.export_run`).
#
# By default the target is a *simulated* model (no model is called): it answers a step of the
# skill "multiplication" right 10% of the time and every other step 95%, so the outputs below
# show what a diagnosis looks like when the truth is known. Replace `targets` with your endpoint.

# %% tags=["parameters"]
run_dir: str = "results/notebook-defaults"  # folder for this run's records (relative: to this notebook's folder)
targets: list = [{"name": "simulated: weak skill", "kind": "simulated", "model": "planted-weak-skill", "simulation": {"step_accuracy": {"multiplication": 0.1, "default": 0.95}, "seed": 0}}]  # the models under diagnosis (EndpointConfig blocks); e.g. {"kind": "embedded", "model": "smollm2-135m-instruct"} or {"base_url": "http://localhost:8000/v1", "model": "…"}
judge: dict = {}  # an endpoint for the LLM judge stage; empty: deterministic and math-verify stages only
policy: str = "full"  # "full": every level; "on_failure": variants only for failed originals (the authors' scripts)
placebo: bool = False  # also ask each scaffold level's placebo (same length, no step solved): help from content vs form
max_error_share: float = 0.1  # the stage fails if more than this share of a target's questions errored (results are kept)
cache_path: str = "results/cache.sqlite"  # response cache shared by all runs
export_official: str = ""  # a folder for the authors' files: their generation chain and each target's six test files ("" for none)

# %%
# NBVAL_IGNORE_OUTPUT
# (the model's replies may differ on another CPU)
from stad_utils.stages import evaluate

# the values above, as papermill may have set them; fails if a target errored too often (its results stay)
result = evaluate.run(run_dir, evaluate.Params.from_cell(globals()))
print(result)

# %% [markdown]
# What the evaluation cost, per option: repeated samples and placebo levels multiply the calls
# (a re-run is answered from the cache).

# %%
# NBVAL_IGNORE_OUTPUT
# (the model's replies may differ on another CPU)
result.cost_by_option

# %%
# NBVAL_IGNORE_OUTPUT
# (the model's replies may differ on another CPU)
result.k_distributions()

# %%
# NBVAL_IGNORE_OUTPUT
# (the model's replies may differ on another CPU)
result.outcome_table()
