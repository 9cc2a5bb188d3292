import json

import pytest

from stad_utils import RecordError, read_records
from stad_utils.release import from_official, to_official
from stad_utils.tasks import generate_tasks
from stad_utils.stages import build_ladders, decompose
from stad_utils.teachers import OracleTeacher
from helpers import verdicts_for


@pytest.fixture
def ladders():
    teacher = OracleTeacher()
    return build_ladders(decompose(generate_tasks(6, seed=2), teacher), teacher)


def test_official_fields_round_trip(ladders):
    for ladder in ladders:
        record = json.loads(json.dumps(to_official(ladder)))
        assert {"id", "question", "answer", "sub-task", "sub-task-answer", "scaffolding",
                "scaffolding_verification", "decompositions"} <= set(record)
        assert record["sub-task"][0] == {"segment": ladder.steps[0].description, "skill": ladder.steps[0].skill}
        back = from_official(record, source=ladder.task.source)
        assert back.steps == ladder.steps
        assert (back.scaffolds, back.isolated, back.verified) == (ladder.scaffolds, ladder.isolated, True)
        assert (back.task.task_id, back.task.question, back.task.answer) == (
            ladder.task.task_id, ladder.task.question, ladder.task.answer)


def test_evaluation_fields_are_exported(ladders):
    ladder = next(l for l in ladders if l.n_steps == 3)
    record = to_official(ladder, verdicts_for(ladder.task_id, [False, True, False], [True, False, True]))
    assert record["evaluation_score"] == 0
    assert record["scaffolding_score"] == [1, 0]
    assert record["decomposition_score"] == [1, 0, 1]
    assert len(record["scaffolding_evaluation"]) == 2


def test_a_failed_verification_is_read_as_unverified():
    record = {"id": 7, "question": "Q?", "answer": "3", "sub-task": [{"segment": "a", "skill": "x"}, {"segment": "b"}],
              "sub-task-answer": [{"explanation": "", "answer": "1"}, {"explanation": "", "answer": "3"}],
              "scaffolding": ["S1?"], "scaffolding_verification": [{"score": 0, "justification": "no"}],
              "decompositions": ["I1?", "I2?"]}
    ladder = from_official(record)
    assert not ladder.verified and ladder.task.task_id == "7" and ladder.steps[1].skill is None


def test_a_release_file_with_a_missing_field_names_it(tmp_path):
    path = tmp_path / "release.jsonl"
    path.write_text(json.dumps({"id": 1, "question": "Q?", "answer": "1", "sub-task-answer": []}) + "\n")
    with pytest.raises(RecordError, match="line 1, field 'sub-task'"):
        read_records(path, from_official)
