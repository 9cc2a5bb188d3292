"""Official files ↔ the project's records, on invented fixtures of every official file kind.

The fixtures in ``tests/fixtures/official/`` follow the layout that ``../shared/docs/official-files.md``
describes (one invented chain of 8 tasks: ``sample.jsonl`` → … → ``sample_final.jsonl`` → the six
test-chain files), with its quirks: numeric answers, a ``null`` scaffold, a verification item with an
extra judge key, scores ``"1"`` and ``-1``, an empty decomposition, an empty reply, mismatched
``sub-task``/``sub-task-answer`` lengths, non-ASCII text and extra row keys.
"""

import hashlib
import json
import shutil

import pytest
from helpers import FIXTURES, verdicts_for

from stad_utils.method import OracleTeacher, build_ladders, decompose
from stad_utils.official import (
    KINDS,
    MODELLED,
    RELEASE_FILES,
    import_chain,
    load_release,
    read_official,
    task_id_for,
    write_official,
    write_test_chain,
)
from stad_utils.records import RecordError, Step, Task
from stad_utils.tasks import generate_tasks, load_tasks

OFFICIAL = FIXTURES / "official"
TEST_STEM = "sample_final_evaluation_scored"
FILES = {
    "input": "sample.jsonl",
    "segment": "sample_segment.jsonl",
    "answers": "sample_segment_answers.jsonl",
    "scaffolding": "sample_segment_answers_scaffolding.jsonl",
    "verify": "sample_segment_answers_scaffolding_verify.jsonl",
    "final": "sample_final.jsonl",
    "evaluation": "sample_final_evaluation.jsonl",
    "evaluation_scored": f"{TEST_STEM}.jsonl",
    "decomposition_evaluation": f"{TEST_STEM}_decomposition_evaluation.jsonl",
    "scaffolding_evaluation": f"{TEST_STEM}_decomposition_evaluation_scaffolding_evaluation.jsonl",
    "decomposition_scored": f"{TEST_STEM}_decomposition_evaluation_scaffolding_evaluation_scored.jsonl",
    "scaffolding_scored": f"{TEST_STEM}_decomposition_evaluation_scaffolding_evaluation_scored_scored.jsonl",
}


def lines(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def records_and_verdicts(imported):
    return [row.record for row in imported], [v for row in imported for v in row.verdicts]


def test_every_official_file_kind_has_a_fixture():
    assert set(FILES) == set(KINDS)


@pytest.mark.parametrize("kind", list(FILES))
def test_official_file_to_project_to_official_file_gives_every_field_back(kind, tmp_path):
    source = OFFICIAL / FILES[kind]
    imported = read_official(source)
    assert {row.kind.name for row in imported} == {kind}
    again = tmp_path / source.name
    assert write_official(again, *records_and_verdicts(imported), kind=kind) == len(imported)
    assert lines(again) == lines(source)  # every row, every field equal
    assert again.read_bytes() == source.read_bytes()  # and the same key order and ensure_ascii=False lines


def normalised(row: dict) -> dict:
    """An official row as the project's typed records alone hold it, written out independently of the code.

    What the records cannot hold: unknown keys, numeric answers (text), answers beyond the shorter of
    sub-task/sub-task-answer (the official code's zip), null scaffolds (""), extra judge keys, and the
    form of a score: verification is 1 only for score == 1 (as the official filter); a test score is
    read by its number, and −1 (an error) is written as null.
    """
    def score(value):
        return None if float(value) == -1 else int(float(value))

    out = {key: value for key, value in row.items() if key in MODELLED}
    out["answer"] = str(row["answer"])
    if "sub-task-answer" in row:
        pairs = list(zip(row["sub-task"], row["sub-task-answer"]))
        out["sub-task"] = [segment for segment, _ in pairs]
        out["sub-task-answer"] = [{"explanation": a["explanation"], "answer": str(a["answer"])} for _, a in pairs]
    if "scaffolding" in row:
        out["scaffolding"] = [text or "" for text in row["scaffolding"]]
    if "scaffolding_verification" in row:
        out["scaffolding_verification"] = [{"answer": item["answer"], "score": int(item["score"] == 1),
                                            "justification": item["justification"]}
                                           for item in row["scaffolding_verification"]]
    if "evaluation_score" in row:
        out["evaluation_score"] = score(row["evaluation_score"])
    for name in ("decomposition_score", "scaffolding_score"):
        if name in row:
            key = name.removesuffix("_score")
            out[name] = {key: [score(value) for value in row[name][key]]}
    return out


def without_official_rows(record):
    if isinstance(record, Task):
        return record.model_copy(update={"official": {}})
    return record.model_copy(update={"task": record.task.model_copy(update={"official": {}})})


@pytest.mark.parametrize("kind", list(FILES))
def test_the_typed_records_alone_carry_every_modelled_field(kind, tmp_path):
    """The round trip is not a copy: without the rows as read, the export still has every value the records model."""
    source = OFFICIAL / FILES[kind]
    records, verdicts = records_and_verdicts(read_official(source))
    again = tmp_path / source.name
    write_official(again, [without_official_rows(record) for record in records], verdicts, kind=kind)
    assert lines(again) == [normalised(row) for row in lines(source)]


def test_a_value_the_project_changed_is_written_and_the_rest_stays_as_read(tmp_path):
    imported = read_official(OFFICIAL / FILES["final"])
    first = imported[0].ladder
    changed = first.model_copy(update={"scaffolds": ["A new level one?", first.scaffolds[1]]})
    write_official(tmp_path / "final.jsonl", [changed] + [row.ladder for row in imported[1:]], kind="final")
    original, written = lines(OFFICIAL / FILES["final"]), lines(tmp_path / "final.jsonl")
    assert written[0]["scaffolding"] == ["A new level one?", original[0]["scaffolding"][1]]
    assert written[0]["answer"] == 2 and written[0]["origin"] == "invented for the tests"  # as read
    assert {key: value for key, value in written[0].items() if key != "scaffolding"} == \
           {key: value for key, value in original[0].items() if key != "scaffolding"}
    assert written[1:] == original[1:]


def test_rows_without_id_get_the_hash_of_their_question_in_every_file():
    ids = {}
    for name in FILES.values():
        for row in read_official(OFFICIAL / name):
            expected = "official-" + hashlib.sha256(row.task.question.encode("utf-8")).hexdigest()[:12]
            assert row.task.task_id == expected == task_id_for(row.task.question)
            ids.setdefault(row.task.question, set()).add(row.task.task_id)
    assert len(ids) == 8 and all(len(found) == 1 for found in ids.values())


def test_what_each_file_means_to_the_project():
    answers = {row.task.question[:3]: row.decomposition for row in read_official(OFFICIAL / FILES["answers"])}
    assert [s.answer for s in answers["A t"].steps] == ["10:15", "10:15"]  # three answers, two segments: zip
    assert not answers["A t"].consistent and "consistency filter has not run" in answers["A t"].drop_reason
    scaffolded = {row.task.question[:3]: row.ladder for row in read_official(OFFICIAL / FILES["scaffolding"])}
    assert scaffolded["Cle"].scaffolds == [""] and scaffolded["Ana"].steps[2].answer == "2"
    verified = {row.task.question[:3]: row.ladder for row in read_official(OFFICIAL / FILES["verify"])}
    assert verified["Gus"].drop_reason == "the official verification failed at level(s) [1]"  # score "1" is not 1
    assert not any(ladder.verified for ladder in verified.values())  # no isolated questions yet
    final = [row.ladder for row in read_official(OFFICIAL / FILES["final"])]
    assert all(ladder.verified for ladder in final) and final[0].isolated[1] == ""
    assert final[0].task.answer == "2" and final[0].task.answer_format == "number"


def test_scores_become_verdicts_errors_are_never_wrong():
    scored = read_official(OFFICIAL / FILES["scaffolding_scored"], model="granite-8b")
    verdicts = {(v.task_id[-4:], v.variant, v.level): v for row in scored for v in row.verdicts}
    by_task = {row.task.question[:3]: row.task.task_id[-4:] for row in scored}
    ana, hal = by_task["Ana"], by_task["Hal"]
    assert verdicts[ana, "original", 0].outcome == "wrong"
    assert verdicts[hal, "original", 0].outcome == "no_answer"  # an empty reply, scored 0
    assert [verdicts[ana, "isolated", i].correct for i in (1, 2, 3)] == [True, True, False]
    error = verdicts[hal, "isolated", 2]
    assert error.outcome == "error" and error.correct is None and error.error
    assert verdicts[hal, "scaffold", 1].reference == "2" and verdicts[hal, "isolated", 1].reference == "11:00–12:00"
    assert {v.model for v in verdicts.values()} == {"granite-8b"} and {v.policy for v in verdicts.values()} == {
        "on_failure"}
    originals = {row.task.question[:3]: row.verdicts[0] for row in read_official(OFFICIAL / FILES["evaluation_scored"])}
    assert originals["Éva"].outcome == "correct"  # "1" counts by its number
    unscored = read_official(OFFICIAL / FILES["evaluation"])[0].verdicts[0]
    assert unscored.correct is None and unscored.outcome == "undecided"


def test_variant_files_keep_only_failed_originals_as_the_official_script(tmp_path):
    records, verdicts = records_and_verdicts(read_official(OFFICIAL / FILES["evaluation_scored"]))
    write_official(tmp_path / "variants.jsonl", records, verdicts, kind="decomposition_evaluation")
    questions = [row["question"][:3] for row in lines(tmp_path / "variants.jsonl")]
    assert questions == ["Ana", "Hal"]  # Éva's original scored "1", which stops it


@pytest.fixture
def project_run():
    teacher = OracleTeacher()
    tasks = generate_tasks(6, seed=3, min_steps=2, max_steps=3)
    ladders = [ladder for ladder in build_ladders(decompose(tasks, teacher), teacher) if ladder.verified]
    curves = {3: ([False, None, True], [True, False, None]), 2: ([True, False], [True, True])}
    verdicts = [v for ladder in ladders for v in verdicts_for(ladder.task_id, *curves[ladder.n_steps], model="qwen")]
    return ladders, verdicts


def test_project_results_in_the_official_test_files(project_run, tmp_path):
    ladders, verdicts = project_run
    written = write_test_chain(tmp_path, "quick", ladders, verdicts)
    assert [path.name for path in written][-1] == (
        "quick_evaluation_scored_decomposition_evaluation_scaffolding_evaluation_scored_scored.jsonl")
    test_input = lines(written[0])
    assert [row["id"] for row in test_input] == [ladder.task_id for ladder in ladders]
    last = lines(written[-1])
    failed = [ladder for ladder in ladders if ladder.n_steps == 3]
    assert [row["id"] for row in last] == [ladder.task_id for ladder in failed]  # solved originals stop early
    assert last[0]["evaluation_score"] == 0
    assert last[0]["scaffolding_score"] == {"scaffolding": [None, 1]}  # the error is null, never 0
    assert last[0]["decomposition_score"] == {"decomposition": [1, 0, None]}
    assert all(isinstance(reply, str) for row in last for reply in row["decomposition_evaluation"])
    back = {(v.task_id, v.variant, v.level): v.correct for row in read_official(written[-1]) for v in row.verdicts}
    asked = {ladder.task_id for ladder in failed}
    assert back == {(v.task_id, v.variant, v.level): v.correct for v in verdicts if v.task_id in asked}


def test_the_authors_raw_input_scaffolded_by_the_project_for_their_test_script(tmp_path):
    """Raw input rows → the project's ladders → a final file: the row keeps its own keys, order and numeric answer."""
    [task] = [row.task for row in read_official(OFFICIAL / FILES["input"])][:1]
    final = lines(OFFICIAL / FILES["final"])[0]  # the same task's steps and variants, used as the teacher's
    served = task.model_copy(update={
        "reference_steps": [Step(description=s["segment"], explanation=a["explanation"], answer=str(a["answer"]))
                            for s, a in zip(final["sub-task"], final["sub-task-answer"])],
        "reference_scaffolds": final["scaffolding"], "reference_isolated": final["decompositions"]})
    teacher = OracleTeacher()
    ladders = build_ladders(decompose([served], teacher), teacher)
    write_official(tmp_path / "sample_final.jsonl", ladders, kind="final")
    [row] = lines(tmp_path / "sample_final.jsonl")
    assert list(row)[:3] == ["question", "answer", "origin"] and row["answer"] == 2
    assert list(row)[3:] == ["sub-task", "sub-task-answer", "scaffolding", "scaffolding_verification", "decompositions"]
    assert row["sub-task-answer"][2] == {"explanation": "Two starts.", "answer": "2"}  # the project's text
    assert [item["score"] for item in row["scaffolding_verification"]] == [1, 1]


def test_one_model_per_file(project_run, tmp_path):
    ladders, verdicts = project_run
    other = [v.model_copy(update={"model": "llama"}) for v in verdicts]
    with pytest.raises(ValueError, match="several models"):
        write_official(tmp_path / "x.jsonl", ladders, verdicts + other, kind="evaluation_scored")
    assert write_official(tmp_path / "x.jsonl", ladders, verdicts + other, kind="evaluation_scored", model="llama") == \
           len(ladders)


@pytest.mark.parametrize("line, field", [
    ({"answer": 1}, "question"),
    ({"question": "Q?"}, "answer"),
    ({"question": "Q?", "answer": "1", "sub-task": "Find it"}, "sub-task"),
    ({"question": "Q?", "answer": "1", "sub-task": [], "sub-task-answer": [], "scaffolding": [], "evaluation": "",
      "decomposition_evaluation": ["x"], "decomposition_score": [1]}, "decomposition_score"),
])
def test_a_bad_row_names_file_line_and_field(tmp_path, line, field):
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps({"question": "Fine?", "answer": 1}) + "\n" + json.dumps(line) + "\n")
    with pytest.raises(RecordError, match=f"bad.jsonl, line 2, field '{field}'"):
        read_official(path)
    problems = []
    assert len(read_official(path, skip_invalid=True, problems=problems)) == 1 and len(problems) == 1


def test_single_step_tasks_are_dropped_as_in_the_official_code():
    step = Step(description="Add 15 minutes to 9:50", answer="10:05")
    task = Task(task_id="one", source="test", question="What time is it 15 minutes after 9:50?", answer="10:05",
                reference_steps=[step], reference_scaffolds=[], reference_isolated=["What is 9:50 plus 15 minutes?"])
    two = generate_tasks(1, seed=0, min_steps=2, max_steps=2)[0]
    teacher = OracleTeacher()
    decompositions = decompose([task, two], teacher)
    dropped = {ladder.task_id: ladder for ladder in build_ladders(decompositions, teacher, drop_single_step=True)}
    assert not dropped["one"].verified and "single step" in dropped["one"].drop_reason
    assert dropped["one"].isolated == [] and dropped[two.task_id].verified
    kept = {ladder.task_id: ladder for ladder in build_ladders(decompositions, teacher)}
    assert kept["one"].verified and (kept["one"].scaffolds, len(kept["one"].isolated)) == ([], 1)  # the default


# ---------------------------------------------------------------- strict rows, on every import path


def final_rows():
    return lines(OFFICIAL / FILES["final"])


def with_step(row, number, item):
    answers = list(row["sub-task-answer"])
    answers[number - 1] = item
    return row | {"sub-task-answer": answers}


STRICT_CASES = {  # name: (line 1, line 2, the field line 2 is refused for)
    "null gold answer": (final_rows()[0], final_rows()[1] | {"answer": None}, "answer"),
    "final row without verification": (final_rows()[0], {key: value for key, value in final_rows()[1].items()
                                                          if key != "scaffolding_verification"},
                                       "scaffolding_verification"),
    "step without answer": (final_rows()[0], with_step(final_rows()[1], 1, {"explanation": "3 × 4"}),
                            "sub-task-answer"),
    "null step answer": (final_rows()[0], with_step(final_rows()[1], 2, {"explanation": "12 − 5", "answer": None}),
                         "sub-task-answer"),
    "repeated question": (final_rows()[0], final_rows()[0] | {"answer": 3}, "question"),
    "repeated id": (final_rows()[0] | {"id": 7}, final_rows()[1] | {"id": 7}, "id"),
}


def read_with_official(path, folder, **options):
    return len(read_official(path, **options))


def read_with_release(path, folder, **options):
    return len(load_release(path=path, **options))


def read_with_release_source(path, folder, **options):
    return len(load_tasks("stad_release", data_path=str(path), **options))


def read_with_datasets(path, folder, **options):
    """The release's folder layout, read through `datasets` (as from the hub)."""
    folder.mkdir()
    shutil.copy(path, folder / RELEASE_FILES["tot_arithmetic"])
    return len(load_release("tot_arithmetic", folder, **options))


def read_with_import(path, folder, skip_invalid=False, problems=None):
    report = import_chain([path], folder / "run", skip_invalid=skip_invalid)
    if problems is not None:
        problems.extend(report.chain.skipped)
    return len(report.chain.tasks)


IMPORTERS = [read_with_official, read_with_release, read_with_release_source, read_with_datasets, read_with_import]


@pytest.mark.parametrize("importer", IMPORTERS, ids=lambda importer: importer.__name__)
@pytest.mark.parametrize("case", list(STRICT_CASES))
def test_a_row_that_would_need_a_guess_is_refused_alike_on_every_import_path(case, importer, tmp_path):
    """A null never becomes "None", a missing value is never made up, a repeated task is never renamed."""
    first, second, field = STRICT_CASES[case]
    path = tmp_path / "rows" / "chain_final.jsonl"
    path.parent.mkdir()
    path.write_text(json.dumps(first, ensure_ascii=False) + "\n" + json.dumps(second, ensure_ascii=False) + "\n")
    with pytest.raises(RecordError, match=f"jsonl, line 2, field '{field}'"):
        importer(path, tmp_path / "strict")
    problems = []
    assert importer(path, tmp_path / "lenient", skip_invalid=True, problems=problems) == 1
    assert [(problem.line, problem.field) for problem in problems] == [(2, field)]


@pytest.mark.parametrize("second, field", [({"question": "Mo is free 9-10. How many slots?", "answer": None}, "answer"),
                                           ({"question": "Ana is free 9-11. How many slots?", "answer": 3}, "question")])
def test_raw_input_rows_are_as_strict(second, field, tmp_path):
    path = tmp_path / "sample.jsonl"
    path.write_text(json.dumps({"question": "Ana is free 9-11. How many slots?", "answer": 4}) + "\n"
                    + json.dumps(second) + "\n")
    with pytest.raises(RecordError, match=f"sample.jsonl, line 2, field '{field}'"):
        load_tasks("official", data_path=str(path))
    problems = []
    assert len(load_tasks("official", data_path=str(path), skip_invalid=True, problems=problems)) == 1
    assert [(problem.line, problem.field) for problem in problems] == [(2, field)]


def test_a_row_still_before_verification_needs_none():
    verify_free = read_official(OFFICIAL / FILES["scaffolding"])  # scaffolds written, not verified yet: no error
    assert verify_free and not any(row.ladder.verified for row in verify_free)


def test_source_official_on_a_final_file_points_to_stad_release():
    with pytest.raises(ValueError, match="'final' rows.*source: stad_release.*python -m stad_utils.official import"):
        load_tasks("official", data_path=str(OFFICIAL / FILES["final"]))
    tasks = load_tasks("stad_release", data_path=str(OFFICIAL / FILES["final"]))  # the advice works as given
    teacher = OracleTeacher()
    ladders = build_ladders(decompose(tasks, teacher), teacher)
    assert [ladder.scaffolds for ladder in ladders] == [row["scaffolding"] for row in final_rows()]


def test_a_null_text_that_is_never_judged_reads_as_empty_and_is_written_back_as_null(tmp_path):
    row = with_step(final_rows()[1], 1, {"explanation": None, "answer": 12})
    row["scaffolding_verification"] = [{"answer": None, "score": 1, "justification": None}]
    path = tmp_path / "chain_final.jsonl"
    path.write_text(json.dumps(row, ensure_ascii=False) + "\n")
    [imported] = read_official(path)
    assert imported.ladder.steps[0].explanation == "" and imported.ladder.verification[0].justification == ""
    assert imported.ladder.verification[0].answer is None
    write_official(tmp_path / "again.jsonl", [imported.ladder], kind="final")
    assert (tmp_path / "again.jsonl").read_text(encoding="utf-8") == path.read_text(encoding="utf-8")
