"""``python -m stad_utils.official import … / export …`` on the invented chain in ``tests/fixtures/official/``.

The expected k of each fixture task is read off the fixture files by hand (``../shared/docs/official-files.md``
§2; k as in the paper: the first scaffold level solved, 0 for the original):

* Ana (3 steps): original scored 0, scaffolds ``[1, 1]`` in ``…_scored_scored.jsonl`` → k = 1;
* Éva (2 steps): original scored ``"1"`` in ``…_evaluation_scored.jsonl``; the later files leave her out → k = 0;
* Hal (2 steps): original scored 0 (an empty reply), scaffold ``[1]`` → k = 1.

Each exported folder is checked against the layout that document gives for the authors' test script
(the keys each mode adds and the rows it keeps), written out here independently of the project's code.
"""

import json
import shutil
from pathlib import Path

import pytest
import yaml
from helpers import FIXTURES

from stad_utils.official.__main__ import main
from stad_utils.pipeline import check_params, load_params, run_pipeline
from stad_utils.records import Outcome, RunPaths, read_records

OFFICIAL = FIXTURES / "official"
STEM = "sample_final"
LAST = f"{STEM}_evaluation_scored_decomposition_evaluation_scaffolding_evaluation_scored_scored.jsonl"
EXPECTED_K = {"Ana": 1, "Éva": 0, "Hal": 1}


def lines(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def k_by_task(run_dir):
    return {o.task_id: o.k for o in read_records(RunPaths(run_dir).outcomes, Outcome.model_validate)}


def k_by_name(run_dir):
    questions = {row["question"]: row["question"][:3] for row in lines(OFFICIAL / "sample.jsonl")}
    tasks = {json.loads(line)["task_id"]: json.loads(line)["question"]
             for line in RunPaths(run_dir).tasks.read_text(encoding="utf-8").splitlines()}
    return {questions[tasks[task_id]]: k for task_id, k in k_by_task(run_dir).items()}


def run_import(capsys, *arguments):
    code = main(["import", *map(str, arguments)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# The authors' test script, as ../shared/docs/official-files.md §2 describes it: (suffix, key added, rows kept).
TEST_MODES = [
    ("_evaluation", "evaluation", lambda row: True),
    ("_scored", "evaluation_score", lambda row: True),
    ("_decomposition_evaluation", "decomposition_evaluation",
     lambda row: bool(row["decompositions"]) and row["evaluation_score"] == 0),
    ("_scaffolding_evaluation", "scaffolding_evaluation",
     lambda row: bool(row["scaffolding"]) and row["evaluation_score"] == 0),
    ("_scored", "decomposition_score", lambda row: bool(row["decomposition_evaluation"])),
    ("_scored", "scaffolding_score", lambda row: bool(row["scaffolding_evaluation"])),
]
FINAL_KEYS = {"question", "answer", "sub-task", "sub-task-answer", "scaffolding", "scaffolding_verification",
              "decompositions"}


def assert_official_test_chain(folder: Path, stem: str) -> None:
    """The files hold what the authors' test script reads and writes, mode by mode (keys, types, rows kept)."""
    rows = lines(folder / f"{stem}.jsonl")
    for row in rows:  # the test input: a final file
        assert FINAL_KEYS <= set(row) and isinstance(row["question"], str) and row["answer"] not in (None, "")
        assert all(set(item) == {"explanation", "answer"} for item in row["sub-task-answer"])
        assert all(item["score"] == 1 for item in row["scaffolding_verification"])
    name = stem
    for suffix, added, keeps in TEST_MODES:
        name += suffix
        written = lines(folder / f"{name}.jsonl")
        kept = [row for row in rows if keeps(row)]
        assert [row["question"] for row in written] == [row["question"] for row in kept], name
        for before, after in zip(kept, written):
            assert {key: value for key, value in after.items() if key != added} == before  # nothing else changes
        for row in written:
            value = row[added]
            if added == "evaluation":
                assert isinstance(value, str)
            elif added == "evaluation_score":
                assert value in (0, 1, "1", None)  # null: an error or an undecided reply, never 0
            elif added.endswith("_evaluation"):
                prompts = row["decompositions" if added.startswith("decomposition") else "scaffolding"]
                assert isinstance(value, list) and len(value) == len(prompts)
                assert all(isinstance(reply, str) for reply in value)  # plain strings, as the script writes them
            else:
                key = added.removesuffix("_score")
                assert list(value) == [key] and len(value[key]) == len(row[f"{key}_evaluation"])
        rows = written


def test_import_a_folder_of_the_chain_gives_every_task_its_k(tmp_path, capsys):
    code, out, _ = run_import(capsys, OFFICIAL, "--run", "imported", "--results-dir", tmp_path)
    assert code == 0
    assert k_by_name(tmp_path / "imported") == EXPECTED_K
    assert "read 12 file(s)" in out and "tasks 8," in out and "ladders 6 (3 verified)" in out
    assert f"{LAST}: 2 rows, 2 scaffolding_scored" in out and "sample.jsonl: 8 rows, 8 input" in out
    assert "k of model 'official': {'0': 1, '1': 2}, undetermined 0" in out and "warning" not in out


def test_the_last_test_file_alone_leaves_out_the_solved_originals(tmp_path, capsys):
    code, out, _ = run_import(capsys, OFFICIAL / LAST, "--run", "last", "--results-dir", tmp_path)
    assert code == 0 and k_by_name(tmp_path / "last") == {"Ana": 1, "Hal": 1}
    assert "warning: no file of kind 'evaluation_scored' (…_evaluation_scored.jsonl)" in out
    code, out, _ = run_import(capsys, OFFICIAL / LAST, OFFICIAL / f"{STEM}_evaluation_scored.jsonl",
                              "--run", "both", "--results-dir", tmp_path)
    assert code == 0 and k_by_name(tmp_path / "both") == EXPECTED_K and "warning" not in out


def test_export_gives_the_official_files_back_and_reimporting_them_the_same_k(tmp_path, capsys):
    assert run_import(capsys, OFFICIAL, "--run", "imported", "--results-dir", tmp_path)[0] == 0
    assert main(["export", str(tmp_path / "imported"), "--to", str(tmp_path / "out"), "--stem", "sample"]) == 0
    out = capsys.readouterr().out
    assert "the generation chain: 6 files in" in out and "target 'official': 7 files in" in out
    generation = sorted(path.name for path in OFFICIAL.glob("sample*.jsonl") if "_final_" not in path.name)
    tests = sorted(path.name for path in OFFICIAL.glob(f"{STEM}*.jsonl"))
    for folder, names in ((tmp_path / "out", generation), (tmp_path / "out" / "official", tests)):
        assert sorted(path.name for path in folder.glob("*.jsonl")) == names
        for name in names:  # byte for byte: every row, key order and ensure_ascii=False
            assert (folder / name).read_bytes() == (OFFICIAL / name).read_bytes(), name
    assert_official_test_chain(tmp_path / "out" / "official", STEM)
    assert main(["import", str(tmp_path / "out"), str(tmp_path / "out" / "official"), "--run", "again",
                 "--results-dir", str(tmp_path)]) == 0
    assert k_by_task(tmp_path / "again") == k_by_task(tmp_path / "imported")
    assert RunPaths(tmp_path / "again").ladders.read_bytes() == RunPaths(tmp_path / "imported").ladders.read_bytes()


def test_the_layout_check_catches_a_solved_original_among_the_variants(tmp_path):
    """The checker above can fail: a row kept that the authors' script would have dropped."""
    shutil.copytree(OFFICIAL, tmp_path / "chain", ignore=shutil.ignore_patterns("checkout", "release"))
    assert_official_test_chain(tmp_path / "chain", STEM)
    variants = tmp_path / "chain" / f"{STEM}_evaluation_scored_decomposition_evaluation.jsonl"
    solved = next(row for row in lines(tmp_path / "chain" / f"{STEM}_evaluation_scored.jsonl")
                  if row["evaluation_score"] != 0)
    variants.write_text(variants.read_text() + json.dumps(solved | {"decomposition_evaluation": []}) + "\n")
    with pytest.raises(AssertionError):
        assert_official_test_chain(tmp_path / "chain", STEM)


def test_bad_rows_stop_the_import_or_are_listed_with_file_and_line(tmp_path, capsys):
    folder = tmp_path / "chain"
    folder.mkdir()
    rows = lines(OFFICIAL / "sample.jsonl")
    (folder / "sample.jsonl").write_text("".join(json.dumps(row) + "\n" for row in [rows[0], rows[1] | {"answer": None},
                                                                                   rows[2]]))
    code, _, err = run_import(capsys, folder, "--run", "strict", "--results-dir", tmp_path)
    assert code == 1 and "sample.jsonl, line 2, field 'answer': null" in err
    assert not (tmp_path / "strict" / "tasks.jsonl").exists()
    code, out, _ = run_import(capsys, folder, "--run", "lenient", "--results-dir", tmp_path, "--skip-invalid")
    assert code == 0 and "skipped 1 row(s):" in out and "sample.jsonl, line 2, field 'answer'" in out
    assert "tasks 2," in out


def test_two_targets_replies_in_one_import_are_refused(tmp_path, capsys):
    other = tmp_path / "other_final_evaluation_scored.jsonl"
    other.write_text("".join(json.dumps(row | {"evaluation": "Another target's reply."}, ensure_ascii=False) + "\n"
                             for row in lines(OFFICIAL / f"{STEM}_evaluation_scored.jsonl")))
    code, _, err = run_import(capsys, OFFICIAL / f"{STEM}_evaluation_scored.jsonl", other, "--run", "mixed",
                              "--results-dir", tmp_path)
    assert code == 1 and "different replies" in err and "a run of its own" in err


def test_a_run_that_holds_records_is_not_imported_into(tmp_path, capsys):
    assert run_import(capsys, OFFICIAL / "sample.jsonl", "--run", "once", "--results-dir", tmp_path)[0] == 0
    code, _, err = run_import(capsys, OFFICIAL / "sample.jsonl", "--run", "once", "--results-dir", tmp_path)
    assert code == 1 and "already holds tasks.jsonl" in err


def test_import_then_evaluate_and_export_from_params(tmp_path, capsys):
    """The round trip as the README gives it: import, then 04 and 05 of the pipeline, 05 exporting the files."""
    assert run_import(capsys, OFFICIAL / f"{STEM}.jsonl", "--run", "roundtrip", "--results-dir", tmp_path)[0] == 0
    params = tmp_path / "roundtrip.yaml"
    params.write_text(yaml.safe_dump({
        "run": "roundtrip", "results_dir": str(tmp_path), "cache": str(tmp_path / "cache.sqlite"),
        "stages": {"04_skills": {"embedding_model": "tfidf", "cluster_on": "description", "min_clusters": 2},
                   "05_evaluate": {"targets": [{"name": "planted", "kind": "simulated", "model": "planted-weakness",
                                                "simulation": {"step_accuracy": {"default": 0.6}, "seed": 1}}],
                                   "policy": "on_failure", "export_official": "exported"}}}))
    run_pipeline(params, stages=["04_skills", "05_evaluate"])
    folder = tmp_path / "exported" / "simulated_planted"  # the target "simulated:planted", as a folder name
    assert_official_test_chain(folder, "roundtrip_final")
    asked = lines(folder / "roundtrip_final_evaluation_scored.jsonl")
    assert len(asked) == 3 and (tmp_path / "exported" / "roundtrip_final.jsonl").read_bytes() == \
           (OFFICIAL / f"{STEM}.jsonl").read_bytes()  # the test input is the imported final file, unchanged
    k = {o.task_id: o.k for o in read_records(RunPaths(tmp_path / "roundtrip").outcomes, Outcome.model_validate)
         if o.model == "simulated:planted"}
    assert 0 in k.values() and any(value != 0 for value in k.values())  # solved and failed originals both exported
    assert main(["import", str(folder), "--run", "back", "--model", "simulated:planted",
                 "--results-dir", str(tmp_path)]) == 0
    assert {o.task_id: o.k for o in read_records(RunPaths(tmp_path / "back").outcomes, Outcome.model_validate)} == k


def test_the_export_folder_is_resolved_against_the_params_file_and_need_not_exist(tmp_path):
    params = tmp_path / "params" / "run.yaml"
    params.parent.mkdir()
    params.write_text(yaml.safe_dump({"run": "r", "stages": {"05_evaluate": {"export_official": "../files"}}}))
    assert load_params(params)["stages"]["05_evaluate"]["export_official"] == str(tmp_path / "files")
    assert check_params(params).ok, str(check_params(params))
