"""Does the diagnosis claim what was planted, and nothing else? A calibration battery on the full GSM8K test set.

    python benchmarks/diagnosis_calibration.py             # every table of docs/diagnosis.md (about 75 minutes)
    python benchmarks/diagnosis_calibration.py --quick     # the same tables from few runs (a few minutes), coarse
    python benchmarks/diagnosis_calibration.py --parts context --kinds none "position 0.5"   # a part, two kinds

The ladders are real: GSM8K's test set (../shared/data/gsm8k_test.jsonl, or ``--data``) decomposed
by the teacher-free `gsm8k_solution` teacher, each step's skill its operation label (1,178 kept
tasks, 3,869 steps). The targets are simulated with the model of `stad_utils.models._simulated`
(no model is called): step *i* of a task of K steps is done alone with chance

    logit p = logit(its skill's planted accuracy) − position drop · (i − 1) − length drop · (K − 1) + task SD · z

(`stad_utils.models.step_chance`; z ~ N(0, 1) once per task; every context effect 0 unless a
scenario plants it), each link of a chain holds with 1 − the composition penalty, and a question
is right when every step and link it needs holds — the same draws for every question of a task
(*coupled*). Two scenarios instead draw every question independently, as a noisy real model would
answer. For speed the draws are vectorised and go straight into outcomes (no replies, no judge);
the claims are then made by the project's own code on those outcomes: `stad_utils.analysis.diagnose`,
what 06 runs. Its weak-skill test shuffles tasks ``--shuffles`` times per run (1,000 here; a report
shuffles 10,000 times: here the p-values are coarser, p ≥ 1/1,001, and a little conservative).

Three parts (``--parts``):

**planted**: the scenarios this battery was first written with (controls, composition
penalties, weak skills early and last, two weak skills), at full size (every kept task, fresh
draws per run) and on 90-task samples (fresh tasks and draws per run). Printed per scenario and
size: how often the claims are exactly right (the planted skills, most severe first, and a
composition failure exactly when a penalty was planted), detection (each planted weakness
claimed), false flags (a skill named that was not planted, or a composition failure without a
penalty), ranking accuracy (two planted skills flagged in the order of their planted accuracy).
Then the coverage of the 95% intervals the report shows, against the truth of each run (the
planted accuracy of a skill; for the other skills, the composition gap and accuracy as asked,
the mean over the run's tasks of what the planted parameters give), by the n behind the
interval; the coverage of 07's paired level-0 differences between two simulated targets on 5–90
tasks; and the bottleneck rate by step position under a control (why it no longer leads:
`stad_utils.definitions`). Planted values differ from the quickstart's. Those marked "not
designed for" were added after the rules were written and were never used to choose them.

**context**: can a harder context fake a weak skill (issue #30)? Eight kinds of context (`KINDS`:
none; per-task difficulty, logit SD 1.0 and 1.5; longer tasks harder, logit drop 0.2 and 0.5 per
extra step; later steps harder, 0.2 and 0.5 per position; and position 0.2 + length 0.2 + SD 1.0),
each crossed with: nothing planted (the controls), one weak skill 10, 15 or 20 points below 0.95
(an early one, 'fraction of a quantity', and a late one, 'sum of several quantities', chosen by
rule in `choose_skills`; the deficit is planted at the reference place — step 1 of a one-step
task of median difficulty — so under the context effects it is larger against the skill's
neighbours, see the table of realised deficits), and a composition penalty of 0.25. At 150 tasks
(fresh tasks and draws per run) and at full size. On the same draws of each run, two rules:

* **unadjusted**, the rule before issue #30: each skill's crude one-sided Fisher p against every
  other step pooled (`weak_skill_tests`' ``crude_p``) and the composition p (`composition_gap`) in
  one Holm family; a skill named when its adjusted p < 0.05 and its crude deficit > 0;
* **adjusted**: `diagnose` (each skill against its neighbours, the steps at the same position in
  tasks of the same length, by the task shuffle; the two context tests; the composition test; one
  Holm family).

Printed: false weak-skill claims on the controls, per kind and pooled, and over every scenario of
a kind (a skill named that was not planted); power (the planted skill named) per kind, deficit and
size, and pooled; the realised deficits; how often each context is named (position, length) and
false context claims (a context named that was not planted); composition claims with and without
a penalty; how often a skill was *inseparable* or *unconfirmed*.

**quickstart**: the quickstart's planted targets on its 30 generated tasks (word and time, 2–3
steps): the battery's own (multiplication 0.4, penalty 0.3, new tasks per run) and the two of
``params/quickstart.yaml`` (multiplication 0.1; penalty 0.36; its tasks, new draws per run), both
rules, each run's claims by `diagnose` with the report's 10,000 shuffles.

``--out FOLDER`` also writes every cell's rates as CSV (``planted.csv``, ``context.csv``,
``quickstart.csv``).
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
import warnings
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "gsm8k_test.jsonl"

from stad_utils.analysis import (  # noqa: E402
    Diagnosis,
    composition_gap,
    diagnose,
    isolated_steps,
    paired_difference_interval,
    run_chain,
    share_estimates,
    task_funnel,
    weak_skill_tests,
)
from stad_utils.analysis._stats import SHUFFLES, holm  # noqa: E402
from stad_utils.analysis._wording import headline  # noqa: E402
from stad_utils.definitions import ALPHA  # noqa: E402
from stad_utils.method import (  # noqa: E402
    GSM8KSolutionTeacher,
    OracleTeacher,
    SkillMapper,
    build_ladders,
    decompose,
    is_non_monotonic,
    map_skills,
    minimal_scaffolding_level,
    outcomes,
)
from stad_utils.models import EndpointConfig, SimulatedTarget, step_chance  # noqa: E402
from stad_utils.records import Outcome  # noqa: E402
from stad_utils.tasks import generate_tasks, load_benchmark  # noqa: E402

SAMPLE_SIZE = 90
N_BINS = [(1, 10), (11, 30), (31, 100), (101, 300), (301, 10**6)]
CONTEXT_SAMPLE = 150
BASE = 0.95
DEFICITS = (0.10, 0.15, 0.20)
CONTEXT_PENALTY = 0.25
KINDS = {
    "none": {},
    "task SD 1.0": {"task_logit_sd": 1.0},
    "task SD 1.5": {"task_logit_sd": 1.5},
    "length 0.2": {"length_logit_drop": 0.2},
    "length 0.5": {"length_logit_drop": 0.5},
    "position 0.2": {"position_logit_drop": 0.2},
    "position 0.5": {"position_logit_drop": 0.5},
    "position 0.2 + length 0.2 + task SD 1.0": {"position_logit_drop": 0.2, "length_logit_drop": 0.2,
                                                "task_logit_sd": 1.0},
}
"""The context kinds of the context part: each a set of `Scenario` context effects (logit scale)."""


@dataclass
class Tasks:
    """The kept GSM8K tasks as padded arrays: ``skill[t, i]`` (index into ``names``, −1 past K) and ``k[t]``."""

    ids: list[str]
    names: list[str]
    skill: np.ndarray
    n_steps: np.ndarray

    def subset(self, rows: np.ndarray) -> Tasks:
        """The tasks of ``rows``."""
        return Tasks([self.ids[r] for r in rows], self.names, self.skill[rows], self.n_steps[rows])


@dataclass
class Scenario:
    """One planted target: accuracy per skill ("default": the rest), composition penalty, context effects."""

    name: str
    accuracy: dict[str, float]
    penalty: float = 0.0
    independent: bool = False
    designed: bool = True
    position_logit_drop: float = 0.0
    length_logit_drop: float = 0.0
    task_logit_sd: float = 0.0
    planted_skills: list[str] = field(init=False)

    def __post_init__(self):
        default = self.accuracy.get("default", BASE)
        weak = [(p, s) for s, p in self.accuracy.items() if s != "default" and p < default]
        self.planted_skills = [s for _, s in sorted(weak)]  # most severe first

    @property
    def effects(self) -> dict[str, float]:
        """The context effects, as keyword arguments of `step_chance`."""
        return {"position_logit_drop": self.position_logit_drop, "length_logit_drop": self.length_logit_drop,
                "task_logit_sd": self.task_logit_sd}

    @property
    def planted_contexts(self) -> set[str]:
        """The contexts a claim may name: "position" and "length" when their drop is planted."""
        return {context for context, drop in (("position", self.position_logit_drop),
                                              ("length", self.length_logit_drop)) if drop}


def load_tasks(data: Path = DATA) -> tuple[Tasks, dict]:
    """GSM8K's verified ladders of the `gsm8k_solution` teacher as arrays, and the task funnel."""
    teacher = GSM8KSolutionTeacher()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tasks = load_benchmark("gsm8k", data)
        decompositions = decompose(tasks, teacher)
        ladders = build_ladders(decompositions, teacher)
    kept = [ladder for ladder in ladders if ladder.verified]
    names = sorted({step.skill for ladder in kept for step in ladder.steps})
    skill = np.full((len(kept), 6), -1)
    for row, ladder in enumerate(kept):
        skill[row, :ladder.n_steps] = [names.index(step.skill) for step in ladder.steps]
    funnel = task_funnel(tasks, decompositions, ladders, [Outcome.model_construct(task_id=ladder.task_id)
                                                          for ladder in kept])
    n_steps = np.array([ladder.n_steps for ladder in kept])
    return Tasks([ladder.task_id for ladder in kept], names, skill, n_steps), funnel


def planted_accuracy(tasks: Tasks, scenario: Scenario) -> np.ndarray:
    """Tasks × 6: each step's planted skill accuracy (NaN past K), before any context effect."""
    default = scenario.accuracy.get("default", BASE)
    per_skill = np.array([scenario.accuracy.get(name, default) for name in tasks.names] + [np.nan])
    return per_skill[tasks.skill]  # −1 picks the NaN


def step_chances(tasks: Tasks, scenario: Scenario, rng: np.random.Generator) -> np.ndarray:
    """Tasks × 6: each step's chance of being done alone (NaN past K), with the scenario's context effects.

    A task's difficulty z is drawn from ``rng`` only when a task SD is planted, so the scenarios
    without one draw exactly as before the context effects existed.
    """
    accuracy = planted_accuracy(tasks, scenario)
    z = rng.standard_normal(len(tasks.ids))[:, None] if scenario.task_logit_sd else 0.0
    return step_chance(accuracy, np.arange(1, 7)[None, :], tasks.n_steps[:, None], z, **scenario.effects)


def simulate(tasks: Tasks, scenario: Scenario, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(curve: tasks × 6 levels, isolated: tasks × 6 steps) as 1/0, NaN past K."""
    chance = step_chances(tasks, scenario, rng)
    present = ~np.isnan(chance)
    can = (rng.random(chance.shape) < chance) | ~present
    link = rng.random(chance.shape) >= scenario.penalty  # link i joins steps i and i + 1
    link[:, -1] = True
    last = tasks.n_steps - 1
    link[np.arange(len(last)), last] = True  # no link after step K
    link |= ~present
    if scenario.independent:  # every question its own draw, with the chance the coupled model gives it
        whole = np.flip(np.cumprod(np.flip(np.where(present, chance, 1.0), 1), 1), 1)
        links_left = np.clip(tasks.n_steps[:, None] - 1 - np.arange(6)[None, :], 0, None)
        whole = whole * (1 - scenario.penalty) ** links_left
        curve = rng.random(chance.shape) < whole
        isolated = rng.random(chance.shape) < chance
    else:
        held = can & link  # step i done and the link after it holds (vacuous after K)
        curve = np.flip(np.cumprod(np.flip(held, 1), 1), 1).astype(bool)  # level j needs steps j+1…K and links
        isolated = can
    levels = np.arange(6)[None, :] < tasks.n_steps[:, None]
    return np.where(levels, curve, np.nan), np.where(present, isolated, np.nan)


def outcomes_of(tasks: Tasks, curve: np.ndarray, isolated: np.ndarray, model: str = "simulated") -> list[Outcome]:
    """One `Outcome` per task from the draws, as 05 would record them (one sample, policy full)."""
    items = []
    for row, task_id in enumerate(tasks.ids):
        n = int(tasks.n_steps[row])
        levels = [bool(x) for x in curve[row, :n]]
        items.append(Outcome.model_construct(
            task_id=task_id, model=model, source="gsm8k", n_steps=n,
            skills=[tasks.names[s] for s in tasks.skill[row, :n]], curve=levels,
            isolated=[bool(x) for x in isolated[row, :n]], placebo=[], k=minimal_scaffolding_level(levels),
            undetermined_by=None, non_monotonic=is_non_monotonic(levels), n_errors=0, n_undecided=0, truncated=[],
            sample=0, policy="full", simulated=True))
    return items


def truths(tasks: Tasks, scenario: Scenario) -> dict:
    """What the planted parameters give for this run's tasks: per-skill accuracy, composition gap, as asked.

    For the scenarios of the planted part, which plant no context effect.
    """
    accuracy = planted_accuracy(tasks, scenario)
    alone = np.nanprod(accuracy, axis=1)
    chained = alone * (1 - scenario.penalty) ** (tasks.n_steps - 1)
    default = scenario.accuracy.get("default", BASE)
    return {"skill": {name: scenario.accuracy.get(name, default) for name in tasks.names},
            "occurrences": accuracy, "gap": float(np.mean(chained - alone)), "as_asked": float(np.mean(chained))}


def n_bin(n: float) -> str:
    """The label of the n bin ``n`` falls in."""
    low, high = next((low, high) for low, high in N_BINS if low <= n <= high)
    return f"{low}–{high}" if high < 10**6 else f"> {low - 1}"


class Coverage:
    """Counts of intervals that cover their truth, per (interval, n bin)."""

    def __init__(self):
        self.hits: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])

    def add(self, kind: str, n: float, low, high, truth: float) -> None:
        """Count one interval (skipped when it has no bounds)."""
        if low is None or high is None or np.isnan(low) or np.isnan(high):
            return
        cell = self.hits[kind, n_bin(n)]
        cell[0] += int(low - 1e-12 <= truth <= high + 1e-12)
        cell[1] += 1

    def table(self) -> pd.DataFrame:
        """Coverage per interval and n bin."""
        rows = [{"interval": kind, "n": bin_, "intervals": total, "coverage": hits / total}
                for (kind, bin_), (hits, total) in self.hits.items()]
        order = {f"{low}–{high}" if high < 10**6 else f"> {low - 1}": i for i, (low, high) in enumerate(N_BINS)}
        return pd.DataFrame(rows).sort_values(["interval", "n"], key=lambda c: c.map(order) if c.name == "n" else c)


def record_coverage(coverage: Coverage, diagnosis, items: list[Outcome], tasks: Tasks, truth: dict) -> None:
    """Count the intervals of one run against its truth."""
    tests = weak_skill_tests(isolated_steps(items), shuffles=1)  # the intervals only: no shuffle needed
    rest = share_estimates(tests["rest_right"], tests["rest_asked"])
    accuracy = truth["occurrences"]
    for row, rest_low, rest_high in zip(tests.itertuples(), rest["low"], rest["high"]):
        coverage.add("isolated accuracy of a skill (Wilson)", row.asked, row.low, row.high, truth["skill"][row.skill])
        others = accuracy[(tasks.skill != tasks.names.index(row.skill)) & (tasks.skill >= 0)]
        coverage.add("other skills' accuracy (Wilson)", row.rest_asked, rest_low, rest_high, float(np.mean(others)))
    effect = diagnosis.composition_effect
    if effect is not None and effect.value is not None:
        coverage.add("composition gap (Newcombe)", effect.n, *effect.ci95, truth["gap"])
    solved = sum(o.curve[0] for o in items)
    share = share_estimates([solved], [len(items)]).iloc[0]
    coverage.add("accuracy as asked (Wilson)", len(items), share["low"], share["high"], truth["as_asked"])


def verdict(diagnosis, scenario: Scenario) -> dict:
    """The planted part's read-out of one run's `diagnose`."""
    flagged = diagnosis.weak_skills
    planted = scenario.planted_skills
    composition = diagnosis.composition_failure
    return {
        "exactly right": flagged == planted and composition == (scenario.penalty > 0),
        "detection": (np.mean([s in flagged for s in planted] + ([composition] if scenario.penalty else []))
                      if planted or scenario.penalty else np.nan),
        "false flag": bool(set(flagged) - set(planted)) or (composition and not scenario.penalty),
        "ranking": (flagged[:len(planted)] == planted) if len(planted) > 1 else np.nan,
    }


def run_scenario(tasks: Tasks, scenario: Scenario, runs: int, size: int | None, seed: int,
                 coverage: Coverage, shuffles: int) -> dict:
    """The planted part's rates of one scenario at one size over ``runs`` runs."""
    rng = np.random.default_rng(seed)
    results = []
    for run in range(runs):
        chosen = tasks if size is None else tasks.subset(np.sort(rng.choice(len(tasks.ids), size, replace=False)))
        curve, isolated = simulate(chosen, scenario, rng)
        items = outcomes_of(chosen, curve, isolated)
        diagnosis = diagnose(items, shuffles=shuffles, seed=run)
        results.append(verdict(diagnosis, scenario))
        record_coverage(coverage, diagnosis, items, chosen, truths(chosen, scenario))
    frame = pd.DataFrame(results)
    return {"runs": runs, **{column: frame[column].astype(float).mean() for column in frame.columns}}


def paired_level_coverage(tasks: Tasks, runs: int, seed: int) -> pd.DataFrame:
    """07's level-0 interval for A − B (two coupled targets on the same tasks) at 5–90 tasks."""
    first = Scenario("A", {"default": 0.9})
    second = Scenario("B", {"default": 0.9, tasks.names[0]: 0.5}, penalty=0.1)
    rng = np.random.default_rng(seed)
    rows = []
    for size in (5, 10, 30, 90):
        hits = 0
        for _ in range(runs):
            chosen = tasks.subset(rng.choice(len(tasks.ids), size, replace=False))
            a = simulate(chosen, first, rng)[0][:, 0]
            b = simulate(chosen, second, rng)[0][:, 0]
            truth = truths(chosen, first)["as_asked"] - truths(chosen, second)["as_asked"]
            cells = [np.sum((a == x) & (b == y)) for x, y in ((1, 1), (1, 0), (0, 1), (0, 0))]
            low, high = paired_difference_interval(*cells)
            hits += low - 1e-12 <= truth <= high + 1e-12
        rows.append({"tasks": size, "runs": runs, "coverage (Newcombe)": hits / runs})
    return pd.DataFrame(rows)


def bottleneck_by_position(tasks: Tasks, runs: int, seed: int) -> pd.DataFrame:
    """Under a control (every step 0.95, no penalty): bottleneck rate and isolated accuracy by steps before the last."""
    control = Scenario("control", {"default": BASE})
    rng = np.random.default_rng(seed)
    at_risk, bottleneck, alone, asked = (np.zeros(6) for _ in range(4))
    for _ in range(runs):
        curve, isolated = simulate(tasks, control, rng)
        for row in range(len(tasks.ids)):
            n = int(tasks.n_steps[row])
            k = minimal_scaffolding_level([bool(x) for x in curve[row, :n]])
            for step in range(1, n + 1):
                before_last = n - step
                alone[before_last] += isolated[row, step - 1]
                asked[before_last] += 1
                if step < n and (k == -1 or k >= step):
                    at_risk[before_last] += 1
                    bottleneck[before_last] += k == step
    with np.errstate(invalid="ignore"):
        return pd.DataFrame({"steps before the last": range(6), "occurrences": asked,
                             "at risk": at_risk, "bottleneck rate": bottleneck / at_risk,
                             "isolated accuracy": alone / asked}).query("occurrences > 0")


def choose_skills(tasks: Tasks) -> dict[str, str]:
    """The planted skills, chosen by rule from the data (never 'multiplication', the quickstart's):
    among skills with ≥ 150 steps, the one least often a task's last step ("early"), the one most
    often last ("last"), and the two most frequent others ("frequent", "second").

    Prints where every skill stands in its tasks: its steps, the shares of them that are step 1,
    step 1 or 2, and the task's last step, and their mean position.
    """
    rows = []
    for index, name in enumerate(tasks.names):
        task, column = np.argwhere(tasks.skill == index).T
        rows.append((name, len(task), float(np.mean(column == 0)), float(np.mean(column <= 1)),
                     float(np.mean(column == tasks.n_steps[task] - 1)), float(np.mean(column + 1))))
    table = pd.DataFrame(rows, columns=["skill", "steps", "step 1", "step 1 or 2", "last step", "mean position"])
    print(table.sort_values("steps", ascending=False).to_markdown(index=False, floatfmt=".2f"))
    table = table[(table["steps"] >= 150) & (table["skill"] != "multiplication")]
    early = table.sort_values("last step").iloc[0]["skill"]
    last = table.sort_values("last step").iloc[-1]["skill"]
    rest = table[~table["skill"].isin([early, last])].sort_values("steps", ascending=False)["skill"].tolist()
    return {"early": early, "last": last, "frequent": rest[0], "second": rest[1]}


def scenarios(skill: dict[str, str]) -> list[Scenario]:
    """The planted part's scenarios."""
    return [
        Scenario("control: every step 0.95", {"default": 0.95}),
        Scenario("control: every step 0.80, independent draws", {"default": 0.80}, independent=True, designed=False),
        Scenario("composition only: penalty 0.25", {"default": 0.95}, penalty=0.25),
        Scenario("composition only: penalty 0.10", {"default": 0.95}, penalty=0.10, designed=False),
        Scenario(f"one weak skill, early: {skill['early']} 0.5", {skill["early"]: 0.5, "default": 0.95}),
        Scenario(f"one weak skill, last: {skill['last']} 0.5", {skill["last"]: 0.5, "default": 0.95}),
        Scenario(f"one mild weak skill: {skill['frequent']} 0.8", {skill["frequent"]: 0.8, "default": 0.95},
                 designed=False),
        Scenario(f"two weak skills: {skill['frequent']} 0.6, {skill['second']} 0.7",
                 {skill["frequent"]: 0.6, skill["second"]: 0.7, "default": 0.95}),
        Scenario(f"two weak + composition: {skill['last']} 0.45, {skill['early']} 0.65, penalty 0.15",
                 {skill["last"]: 0.45, skill["early"]: 0.65, "default": 0.9}, penalty=0.15, designed=False),
        Scenario(f"one weak skill, independent draws: {skill['second']} 0.5",
                 {skill["second"]: 0.5, "default": 0.9}, independent=True, designed=False),
    ]


def planted_part(tasks: Tasks, skill: dict[str, str], args: argparse.Namespace, started: float) -> pd.DataFrame:
    """The planted part: claims per scenario and size, interval coverage, 07's paired difference, bottlenecks."""
    coverage = Coverage()
    rows = []
    for number, scenario in enumerate(scenarios(skill)):
        for label, size, runs in (("full", None, args.full_runs), (f"~{SAMPLE_SIZE}", SAMPLE_SIZE, args.sample_runs)):
            result = run_scenario(tasks, scenario, runs, size, args.seed + 1000 * number + (size or 0), coverage,
                                  args.shuffles)
            rows.append({"scenario": scenario.name + ("" if scenario.designed else " (not designed for)"),
                         "tasks": len(tasks.ids) if size is None else size, **result})
            progress(started, f"planted | {scenario.name} | {label}")
    table = pd.DataFrame(rows)
    print(f"\n## Claims ({time.perf_counter() - started:.0f} s so far)\n")
    print(table.to_markdown(index=False, floatfmt=".3f"))
    print("\n## Coverage of the 95% intervals the report shows, by the n behind each\n")
    print(coverage.table().to_markdown(index=False, floatfmt=".3f"))
    print("\n## 07: coverage of the paired level-0 difference A − B\n")
    print(paired_level_coverage(tasks, max(args.sample_runs, 100), args.seed).to_markdown(index=False, floatfmt=".3f"))
    print("\n## Bottleneck rate by step position under a control (every step 0.95)\n")
    print(bottleneck_by_position(tasks, max(args.full_runs // 10, 3), args.seed).to_markdown(index=False,
                                                                                              floatfmt=".3f"))
    return table


# ------------------------------------------------------------------------------------------ the context part


def unadjusted_claims(items: list[Outcome], ladders=()) -> tuple[list[str], bool]:
    """(named skills, composition failure) by the rule before issue #30, from the project's own numbers:
    each skill's crude one-sided Fisher p against every other step pooled (`weak_skill_tests`' ``crude_p``)
    and the composition test's p (`composition_gap`), one Holm family at α = 0.05.
    """
    tests = weak_skill_tests(isolated_steps(items, ladders), shuffles=1)  # crude_p needs no shuffle
    gap = composition_gap(items)
    tested_gap = gap is not None and gap.p_value is not None
    p_values = [*tests["crude_p"], *([gap.p_value] if tested_gap else [])]
    if not p_values:
        return [], False
    adjusted = holm(p_values)
    named = tests.loc[(adjusted[:len(tests)] < ALPHA) & (tests["crude_effect"].to_numpy() > 0), "skill"].tolist()
    composition = bool(tested_gap and adjusted[-1] < ALPHA and gap.estimate.value is not None
                       and gap.estimate.value < 0)
    return named, composition


def context_verdict(items: list[Outcome], scenario: Scenario, shuffles: int, seed: int) -> tuple[dict, Diagnosis]:
    """Both rules' claims on one run's outcomes, against what was planted; and the run's diagnosis."""
    diagnosis = diagnose(items, shuffles=shuffles, seed=seed)
    old_named, old_composition = unadjusted_claims(items)
    planted = set(scenario.planted_skills)
    contexts = {test.context for test in diagnosis.context if test.claimed}
    effects = [test.effect for test in diagnosis.tested_skills if test.skill in planted and test.effect is not None]
    false_composition = diagnosis.composition_failure and not scenario.penalty
    return {
        "unadjusted: false skill": bool(set(old_named) - planted),
        "unadjusted: any false claim": bool(set(old_named) - planted) or (old_composition and not scenario.penalty),
        "adjusted: false skill": bool(set(diagnosis.weak_skills) - planted),
        "unadjusted: planted named": planted <= set(old_named) if planted else np.nan,
        "adjusted: planted named": planted <= set(diagnosis.weak_skills) if planted else np.nan,
        "planted inseparable": bool(planted & set(diagnosis.inseparable)) if planted else np.nan,
        "planted unconfirmed": bool(planted & set(diagnosis.unconfirmed)) if planted else np.nan,
        "realised deficit": float(np.mean(effects)) if planted and effects else np.nan,
        "inseparable": bool(diagnosis.inseparable),
        "unconfirmed": bool(diagnosis.unconfirmed),
        "position named": "position" in contexts,
        "length named": "length" in contexts,
        "false context": bool(contexts - scenario.planted_contexts),
        "unadjusted: composition": old_composition,
        "adjusted: composition": diagnosis.composition_failure,
        "adjusted: any false claim": (bool(set(diagnosis.weak_skills) - planted) or bool(contexts
                                      - scenario.planted_contexts) or false_composition),
        "smallest detectable deficit": diagnosis.smallest_detectable_effect or np.nan,
    }, diagnosis


def context_scenarios(skill: dict[str, str], kinds: list[str]) -> list[tuple[str, str, Scenario]]:
    """(kind, what is planted, scenario): each kind × (nothing; early/last skill 10/15/20 points below; penalty)."""
    result = []
    for kind in kinds:
        effects = KINDS[kind]
        result.append((kind, "nothing", Scenario(f"{kind}: nothing", {"default": BASE}, **effects)))
        for role in ("early", "last"):
            for deficit in DEFICITS:
                accuracy = {skill[role]: round(BASE - deficit, 2), "default": BASE}
                name = f"{kind}: {skill[role]} {accuracy[skill[role]]}"
                result.append((kind, f"{role} −{deficit:.2f}", Scenario(name, accuracy, **effects)))
        result.append((kind, f"penalty {CONTEXT_PENALTY}",
                       Scenario(f"{kind}: penalty {CONTEXT_PENALTY}", {"default": BASE}, penalty=CONTEXT_PENALTY,
                                **effects)))
    return result


EXAMPLES = {"nothing", "early −0.10"}
"""The cells whose first full-size run's sentences are printed as examples."""


def context_part(tasks: Tasks, skill: dict[str, str], args: argparse.Namespace,
                 started: float) -> tuple[pd.DataFrame, dict[str, str]]:
    """Every kind × planted × size: both rules on the same draws. Returns one row of rates per cell, and the
    report's sentences (`headline`) of the first full-size run of the cells in `EXAMPLES`.
    """
    rows, examples = [], {}
    for number, (kind, planted, scenario) in enumerate(context_scenarios(skill, args.kinds)):
        for label in args.context_sizes:
            size = None if label == "full" else int(label)
            runs = args.control_runs if planted == "nothing" else args.context_runs
            rng = np.random.default_rng(args.seed + 100_000 + 1000 * number + (size or 0))
            results = []
            for run in range(runs):
                chosen = tasks if size is None else tasks.subset(np.sort(rng.choice(len(tasks.ids), size,
                                                                                    replace=False)))
                curve, isolated = simulate(chosen, scenario, rng)
                rates, diagnosis = context_verdict(outcomes_of(chosen, curve, isolated), scenario, args.shuffles, run)
                results.append(rates)
                if run == 0 and size is None and planted in EXAMPLES:
                    examples[f"{kind}, {planted}"] = headline(diagnosis)
            rates = pd.DataFrame(results).astype(float).mean()
            rows.append({"kind": kind, "planted": planted, "tasks": len(chosen.ids), "runs": runs, **rates})
            progress(started, f"context | {kind} | {planted} | {label}")
    return pd.DataFrame(rows), examples


def pooled(frame: pd.DataFrame, by: list[str], columns: list[str]) -> pd.DataFrame:
    """Run-weighted means of ``columns`` per ``by`` (NaN cells left out), with the runs behind them."""
    def weighted(group: pd.DataFrame) -> pd.Series:
        result = {}
        for column in columns:
            has = group[column].notna()
            result[column] = (np.average(group.loc[has, column], weights=group.loc[has, "runs"]) if has.any()
                              else np.nan)
        return pd.Series({**result, "runs": int(group["runs"].sum())})
    result = frame.groupby(by, sort=False)[[*columns, "runs"]].apply(weighted).reset_index()
    return result.astype({"runs": int, **({"tasks": int} if "tasks" in by else {})})


def side_by_side(frame: pd.DataFrame, rows: str, columns: list[str], sizes: list[int]) -> pd.DataFrame:
    """``frame`` (one row per ``rows`` × tasks) spread: one column per size and column."""
    wide = frame.pivot(index=rows, columns="tasks", values=columns)
    order = [(column, size) for size in sizes for column in columns]
    wide = wide[order]
    wide.columns = [f"{column.split(':')[0]} ({size})" if len(columns) > 1 else f"{size}" for column, size in order]
    return wide.loc[frame[rows].drop_duplicates()]


def print_context_tables(results: pd.DataFrame) -> None:
    """The context part's tables (see the module docstring)."""
    sizes = sorted(results["tasks"].unique())
    rules = ["unadjusted: false skill", "adjusted: false skill"]
    with_all = lambda frame, by: pd.concat([pooled(frame, [by, "tasks"], rules),  # noqa: E731
                                            pooled(frame, ["tasks"], rules).assign(**{by: "all kinds"})])

    controls = results[results["planted"] == "nothing"]
    print("\n## False weak-skill claims on controls (nothing planted): unadjusted vs adjusted\n")
    table = with_all(controls, "kind")
    print(side_by_side(table, "kind", rules, sizes).to_markdown(floatfmt=".3f"))
    print(f"\n(runs per kind and size: {int(controls['runs'].max())})")

    print("\n## False weak-skill claims over every scenario of a kind (a skill named that was not planted)\n")
    table = with_all(results, "kind")
    print(side_by_side(table, "kind", rules, sizes).to_markdown(floatfmt=".3f"))
    print(f"\n(runs per kind and size: {int(pooled(results, ['kind', 'tasks'], rules)['runs'].max())})")

    weak = results[results["planted"].str.match(r"(early|last) ")].copy()
    weak["role"] = weak["planted"].str.split(" ").str[0]
    weak["deficit"] = weak["planted"].str.split("−").str[1]
    for size in sizes:
        cells = weak[weak["tasks"] == size].copy()
        cells["named"] = [f"{a:.2f} / {b:.2f}" for a, b in zip(cells["unadjusted: planted named"],
                                                                cells["adjusted: planted named"])]
        overall = pooled(cells, ["role", "deficit"], ["unadjusted: planted named", "adjusted: planted named"])
        overall["named"] = [f"{a:.2f} / {b:.2f}" for a, b in zip(overall["unadjusted: planted named"],
                                                                  overall["adjusted: planted named"])]
        overall["kind"] = "all kinds"
        both = pd.concat([cells, overall])
        wide = both.pivot(index="kind", columns=["role", "deficit"], values="named")
        wide = wide.loc[both["kind"].drop_duplicates()]
        wide.columns = [f"{role} {deficit}" for role, deficit in wide.columns]
        print(f"\n## Power at {size} tasks: the planted weak skill named (unadjusted / adjusted)\n")
        print(wide.to_markdown())
        print(f"\n(runs per cell: {int(cells['runs'].max())})")

    full = weak[weak["tasks"] == max(sizes)]
    wide = full.pivot(index="kind", columns=["role", "deficit"], values="realised deficit") * 100
    wide = wide.loc[full["kind"].drop_duplicates()]
    wide.columns = [f"{role} {deficit}" for role, deficit in wide.columns]
    print(f"\n## Realised deficits at {max(sizes)} tasks: the planted skill's neighbours − its accuracy "
          "(`diagnose`'s effect, points, mean over runs)\n")
    print(wide.to_markdown(floatfmt=".1f"))

    print("\n## The report's smallest detectable deficit on the controls (points against the neighbours, mean)\n")
    table = pooled(controls, ["kind", "tasks"], ["smallest detectable deficit"])
    table["smallest detectable deficit"] *= 100
    print(side_by_side(table, "kind", ["smallest detectable deficit"], sizes).to_markdown(floatfmt=".1f"))

    print("\n## Context named (every scenario of a kind pooled): position, length, and false context claims\n")
    table = pooled(results, ["kind", "tasks"], ["position named", "length named", "false context"])
    print(side_by_side(table, "kind", ["position named", "length named", "false context"], sizes).to_markdown(
        floatfmt=".3f"))

    print("\n## Composition: claimed with a penalty planted, and without (false), both rules\n")
    composition = results.assign(penalty=np.where(results["planted"].str.startswith("penalty"), "planted",
                                                  "not planted"))
    table = pooled(composition, ["penalty", "tasks"], ["unadjusted: composition", "adjusted: composition"])
    print(table.to_markdown(index=False, floatfmt=".3f"))

    print("\n## Inseparable and unconfirmed skills, and any false claim of the adjusted diagnosis\n")
    table = pooled(results, ["tasks"], ["inseparable", "unconfirmed", "planted inseparable", "planted unconfirmed",
                                        "false context", "unadjusted: any false claim", "adjusted: any false claim"])
    print(table.astype({"tasks": str, "runs": str}).to_markdown(index=False, floatfmt=".3f"))


# ------------------------------------------------------------------------------------------ the quickstart


def quickstart_yaml_chain():
    """``params/quickstart.yaml``'s 30 tasks (seed 0, word and time, 2–3 steps, numbers ≤ 5), ladders and skills
    (named by the generator's labels, which the quickstart's description clusters recover exactly).
    """
    tasks = generate_tasks(30, seed=0, families=("word", "time"), min_steps=2, max_steps=3, max_number=5)
    teacher = OracleTeacher()
    ladders = [ladder for ladder in build_ladders(decompose(tasks, teacher), teacher) if ladder.verified]
    labels = {step.skill for ladder in ladders for step in ladder.steps}
    skills = map_skills(ladders, SkillMapper("tfidf", n_clusters=len(labels)), skill_source="label")
    return ladders, skills


QUICKSTART_TARGETS = {
    "battery's: multiplication 0.4, penalty 0.3 (new tasks per run)":
        ({"step_accuracy": {"multiplication": 0.4, "default": 0.95}, "composition_penalty": 0.3}, "new"),
    "quickstart.yaml: multiplication 0.1": ({"step_accuracy": {"multiplication": 0.1, "default": 0.95}}, "yaml"),
    "quickstart.yaml: penalty 0.36": ({"step_accuracy": {"default": 0.95}, "composition_penalty": 0.36}, "yaml"),
}


def quickstart_part(runs: int, started: float) -> pd.DataFrame:
    """The quickstart's planted targets over ``runs`` seeds: both rules' claims."""
    yaml_ladders, yaml_skills = quickstart_yaml_chain()
    columns = {}
    for name, (simulation, tasks) in QUICKSTART_TARGETS.items():
        planted = ["multiplication"] if "multiplication" in simulation["step_accuracy"] else []
        rows = []
        for seed in range(runs):
            if tasks == "new":
                chain = run_chain(30, {**simulation, "seed": seed}, seed=seed, families=("word", "time"),
                                  min_steps=2, max_steps=3)
                items, ladders = chain.outcomes, chain.ladders
            else:
                target = SimulatedTarget(EndpointConfig(kind="simulated", model="quickstart",
                                                        simulation={**simulation, "seed": seed}), yaml_ladders)
                ladders = yaml_ladders
                items = outcomes(ladders, target.direct_verdicts(), yaml_skills)
            diagnosis = diagnose(items, ladders)  # the report's 10,000 shuffles
            old_named, old_composition = unadjusted_claims(items, ladders)
            rows.append({
                "unadjusted: names exactly the planted skill": old_named == planted,
                "adjusted: names exactly the planted skill": diagnosis.weak_skills == planted,
                "unadjusted: another skill named": bool(set(old_named) - set(planted)),
                "adjusted: another skill named": bool(set(diagnosis.weak_skills) - set(planted)),
                "adjusted: multiplication inseparable": "multiplication" in diagnosis.inseparable,
                "adjusted: multiplication unconfirmed": "multiplication" in diagnosis.unconfirmed,
                "adjusted: a context named": any(test.claimed for test in diagnosis.context),
                "unadjusted: composition failure": old_composition,
                "adjusted: composition failure": diagnosis.composition_failure,
                "adjusted: both planted truths named": (diagnosis.weak_skills == planted
                                                        and diagnosis.composition_failure
                                                        == bool(simulation.get("composition_penalty"))),
            })
        columns[name] = pd.DataFrame(rows).astype(float).mean()
        progress(started, f"quickstart | {name}")
    table = pd.DataFrame(columns)
    print(f"\n## The quickstart's planted targets on its 30 generated tasks ({runs} runs each)\n")
    print(table.to_markdown(floatfmt=".2f"))
    return table


# ------------------------------------------------------------------------------------------ main


def progress(started: float, what: str) -> None:
    """One line of progress on stderr."""
    print(f"[{time.perf_counter() - started:6.0f} s] {what}", file=sys.stderr, flush=True)


QUICK = {"full_runs": 10, "sample_runs": 20, "control_runs": 20, "context_runs": 10, "quickstart_runs": 10}
FULL = {"full_runs": 100, "sample_runs": 200, "control_runs": 40, "context_runs": 40, "quickstart_runs": 50}


def main(argv: list[str] | None = None) -> int:
    """Run the parts asked for and print their tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--parts", nargs="+", choices=["planted", "context", "quickstart"],
                        default=["planted", "context", "quickstart"], help="the parts to run")
    parser.add_argument("--quick", action="store_true",
                        help=f"few runs for a quick look: {QUICK} unless given (full: {FULL})")
    parser.add_argument("--full-runs", type=int, help="planted part: runs per scenario on every kept task")
    parser.add_argument("--sample-runs", type=int,
                        help=f"planted part: runs per scenario on {SAMPLE_SIZE}-task samples")
    parser.add_argument("--control-runs", type=int, help="context part: runs per control (nothing planted) and size")
    parser.add_argument("--context-runs", type=int, help="context part: runs per planted scenario and size")
    parser.add_argument("--context-sizes", nargs="+", default=[str(CONTEXT_SAMPLE), "full"],
                        help="context part: sizes ('full' or a number of tasks)")
    parser.add_argument("--kinds", nargs="+", default=list(KINDS), choices=list(KINDS), metavar="KIND",
                        help=f"context part: the context kinds, of {list(KINDS)}")
    parser.add_argument("--quickstart-runs", type=int, help="quickstart part: runs per target")
    parser.add_argument("--shuffles", type=int, default=1000, help=f"task shuffles per weak-skill test (a report: "
                        f"{SHUFFLES}; the quickstart part uses the report's)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data", type=Path, default=DATA, help="GSM8K's test set (jsonl)")
    parser.add_argument("--out", type=Path, help="a folder for the cells' rates as CSV")
    args = parser.parse_args(argv)
    for name, value in (QUICK if args.quick else FULL).items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    started = time.perf_counter()
    given = argv if argv is not None else sys.argv[1:]
    print(f"command: python {shlex.join(['benchmarks/diagnosis_calibration.py', *given])}")
    print(f"runs: {({name: getattr(args, name) for name in FULL})}, shuffles {args.shuffles}\n")
    tables = {}
    if {"planted", "context"} & set(args.parts):
        tasks, funnel = load_tasks(args.data)
        print(f"GSM8K funnel: {funnel}\n")
        skill = choose_skills(tasks)
        print(f"\nplanted skills: {skill}")
        if "planted" in args.parts:
            tables["planted"] = planted_part(tasks, skill, args, started)
        if "context" in args.parts:
            tables["context"], examples = context_part(tasks, skill, args, started)
            print_context_tables(tables["context"])
            print("\n## The report's sentences for the first full-size run of some cells (`headline`)\n")
            for cell, sentences in examples.items():
                print(f"- **{cell}**: {sentences}\n")
    if "quickstart" in args.parts:
        tables["quickstart"] = quickstart_part(args.quickstart_runs, started)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        for name, table in tables.items():
            table.to_csv(args.out / f"{name}.csv", index=name == "quickstart")
    print(f"\n{time.perf_counter() - started:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
