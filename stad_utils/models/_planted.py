"""What a simulated target is planted with: the chance of each step alone and of each link of a chain.

A `Simulation` is the ``simulation`` block of a ``kind: simulated`` endpoint; the target that
answers by it is `stad_utils.models.SimulatedTarget`.

A step's chance is its skill's planted accuracy, moved on the logit scale by three optional
context effects (`step_chance`; all 0 by default, when the chance is the accuracy itself): for
step *i* of a task of K steps,

    logit p_i = logit p(skill of step i) − ``position_logit_drop`` · (i − 1)
                − ``length_logit_drop`` · (K − 1) + ``task_logit_sd`` · z,

with z ~ N(0, 1) one draw per task (`task_z`), fixed over samples: how hard the task is, whatever
its skills. So a skill's planted accuracy is its chance as the first step of a one-step task of
median difficulty. These are the ways real items differ that a weak skill must not be confused
with: later steps harder, longer tasks harder, some tasks simply hard.
"""

from __future__ import annotations

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, field_validator
from scipy.special import expit, logit
from scipy.stats import norm


class Simulation(BaseModel):
    """The ``simulation`` block of a ``kind: simulated`` endpoint.

    Examples
    --------
    >>> planted = Simulation(step_accuracy={"subtraction": 0.4, "default": 0.95}, composition_penalty=0.3)
    >>> planted.accuracy("subtraction"), planted.accuracy("addition"), planted.weak_skills()
    (0.4, 0.95, ['subtraction'])
    >>> planted.planted()
    'subtraction 0.4, every other skill 0.95, composition penalty 0.3'
    >>> Simulation(step_accuracy={"default": 0.95}).planted()
    'every skill 0.95, no composition penalty'
    >>> Simulation(step_accuracy={"default": 0.95}, position_logit_drop=0.5).planted()
    'every skill 0.95, no composition penalty, later steps harder (logit −0.5 per step)'
    """

    model_config = ConfigDict(extra="forbid")

    step_accuracy: dict[str, float] = {}  # skill label → chance of doing a step of it alone; "default": the rest
    composition_penalty: float = Field(0.0, ge=0.0, le=1.0)  # chance that one link of a chain fails
    seed: int = 0
    # Context effects on the logit of a step's chance (`step_chance`); 0 = none:
    position_logit_drop: float = 0.0  # per later position of the step in its task (positive: later is harder)
    length_logit_drop: float = 0.0  # per extra step of its task (positive: longer tasks are harder at every step)
    task_logit_sd: float = Field(0.0, ge=0.0)  # SD of a per-task difficulty, whatever its length and skills

    @field_validator("step_accuracy")
    @classmethod
    def _probabilities(cls, accuracy: dict[str, float]) -> dict[str, float]:
        wrong = {skill: p for skill, p in accuracy.items() if not 0.0 <= p <= 1.0}
        if wrong:
            raise ValueError(f"step accuracies must lie in [0, 1], got {wrong}")
        return accuracy

    def accuracy(self, skill: str | None) -> float:
        """The chance that a step of ``skill`` is done right when asked alone."""
        return self.step_accuracy.get(skill or "", self.step_accuracy.get("default", 1.0))

    def planted(self) -> str:
        """The whole planted setting in words: what a short display name of the target leaves out."""
        listed = [f"{skill} {p:g}" for skill, p in sorted(self.step_accuracy.items()) if skill != "default"]
        rest = f"every {'other ' if listed else ''}skill {self.accuracy(None):g}"
        penalty = (f"composition penalty {self.composition_penalty:g}" if self.composition_penalty
                   else "no composition penalty")
        effects = [words.format(value) for words, value in (
            ("later steps harder (logit −{:g} per step)", self.position_logit_drop),
            ("longer tasks harder (logit −{:g} per extra step)", self.length_logit_drop),
            ("tasks differ in difficulty (logit SD {:g})", self.task_logit_sd)) if value]
        return ", ".join([*listed, rest, penalty, *effects])

    def context_effects(self) -> dict[str, float]:
        """The context effects as keyword arguments of `step_chance`."""
        return {"position_logit_drop": self.position_logit_drop, "length_logit_drop": self.length_logit_drop,
                "task_logit_sd": self.task_logit_sd}

    def weak_skills(self) -> list[str]:
        """The planted weaknesses: skills with a lower accuracy than the default."""
        return sorted(skill for skill, p in self.step_accuracy.items()
                      if skill != "default" and p < self.accuracy(None))


def step_chance(accuracy, position, n_steps, task_difficulty=0.0, *, position_logit_drop: float = 0.0,
                length_logit_drop: float = 0.0, task_logit_sd: float = 0.0) -> np.ndarray:
    """The chance that a step is done right alone, element-wise (see the module docstring).

    ``accuracy`` is the planted accuracy of each step's skill, ``position`` its step *i*
    (1 = first), ``n_steps`` its task's K and ``task_difficulty`` its task's standard normal draw
    (`task_z`); returned unchanged (as floats) when every effect is 0.

    Examples
    --------
    >>> step_chance([0.95, 0.5], 1, 1).tolist()
    [0.95, 0.5]
    >>> step_chance(0.5, [1, 3], 3, position_logit_drop=np.log(3)).round(3).tolist()  # odds ÷ 3 per step
    [0.5, 0.1]
    >>> step_chance(1.0, 6, 6, length_logit_drop=0.5).item()  # certain stays certain
    1.0
    """
    accuracy = np.asarray(accuracy, dtype=float)
    if not (position_logit_drop or length_logit_drop or task_logit_sd):
        return accuracy.copy()
    shift = (-position_logit_drop * (np.asarray(position, dtype=float) - 1)
             - length_logit_drop * (np.asarray(n_steps, dtype=float) - 1)
             + task_logit_sd * np.asarray(task_difficulty, dtype=float))
    with np.errstate(divide="ignore"):
        return expit(logit(accuracy) + shift)  # logit(1) = inf, logit(0) = −inf: certain stays certain


def task_z(uniform: float) -> float:
    """A task's standard normal difficulty from a uniform number in [0, 1) (kept finite).

    Examples
    --------
    >>> task_z(0.5), round(task_z(0.975), 2), task_z(0.0) > -9
    (0.0, 1.96, True)
    """
    return float(norm.ppf(min(max(uniform, 2.0 ** -54), 1 - 2.0 ** -54)))


QUADRATURE = np.polynomial.hermite_e.hermegauss(40)
"""Nodes and weights (summing to √(2π)) of 40-point Gauss–Hermite quadrature: an expectation over z ~ N(0, 1)."""
