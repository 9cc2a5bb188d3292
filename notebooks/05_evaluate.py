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
# # Stage 5 · Evaluate the target
#
# The model under diagnosis answers every question of every ladder: the original, each
# scaffold level and each isolated step — one user turn, no system prompt, greedy decoding.
# A cascade judges each answer: deterministic normalisation first, then `math-verify`,
# then (if configured) an LLM judge. Each verdict records which stage decided.
#
# From the verdicts comes each task's **success curve** over levels 0 … K−1 and its
# **minimal scaffolding level k**: 0 if solved as asked, *j* if it took *j* given steps,
# −1 if even the fullest scaffold did not help. An answer that could not be obtained (a
# server error) is an *error*, never a wrong answer; tasks it leaves undetermined are counted.

# %% tags=["parameters"]
run_dir: str = "../results/notebook-defaults"  # folder for this run's records
targets: list = [{"kind": "embedded", "model": "smollm2-135m-instruct", "max_tokens": 160, "concurrency": 1}]  # the model settings under diagnosis (EndpointConfig blocks)
judge: dict = {}  # an endpoint for the LLM judge stage; empty: deterministic and math-verify stages only
policy: str = "full"  # "full": every level; "on_failure": variants only for failed originals (the authors' scripts)
cache_path: str = "../results/cache.sqlite"  # response cache shared by all runs

# %%
# NBVAL_IGNORE_OUTPUT
# (the model's answers may differ on another CPU)
from stad_utils import (Ladder, RunPaths, StepSkill, Verdict, evaluate, k_distribution, open_client, open_judge,
                        outcomes, read_records, record_usage)

paths = RunPaths(run_dir)
ladders = [ladder for ladder in read_records(paths.ladders, Ladder.model_validate) if ladder.verified]
skills = read_records(paths.skills, StepSkill.model_validate)
models = []
with open_judge(judge, cache_path=cache_path) as llm_judge:
    for target in targets:
        with open_client(target, cache_path=cache_path, role="target") as model:
            verdicts = evaluate(ladders, model, paths.verdicts, llm_judge=llm_judge, policy=policy)
        models.append(model)
        print(f"{model.model}: {len(verdicts)} verdicts, {sum(v.error is not None for v in verdicts)} errors; "
              f"model calls this run: {model.usage.calls}, from cache: {model.usage.cache_hits}")
record_usage(paths, "05_evaluate", {"target": models, "judge": llm_judge})
results = outcomes(ladders, read_records(paths.verdicts, Verdict.model_validate), skills)
paths.outcomes.write_text("".join(o.model_dump_json() + "\n" for o in results))  # derived from verdicts

# %%
# NBVAL_IGNORE_OUTPUT
# (the model's answers may differ on another CPU)
{model.model: k_distribution(o for o in results if o.model == model.model) for model in models}

# %%
# NBVAL_IGNORE_OUTPUT
# (the model's answers may differ on another CPU)
import pandas as pd

pd.DataFrame([{"model": o.model, "task": o.task_id, "K": o.n_steps, "curve": o.curve, "isolated": o.isolated, "k": o.k}
              for o in results])
