"""The records: drop codes, written by the filters and derived for files written before codes existed."""

import pytest

from stad_utils.analysis import DROP_NAMES, task_funnel
from stad_utils.records import Decomposition, DropCode, Ladder, Step, Task, drop_code_of


def task(i: int) -> Task:
    return Task(task_id=f"t{i}", source="s", question="Q?", answer="1")


@pytest.mark.parametrize("reason, code", [
    ("7 steps (at most 6)", "too_many_steps"),
    ("no steps", "no_steps"),
    ("no annotated step in the solution", "no_steps"),
    ("last step answer '3' does not match the gold answer '4'", "last_step_mismatch"),
    ("the judge could not decide whether the last step answer '3' equals the gold answer '4' (x)",
     "last_step_undecided"),
    ("a single step, so no scaffold level (drop_single_step)", "single_step"),
    ("teacher failed scaffold level(s) [1]", "teacher_failed_level"),
    ("the judge could not decide the teacher's answer at level(s) [2] (configure an LLM judge)", "level_undecided"),
    ("expected 2 scaffolds and 3 isolated questions, got 1 and 3", "wrong_variant_count"),
    ("teacher ran out of tokens while reasoning", "teacher_out_of_tokens"),
    ("the model refused", "teacher_other"),
])
def test_a_record_written_before_drop_codes_gets_its_code_when_read(reason, code):
    record = {"task": task(0).model_dump(), "teacher": "t", "steps": [], "consistent": False, "drop_reason": reason}
    assert drop_code_of(reason) == code
    assert Decomposition.model_validate(record).drop_code == code
    ladder = {**record, "scaffolds": [], "isolated": [], "verified": False}
    del ladder["consistent"]
    assert Ladder.model_validate(ladder).drop_code == code


def test_every_drop_code_has_a_funnel_name_and_kept_records_have_none():
    assert set(DROP_NAMES) == set(DropCode.__args__)
    assert Decomposition(task=task(0), teacher="t", steps=[], consistent=True).drop_code is None
    assert Ladder(task=task(0), teacher="t", steps=[], scaffolds=[], isolated=[]).drop_code is None


def test_the_funnel_counts_codes_not_sentences():
    steps = [Step(description="d", answer="1")] * 2
    decompositions = [Decomposition(task=task(0), teacher="t", steps=steps, consistent=True),
                      Decomposition(task=task(1), teacher="t", steps=steps, consistent=False,
                                    drop_reason="reworded, any sentence", drop_code="too_many_steps")]
    ladders = [Ladder(task=task(0), teacher="t", steps=steps, scaffolds=["S?"], isolated=["I?", "J?"], verified=False,
                      drop_reason="out of tokens, reworded", drop_code="teacher_out_of_tokens")]
    funnel = task_funnel([task(0), task(1)], decompositions, ladders, [])
    assert funnel.dropped == {"more than 6 steps": 1, "teacher ran out of tokens while reasoning": 1}


def test_the_filters_set_the_codes():
    from stad_utils.method import OracleTeacher, build_ladders, decompose

    REFERENCE = {"reference_scaffolds": [], "reference_isolated": [], "answer_format": "number"}
    long = Task(task_id="long", source="s", question="Q?", answer="7",
                reference_steps=[Step(description=f"s{i}", answer=str(i)) for i in range(1, 8)], **REFERENCE)
    wrong = Task(task_id="wrong", source="s", question="Q?", answer="9",
                 reference_steps=[Step(description="s", answer="1"), Step(description="t", answer="2")], **REFERENCE)
    single = Task(task_id="single", source="s", question="Q?", answer="1",
                  reference_steps=[Step(description="s", answer="1")], **REFERENCE)
    decompositions = decompose([long, wrong, single], OracleTeacher())
    assert {d.task_id: d.drop_code for d in decompositions} == {"long": "too_many_steps",
                                                                "wrong": "last_step_mismatch", "single": None}
    [ladder] = build_ladders(decompositions, OracleTeacher(), drop_single_step=True)
    assert ladder.drop_code == "single_step"
