"""Hand-built records for tests."""

from stad_utils import Ladder, Step, Task, Verdict


def ladder(task_id: str = "t1", n_steps: int = 3, answer: str = "18") -> Ladder:
    steps = [Step(description=f"step {i}", answer=str(i), skill=f"skill{i}") for i in range(1, n_steps)]
    steps.append(Step(description=f"step {n_steps}", answer=answer, skill=f"skill{n_steps}"))
    task = Task(task_id=task_id, source="test", question="Q?", answer=answer, answer_format="number")
    return Ladder(task=task, teacher="test", steps=steps, scaffolds=[f"S{j}?" for j in range(1, n_steps)],
                  isolated=[f"I{i}?" for i in range(1, n_steps + 1)])


def verdict(task_id: str, variant: str, level: int, correct: bool | None, model: str = "m") -> Verdict:
    return Verdict(task_id=task_id, model=model, variant=variant, level=level, prompt="p", reference="r",
                   response=None if correct is None else "x", error="HTTP 500" if correct is None else None,
                   correct=correct, decided_by="error" if correct is None else "deterministic")


def verdicts_for(task_id: str, curve: list, isolated: list, model: str = "m") -> list[Verdict]:
    kinds = [("original", 0)] + [("scaffold", j) for j in range(1, len(curve))]
    return ([verdict(task_id, v, level, c, model) for (v, level), c in zip(kinds, curve)]
            + [verdict(task_id, "isolated", i, c, model) for i, c in enumerate(isolated, start=1)])
