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
# # Stage 4 · Skills
#
# Which *skill* does each step exercise? A skill should be abstract ("unit conversion",
# "percentage of a quantity"), not a story ("Janet's ducks"). So we cluster the teacher's own
# per-step skill names when it gives one for every step (the LLM teacher asks for one; the
# GSM8K-solution teacher derives one from each annotated operation). Otherwise we cluster the
# step descriptions with their story taken out: numbers, names and words too rare to be about
# method. Texts are turned into sentence embeddings and grouped by agglomerative clustering.
#
# How many skills? Not one fixed distance: the number of clusters in a range is chosen by the
# mean *silhouette* (how much closer each step is to its own cluster than to the next one).
# Each cluster is named by its most central skill name, or by the description of its most
# central step; an LLM namer can name them instead.
#
# Generated tasks carry a known label per step. When the descriptions are clustered, we can
# measure how well the clusters recover those labels (adjusted Rand index: 1 = identical,
# 0 = chance); clustering the labels themselves would make that comparison circular.
# The step → skill table is saved as CSV: edit its `skill` column and pass it back as
# `skill_map_edits` to re-apply your names.

# %% tags=["parameters"]
run_dir: str = "results/notebook-defaults"  # folder for this run's records (relative: to this notebook's folder)
embedding_model: str = "bundled:all-MiniLM-L6-v2"  # the bundled model, any sentence-transformers name/path, or "tfidf"
cluster_on: str = "auto"  # "skill" names, story-free "description"s, or "auto" (skill names if every step has one)
n_clusters: int = 0  # a fixed number of clusters (0: choose it by the silhouette criterion)
min_clusters: int = 5  # the silhouette criterion tries from this many clusters …
max_clusters: int = 30  # … up to this many (both cut to the number of distinct texts)
skill_source: str = "cluster"  # name skills by their "cluster" or by each step's own "label"
max_shown: int = 30  # tables and figures name at most this many skills …
min_share: float = 0.01  # … each with at least this share of the steps; the rest fold into "other (n skills)"
skill_map_edits: str = ""  # an edited skill_map.csv whose skill names to re-apply ("" for none)
namer: dict = {}  # an endpoint that names each cluster from its examples; empty: the most central text
cache_path: str = "results/cache.sqlite"  # response cache shared by all runs

# %% [markdown]
# Clustering is a single fit over all steps, so this stage rewrites its files rather than appending.

# %%
from stad_utils.stages import skills

result = skills.run(run_dir, skills.Params.from_cell(globals()))  # the values above, as papermill may have set them
print(result)

# %% [markdown]
# The criterion at every number of clusters tried (the kept one has the highest silhouette):

# %%
# NBVAL_IGNORE_OUTPUT
# (floating-point silhouettes)
result.mapper.scores_

# %%
result.figure

# %%
result.shares
