"""Placebo variants from every teacher: the original plus restated givens, no computed value, about scaffold length."""

import json
import re

import numpy as np
import pytest

from stad_utils.method import GSM8KSolutionTeacher, LLMTeacher, OracleTeacher, build_ladders
from stad_utils.models import ChatResult, EndpointConfig
from stad_utils.records import Decomposition, Step, Task
from stad_utils.tasks import load_tasks

TASK = Task(task_id="pens", source="test", question="Ann has 3 pens. She buys 2 more pens. Then she gets 4 more. "
            "How many pens does she have?", answer="9", answer_format="number")
STEPS = [Step(description="Add the bought pens.", answer="5"), Step(description="Add the gift.", answer="9")]


class ScriptedTeacherModel:
    """Answers the placebo prompt with the original problem and the requested number of sentences."""

    model = "scripted-teacher"
    endpoint = EndpointConfig(model="scripted-teacher", base_url="http://127.0.0.1:9/v1")

    def __init__(self, added_sentence: str):
        self.added_sentence = added_sentence
        self.counts: list[int] = []

    def chat(self, conversations, **_):
        replies = []
        for conversation in conversations:
            prompt = conversation[-1]["content"]
            count = int(re.search(r"adding exactly (\d+) short sentence", prompt)[1])
            original = prompt.split("Original problem:\n")[1].split("\n")[0]
            self.counts.append(count)
            replies.append(ChatResult(json.dumps({"question": original + f" {self.added_sentence}" * count})))
        return replies


def test_the_llm_teacher_asks_one_placebo_per_scaffold_level():
    model = ScriptedTeacherModel("Recall that Ann has 3 pens.")
    [placebos] = LLMTeacher(model).write_placebos([(TASK, STEPS + [Step(description="Count.", answer="9")])])
    assert model.counts == [1, 2]
    assert [p.count("Recall that Ann has 3 pens.") for p in placebos] == [1, 2]


def test_the_llm_teachers_placebo_that_computes_is_refused():
    [placebos] = LLMTeacher(ScriptedTeacherModel("So far she has 5 pens.")).write_placebos([(TASK, STEPS)])
    assert isinstance(placebos, str) and "5" in placebos


def test_a_ladder_whose_teacher_cannot_write_placebos_keeps_its_variants_without_them():
    task = TASK.model_copy(update={"reference_steps": STEPS, "reference_scaffolds": ["Ann has 5 pens. ... ?"],
                                   "reference_isolated": ["I1?", "I2?"]})  # like a release record: no placebos
    decomposition = Decomposition(task=task, teacher="oracle", steps=STEPS, consistent=True)
    with pytest.warns(UserWarning, match="no placebos"):
        [ladder] = build_ladders([decomposition], OracleTeacher(), placebo=True)
    assert ladder.verified and ladder.scaffolds and ladder.placebos == []


def test_placebos_are_refused_to_a_teacher_without_the_verb():
    class VariantsOnly:
        name = "variants-only"

        def write_variants(self, items):
            return [(["S?"], ["I1?", "I2?"]) for _ in items]

    decomposition = Decomposition(task=TASK, teacher="t", steps=STEPS, consistent=True)
    with pytest.raises(ValueError, match="cannot write placebos"):
        build_ladders([decomposition], VariantsOnly(), placebo=True)


@pytest.fixture(scope="module")
def gsm8k_placebos(shared_data):
    tasks = load_tasks("gsm8k", data_path=str(shared_data))
    teacher = GSM8KSolutionTeacher()
    items = [(task, steps) for task, steps in zip(tasks, teacher.decompose(tasks)) if isinstance(steps, list)]
    return items, teacher.write_variants(items), teacher.write_placebos(items)


def test_gsm8k_placebos_restate_sentences_of_the_question(gsm8k_placebos):
    items, _, placebos = gsm8k_placebos
    written = [(task, levels) for (task, _), levels in zip(items, placebos) if not isinstance(levels, str)]
    assert len(written) >= 0.95 * len(items)
    for task, levels in written:
        for j, placebo in enumerate(levels, start=1):
            lines = re.findall(r"^\d+\. (.*)$", placebo.removeprefix(task.question), flags=re.MULTILINE)
            assert len(lines) == j and all(line in task.question for line in lines)


def test_gsm8k_placebos_have_the_length_of_their_scaffolds(gsm8k_placebos):
    """Tolerance: the median ratio placebo/scaffold is within 5% of 1, and 90% of levels within 20%."""
    items, variants, placebos = gsm8k_placebos
    ratios = np.array([len(placebo) / len(scaffold) for (scaffolds, _), levels in zip(variants, placebos)
                       if not isinstance(levels, str) for scaffold, placebo in zip(scaffolds, levels)])
    assert len(ratios) > 2000
    assert abs(np.median(ratios) - 1) <= 0.05
    assert np.mean(abs(ratios - 1) <= 0.2) >= 0.9
