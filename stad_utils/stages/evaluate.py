"""Stage 05: the targets answer every variant of the verified ladders, judged, into ``verdicts.jsonl``,
from which each task's curve and k are derived into ``outcomes.jsonl``.
"""

from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ..method import evaluate_targets, k_distribution, open_judge, outcomes, usage_by_option
from ..models import check_error_budget, open_client
from ..records import (
    Ladder,
    Outcome,
    RunPaths,
    StepSkill,
    Verdict,
    latest_verdicts,
    read_records,
    record_usage,
    write_atomic,
)
from . import StageParams, StageResult, run_paths


class Params(StageParams):
    """The parameters of stage 05 (the notebook's ``parameters`` cell)."""

    targets: list[dict] = [{"name": "simulated: weak skill", "kind": "simulated", "model": "planted-weak-skill",
                            "simulation": {"step_accuracy": {"multiplication": 0.1, "default": 0.95}, "seed": 0}}]
    judge: dict = {}
    policy: str = "full"
    placebo: bool = False
    max_error_share: float = 0.1
    cache_path: str = "results/cache.sqlite"
    export_official: str = ""


@dataclass
class TargetReport:
    """One target's verdicts of this invocation and what they cost."""

    model: str
    verdicts: list[Verdict]
    calls: int
    cache_hits: int

    def __str__(self) -> str:
        verdicts = self.verdicts
        return (f"{self.model}: {len(verdicts)} verdicts ({sum(v.outcome == 'error' for v in verdicts)} errors, "
                f"{sum(v.outcome == 'undecided' for v in verdicts)} undecided, {sum(v.truncated for v in verdicts)} "
                f"cut off by max_tokens); model calls this run: {self.calls}, from cache: {self.cache_hits}")


@dataclass
class Result(StageResult):
    """What stage 05 wrote and what its notebook shows."""

    targets: list[TargetReport] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    official_files: dict = field(default_factory=dict)
    """With ``export_official``: the files written, by target (``""``: the generation chain)."""
    cost_by_option: pd.DataFrame = field(default_factory=pd.DataFrame)
    """Model calls per target and option, over every invocation (`stad_utils.method.usage_by_option`)."""

    def __str__(self) -> str:
        """One line per target (its verdicts and calls), and where the authors' files went if they were asked for."""
        lines = [str(target) for target in self.targets]
        if self.official_files:
            files = dict(self.official_files)
            lines.append(f"official files: the test script's input {files.pop('')[-1]}; "
                         + "; ".join(f"{model}: {len(written)} files in {written[0].parent}"
                                     for model, written in files.items()))
        return "\n".join(lines)

    def k_distributions(self) -> dict[str, dict[str, int]]:
        """Per target, how many tasks needed each number of given steps k (`stad_utils.method.k_distribution`)."""
        return {target.model: k_distribution(o for o in self.outcomes if o.model == target.model)
                for target in self.targets}

    def outcome_table(self) -> pd.DataFrame:
        """One row per outcome: its model, task, sample, number of steps, curve, isolated verdicts and k."""
        return pd.DataFrame([{"model": o.model, "task": o.task_id, "sample": o.sample, "K": o.n_steps,
                              "curve": o.curve, "isolated": o.isolated, "k": o.k} for o in self.outcomes])


def run(run: RunPaths | Path | str, params: Params | None = None) -> Result:
    """Ask every target every question it has not answered yet, judge, derive the outcomes.

    Raises `stad_utils.models.ErrorBudgetExceeded` after writing everything when a target's
    errored share of questions exceeds ``max_error_share``: what was computed stays, and a
    re-run asks only the errored questions again.
    """
    from ..official import export_run

    paths, params = run_paths(run), params or Params()
    ladders = [ladder for ladder in read_records(paths.ladders, Ladder.model_validate) if ladder.verified]
    skills = read_records(paths.skills, StepSkill.model_validate)
    with ExitStack() as opened:
        llm_judge = opened.enter_context(open_judge(params.judge, cache_path=params.cache_path, log_dir=paths.logs))
        models = [opened.enter_context(open_client(target, cache_path=params.cache_path, role="target",
                                                   ladders=ladders, log_dir=paths.logs))
                  for target in params.targets]
        evaluated = evaluate_targets(ladders, models, paths.verdicts, llm_judge=llm_judge, policy=params.policy,
                                     placebo=params.placebo, progress_path=paths.progress)
    record_usage(paths, "05_evaluate", {"target": models, "judge": llm_judge})
    verdicts = read_records(paths.verdicts, Verdict.model_validate)
    results = outcomes(ladders, verdicts, skills)
    write_atomic(paths.outcomes, "".join(o.model_dump_json() + "\n" for o in results))
    result = Result(written=[paths.verdicts, paths.outcomes, paths.usage], outcomes=results,
                    targets=[TargetReport(model.model, evaluated[model.model], model.usage.calls,
                                          model.usage.cache_hits) for model in models],
                    cost_by_option=usage_by_option(list(latest_verdicts(verdicts).values())))
    if params.export_official:
        result.official_files = export_run(paths.root, params.export_official, models=[m.model for m in models])
        result.written += [path for files in result.official_files.values() for path in files]
    check_error_budget(evaluated, params.max_error_share, logs=paths.logs)
    return result
