"""Stage 08: does the diagnosis find what was planted? A simulated target with known weaknesses,
one run and a power curve, into the run's ``validation/`` folder.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

import pandas as pd

from ..analysis import (
    Chain,
    Diagnosis,
    PenaltyFit,
    Recovery,
    diagnosis_block,
    estimate_composition_penalty,
    flag_weak_skills,
    p_text,
    power_curve,
    power_table,
    recovery,
    run_chain,
    skill_table,
    tasks_needed,
)
from ..models import Simulation
from ..records import RunPaths, write_atomic
from ..report import plot_power
from . import StageParams, StageResult, run_paths
from ._figures import save_figures


class Params(StageParams):
    """The parameters of stage 08 (the notebook's ``parameters`` cell)."""

    n_tasks: int = 200
    seed: int = 0
    step_accuracy: dict[str, float] = {"multiplication": 0.4, "default": 0.95}
    composition_penalty: float = 0.3
    position_logit_drop: float = 0.0
    length_logit_drop: float = 0.0
    task_logit_sd: float = 0.0
    alpha: float = 0.05
    sizes: list[int] = [25, 50, 100, 200]
    repetitions: int = 10


@dataclass
class Result(StageResult):
    """What stage 08 wrote and what its notebook shows."""

    planted: Simulation | None = None
    chain: Chain | None = None
    """The single run: its tasks, ladders, skills, simulated target and outcomes."""
    flags: pd.DataFrame = field(default_factory=pd.DataFrame)
    """One row per skill, most suspicious first (`stad_utils.analysis.flag_weak_skills`)."""
    found: Recovery | None = None
    """What the single run recovered: the skills flagged, precision and recall."""
    diagnosis: Diagnosis | None = None
    """06's diagnosis of the single run (`stad_utils.analysis.diagnosis_block`)."""
    penalty_fit: PenaltyFit | None = None
    """The composition penalty estimated under the simulation's own model of chaining."""
    skills: pd.DataFrame = field(default_factory=pd.DataFrame)
    power: pd.DataFrame = field(default_factory=pd.DataFrame)
    """How often the diagnosis recovered what was planted, per number of tasks."""
    tasks_needed: dict = field(default_factory=dict)
    """Per finding, the fewest tasks on the power curve that recover it 80% of the time."""
    figure: object = None

    def __str__(self) -> str:
        """The single run against what was planted: the skills flagged, 06's diagnosis, the penalty estimated."""
        assert self.chain and self.planted and self.found and self.diagnosis and self.penalty_fit, "a run()'s Result"
        found, diagnosis, fit = self.found, self.diagnosis, self.penalty_fit
        return "\n".join([
            f"{self.chain.target.model}: {len(self.chain.outcomes)} tasks, {self.chain.target.usage.calls} replies "
            "judged",
            f"planted: {self.planted.weak_skills()}; flagged: {found.flagged}; "
            f"precision {found.precision:.2f}, recall {found.recall:.2f}",
            f"diagnosis: {diagnosis.headline}",
            f"composition penalty: planted {self.planted.composition_penalty}; estimated {fit.estimate:.3f} "
            f"(95% interval {fit.low:.3f} to {fit.high:.3f}, from {fit.n} tasks)",
            f"tasks needed for 80%: {self.tasks_needed}"])

    def flag_table(self) -> pd.DataFrame:
        """One row per skill, most suspicious first, with its p-values as the report words them."""
        return self.flags.round(3).assign(p_value=self.flags["p_value"].map(p_text),
                                          p_holm=self.flags["p_holm"].map(p_text))


def run(run: RunPaths | Path | str, params: Params | None = None) -> Result:
    """Plant, run, diagnose, and draw the power curve; write ``validation.json``, ``power.csv`` and ``power.png``."""
    paths, params = run_paths(run), params or Params()
    simulation = {"step_accuracy": params.step_accuracy, "composition_penalty": params.composition_penalty,
                  "position_logit_drop": params.position_logit_drop, "length_logit_drop": params.length_logit_drop,
                  "task_logit_sd": params.task_logit_sd, "seed": params.seed}
    planted = Simulation.model_validate(simulation)
    folder = paths.validation
    folder.mkdir(parents=True, exist_ok=True)
    verdicts = folder / "verdicts.jsonl"
    verdicts.unlink(missing_ok=True)  # the simulation is cheap and deterministic: never resume another setting's
    chain = run_chain(params.n_tasks, simulation, seed=params.seed, store=verdicts)
    found = recovery(chain.outcomes, chain.ladders, planted, alpha=params.alpha)
    diagnosis = diagnosis_block(chain.outcomes, chain.ladders, alpha=params.alpha)
    trials = power_curve(simulation, params.sizes, params.repetitions, seed=params.seed, alpha=params.alpha)
    power = power_table(trials, planted.weak_skills())
    rates = [column for column in power.columns if column.startswith("found: ")] + ["skills_recovered",
                                                                                   "penalty_recovered"]
    needed = {column: tasks_needed(power, column) for column in rates}
    figure = plot_power(power)
    written = [verdicts, write_atomic(folder / "power.csv", power.to_csv(index=False)),
               write_atomic(folder / "validation.json", json.dumps(
                   {"target": chain.target.model, "planted": planted.model_dump(), "n_tasks": params.n_tasks,
                    "alpha": params.alpha, "single_run": asdict(found), "diagnosis": diagnosis.as_dict(),
                    "tasks_needed_for_80_percent": needed}, indent=2, default=float)),
               *save_figures({"power": figure}, folder)]
    return Result(written=written, planted=planted, chain=chain,
                  flags=flag_weak_skills(chain.outcomes, chain.ladders, alpha=params.alpha), found=found,
                  diagnosis=diagnosis, penalty_fit=estimate_composition_penalty(chain.outcomes),
                  skills=skill_table(chain.outcomes), power=power, tasks_needed=needed, figure=figure)
