"""The published release (HF ``ibm-research/STaD``) as tasks: from a local file, or through `datasets`."""

import json
import shutil

import pytest
from helpers import FIXTURES

from stad_utils.method import OracleTeacher, build_ladders, decompose
from stad_utils.official import RELEASE_FILES, load_release, release_task
from stad_utils.records import RecordError
from stad_utils.tasks import load_tasks

RELEASE = FIXTURES / "official" / "release"
RELEASE_FILE = RELEASE / RELEASE_FILES["tot_arithmetic"]


def release_rows():
    return [json.loads(line) for line in RELEASE_FILE.read_text(encoding="utf-8").splitlines()]


def test_a_release_row_becomes_a_task_the_oracle_serves():
    tasks = load_release(path=RELEASE_FILE)
    assert [task.task_id for task in tasks] == ["101", "102"]
    teacher = OracleTeacher()
    [ladder, _] = build_ladders(decompose(tasks, teacher), teacher)
    row = release_rows()[0]
    assert ladder.verified
    assert [(s.description, s.skill, s.answer) for s in ladder.steps] == [
        (segment["segment"], segment["skill"], answer["answer"])
        for segment, answer in zip(row["sub-task"], row["sub-task-answer"])]
    assert (ladder.scaffolds, ladder.isolated) == (row["scaffolding"], row["decompositions"])


def test_the_release_through_datasets_from_a_local_folder(tmp_path):
    """The hub path (``load_dataset(name, data_files=…)``) run offline on a folder in the release's layout."""
    shutil.copy(RELEASE_FILE, tmp_path / RELEASE_FILE.name)
    (tmp_path / RELEASE_FILES["gsm8k"]).write_text("")  # another benchmark's file beside it is not read
    from_folder = load_release("tot_arithmetic", tmp_path)
    from_file = load_release(path=RELEASE_FILE)
    assert [(t.task_id, t.question, t.answer, t.reference_steps, t.reference_scaffolds, t.reference_isolated)
            for t in from_folder] == \
           [(t.task_id, t.question, t.answer, t.reference_steps, t.reference_scaffolds, t.reference_isolated)
            for t in from_file]
    assert len(load_tasks("stad_release", data_path=str(tmp_path), release="tot_arithmetic", n_tasks=1)) == 1


def test_a_repeated_release_id_is_refused(tmp_path):
    path = tmp_path / "release.jsonl"
    path.write_text("".join(json.dumps(row | {"id": 7}) + "\n" for row in release_rows()))
    with pytest.raises(RecordError, match="release.jsonl, line 2, field 'id': duplicate task id '7'"):
        load_tasks("stad_release", data_path=str(path))


def test_the_release_needs_to_know_which_benchmark(tmp_path):
    with pytest.raises(ValueError, match="which benchmark of the release"):
        load_release(None, tmp_path)


def test_a_row_that_failed_verification_is_refused_with_its_line(tmp_path):
    rows = release_rows()
    rows[1]["scaffolding_verification"] = [{"score": 0, "justification": "12:15 is not 12:05"}]
    path = tmp_path / "release.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    with pytest.raises(RecordError, match="release.jsonl, line 2, field 'scaffolding_verification'"):
        load_release(path=path)
    problems = []
    assert len(load_release(path=path, skip_invalid=True, problems=problems)) == 1 and len(problems) == 1


def test_a_release_row_with_a_missing_field_names_it(tmp_path):
    path = tmp_path / "release.jsonl"
    path.write_text(json.dumps({"id": 1, "question": "Q?", "answer": "1", "sub-task": []}) + "\n")
    with pytest.raises(RecordError, match="line 1, field 'scaffolding'"):
        load_release(path=path)
    assert release_task(release_rows()[0]).official["id"] == 101  # the row as read, for writing it back


def test_the_authors_raw_input_rows_as_tasks():
    tasks = load_tasks("official", data_path=str(FIXTURES / "official" / "sample.jsonl"))
    assert len(tasks) == 8 and tasks[0].answer == "2" and tasks[0].official["answer"] == 2
