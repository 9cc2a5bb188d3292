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
# # Stage 4 · Skills
#
# Which *skill* does each step exercise? Steps are turned into sentence embeddings and
# grouped by agglomerative clustering: steps whose descriptions mean nearly the same
# thing share a skill. Each cluster is named by its most characteristic words.
#
# Generated tasks also carry a known label per step, so we can measure how well the
# clusters recover the labels (adjusted Rand index: 1 = identical, 0 = chance).
# The step → skill table is saved as CSV: edit its `skill` column and pass it back as
# `skill_map_edits` to re-apply your names.

# %% tags=["parameters"]
run_dir: str = "../results/notebook-defaults"  # folder for this run's records
embedding_model: str = "bundled:all-MiniLM-L6-v2"  # the bundled model, any sentence-transformers name/path, or "tfidf"
distance_threshold: float = 0.3  # cosine distance below which clusters merge
n_clusters: int = 0  # a fixed number of clusters instead of the threshold (0: use the threshold)
skill_source: str = "cluster"  # name skills by "cluster" (the paper's method) or by known "label"
skill_map_edits: str = ""  # an edited skill_map.csv whose skill names to re-apply ("" for none)
namer: dict = {}  # an endpoint that names each cluster from its examples; empty: its characteristic words
cache_path: str = "../results/cache.sqlite"  # response cache shared by all runs

# %%
import pandas as pd

from stad_utils import (Ladder, RunPaths, SkillMapper, apply_skill_table, label_agreement, map_skills, open_client,
                        read_records, record_usage, skill_map_table, threshold_stability)
from stad_utils.skills import name_skills_with_llm, skill_examples

paths = RunPaths(run_dir)
ladders = [ladder for ladder in read_records(paths.ladders, Ladder.model_validate) if ladder.verified]
mapper = SkillMapper(embedding_model, distance_threshold=distance_threshold, n_clusters=n_clusters or None)
skills = map_skills(ladders, mapper, skill_source=skill_source)
if namer:
    with open_client(namer, cache_path=cache_path, role="namer") as naming_model:
        skills = name_skills_with_llm(skills, naming_model)
    record_usage(paths, "04_skills", {"namer": naming_model})
if skill_map_edits:
    skills = apply_skill_table(skills, pd.read_csv(skill_map_edits))

# %% [markdown]
# Clustering is a single fit over all steps, so this stage rewrites its files rather than appending.

# %%
paths.skills.write_text("".join(s.model_dump_json() + "\n" for s in skills))
skill_map_table(skills).to_csv(paths.skill_map, index=False)
print(f"{len(skills)} steps → {mapper.n_clusters_} skills, embedded with {mapper.embedder_name_}")
print(f"agreement of clusters with known labels (ARI): {label_agreement(skills)}")

# %%
examples = skill_examples(skills)
examples.to_csv(paths.root / "skill_examples.csv", index=False)
examples

# %% [markdown]
# How stable are the clusters? Agreement with the fitted clusters at neighbouring thresholds:

# %%
# NBVAL_IGNORE_OUTPUT
# (floating-point agreement scores)
threshold_stability(mapper, [distance_threshold * f for f in (0.6, 0.8, 1.0, 1.2, 1.4)]) if len(skills) > 1 else None
