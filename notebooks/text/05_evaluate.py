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

# %% tags=["parameters"]
run_dir: str = "../results/notebook-defaults"  # folder for this run's records
targets: list = [{"kind": "embedded", "model": "smollm2-135m-instruct", "max_tokens": 160}]  # the model settings under diagnosis (EndpointConfig blocks)
judge: dict = {}  # an endpoint for the LLM judge stage; empty: deterministic and math-verify stages only
policy: str = "full"  # "full": every level; "on_failure": variants only for failed originals (the authors' scripts)
placebo: bool = False  # also ask each scaffold level's placebo (same length, no step solved): help from content vs form
max_error_share: float = 0.1  # the stage fails if more than this share of a target's questions errored (results are kept)
cache_path: str = "../results/cache.sqlite"  # response cache shared by all runs
export_official: str = ""  # a folder for the authors' files: their generation chain and each target's six test files ("" for none)

# %%
# NBVAL_IGNORE_OUTPUT
# (the model's replies may differ on another CPU)
from contextlib import ExitStack

from stad_utils import (Ladder, RunPaths, StepSkill, Verdict, evaluate_targets, k_distribution, open_client,
                        open_judge, outcomes, read_records, record_usage)
from stad_utils.metrics import latest_verdicts
from stad_utils.monitor import check_error_budget
from stad_utils.official import export_run
from stad_utils.stages import usage_by_option

paths = RunPaths(run_dir)
ladders = [ladder for ladder in read_records(paths.ladders, Ladder.model_validate) if ladder.verified]
skills = read_records(paths.skills, StepSkill.model_validate)
with ExitStack() as opened:
    llm_judge = opened.enter_context(open_judge(judge, cache_path=cache_path, log_dir=paths.logs))
    models = [opened.enter_context(open_client(target, cache_path=cache_path, role="target", ladders=ladders,
                                               log_dir=paths.logs))
              for target in targets]
    evaluated = evaluate_targets(ladders, models, paths.verdicts, llm_judge=llm_judge, policy=policy,
                                 placebo=placebo, progress_path=paths.progress)
for model in models:
    verdicts = evaluated[model.model]
    print(f"{model.model}: {len(verdicts)} verdicts ({sum(v.outcome == 'error' for v in verdicts)} errors, "
          f"{sum(v.outcome == 'undecided' for v in verdicts)} undecided, {sum(v.truncated for v in verdicts)} "
          f"cut off by max_tokens); model calls this run: {model.usage.calls}, from cache: {model.usage.cache_hits}")
record_usage(paths, "05_evaluate", {"target": models, "judge": llm_judge})
results = outcomes(ladders, read_records(paths.verdicts, Verdict.model_validate), skills)
paths.outcomes.write_text("".join(o.model_dump_json() + "\n" for o in results))  # derived from verdicts
if export_official:
    written = export_run(paths.root, export_official, models=[model.model for model in models])
    print(f"official files: the test script's input {written.pop('')[-1]}; "
          + "; ".join(f"{model}: {len(files)} files in {files[0].parent}" for model, files in written.items()))
check_error_budget(evaluated, max_error_share, logs=paths.logs)  # fails the stage; what was computed stays

# %% [markdown]
# What the evaluation cost, per option: repeated samples and placebo levels multiply the calls
# (a re-run is answered from the cache).

# %%
# NBVAL_IGNORE_OUTPUT
# (the model's replies may differ on another CPU)
usage_by_option(latest_verdicts(read_records(paths.verdicts, Verdict.model_validate)).values())

# %%
# NBVAL_IGNORE_OUTPUT
# (the model's replies may differ on another CPU)
{model.model: k_distribution(o for o in results if o.model == model.model) for model in models}

# %%
# NBVAL_IGNORE_OUTPUT
# (the model's replies may differ on another CPU)
import pandas as pd

pd.DataFrame([{"model": o.model, "task": o.task_id, "sample": o.sample, "K": o.n_steps, "curve": o.curve,
               "isolated": o.isolated, "k": o.k} for o in results])
