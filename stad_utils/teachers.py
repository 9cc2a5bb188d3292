"""Teachers: who decomposes a task, writes its variants and solves them for verification.

A teacher implements three verbs, and the stage functions in `stad_utils.stages` do the
rest (the consistency filter, the verification filter, the records) the same way for
every teacher:

* ``decompose(tasks)`` → steps with their answers, per task;
* ``write_variants(task, steps)`` → (scaffold texts for levels 1…K−1, isolated texts for steps 1…K);
* ``solve(questions)`` → the teacher's answer text per question (``None`` if it could not answer).

`OracleTeacher` serves generated tasks, whose steps and variants are known exactly;
`GSM8KSolutionTeacher` reads GSM8K's annotated gold solutions; `LLMTeacher` is the paper's
teacher, any model behind a `ModelClient`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Protocol

from .records import Step, Task
from .structured import Failure, Unavailable, ask_json, render


class Teacher(Protocol):
    name: str

    def decompose(self, tasks: Sequence[Task]) -> list[list[Step] | str]:
        """Steps per task, or a string saying why there are none (e.g. unparseable output)."""

    def write_variants(self, items: Sequence[tuple[Task, list[Step]]]) -> list[tuple[list[str], list[str]] | str]:
        """(scaffolds for levels 1…K−1, isolated questions for steps 1…K) per task, or why not."""

    def solve(self, questions: Sequence[tuple[Task, str]]) -> list[str | None]:
        """The teacher's answer to each (task, question) pair."""


class OracleTeacher:
    """The teacher of tasks that carry their steps: generated tasks and official release records.

    It reads the reference steps and variants the generator (or the release) wrote.

    It answers a scaffold level with the task's known final answer, so verification
    checks the judge's path on the gold format rather than a model's ability.
    """

    name = "oracle"

    @staticmethod
    def _require_reference(task: Task) -> None:
        if task.reference_steps is None or task.reference_scaffolds is None or task.reference_isolated is None:
            raise ValueError(
                f"task {task.task_id} ({task.source}) has no reference steps: the oracle teacher only "
                "serves generated tasks; use teacher 'gsm8k_solution' or an LLM teacher for benchmarks"
            )

    def decompose(self, tasks: Sequence[Task]) -> list[list[Step] | str]:
        for task in tasks:
            self._require_reference(task)
        return [list(task.reference_steps) for task in tasks]

    def write_variants(self, items: Sequence[tuple[Task, list[Step]]]) -> list[tuple[list[str], list[str]] | str]:
        for task, _ in items:
            self._require_reference(task)
        return [(list(task.reference_scaffolds), list(task.reference_isolated)) for task, _ in items]

    def solve(self, questions: Sequence[tuple[Task, str]]) -> list[str | None]:
        return [f"The answer is {task.answer}." for task, _ in questions]


# ---------------------------------------------------------------- variants written from templates

def template_variants(task: Task, steps: list[Step]) -> tuple[list[str], list[str]]:
    """Scaffold and isolated questions written mechanically: the question plus the solved steps as hints."""
    scaffolds = [render("template_scaffold", question=task.question, solved=steps[:j]) for j in range(1, len(steps))]
    isolated = [render("template_isolated", question=task.question, earlier=steps[: i - 1], target=steps[i - 1])
                for i in range(1, len(steps) + 1)]
    return scaffolds, isolated


_ANNOTATION = re.compile(r"<<([^=<>]+)=([^<>]+)>>")
_OPERATION_NAMES = {"+": "addition", "-": "subtraction", "*": "multiplication", "/": "division"}


def gsm8k_solution_steps(solution: str) -> list[Step]:
    """GSM8K's gold solution as steps: each line with a ``<<a op b=c>>`` annotation is one step.

    The description is the line without the annotation and without the result it states;
    the skill label names the operations of the annotated expression.

    >>> [s.answer for s in gsm8k_solution_steps("She has 16-3=<<16-3=13>>13 eggs.\\nSo 13*2=<<13*2=26>>26.\\n#### 26")]
    ['13', '26']
    """
    steps = []
    for line in solution.split("####")[0].splitlines():
        annotations = _ANNOTATION.findall(line)
        if not annotations:
            continue
        expression, result = annotations[-1]
        description = _ANNOTATION.sub("", line)
        description = re.sub(rf"\s*=\s*\$?{re.escape(result.strip())}\b", "", description).strip()
        operations = sorted({_OPERATION_NAMES[c] for c in expression if c in _OPERATION_NAMES})
        steps.append(Step(description=description, answer=result.strip(), explanation=f"{expression}={result}",
                          skill=" and ".join(operations) or "arithmetic"))
    return steps


class GSM8KSolutionTeacher:
    """A teacher-free decomposition of GSM8K from its annotated gold solutions.

    Steps come from `gsm8k_solution_steps`, variants from `template_variants`, and it answers
    a scaffold level with the gold answer (the solution is the reference, so verification
    checks only the judge's path). Also a reference to compare an LLM teacher with.
    """

    name = "gsm8k_solution"

    def decompose(self, tasks: Sequence[Task]) -> list[list[Step] | str]:
        results: list[list[Step] | str] = []
        for task in tasks:
            if not task.solution:
                raise ValueError(f"task {task.task_id} has no solution: the gsm8k_solution teacher needs GSM8K tasks")
            steps = gsm8k_solution_steps(task.solution)
            results.append(steps or "no annotated step in the solution")
        return results

    def write_variants(self, items: Sequence[tuple[Task, list[Step]]]) -> list[tuple[list[str], list[str]] | str]:
        return [template_variants(task, steps) for task, steps in items]

    def solve(self, questions: Sequence[tuple[Task, str]]) -> list[str | None]:
        return [f"The answer is {task.answer}." for task, _ in questions]


# ---------------------------------------------------------------- the LLM teacher

_SEGMENTS_SCHEMA = {"type": "object", "required": ["segments"], "properties": {"segments": {
    "type": "array", "items": {"type": "object", "required": ["segment", "skill"],
                               "properties": {"segment": {"type": "string"}, "skill": {"type": "string"}}}}}}
_ANSWERS_SCHEMA = {"type": "object", "required": ["answers"], "properties": {"answers": {
    "type": "array", "items": {"type": "object", "required": ["explanation", "answer"],
                               "properties": {"explanation": {"type": "string"}, "answer": {"type": "string"}}}}}}
_QUESTION_SCHEMA = {"type": "object", "required": ["question"], "properties": {"question": {"type": "string"}}}


def _segments(obj: dict) -> list[dict]:
    segments = obj["segments"]
    if not isinstance(segments, list) or not segments:
        raise ValueError("'segments' must be a non-empty list")
    if not all(isinstance(s, dict) and str(s.get("segment", "")).strip() for s in segments):
        raise ValueError("every segment needs a non-empty 'segment' text")
    return segments


def _answers(count: int) -> Callable[[dict], list[dict]]:
    def validate(obj: dict) -> list[dict]:
        answers = obj["answers"]
        if not isinstance(answers, list) or len(answers) != count:
            raise ValueError(f"expected {count} answers, one per step")
        if not all(isinstance(a, dict) and str(a.get("answer", "")).strip() for a in answers):
            raise ValueError("every answer needs a non-empty 'answer'")
        return answers
    return validate


def _question(obj: dict) -> str:
    question = str(obj["question"]).strip()
    if not question:
        raise ValueError("'question' is empty")
    return question


class LLMTeacher:
    """The paper's teacher: a language model segments, solves, rewrites and verifies.

    Parameters
    ----------
    client : the teacher's `ModelClient`.
    max_steps : the most steps a decomposition may have (the paper: 6); more are dropped as such.
    max_reasks : how often an unusable (non-JSON, wrong shape) reply is asked again.
    generation_temperature, verification_temperature : the authors' code uses 0.2 and 0.
    step_tokens, rewrite_tokens : token limits for segments/answers (1,024) and rewrites/verification (2,000).
    """

    def __init__(self, client, *, max_steps: int = 6, max_reasks: int = 2, generation_temperature: float = 0.2,
                 verification_temperature: float = 0.0, step_tokens: int = 1024, rewrite_tokens: int = 2000):
        self.client = client
        self.max_steps, self.max_reasks = max_steps, max_reasks
        self.generation = {"temperature": generation_temperature}
        self.verification_temperature = verification_temperature
        self.step_tokens, self.rewrite_tokens = step_tokens, rewrite_tokens
        self.name = f"llm:{client.model}"

    def _ask(self, prompts: list[str], validate, schema_name: str, schema: dict, max_tokens: int) -> list:
        return ask_json(self.client, prompts, validate, schema_name=schema_name, schema=schema,
                        max_reasks=self.max_reasks, desc=f"teacher: {schema_name}", max_tokens=max_tokens,
                        **self.generation)

    def decompose(self, tasks: Sequence[Task]) -> list[list[Step] | str]:
        segmented = self._ask([render("segment", question=t.question, max_steps=self.max_steps) for t in tasks],
                              _segments, "segments", _SEGMENTS_SCHEMA, self.step_tokens)
        segmented = [f"{len(s)} steps (at most {self.max_steps})" if isinstance(s, list) and len(s) > self.max_steps
                     else s for s in segmented]  # dropped as in the paper, without solving them
        ready = [i for i, s in enumerate(segmented) if isinstance(s, list)]
        solved = {i: None for i in ready}
        for index, answers in zip(ready, self._solve_segments([tasks[i] for i in ready], [segmented[i] for i in ready])):
            solved[index] = answers
        results: list[list[Step] | str] = []
        for i, segments in enumerate(segmented):
            if not isinstance(segments, list):
                results.append(segments)
            elif isinstance(solved[i], Failure):
                results.append(solved[i])
            else:
                results.append([Step(description=str(seg["segment"]).strip(), skill=str(seg.get("skill") or "") or None,
                                     explanation=str(ans.get("explanation", "")), answer=str(ans["answer"]).strip())
                                for seg, ans in zip(segments, solved[i])])
        return results

    def _solve_segments(self, tasks: list[Task], segments: list[list[dict]]) -> list:
        prompts = [render("solve_steps", question=t.question, steps=[s["segment"] for s in segs])
                   for t, segs in zip(tasks, segments)]
        validators = [_answers(len(segs)) for segs in segments]
        # one batch per distinct step count keeps each validator with its prompts
        results: list = [None] * len(prompts)
        for count in sorted({len(s) for s in segments}):
            group = [i for i, segs in enumerate(segments) if len(segs) == count]
            for i, answers in zip(group, self._ask([prompts[i] for i in group], validators[group[0]], "answers",
                                                   _ANSWERS_SCHEMA, self.step_tokens)):
                results[i] = answers
        return results

    def write_variants(self, items: Sequence[tuple[Task, list[Step]]]) -> list[tuple[list[str], list[str]] | str]:
        prompts, owners = [], []
        for index, (task, steps) in enumerate(items):
            for j in range(1, len(steps)):
                prompts.append(render("scaffold", question=task.question, solved=steps[:j]))
                owners.append((index, "scaffold"))
            for i in range(1, len(steps) + 1):
                prompts.append(render("isolated", question=task.question, earlier=steps[: i - 1], target=steps[i - 1]))
                owners.append((index, "isolated"))
        written = self._ask(prompts, _question, "question", _QUESTION_SCHEMA, self.rewrite_tokens)
        grouped: list[dict[str, list[str]]] = [{"scaffold": [], "isolated": [], "problems": []} for _ in items]
        for (index, kind), text in zip(owners, written):
            grouped[index]["problems" if isinstance(text, Failure) else kind].append(text)
        results: list[tuple[list[str], list[str]] | str] = []
        for group in grouped:
            problems = group["problems"]
            unavailable = [p for p in problems if isinstance(p, Unavailable)]
            results.append(unavailable[0] if unavailable else problems[0] if problems
                           else (group["scaffold"], group["isolated"]))
        return results

    def solve(self, questions: Sequence[tuple[Task, str]]) -> list[str | None]:
        replies = self.client.chat([render("solve", question=text) for _, text in questions], desc="teacher: verify",
                                   temperature=self.verification_temperature, max_tokens=self.rewrite_tokens)
        return [reply.text for reply in replies]
