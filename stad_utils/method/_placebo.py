"""Placebo variants: does a scaffold help by its content, or only by its form and length?

Placebo level *j* is the original problem plus *j* true but useless statements: each one
restates a given of the problem, and none computes anything (it states no number or clock
time that the original does not state). It is asked like scaffold *j* and judged against
the gold final answer. If scaffold *j* helped only by being longer or by listing facts,
placebo *j* would help as much, so success(scaffold *j*) − success(placebo *j*) is the help
from content.

Who writes them (``build_ladders(..., placebo=True)`` fills `Ladder.placebos`):

* the generator, exactly: its restatement *i* repeats a given of step *i*, so placebo *j*
  names the same steps as scaffold *j* but none of their results;
* the ``gsm8k_solution`` teacher, `template_placebos`: the template scaffold's form, with
  sentences of the question in place of the solved steps;
* an LLM teacher, with the ``placebo`` prompt; a placebo that states a value the original
  does not (`new_values`) is refused.

**Length.** A placebo keeps every given, so it is never shorter than the original. Where a
scaffold adds its results to the original wording (the template scaffolds, and the paper's
rewrites that keep the original phrasing), placebo *j* has about scaffold *j*'s length: the
template placebo restates, for each solved-step line, the unused question sentence closest
to that line in length. The generator's scaffolds instead *replace* the solved steps'
sentences by their result, so they are shorter than the original, and its placebo *j* is
longer than scaffold *j* (1.1 to 6.5 times, growing with *j*): there the contrast also holds
the shortening that solving the first steps brings.
"""

from __future__ import annotations

import re

from ..models import render
from ..records import Step, Task

_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+")


def given_sentences(question: str) -> list[str]:
    """The statements of a problem: its sentences that are not questions.

    Examples
    --------
    >>> given_sentences("Ann has 3 pens. She buys 2 more. How many pens does she have?")
    ['Ann has 3 pens.', 'She buys 2 more.']
    """
    sentences = (sentence.strip() for sentence in _SENTENCE_BREAK.split(question.strip()))
    return [sentence for sentence in sentences if sentence and not sentence.endswith("?")]


def length_matched(candidates: list[str], targets: list[int]) -> list[str]:
    """For each target length in turn, the unused candidate closest to it in length.

    Once every candidate has been used, all become available again.

    Examples
    --------
    >>> length_matched(["a", "bbbb", "cc"], [2, 4, 2, 2])
    ['cc', 'bbbb', 'a', 'cc']
    """
    chosen: list[str] = []
    unused: list[str] = []
    for target in targets:
        unused = unused or list(candidates)
        closest = min(unused, key=lambda text: abs(len(text) - target))
        unused.remove(closest)
        chosen.append(closest)
    return chosen


def template_placebos(task: Task, steps: list[Step]) -> list[str] | str:
    """Placebo levels 1…K−1 in the form of the template scaffolds, or why there are none.

    Line *i* of placebo *j* restates a sentence of the question, the one closest in length
    to line *i* of the template scaffold (``"<step description> Result: <answer>"``), so
    placebo *j* and scaffold *j* have about the same length; placebo *j* is placebo *j*−1
    with one more line.

    Examples
    --------
    >>> task = Task(task_id="t", source="demo", question="Ann has 3 pens. She buys 2 more. How many now?",
    ...             answer="5")
    >>> steps = [Step(description="Add 2 to 3.", answer="5"), Step(description="State it.", answer="5")]
    >>> print(template_placebos(task, steps)[0])
    Ann has 3 pens. She buys 2 more. How many now?
    <BLANKLINE>
    1 fact(s) of the problem, restated:
    1. She buys 2 more.
    Use these facts and answer the question.
    """
    givens = given_sentences(task.question)
    if not givens:
        return "the question has no statement to restate"
    solved_lines = [f"{step.description} Result: {step.answer}" for step in steps[:-1]]
    facts = length_matched(givens, [len(line) for line in solved_lines])
    return [render("template_placebo", question=task.question, restated=facts[:level])
            for level in range(1, len(steps))]


_VALUE = re.compile(r"\d[\d,]*(?:[.:]\d+)*")


def _values(text: str) -> set[str]:
    return {match.group(0).rstrip(",").replace(",", "") for match in _VALUE.finditer(text)}


def new_values(text: str, original: str) -> list[str]:
    """Values written in digits (numbers, clock times) that ``text`` states and ``original`` does not.

    A placebo must have none: a new value would be a computed result. Values are compared as
    written (thousands separators aside), so ``10:30`` is new even where ``10`` and ``30``
    are not; values written in words are not seen.

    Examples
    --------
    >>> new_values("Ann has 3 pens. Recall that she has 3 pens. She has 5 now.", "Ann has 3 pens. She buys 2.")
    ['5']
    >>> new_values("It costs $1,200 and starts at 10:30 AM.", "It costs $1200 at 10 past 30.")
    ['10:30']
    """
    return sorted(_values(text) - _values(original))
