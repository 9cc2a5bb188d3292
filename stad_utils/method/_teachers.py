"""Teachers: who decomposes a task, writes its variants and solves them for verification.

A teacher implements three verbs, and the stage functions in `stad_utils.method._evaluate` do the
rest (the consistency filter, the verification filter, the records) the same way for
every teacher:

* ``decompose(tasks)`` → steps with their answers, per task;
* ``write_variants(task, steps)`` → (scaffold texts for levels 1…K−1, isolated texts for steps 1…K);
* ``solve(questions)`` → the teacher's answer text per question (``None`` if it could not answer);
* optionally ``write_placebos(items)`` → placebo texts for levels 1…K−1 per task, or why not
  (the control of `stad_utils.method._placebo`).

`OracleTeacher` serves generated tasks, whose steps and variants are known exactly;
`GSM8KSolutionTeacher` reads GSM8K's annotated gold solutions; `LLMTeacher` is the paper's
teacher, any model behind a `ModelClient`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import partial
from typing import Protocol

from ..models import Failure, Unavailable, Unusable, ask_json, chat_to_an_answer, render
from ..records import Step, Task
from ._official_prompts import (
    OfficialPrompts,
    fill_isolated,
    fill_scaffold,
    fill_segment,
    fill_step_answers,
    load_official_prompts,
    read_rewritten_question,
    read_segments,
    read_step_answers,
)
from ._placebo import new_values, template_placebos


class Teacher(Protocol):
    """What a teacher does: decompose tasks, write their variants, and answer questions."""

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
    def _reference(task: Task) -> tuple[list[Step], list[str], list[str]]:
        """The reference steps, scaffolds and isolated questions of ``task``; a task without them is an error."""
        if task.reference_steps is None or task.reference_scaffolds is None or task.reference_isolated is None:
            raise ValueError(
                f"task {task.task_id} ({task.source}) has no reference steps: the oracle teacher only "
                "serves generated tasks and scaffolded ones (source 'stad_release': the release, or a final file of "
                "the authors' pipeline); use teacher 'gsm8k_solution' or an LLM teacher for benchmarks"
            )
        return task.reference_steps, task.reference_scaffolds, task.reference_isolated

    def decompose(self, tasks: Sequence[Task]) -> list[list[Step] | str]:
        """The reference steps of each task (every task is checked before any is returned)."""
        references = [self._reference(task) for task in tasks]
        return [list(steps) for steps, _, _ in references]

    def write_variants(self, items: Sequence[tuple[Task, list[Step]]]) -> list[tuple[list[str], list[str]] | str]:
        """The reference scaffolds and isolated questions of each task (every task is checked first)."""
        references = [self._reference(task) for task, _ in items]
        return [(list(scaffolds), list(isolated)) for _, scaffolds, isolated in references]

    def write_placebos(self, items: Sequence[tuple[Task, list[Step]]]) -> list[list[str] | str]:
        """The placebos the generator wrote; tasks without them (release records) say so."""
        return [list(task.reference_placebos) if task.reference_placebos is not None
                else f"task {task.task_id} ({task.source}) has no reference placebos" for task, _ in items]

    def solve(self, questions: Sequence[tuple[Task, str]]) -> list[str | None]:
        """The task's known final answer, stated, for each question."""
        return [f"The answer is {task.answer}." for task, _ in questions]


# ---------------------------------------------------------------- variants written from templates

def template_variants(task: Task, steps: list[Step]) -> tuple[list[str], list[str]]:
    """Scaffold and isolated questions written mechanically: the question plus the solved steps as hints."""
    scaffolds = [render("template_scaffold", question=task.question, solved=steps[:j]) for j in range(1, len(steps))]
    isolated = [render("template_isolated", question=task.question, earlier=steps[: i - 1], target=steps[i - 1])
                for i in range(1, len(steps) + 1)]
    return scaffolds, isolated


_ANNOTATION = re.compile(r"<<([^=<>]+)=([^<>]+)>>")
_STATED_RESULT = re.compile(r"\s*=\s*\$?(-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)(?!\d|\.\d)")
_OPERATION_NAMES = {"+": "addition", "-": "subtraction", "*": "multiplication", "/": "division"}
_UNITS = {  # unit → the spellings that name it in a solution line
    "second": r"seconds?|secs?", "minute": r"minutes?|mins?", "hour": r"hours?|hrs?", "day": r"days?|daily",
    "week": r"weeks?|weekly", "month": r"months?|monthly", "year": r"years?|yearly|annual(?:ly)?",
    "inch": r"inch(?:es)?", "foot": r"feet|foot|ft", "yard": r"yards?", "mile": r"miles?",
    "ounce": r"ounces?|oz", "pound": r"pounds?|lbs?", "cup": r"cups?", "pint": r"pints?", "quart": r"quarts?",
    "gallon": r"gallons?", "cent": r"cents?|penn(?:y|ies)", "dollar": r"dollars?|\$",
    "centimeter": r"centimet(?:er|re)s?|cm", "meter": r"met(?:er|re)s?", "kilometer": r"kilomet(?:er|re)s?|km",
    "gram": r"grams?", "kilogram": r"kilograms?|kg", "milliliter": r"millilit(?:er|re)s?|ml",
    "liter": r"lit(?:er|re)s?",
    "dozen": r"dozens?",
}
_UNIT_PATTERNS = {unit: re.compile(rf"(?<![a-z])(?:{spelling})(?![a-z])") for unit, spelling in _UNITS.items()}
_CONVERSIONS = {  # (unit, unit) → how many of the first make one of the second; "dozen" converts to a count
    ("second", "minute"): 60, ("minute", "hour"): 60, ("hour", "day"): 24, ("day", "week"): 7, ("week", "year"): 52,
    ("month", "year"): 12, ("day", "year"): 365, ("day", "month"): 30, ("inch", "foot"): 12, ("foot", "yard"): 3,
    ("foot", "mile"): 5280, ("ounce", "pound"): 16, ("cup", "pint"): 2, ("pint", "quart"): 2, ("quart", "gallon"): 4,
    ("cup", "gallon"): 16, ("cent", "dollar"): 100, ("centimeter", "meter"): 100, ("meter", "kilometer"): 1000,
    ("gram", "kilogram"): 1000, ("milliliter", "liter"): 1000, ("dozen", "dozen"): 12,
}
_TIME_UNITS = {"second", "minute", "hour", "day", "week", "month", "year"}
_CUES = {  # what a solution line says → the quantity it works with
    "percentage": re.compile(r"%|percent"),
    "fraction": re.compile(r"\b(?:half|halves|quarters?|(?:a|one|two|three|four)[ -](?:thirds?|fourths?|fifths?))\b"),
    "multiple": re.compile(r"\b(?:twice|double[sd]?|triple[sd]?|times (?:as|more|less|longer|larger|bigger|faster))\b"),
    "average": re.compile(r"\baverage"),
    "money": re.compile(r"\$|\b(?:dollars?|cents?|costs?|price[sd]?|pays?|paid|earns?|earned|spends?|spent)\b"),
    "rate": re.compile(r"\b(?:per|each|every|an? (?:" + "|".join(_TIME_UNITS) + r"))\b|/\s*[a-z]"),
}


def _numbers(expression: str) -> list[float]:
    return [float(n) for n in re.findall(r"\d*\.?\d+", expression)]


def operation_skill(expression: str, line: str) -> str:
    """An abstract skill label for one annotated step of a GSM8K solution.

    The label comes from the operations of the annotated expression and from cues in the
    line around it, checked in this order:

    * a ``/100`` or a ``%``/"percent" in the line → "percentage of a quantity";
    * a fraction ``p/q`` multiplied with a quantity, or "half", "two thirds", … with ``*`` or ``/``
      → "fraction of a quantity";
    * a factor between two units the line names (60 minutes in an hour, 12 in a dozen, 5,280
      feet in a mile, …) → "unit conversion";
    * "average" with a division → "average";
    * "twice", "triple", "times as …" with a multiplication → "multiple of a quantity";
    * money ("$", cost, price, pay, earn, spend) with a multiplication → "price times quantity",
      with a division → "price or amount per unit";
    * a rate ("per", "each", "every", "an hour", "km/h") with a multiplication → "rate times
      quantity", with a division → "quantity per unit";
    * else the operation: "addition" ("sum of several quantities" for three terms or more),
      "subtraction", "multiplication", "division"; "combined operations" when the
      expression mixes them, and "stating a quantity" when it has none.

    Parameters
    ----------
    expression : the annotated expression, e.g. ``"16-3-4"``.
    line : the solution line the annotation stands in.

    Examples
    --------
    >>> operation_skill("30/100*1000", "she got a 30% commission, 30/100*$1000")
    'percentage of a quantity'
    >>> operation_skill("3*60", "3 hours is 3*60 minutes")
    'unit conversion'
    >>> operation_skill("6*2", "Each muffin costs $2, so 6 muffins cost 6*2")
    'price times quantity'
    >>> operation_skill("16-3-4", "She has 16-3-4 eggs left")
    'subtraction'
    """
    text = line.lower()
    operations = {_OPERATION_NAMES[c] for c in expression if c in _OPERATION_NAMES}
    scaling = operations & {"multiplication", "division"}
    numbers = set(_numbers(expression))
    units = {unit for unit, pattern in _UNIT_PATTERNS.items() if pattern.search(text)}
    cues = {cue for cue, pattern in _CUES.items() if pattern.search(text)}
    if re.search(r"/\s*100(?![\d.])", expression) or (scaling and "percentage" in cues):
        return "percentage of a quantity"
    if re.search(r"\d\s*/\s*\d+\s*\)?\s*\*|\*\s*\(?\s*\d+\s*/\s*\d", expression) or (scaling and "fraction" in cues):
        return "fraction of a quantity"
    if scaling and any(small in units and large in units and factor in numbers
                       for (small, large), factor in _CONVERSIONS.items()):
        return "unit conversion"
    if "division" in operations and "average" in cues:
        return "average"
    if operations == {"multiplication"}:
        for cue, skill in (("multiple", "multiple of a quantity"), ("money", "price times quantity"),
                           ("rate", "rate times quantity")):
            if cue in cues:
                return skill
    if operations == {"division"}:
        for cue, skill in (("money", "price or amount per unit"), ("rate", "quantity per unit")):
            if cue in cues:
                return skill
    if len(operations) > 1:
        return "combined operations"
    if operations == {"addition"} and expression.count("+") >= 2:
        return "sum of several quantities"
    return operations.pop() if operations else "stating a quantity"


def _unless_stated(stated: str, match: re.Match) -> str:
    """Nothing for a stated result ``= <value>`` that is ``stated`` (thousands separators aside), else the match."""
    return "" if match[1].replace(",", "") == stated else match[0]


def gsm8k_solution_steps(solution: str) -> list[Step]:
    """GSM8K's gold solution as steps: each line with a ``<<a op b=c>>`` annotation is one step.

    The description is the line without the annotation and without the result it states;
    the skill label is `operation_skill` of the annotated expression and the line (whose
    stated result may carry the unit, e.g. "= $18").

    Examples
    --------
    >>> steps = gsm8k_solution_steps("She has 16-3=<<16-3=13>>13 eggs.\\nShe earns $2*13=$<<2*13=26>>26.\\n#### 26")
    >>> [(s.description, s.answer, s.skill) for s in steps]
    [('She has 16-3 eggs.', '13', 'subtraction'), ('She earns $2*13.', '26', 'price times quantity')]
    """
    steps = []
    for line in solution.split("####")[0].splitlines():
        annotations = _ANNOTATION.findall(line)
        if not annotations:
            continue
        expression, result = annotations[-1]
        text = _ANNOTATION.sub("", line)
        stated = result.strip().replace(",", "")  # "= $130,000" states the result 130000
        description = _STATED_RESULT.sub(partial(_unless_stated, stated), text).strip()
        steps.append(Step(description=description, answer=result.strip(), explanation=f"{expression}={result}",
                          skill=operation_skill(expression, text)))
    return steps


class GSM8KSolutionTeacher:
    """A teacher-free decomposition of GSM8K from its annotated gold solutions.

    Steps come from `gsm8k_solution_steps`, variants from `template_variants`, and it answers
    a scaffold level with the gold answer (the solution is the reference, so verification
    checks only the judge's path). Also a reference to compare an LLM teacher with.
    """

    name = "gsm8k_solution"

    def decompose(self, tasks: Sequence[Task]) -> list[list[Step] | str]:
        """The steps annotated in each task's GSM8K solution, or why there are none."""
        results: list[list[Step] | str] = []
        for task in tasks:
            if not task.solution:
                raise ValueError(f"task {task.task_id} has no solution: the gsm8k_solution teacher needs GSM8K tasks")
            steps = gsm8k_solution_steps(task.solution)
            results.append(steps or "no annotated step in the solution")
        return results

    def write_variants(self, items: Sequence[tuple[Task, list[Step]]]) -> list[tuple[list[str], list[str]] | str]:
        """Scaffolds and isolated questions written from templates (`template_variants`)."""
        return [template_variants(task, steps) for task, steps in items]

    def write_placebos(self, items: Sequence[tuple[Task, list[Step]]]) -> list[list[str] | str]:
        """Placebos in the template scaffolds' form (`stad_utils.method._placebo.template_placebos`)."""
        return [template_placebos(task, steps) for task, steps in items]

    def solve(self, questions: Sequence[tuple[Task, str]]) -> list[str | None]:
        """The task's known final answer, stated, for each question."""
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


def _written_placebos(task: Task, written: list) -> list[str] | str:
    """A task's written placebo levels, or why not: a failed request, or a placebo that computes."""
    failures = sorted((text for text in written if isinstance(text, Failure)),
                      key=lambda failure: not isinstance(failure, Unavailable))  # retryable first
    if failures:
        return failures[0]
    for level, text in enumerate(written, start=1):
        leaked = new_values(text, task.question)
        if leaked:
            return Unusable(f"placebo {level} states {', '.join(leaked)}, which the problem does not")
    return written


class LLMTeacher:
    """The paper's teacher: a language model segments, solves, rewrites and verifies.

    Parameters
    ----------
    client : the teacher's `ModelClient`.
    prompts : ``"project"`` (the default: the Jinja2 templates of ``stad_utils/prompts/``, JSON replies,
        bounded re-asks) or ``"official"``: the authors' prompts, read at run time from ``official_repo``
        and filled and read as their code does (`stad_utils.official`), with no re-asks; their
        verification asks each scaffold verbatim.
    official_repo : with ``prompts="official"``, a checkout of ``ibm-granite/scaffolded-task-design`` at tag
        ``stad-acl_2026`` (``""``: the environment variable ``STAD_OFFICIAL_REPO``).
    max_steps : the most steps a decomposition may have (the paper: 6); more are dropped as such.
    max_reasks : how often an unusable (non-JSON, wrong shape) reply to the project's prompts is asked again;
        with either prompts, how often a reply cut off while reasoning (no answer within ``max_tokens``) is asked
        again before the task is dropped as `stad_utils.models.RAN_OUT_WHILE_REASONING`.
    generation_temperature, verification_temperature : the authors' code uses 0.2 and 0.
    step_tokens, rewrite_tokens : token limits for segments/answers (1,024) and rewrites/verification (2,000).

    Examples
    --------
    >>> teacher = LLMTeacher(client, prompts="official", official_repo="~/scaffolded-task-design")  # doctest: +SKIP
    """

    def __init__(self, client, *, prompts: str = "project", official_repo: str | None = None, max_steps: int = 6,
                 max_reasks: int = 2, generation_temperature: float = 0.2, verification_temperature: float = 0.0,
                 step_tokens: int = 1024, rewrite_tokens: int = 2000):
        if prompts not in ("project", "official"):
            raise ValueError(f"unknown prompts {prompts!r}: use 'project' (the default) or 'official'")
        self.client = client
        self.max_steps, self.max_reasks = max_steps, max_reasks
        self.generation = {"temperature": generation_temperature}
        self.verification_temperature = verification_temperature
        self.step_tokens, self.rewrite_tokens = step_tokens, rewrite_tokens
        self.protocol = (_OfficialProtocol(self, load_official_prompts(official_repo)) if prompts == "official"
                         else _ProjectProtocol(self))
        self.name = f"llm:{client.model}" + (" (official prompts)" if prompts == "official" else "")

    def _ask(self, prompts: list[str], validate, schema_name: str, schema: dict, max_tokens: int) -> list:
        return ask_json(self.client, prompts, validate, schema_name=schema_name, schema=schema,
                        max_reasks=self.max_reasks, desc=f"teacher: {schema_name}", max_tokens=max_tokens,
                        **self.generation)

    def _chat(self, prompts: list[str], what: str, max_tokens: int) -> list:
        return chat_to_an_answer(self.client, prompts, max_reasks=self.max_reasks, desc=f"teacher: {what}",
                                 max_tokens=max_tokens, **self.generation)

    def decompose(self, tasks: Sequence[Task]) -> list[list[Step] | str]:
        """The teacher's steps for each task (segmented, then solved), or why not."""
        segmented: list[list[dict] | str] = [
            f"{len(s)} steps (at most {self.max_steps})" if isinstance(s, list) and len(s) > self.max_steps
            else s for s in self.protocol.segments(tasks)]  # dropped as in the paper, without solving them
        ready = {i: s for i, s in enumerate(segmented) if isinstance(s, list)}
        solved: dict[int, list[dict] | str | None] = {i: None for i in ready}
        for index, answers in zip(ready, self.protocol.step_answers([tasks[i] for i in ready], list(ready.values()))):
            solved[index] = answers
        results: list[list[Step] | str] = []
        for i, segments in enumerate(segmented):
            solution = solved.get(i)
            if not isinstance(segments, list):
                results.append(segments)
            elif isinstance(solution, Failure):
                results.append(solution)
            else:
                assert isinstance(solution, list)  # step_answers answers every ready task: its answers or a Failure
                results.append([Step(description=str(seg["segment"]).strip(), skill=str(seg.get("skill") or "") or None,
                                     explanation=str(ans.get("explanation", "")), answer=str(ans["answer"]).strip())
                                for seg, ans in zip(segments, solution)])
        return results

    def write_variants(self, items: Sequence[tuple[Task, list[Step]]]) -> list[tuple[list[str], list[str]] | str]:
        """Scaffolds and isolated questions rewritten by the teacher, per task, or why not."""
        requests: list[Rewrite] = []
        owners: list[tuple[int, str]] = []
        for index, (task, steps) in enumerate(items):
            for j in range(1, len(steps)):
                requests.append((task, steps[:j], None))
                owners.append((index, "scaffold"))
            for i in range(1, len(steps) + 1):
                requests.append((task, steps[: i - 1], steps[i - 1]))
                owners.append((index, "isolated"))
        written = self.protocol.rewrites(requests)
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

    def write_placebos(self, items: Sequence[tuple[Task, list[Step]]]) -> list[list[str] | str]:
        """Placebo levels 1…K−1 per task from the ``placebo`` prompt, or why not.

        A placebo stating a number or clock time that the original does not is refused
        (`stad_utils.method._placebo.new_values`): it would carry a computed result.
        """
        prompts = [render("placebo", question=task.question, count=level)
                   for task, steps in items for level in range(1, len(steps))]
        written = iter(self._ask(prompts, _question, "question", _QUESTION_SCHEMA, self.rewrite_tokens))
        return [_written_placebos(task, [next(written) for _ in range(1, len(steps))]) for task, steps in items]

    def solve(self, questions: Sequence[tuple[Task, str]]) -> list[str | None]:
        """The teacher's answers (without its reasoning); `Unusable` where it ran out of tokens while reasoning."""
        replies = chat_to_an_answer(self.client, [self.protocol.verification_prompt(text) for _, text in questions],
                                    max_reasks=self.max_reasks, desc="teacher: verify",
                                    temperature=self.verification_temperature, max_tokens=self.rewrite_tokens)
        return [reply if isinstance(reply, Unusable) else reply.text for reply in replies]


Rewrite = tuple[Task, list[Step], Step | None]
"""What to rewrite: (task, the steps given as solved, the step to isolate — ``None`` for a scaffold level)."""


class _ProjectProtocol:
    """The project's prompts (``stad_utils/prompts/*.jinja``): JSON replies, validated, re-asked when unusable."""

    def __init__(self, teacher: LLMTeacher):
        self.teacher = teacher

    def segments(self, tasks: Sequence[Task]) -> list[list[dict] | str]:
        return self.teacher._ask([render("segment", question=t.question, max_steps=self.teacher.max_steps)
                                  for t in tasks], _segments, "segments", _SEGMENTS_SCHEMA, self.teacher.step_tokens)

    def step_answers(self, tasks: list[Task], segments: list[list[dict]]) -> list[list[dict] | str]:
        prompts = [render("solve_steps", question=t.question, steps=[s["segment"] for s in segs])
                   for t, segs in zip(tasks, segments)]
        validators = [_answers(len(segs)) for segs in segments]
        # one batch per distinct step count keeps each validator with its prompts
        results: list = [None] * len(prompts)
        for count in sorted({len(s) for s in segments}):
            group = [i for i, segs in enumerate(segments) if len(segs) == count]
            for i, answers in zip(group, self.teacher._ask([prompts[i] for i in group], validators[group[0]],
                                                           "answers", _ANSWERS_SCHEMA, self.teacher.step_tokens)):
                results[i] = answers
        return results

    def rewrites(self, requests: list[Rewrite]) -> list[str]:
        prompts = [render("scaffold", question=task.question, solved=given) if target is None
                   else render("isolated", question=task.question, earlier=given, target=target)
                   for task, given, target in requests]
        return self.teacher._ask(prompts, _question, "question", _QUESTION_SCHEMA, self.teacher.rewrite_tokens)

    @staticmethod
    def verification_prompt(question: str) -> str:
        return render("solve", question=question)


class _OfficialProtocol:
    """The authors' prompts (`stad_utils.official`): filled by ``str.replace``, replies read as their code reads them.

    A reply that gives nothing usable is not asked again (their code has no re-asks); the
    task is dropped with the reason. Their segments carry no skill names.
    """

    def __init__(self, teacher: LLMTeacher, prompts: OfficialPrompts):
        self.teacher, self.prompts = teacher, prompts

    def segments(self, tasks: Sequence[Task]) -> list[list[dict] | str]:
        replies = self.teacher._chat([fill_segment(self.prompts, t.question) for t in tasks], "segments",
                                     self.teacher.step_tokens)
        return [self._read(reply, lambda text: [{"segment": s} for s in read_segments(text)],
                           'no "segment" value in the reply') for reply in replies]

    def step_answers(self, tasks: list[Task], segments: list[list[dict]]) -> list[list[dict] | str]:
        prompts = [fill_step_answers(self.prompts, t.question, [s["segment"] for s in segs])
                   for t, segs in zip(tasks, segments)]
        replies = self.teacher._chat(prompts, "answers", self.teacher.step_tokens)
        answers = [self._read(reply, read_step_answers, "no [{explanation, answer}] array in the reply")
                   for reply in replies]
        return [Unusable(f"{len(found)} answers for {len(segs)} steps")
                if isinstance(found, list) and len(found) != len(segs) else found
                for found, segs in zip(answers, segments)]

    def rewrites(self, requests: list[Rewrite]) -> list[str]:
        prompts = [fill_scaffold(self.prompts, task.question, _solved(given)) if target is None
                   else fill_isolated(self.prompts, task.question, target.description, _solved(given))
                   for task, given, target in requests]
        replies = self.teacher._chat(prompts, "rewrites", self.teacher.rewrite_tokens)
        return [self._read(reply, read_rewritten_question, "no 'Rewritten Question:' line in the reply")
                for reply in replies]

    @staticmethod
    def verification_prompt(question: str) -> str:
        return question  # the authors' teacher answers each scaffold verbatim

    def _read(self, reply, read: Callable, problem: str):
        if isinstance(reply, Unusable):  # cut off while reasoning at every attempt
            return reply
        if not reply.ok:
            return Unavailable(f"no reply from {self.teacher.client.model}: {reply.error}")
        return read(reply.text) or Unusable(problem)


def _solved(steps: list[Step]) -> list[tuple[str, str]]:
    return [(step.description, step.answer) for step in steps]
