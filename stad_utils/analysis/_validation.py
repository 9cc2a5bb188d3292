"""Does the diagnosis find a weakness that is known to be there, and with how many tasks?

A `SimulatedTarget` with planted weaknesses (a step accuracy per skill, a composition
penalty) answers generated tasks; the chain runs as for any model (`run_chain`: tasks → the
oracle teacher's ladders → skills → evaluate → outcomes), and two read-outs of the outcomes
are compared with what was planted.

**Weak skills** (`stad_utils.analysis.flag_weak_skills`, the rule the report's diagnosis uses).
For each skill *s*, a one-sided Fisher exact test of "a step of *s* asked alone is answered
right as often as a step of any other skill" against "less often", over the decided isolated
questions, each distinct question (and sample) counted once; the p-values of all skills are
adjusted with Holm's step-down method and a skill is flagged when its adjusted p-value is
below α (0.05): the chance of flagging any skill of a target without weaknesses is then at
most α, however many skills there are. Precision and recall compare the flagged skills with
the planted ones (`Simulation.weak_skills`).

**Composition penalty** (`estimate_composition_penalty`). For each outcome take the lowest
level *j* whose remaining steps *j*+1…K were each answered right alone and that leaves at
least two of them; it was solved with chance (1 − *c*)^(K−*j*−1) if one link of a chain fails
with chance *c*. The estimate is the maximum-likelihood *c* over those items, with a 95%
likelihood-ratio interval. A failure among them is impossible without a penalty, so a
penalty is always detected once one occurs; what the number of tasks buys is precision.

**Recovery** of one run: the skills are recovered when the flagged set equals the planted
set; the penalty when the estimate lies within ``penalty_tolerance`` (0.1) of the planted
value. `power_curve` repeats the chain with fresh tasks and fresh draws and reports how
often each is recovered per number of tasks, and `tasks_needed` the first number of tasks
at which a rate reaches 80%.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.optimize import brentq, minimize_scalar
from scipy.stats import chi2

from ..method import OracleTeacher, SkillMapper, build_ladders, decompose, evaluate, map_skills
from ..method import outcomes as outcomes_of
from ..models import EndpointConfig, SimulatedTarget, Simulation
from ..records import Ladder, Outcome, StepSkill, Task
from ..tasks import FAMILIES, generate_tasks
from ._claims import flag_weak_skills

PLANTED = {"step_accuracy": {"subtraction": 0.4, "add minutes to a clock time": 0.75, "default": 0.95},
           "composition_penalty": 0.3}
"""The weaknesses the notebook and the benchmark plant: one strong and one mild skill gap, and a penalty."""


@dataclass
class Chain:
    """What one run of the chain produced."""

    tasks: list[Task]
    ladders: list[Ladder]
    skills: list[StepSkill]
    target: SimulatedTarget
    outcomes: list[Outcome]


def run_chain(n_tasks: int, simulation: dict, *, seed: int = 0, families: Sequence[str] = FAMILIES,
              min_steps: int = 2, max_steps: int = 4, name: str | None = None, store: Path | str | None = None,
              placebo: bool = False) -> Chain:
    """Generate tasks, build the oracle teacher's ladders, map skills, ask a simulated target.

    Parameters
    ----------
    n_tasks, seed, families, min_steps, max_steps : the generated tasks (`generate_tasks`).
    simulation : the target's ``simulation`` block (`Simulation`).
    name : the target's label (default ``"simulated:planted-weakness"``).
    store : a verdict file: the target is asked through `stad_utils.method.evaluate` and every
        reply is judged; ``None``: the simulation decides the verdicts itself
        (`SimulatedTarget.direct_verdicts`, the same verdicts without replies, for power curves).
    placebo : also write and ask the placebo levels.

    Examples
    --------
    >>> chain = run_chain(20, {"composition_penalty": 0.5}, seed=1)
    >>> chain.target.model, len(chain.outcomes) == len(chain.ladders)
    ('simulated:planted-weakness', True)
    """
    tasks = generate_tasks(n_tasks, seed=seed, families=tuple(families), min_steps=min_steps, max_steps=max_steps)
    teacher = OracleTeacher()
    ladders = [ladder for ladder in build_ladders(decompose(tasks, teacher), teacher, placebo=placebo)
               if ladder.verified]
    # The generator's labels name the skills; a fixed number of clusters skips the silhouette search.
    labels = {step.skill for ladder in ladders for step in ladder.steps}
    skills = map_skills(ladders, SkillMapper("tfidf", n_clusters=len(labels)), skill_source="label")
    endpoint = EndpointConfig(kind="simulated", model="planted-weakness", name=name, simulation=simulation)
    target = SimulatedTarget(endpoint, ladders)
    verdicts = (target.direct_verdicts(placebo=placebo) if store is None
                else evaluate(ladders, target, store, placebo=placebo, progress=False))
    return Chain(tasks, ladders, skills, target, outcomes_of(ladders, verdicts, skills))


def _chain_items(items: Sequence[Outcome]) -> tuple[np.ndarray, np.ndarray]:
    """(links, solved) per outcome with a level whose remaining steps (two or more) were each solved alone."""
    links, solved = [], []
    for o in items:
        eligible = [level for level in range(o.n_steps - 1) if all(alone is True for alone in o.isolated[level:])]
        if eligible and o.curve[eligible[0]] is not None:
            links.append(o.n_steps - eligible[0] - 1)
            solved.append(o.curve[eligible[0]])
    return np.array(links, dtype=float), np.array(solved, dtype=bool)


def _log_likelihood(penalty: float, links: np.ndarray, solved: np.ndarray) -> float:
    held = (1.0 - penalty) ** links  # the chance that every link of the item holds
    chance = np.clip(np.where(solved, held, 1.0 - held), 1e-300, None)  # finite at the impossible ends
    return float(np.sum(np.log(chance)))


@dataclass(frozen=True)
class PenaltyFit:
    """The composition penalty estimated from outcomes: the maximum-likelihood ``estimate``, its
    likelihood-ratio interval ``low``–``high`` and the ``n`` chain items behind it (NaN without any).
    """

    estimate: float
    low: float
    high: float
    n: int


def estimate_composition_penalty(items: Sequence[Outcome], *, level: float = 0.95) -> PenaltyFit:
    """The chance that one link of a chain fails: maximum likelihood and a likelihood-ratio interval.

    See the module docstring for the items used.

    Examples
    --------
    >>> def outcome(task, solved):
    ...     return Outcome(task_id=task, model="m", source="s", n_steps=2, skills=["a", "b"],
    ...                    curve=[solved, True], isolated=[True, True], k=0 if solved else 1,
    ...                    non_monotonic=False, n_errors=0)
    >>> fit = estimate_composition_penalty([outcome(f"t{i}", i % 4 != 0) for i in range(100)])
    >>> round(fit.estimate, 3), fit.n, fit.low < 0.25 < fit.high
    (0.25, 100, True)
    """
    links, solved = _chain_items(items)
    if not len(links):
        return PenaltyFit(math.nan, math.nan, math.nan, 0)
    if solved.all() or not solved.any():
        best = 0.0 if solved.all() else 1.0
    else:
        best = minimize_scalar(lambda c: -_log_likelihood(c, links, solved), bounds=(0.0, 1.0),
                               method="bounded", options={"xatol": 1e-10}).x
    peak = _log_likelihood(best, links, solved)
    drop = chi2.ppf(level, df=1) / 2

    def excess(c: float) -> float:
        return peak - _log_likelihood(c, links, solved) - drop

    low = 0.0 if best == 0.0 or excess(0.0) <= 0 else brentq(excess, 0.0, best)
    high = 1.0 if best == 1.0 or excess(1.0) <= 0 else brentq(excess, best, 1.0)
    return PenaltyFit(float(best), float(low), float(high), int(len(links)))


@dataclass(frozen=True)
class Recovery:
    """How one run's diagnosis compares with what was planted.

    The ``flagged`` skills, ``precision`` (NaN when nothing is flagged), ``recall`` (NaN when
    nothing was planted), ``false_flags`` (flagged, not planted), whether the ``skills_recovered``
    (flagged = planted), the penalty fit (``penalty``, ``penalty_low``, ``penalty_high``,
    ``penalty_n``) and whether the ``penalty_recovered`` (estimate within the tolerance of the
    planted value). `dataclasses.asdict` gives the row `power_curve` and ``validation.json`` write.
    """

    flagged: list[str]
    precision: float
    recall: float
    false_flags: int
    skills_recovered: bool
    penalty: float
    penalty_low: float
    penalty_high: float
    penalty_n: int
    penalty_recovered: bool


def recovery(items: Sequence[Outcome], ladders: Sequence[Ladder], simulation: Simulation, *, alpha: float = 0.05,
             penalty_tolerance: float = 0.1) -> Recovery:
    """How one run's diagnosis (the skill-only family of `flag_weak_skills`) compares with what was planted."""
    planted = set(simulation.weak_skills())
    table = flag_weak_skills(items, ladders, alpha=alpha)
    flagged = set(table.loc[table["flagged"].astype(bool), "skill"])
    hits = len(flagged & planted)
    fit = estimate_composition_penalty(items)
    return Recovery(
        flagged=sorted(flagged), precision=hits / len(flagged) if flagged else math.nan,
        recall=hits / len(planted) if planted else math.nan, false_flags=len(flagged - planted),
        skills_recovered=flagged == planted, penalty=fit.estimate, penalty_low=fit.low, penalty_high=fit.high,
        penalty_n=fit.n,
        penalty_recovered=bool(abs(fit.estimate - simulation.composition_penalty) <= penalty_tolerance))


def power_curve(simulation: dict, sizes: Sequence[int], repetitions: int, *, seed: int = 0, alpha: float = 0.05,
                penalty_tolerance: float = 0.1, **task_options) -> pd.DataFrame:
    """`recovery` for each repetition and number of tasks: one row per (repetition, n_tasks).

    Repetition *r* runs the chain once on ``max(sizes)`` tasks generated with seed ``seed + r``
    and a target drawing with the same seed; each size uses the first ``n_tasks`` of them
    (generation is prefix-stable), so repetitions are independent and sizes within one are nested.
    ``task_options`` go to `run_chain` (``families``, ``min_steps``, ``max_steps``).
    """
    planted = Simulation.model_validate(simulation)
    rows = []
    for repetition in range(repetitions):
        run_seed = seed + repetition
        chain = run_chain(max(sizes), {**simulation, "seed": run_seed}, seed=run_seed, **task_options)
        for n_tasks in sorted(sizes):
            first = {task.task_id for task in chain.tasks[:n_tasks]}
            subset = [o for o in chain.outcomes if o.task_id in first]
            rows.append({"repetition": repetition, "n_tasks": n_tasks,
                         **asdict(recovery(subset, chain.ladders, planted, alpha=alpha,
                                           penalty_tolerance=penalty_tolerance))})
    return pd.DataFrame(rows)


def power_table(trials: pd.DataFrame, planted: Sequence[str] = ()) -> pd.DataFrame:
    """Per number of tasks, over the repetitions of `power_curve`: recovery rates and penalty estimates.

    Columns: ``n_tasks``, ``repetitions``, ``precision`` (mean over runs that flagged a skill),
    ``recall``, ``skills_recovered`` and ``any_false_flag`` (shares of runs), ``penalty_recovered``
    (share of runs), ``penalty_mean`` and ``penalty_sd`` (of the estimates), and per skill of
    ``planted`` the share of runs that flagged it (``found: <skill>``).
    """
    trials = trials.assign(any_false_flag=trials["false_flags"] > 0,
                           **{f"found: {skill}": trials["flagged"].map(lambda flagged, s=skill: s in flagged)
                              for skill in planted})
    found = {column: (column, "mean") for column in trials.columns if column.startswith("found: ")}
    return trials.groupby("n_tasks").agg(
        repetitions=("repetition", "size"), precision=("precision", "mean"), recall=("recall", "mean"),
        skills_recovered=("skills_recovered", "mean"), any_false_flag=("any_false_flag", "mean"),
        penalty_recovered=("penalty_recovered", "mean"), penalty_mean=("penalty", "mean"),
        penalty_sd=("penalty", "std"), **found).reset_index()


def tasks_needed(table: pd.DataFrame, column: str, power: float = 0.8) -> int | None:
    """The smallest number of tasks from which on ``column`` stays at or above ``power`` (None if never).

    Examples
    --------
    >>> table = pd.DataFrame({"n_tasks": [25, 50, 100, 200], "skills_recovered": [0.5, 0.85, 0.78, 0.95]})
    >>> tasks_needed(table, "skills_recovered")
    200
    """
    ordered = table.sort_values("n_tasks")
    below = ordered["n_tasks"][ordered[column] < power]
    enough = ordered["n_tasks"][ordered["n_tasks"] > below.max()] if len(below) else ordered["n_tasks"]
    return int(enough.iloc[0]) if len(enough) else None
