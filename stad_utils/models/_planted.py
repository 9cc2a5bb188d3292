"""What a simulated target is planted with: the chance of each skill's step alone and of each link of a chain.

A `Simulation` is the ``simulation`` block of a ``kind: simulated`` endpoint; the target that
answers by it is `stad_utils.models.SimulatedTarget`.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator


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
    """

    model_config = ConfigDict(extra="forbid")

    step_accuracy: dict[str, float] = {}  # skill label → chance of doing a step of it alone; "default": the rest
    composition_penalty: float = Field(0.0, ge=0.0, le=1.0)  # chance that one link of a chain fails
    seed: int = 0

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
        return ", ".join([*listed, rest, penalty])

    def weak_skills(self) -> list[str]:
        """The planted weaknesses: skills with a lower accuracy than the default."""
        return sorted(skill for skill, p in self.step_accuracy.items()
                      if skill != "default" and p < self.accuracy(None))
