"""Hand-built records for tests."""

import json
import shutil
from pathlib import Path

import pytest

from stad_utils.method import gsm8k_solution_steps
from stad_utils.records import Ladder, Step, Task, Verdict

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
FIXTURES = TESTS / "fixtures"


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


SEGMENT, SOLVE_STEPS = "Break the problem below into", "by carrying out the given steps in order"
SCAFFOLD, ISOLATED = "Rewrite the problem so that the first", "Write a short, self-contained question"
VERIFY, REASK = "End your reply with a line of the form", "Your reply could not be used"


def role_of(messages):
    first = messages[0]["content"]
    for marker, role in ((SEGMENT, "segment"), (SOLVE_STEPS, "solve_steps"), (SCAFFOLD, "scaffold"),
                         (ISOLATED, "isolated"), (VERIFY, "verify")):
        if marker in first:
            return role
    return "target"


def scripted_gsm8k_roles(tasks: list[Task], target_answer: str = "I am not sure. Answer: 0"):
    """A scripted teacher that answers from GSM8K's gold solutions, and a target that always says 0."""
    by_question = {t.question: t for t in tasks}

    def reply(messages):
        role, text = role_of(messages), messages[0]["content"]
        if role == "target":
            return target_answer
        task = next(t for q, t in by_question.items() if q in text)
        steps = gsm8k_solution_steps(task.solution)
        if role == "segment":
            return json.dumps({"segments": [{"segment": s.description, "skill": s.skill} for s in steps]})
        if role == "solve_steps":
            return json.dumps({"answers": [{"explanation": s.explanation, "answer": s.answer} for s in steps]})
        if role in ("scaffold", "isolated"):
            return json.dumps({"question": f"{task.question} (variant)"})
        return f"Answer: {task.answer}"

    return reply


CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def chromium_path() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        pytest.fail("the page tests need a Chromium binary: install Debian's package with "
                    "`apt-get install -y chromium` (it provides /usr/bin/chromium)")
    return found
