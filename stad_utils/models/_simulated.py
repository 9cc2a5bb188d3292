"""A simulated target with planted weaknesses: a diagnosis whose right answer is known.

`SimulatedTarget` answers the questions of generated ladders through the interface of a
model client, from a stated probability model instead of a language model. No model is
called, and everything it writes is labelled as a simulation.

The model
---------
For each sample *s* the target draws, independently:

* per step *i*, whether it can do the step alone: ``can[i] ~ Bernoulli(p_i)``, with ``p_i`` the
  planted accuracy of its skill from ``step_accuracy`` (its ``default`` entry, else 1, for
  unlisted skills), moved by the context effects when they are planted (`stad_utils.models.step_chance`:
  later steps, longer tasks, harder tasks);
* per link between steps *i* and *i* + 1, whether it chains them: ``link[i] ~ Bernoulli(1 − c)``,
  with *c* the ``composition_penalty``.

Each draw compares a uniform number with its chance; the number is a hash of ``(seed, s,
what is drawn)``, where a step is named by the text of its isolated question and a link by
the texts of both steps' isolated questions. A step that two tasks share word for word is
therefore done alike in both, as a model would answer one prompt alike.

A question is answered right exactly when every step it leaves to the target can be done and
every link between two of those steps holds:

* the original, and every placebo level (help without content: a placebo is answered as
  if no step were given), needs steps 1…K and links 1…K−1;
* scaffold level *j* needs steps *j*+1…K and the links between them;
* isolated step *i* needs step *i* alone (its earlier results are given) and no link.

So P(level *j* solved) = Π_{i>j} p_i · (1 − c)^(K−j−1). The composition penalty *c* is
the chance that one link of a chain fails although the steps it joins would each succeed
alone: a chain of *m* steps that could all be done alone fails with chance 1 − (1 − c)^(m−1).
The draws are shared by every question that needs them, so the answers are coherent (a step
failed alone fails in every chain that needs it; the success curve never falls); repeated
samples draw afresh, and each is reproducible. A task's difficulty (``task_logit_sd``) is drawn
once per task from ``(seed, "task difficulty", its question)``: the same in every sample.

A right reply is ``"Answer: <reference>"``; a wrong one names a clearly different value of
the same kind (another number, a clock time an hour later). A prompt is recognised by its
text; one that is no question of the ladders is answered with an error, never a guess.

The module registers the ``simulated`` endpoint kind (`SIMULATED`): no cache, no request, and
verdicts marked as a simulation's.
"""

from __future__ import annotations

import hashlib
import re
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..records import Ladder, VariantKind, Verdict, clock, evaluation_items
from ._endpoint import ClientOptions, EndpointConfig, EndpointKind, register_kind
from ._planted import QUADRATURE, Simulation, step_chance, task_z
from ._replies import ChatResult, Messages, UsageStats


@dataclass(frozen=True)
class _Question:
    ladder: Ladder
    variant: VariantKind
    level: int
    reference: str

    @property
    def steps_needed(self) -> slice:
        """The (0-based) steps this question leaves to the target."""
        if self.variant == "isolated":
            return slice(self.level - 1, self.level)
        return slice(self.level if self.variant == "scaffold" else 0, self.ladder.n_steps)


def uniform(*key: object) -> float:
    """A number in [0, 1) fixed by ``key``: the same key gives the same number in every process.

    Examples
    --------
    >>> uniform(0, 1, "step") == uniform(0, 1, "step") != uniform(0, 2, "step")
    True
    """
    digest = hashlib.sha256("\x1f".join(map(str, key)).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def wrong_answer(reference: str) -> str:
    """A value of the reference's kind that clearly differs from it.

    Examples
    --------
    >>> wrong_answer("12"), wrong_answer("0"), wrong_answer("2.5"), wrong_answer("11:30 PM"), wrong_answer("Paris")
    ('18', '1', '3.5', '12:30 AM', 'I do not know')
    """
    if time := re.fullmatch(r"(\d{1,2}):(\d{2}) ([AP]M)", reference.strip()):
        hours, minutes, half = int(time[1]) % 12, int(time[2]), time[3]
        return clock((hours + (12 if half == "PM" else 0)) * 60 + minutes + 60)
    if re.fullmatch(r"-?\d+", reference.strip()):
        value = int(reference)
        return str(value + max(1, abs(value) // 2))
    if re.fullmatch(r"-?\d+\.\d+", reference.strip()):
        return f"{float(reference) + 1:g}"
    return "I do not know"


def expected_accuracy(simulation: Simulation, ladders: Sequence[Ladder]) -> float:
    """The chance that a target planted with ``simulation`` answers an original question right, averaged over
    the verified ``ladders``: the mean of E_z[Π p_i] · (1 − c)^(K−1) (the module's model, level 0; the
    expectation over a task's difficulty z by Gauss–Hermite quadrature).

    Examples
    --------
    >>> from stad_utils.records import Step, Task
    >>> def ladder(*skills):
    ...     task = Task(task_id="-".join(skills), source="test", question="Q?", answer="1", answer_format="number")
    ...     steps = [Step(description=s, answer="1", skill=s) for s in skills]
    ...     return Ladder(task=task, teacher="oracle", steps=steps, scaffolds=["S?"] * (len(skills) - 1),
    ...                   isolated=["I?"] * len(skills), verified=True)
    >>> ladders = [ladder("multiplication", "addition"), ladder("addition", "addition", "division")]
    >>> round(expected_accuracy(Simulation(step_accuracy={"multiplication": 0.5}, composition_penalty=0.1),
    ...                         ladders), 4)  # (0.5 · 0.9 + 0.81) / 2
    0.63
    """
    verified = [ladder for ladder in ladders if ladder.verified]
    if not verified:
        raise ValueError("no verified ladder to average over")
    nodes, weights = QUADRATURE if simulation.task_logit_sd else (np.zeros(1), np.ones(1))
    chances = []
    for ladder in verified:
        accuracy = np.array([simulation.accuracy(step.skill) for step in ladder.steps])
        steps = step_chance(accuracy[None, :], np.arange(1, ladder.n_steps + 1)[None, :], ladder.n_steps,
                            nodes[:, None], **simulation.context_effects())
        chances.append(weights @ np.prod(steps, axis=1) / weights.sum()
                       * (1 - simulation.composition_penalty) ** (ladder.n_steps - 1))
    return float(np.mean(chances))


def matching_penalty(simulation: Simulation, accuracy: float, ladders: Sequence[Ladder]) -> float:
    """The composition penalty that gives ``simulation``'s step accuracies the expected ``accuracy`` on ``ladders``.

    How to plant a target that fails to chain with the same accuracy as asked as another that misses a skill:
    equal overall scores, different breaks. The expected accuracy falls as the penalty grows, so the penalty
    is found by bisection; an accuracy the step accuracies alone do not reach is an error.

    Examples
    --------
    >>> from stad_utils.tasks import generate_tasks
    >>> tasks = generate_tasks(20, seed=0, families=["word"], min_steps=2, max_steps=3)
    >>> ladders = [Ladder(task=t, teacher="oracle", steps=t.reference_steps, scaffolds=t.reference_scaffolds,
    ...                   isolated=t.reference_isolated, verified=True) for t in tasks]
    >>> weak_skill = Simulation(step_accuracy={"multiplication": 0.4, "default": 0.95})
    >>> chaining = Simulation(step_accuracy={"default": 0.95})
    >>> penalty = matching_penalty(chaining, expected_accuracy(weak_skill, ladders), ladders)
    >>> chained = chaining.model_copy(update={"composition_penalty": penalty})
    >>> abs(expected_accuracy(chained, ladders) - expected_accuracy(weak_skill, ladders)) < 1e-9
    True
    """
    def accuracy_at(penalty: float) -> float:
        return expected_accuracy(simulation.model_copy(update={"composition_penalty": penalty}), ladders)

    if not accuracy_at(1.0) <= accuracy <= accuracy_at(0.0):
        raise ValueError(f"no composition penalty gives an expected accuracy of {accuracy:.3f}: with these step "
                         f"accuracies it lies between {accuracy_at(1.0):.3f} and {accuracy_at(0.0):.3f}")
    low, high = 0.0, 1.0
    while high - low > 1e-12:
        middle = (low + high) / 2
        low, high = (middle, high) if accuracy_at(middle) > accuracy else (low, middle)
    return (low + high) / 2


def record_name(label: str) -> str:
    """The name a simulated target's records carry: its label, marked ``simulated:`` unless it says so already.

    Examples
    --------
    >>> record_name("planted-weakness"), record_name("simulated: weak skill")
    ('simulated:planted-weakness', 'simulated: weak skill')
    """
    return label if "simulat" in label.lower() else f"simulated:{label}"


def _user_text(prompt: str | Messages) -> str:
    if isinstance(prompt, str):
        return prompt
    return next((m["content"] for m in reversed(prompt) if m.get("role") == "user"), "")


class SimulatedTarget:
    """A target that answers generated ladders from planted step accuracies (see the module docstring).

    Parameters
    ----------
    endpoint : EndpointConfig
        ``kind: simulated``; its ``simulation`` block is a `Simulation`, its ``n_samples`` the
        samples asked per question.
    ladders : sequence of Ladder
        The ladders whose questions it answers. A prompt shared by several questions is
        answered as the first of them.

    Attributes
    ----------
    simulation : Simulation
        The planted step accuracies, composition penalty and seed.
    usage : UsageStats
        Calls answered (never cache hits, never tokens).

    Examples
    --------
    >>> from stad_utils.tasks import generate_tasks
    >>> from stad_utils.records import Ladder
    >>> task = generate_tasks(1, seed=4, families=["word"], min_steps=3, max_steps=3)[0]
    >>> ladder = Ladder(task=task, teacher="oracle", steps=task.reference_steps, scaffolds=task.reference_scaffolds,
    ...                 isolated=task.reference_isolated)
    >>> target = SimulatedTarget(EndpointConfig(kind="simulated", model="perfect"), [ladder])
    >>> target.model, target.chat_one(task.question).text == f"Answer: {task.answer}"
    ('simulated:perfect', True)
    >>> target.chat_one("What is 2 + 2?").error
    'simulated target: not a question of its ladders'
    """

    def __init__(self, endpoint: EndpointConfig, ladders: Sequence[Ladder]):
        if endpoint.kind != SIMULATED.name:
            raise ValueError(f"a SimulatedTarget needs an endpoint of kind 'simulated', not {endpoint.kind!r}")
        self.endpoint = endpoint
        self.simulation = Simulation.model_validate(endpoint.simulation)
        self.usage = UsageStats()
        self.ladders = [ladder for ladder in ladders if ladder.verified]
        self._questions: dict[str, _Question] = {}
        for ladder in self.ladders:
            for variant, level, prompt, reference in evaluation_items(ladder, placebo=True):
                self._questions.setdefault(prompt, _Question(ladder, variant, level, reference))
        self._warn_unknown_skills()

    @property
    def model(self) -> str:
        """The label in records and figures; always says that this is a simulation."""
        return record_name(self.endpoint.label)

    def _warn_unknown_skills(self) -> None:
        present = {step.skill for ladder in self.ladders for step in ladder.steps}
        absent = sorted(set(self.simulation.step_accuracy) - present - {"default"})
        if absent and self.ladders:
            warnings.warn(f"{self.model}: no step of its ladders has the skill(s) {absent}; their accuracies "
                          f"are never used (skills present: {sorted(present, key=str)})", stacklevel=3)

    def _draws(self, ladder: Ladder, sample: int) -> tuple[np.ndarray, np.ndarray]:
        """(can do step i alone, link i holds) for one ladder and sample."""
        seed, steps = self.simulation.seed, ladder.isolated
        planted_difficulty = self.simulation.task_logit_sd
        difficulty = task_z(uniform(seed, "task difficulty", ladder.task.question)) if planted_difficulty else 0.0
        chance = step_chance([self.simulation.accuracy(step.skill) for step in ladder.steps],
                             np.arange(1, ladder.n_steps + 1), ladder.n_steps, difficulty,
                             **self.simulation.context_effects())
        can = np.array([uniform(seed, sample, text) < p for text, p in zip(steps, chance)], dtype=bool)
        links = np.array([uniform(seed, sample, first, second) >= self.simulation.composition_penalty
                          for first, second in zip(steps, steps[1:])], dtype=bool)
        return can, links

    def _answers_right(self, question: _Question, sample: int) -> bool:
        can, links = self._draws(question.ladder, sample)
        needed = question.steps_needed
        return bool(can[needed].all() and links[needed.start:needed.stop - 1].all())

    def _reply(self, prompt: str | Messages, sample: int) -> tuple[_Question | None, bool]:
        question = self._questions.get(_user_text(prompt))
        return question, question is not None and self._answers_right(question, sample)

    def chat_one(self, prompt: str | Messages, *, sample: int = 0, response_format: dict | None = None,
                 **overrides) -> ChatResult:
        """Answer one prompt; ``response_format`` and sampling ``overrides`` are accepted and ignored."""
        question, right = self._reply(prompt, sample)
        if question is None:
            result = ChatResult(None, error="simulated target: not a question of its ladders")
        else:
            value = question.reference if right else wrong_answer(question.reference)
            result = ChatResult(f"Answer: {value}", finish_reason="stop")
        self.usage.add(result)
        return result

    def chat(self, prompts: Sequence[str | Messages], *, desc: str | None = None,
             response_format: dict | None = None, sample: int = 0, **overrides) -> list[ChatResult]:
        """Answer each prompt, in order (see `chat_one`)."""
        return [self.chat_one(prompt, sample=sample) for prompt in prompts]

    def direct_verdicts(self, *, placebo: bool = False) -> list[Verdict]:
        """The verdicts of every question and sample, decided by the simulation itself.

        What `stad_utils.method.evaluate` records for this target when the judge reads each
        reply right, without writing replies or judging them: fast enough for power curves.
        """
        verdicts = []
        for ladder in self.ladders:
            for sample in range(self.endpoint.n_samples):
                for variant, level, prompt, reference in evaluation_items(ladder, placebo=placebo):
                    _, right = self._reply(prompt, sample)
                    verdicts.append(Verdict.model_construct(  # well-typed by construction: no validation
                        task_id=ladder.task_id, model=self.model, variant=variant, level=level, sample=sample,
                        prompt=prompt, reference=reference, response=None, outcome="correct" if right else "wrong",
                        correct=right, decided_by="simulation", simulated=True))
        return verdicts


@contextmanager
def _open_simulation(config: EndpointConfig, options: ClientOptions) -> Iterator[SimulatedTarget]:
    if options.ladders is None:
        raise ValueError(f"the simulated target {config.label!r} needs the ladders it is asked about")
    yield SimulatedTarget(config, options.ladders)


def _planted_setting(config: EndpointConfig, where: str) -> list[dict[str, Any]]:
    """Its records carry a short name; the whole planted setting, in words, is kept in the manifest."""
    return [{"kind": config.kind, "model": config.model, "label": record_name(config.label),
             "planted": Simulation.model_validate(config.simulation).planted()}]


SIMULATED = register_kind(EndpointKind("simulated", open=_open_simulation, preflight=_planted_setting, cached=False,
                                       sends_requests=False, simulated=True))
"""A target answering from planted step accuracies: nothing to cache, no request, verdicts marked simulated."""
