"""Stage 04: steps mapped to named skills by clustering, into ``skills.jsonl`` and the editable ``skill_map.csv``."""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from ..method import SkillMapper, apply_skill_table, map_skills, name_skills_with_llm, skill_map_table, skill_summary
from ..models import open_client
from ..records import Ladder, RunPaths, StepSkill, read_records, record_usage, write_atomic
from . import StageParams, StageResult


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
    cache_path: str = "../results/cache.sqlite"


@dataclass
class Result(StageResult):
    """What stage 04 wrote and what its notebook shows."""

    skills: list[StepSkill] = field(default_factory=list)
    mapper: object = None
    """The fitted `stad_utils.method.SkillMapper` (its ``scores_`` hold the criterion at every number tried)."""
    shares: pd.DataFrame = field(default_factory=pd.DataFrame)
    """Each shown skill's share of the steps, with examples (`stad_utils.method.skill_summary`)."""


def run(paths: RunPaths, params: Params | None = None) -> Result:
    """Cluster the verified ladders' steps into skills and name them; rewrites the stage's files.

    Clustering is a single fit over all steps, so this stage rewrites its files rather than appending.
    """
    params = params or Params()
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
    return Result(written=written, skills=skills, mapper=mapper, shares=shares)
