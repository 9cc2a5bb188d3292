"""The generator's steps must really compose to the gold answer; checked independently of it."""

import re
from datetime import datetime

import numpy as np
import pytest

from stad_utils.tasks import generate_tasks

CLOCK = r"(\d{1,2}:\d{2} [AP]M)"


def minutes_of(clock_text: str) -> int:
    moment = datetime.strptime(clock_text, "%I:%M %p")
    return moment.hour * 60 + moment.minute


def clock_of(minutes: int) -> str:
    return datetime(2000, 1, 1, minutes // 60, minutes % 60).strftime("%I:%M %p").lstrip("0")


def hours_minutes(text: str) -> int:
    hours = re.search(r"(\d+) hours?", text)
    minutes = re.search(r"(\d+) minutes", text)
    return int(hours.group(1)) * 60 + (int(minutes.group(1)) if minutes else 0)


def recompute(explanation: str) -> str:
    """The result of a step's written arithmetic, computed here from scratch."""
    if m := re.fullmatch(r"(\d+) ([-+*/]) (\d+) = \d+", explanation):
        a, op, b = int(m.group(1)), m.group(2), int(m.group(3))
        if op == "/":
            assert a % b == 0, f"inexact division in {explanation!r}"
        return str({"+": a + b, "-": a - b, "*": a * b, "/": a // b if b else None}[op])
    if m := re.fullmatch(rf"{CLOCK} \+ (\d+) min = .*", explanation):
        return clock_of(minutes_of(m.group(1)) + int(m.group(2)))
    if m := re.fullmatch(rf"(later|earlier) of {CLOCK} and {CLOCK} = .*", explanation):
        pick = max if m.group(1) == "later" else min
        return pick(m.group(2), m.group(3), key=minutes_of)
    if m := re.fullmatch(rf"{CLOCK} - {CLOCK} = \d+ min", explanation):
        return str(minutes_of(m.group(1)) - minutes_of(m.group(2)))
    if m := re.fullmatch(r"(\d+) min - (\d+) min = \d+ min", explanation):
        return str(int(m.group(1)) - int(m.group(2)))
    if m := re.fullmatch(r"floor\((\d+) min / (\d+) min\) = \d+", explanation):
        return str(int(m.group(1)) // int(m.group(2)))
    if m := re.fullmatch(r"(.* hours?.*) = \d+ min", explanation):
        return str(hours_minutes(m.group(1)))
    raise AssertionError(f"unrecognised step arithmetic {explanation!r}")


TASKS = [task for seed in range(150) for task in generate_tasks(4, seed=seed, min_steps=1, max_steps=6)]


def test_enough_tasks_of_both_families():
    assert len(TASKS) == 600
    assert {t.source for t in TASKS} == {"generated/word", "generated/time"}


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.task_id)
def test_steps_compose_to_the_gold_answer(task):
    steps = task.reference_steps
    for step in steps:
        assert recompute(step.explanation) == step.answer, step
    assert steps[-1].answer == task.answer
    for previous, step in zip(steps, steps[1:]):
        # each step works on the previous result, except the end of a free interval (independent of its start)
        if step.skill != "earlier of two clock times":
            operands = step.explanation.split(" = ")[0]
            assert re.search(rf"(?<![\d:]){re.escape(previous.answer)}(?![\d:])", operands), (previous, step)


@pytest.mark.parametrize("task", TASKS[:200], ids=lambda t: t.task_id)
def test_variants_fold_in_exactly_the_solved_steps(task):
    steps, scaffolds, isolated = task.reference_steps, task.reference_scaffolds, task.reference_isolated
    assert 1 <= len(steps) <= 6
    assert len(scaffolds) == len(steps) - 1 and len(isolated) == len(steps)
    for j, text in enumerate(scaffolds, start=1):
        assert steps[j - 1].answer in text, f"scaffold {j} does not state step {j}'s result"
        assert text.endswith("?")
    for text in isolated:
        assert text.endswith("?")
    assert isolated[0].startswith(task.question.split(".")[0])


def test_generation_is_deterministic_and_prefix_stable():
    assert generate_tasks(10, seed=5) == generate_tasks(10, seed=5)
    assert generate_tasks(20, seed=5)[:10] == generate_tasks(10, seed=5)
    assert generate_tasks(10, seed=5) != generate_tasks(10, seed=6)


def test_difficulty_parameters_are_respected():
    tasks = generate_tasks(60, seed=1, families=["word"], min_steps=3, max_steps=3, max_number=4)
    assert all(len(t.reference_steps) == 3 for t in tasks)
    first_operands = [int(x) for t in tasks for x in t.reference_steps[0].explanation.split(" = ")[0].split(" * ")]
    assert max(first_operands) <= 4


def test_bad_parameters_are_refused():
    with pytest.raises(ValueError, match="unknown task families"):
        generate_tasks(1, families=["chess"])
    with pytest.raises(ValueError, match="min_steps"):
        generate_tasks(1, min_steps=4, max_steps=2)


# ---------------------------------------------------------------- placebos

VALUE = re.compile(r"\d+(?::\d+)?")  # numbers and clock times as written


def sentences(text: str) -> list[str]:
    return re.split(r"(?<=[.?])\s+", text.strip())


def states(text: str, value: str) -> bool:
    return re.search(rf"(?<![\d:]){re.escape(value)}(?![\d:])", text) is not None


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t.task_id)
def test_placebo_j_is_the_original_with_j_restated_givens_and_no_result(task):
    original = sentences(task.question)
    stated = set(VALUE.findall(task.question))
    unstated_results = [step.answer for step in task.reference_steps if not states(task.question, step.answer)]
    assert len(task.reference_placebos) == len(task.reference_steps) - 1
    for j, placebo in enumerate(task.reference_placebos, start=1):
        parts = sentences(placebo)
        added = [sentence for sentence in parts if sentence not in original]
        assert [sentence for sentence in parts if sentence in original] == original, "an original sentence is missing"
        assert len(added) == j
        for sentence in added:
            values = set(VALUE.findall(sentence))
            assert values and values <= stated, f"{sentence!r} does not restate a given"
        assert not any(states(placebo, result) for result in unstated_results), "a step result is given"


def test_placebos_add_about_j_sentences_of_text():
    """Tolerance: the j restatements add 0.75 to 2 times the text of j average sentences of the problem.

    (The generator's scaffolds replace the solved steps' sentences by their result, so they are
    shorter than the original; a placebo keeps every given and cannot match their length.)
    """
    added = [(len(placebo) - len(task.question) - j) / (j * np.mean([len(s) for s in sentences(task.question)]))
             for task in TASKS for j, placebo in enumerate(task.reference_placebos, start=1)]
    assert 0.75 <= min(added) and max(added) <= 2.0
