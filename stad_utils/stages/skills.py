"""Stage 04: steps mapped to named skills by clustering, into ``skills.jsonl`` and the editable ``skill_map.csv``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd

from ..method import (
    SkillMapper,
    apply_skill_table,
    label_agreement,
    map_skills,
    name_skills_with_llm,
    skill_map_table,
    skill_summary,
)
from ..models import open_client
from ..records import Ladder, RunPaths, StepSkill, read_records, record_usage, write_atomic
from ..report import plot_skill_shares
from . import StageParams, StageResult, run_paths


class Params(StageParams):
    """The parameters of stage 04 (the notebook's ``parameters`` cell)."""

    embedding_model: str = "bundled:all-MiniLM-L6-v2"
    cluster_on: str = "auto"
    n_clusters: int = 0
    min_clusters: int = 5
    max_clusters: int = 30
    skill_source: str = "cluster"
    max_shown: int = 30
    min_share: float = 0.01
    skill_map_edits: str = ""
    namer: dict = {}
    cache_path: str = "results/cache.sqlite"


@dataclass
class Result(StageResult):
    """What stage 04 wrote and what its notebook shows."""

    skills: list[StepSkill] = field(default_factory=list)
    mapper: SkillMapper | None = None
    """The fitted `stad_utils.method.SkillMapper` (its ``scores_`` hold the criterion at every number tried)."""
    shares: pd.DataFrame = field(default_factory=pd.DataFrame)
    """Each shown skill's share of the steps, with examples (`stad_utils.method.skill_summary`)."""
    figure: object = None
    """The shares as bars (`stad_utils.report.plot_skill_shares`)."""

    def __str__(self) -> str:
        """How many skills were found, from which texts and by which criterion, and how well they match the
        generator's labels when that can be measured without circularity.
        """
        mapper = self.mapper
        assert mapper is not None, "a Result of run() holds its mapper"
        agreement = (f"agreement of clusters with known labels (ARI): {label_agreement(self.skills)}"
                     if mapper.cluster_on_ == "description" else
                     "no ARI: the clusters were made from the labels themselves (set cluster_on='description' to "
                     "measure it)")
        return (f"{len(self.skills)} steps → {mapper.n_clusters_} skills from {mapper.cluster_on_} texts "
                f"({len(set(mapper.texts_))} distinct), embedded with {mapper.embedder_name_}\n"
                f"number of skills chosen by: {mapper.criterion_} (mean silhouette {mapper.criterion_value_:.3f})\n"
                + agreement)


def run(run: RunPaths | Path | str, params: Params | None = None) -> Result:
    """Cluster the verified ladders' steps into skills and name them; rewrites the stage's files.

    Clustering is a single fit over all steps, so this stage rewrites its files rather than appending.
    """
    paths, params = run_paths(run), params or Params()
    ladders = [ladder for ladder in read_records(paths.ladders, Ladder.model_validate) if ladder.verified]
    mapper = SkillMapper(params.embedding_model, cluster_on=params.cluster_on, n_clusters=params.n_clusters or None,
                         min_clusters=params.min_clusters, max_clusters=params.max_clusters)
    skills = map_skills(ladders, mapper, skill_source=params.skill_source)
    written = [paths.skills, paths.skill_map, paths.skill_examples]
    if params.namer:
        with open_client(params.namer, cache_path=params.cache_path, role="namer") as naming_model:
            skills = name_skills_with_llm(skills, naming_model)
        record_usage(paths, "04_skills", {"namer": naming_model})
        written.append(paths.usage)
    if params.skill_map_edits:
        skills = apply_skill_table(skills, pd.read_csv(params.skill_map_edits))
    write_atomic(paths.skills, "".join(s.model_dump_json() + "\n" for s in skills))
    write_atomic(paths.skill_map, skill_map_table(skills).to_csv(index=False))
    shares = skill_summary(skills, max_shown=params.max_shown, min_share=params.min_share)
    write_atomic(paths.skill_examples, shares.to_csv(index=False))
    figure = plot_skill_shares(shares)
    plt.close(figure)  # shown where the notebook shows it, not at the end of the cell that ran the stage
    return Result(written=written, skills=skills, mapper=mapper, shares=shares, figure=figure)
