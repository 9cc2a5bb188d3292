"""Every Eval Ever records of a run, checked by the schema package's own validator.

every-eval-ever needs Python 3.12 (this project runs on 3.11), so the validator runs in a venv of its own,
``.venv-eee``, which ``make eee-validator`` (and so ``make test`` and CI) creates.
"""

import json
import subprocess

import pytest
import yaml
from helpers import ROOT

from stad_utils.exchange import EEE_SCHEMA_VERSION, export_eee
from stad_utils.records import RunPaths
from stad_utils.stages import analyze, decompose, evaluate, scaffold, skills, tasks

VALIDATOR = ROOT / ".venv-eee" / "bin" / "python"
"""The Python of the validator's venv."""


def validate(root, *, valid=True):
    """``python -m every_eval_ever validate`` on every file under ``root/data``: its report per file."""
    if not VALIDATOR.exists():
        pytest.fail(f"Every Eval Ever's validator is not installed at {VALIDATOR.parent.parent}: run "
                    "`make eee-validator` (it needs Python 3.12)")
    checked = subprocess.run([str(VALIDATOR), "-m", "every_eval_ever", "validate", "--format", "json",
                              f"{root}/data/*/*/*/*.json*"], capture_output=True, text=True, cwd=root, timeout=300)
    assert (checked.returncode == 0) == valid, checked.stdout[-3000:] + checked.stderr[-3000:]
    return json.loads(checked.stdout)


def assert_valid(root, written):
    report = validate(root)
    assert len(report) == 2 * len(written)  # each aggregate and its instance rows
    assert all(entry["valid"] and not entry["errors"] and not entry["warnings"] for entry in report), report


def test_the_example_run_exported_passes_the_validator(tmp_path, example_run):
    analyze.run(RunPaths(example_run), analyze.Params(n_resamples=200))
    written = export_eee(example_run, tmp_path / "eee", params=ROOT / "params" / "quickstart.yaml",
                         organization="STaD workbench tests")
    assert len(written) == 4
    assert_valid(tmp_path / "eee", written)
    summary = json.loads(RunPaths(example_run).summary.read_text())
    for path in written:
        record = json.loads(path.read_text())
        assert record["schema_version"] == EEE_SCHEMA_VERSION
        label = record["model_info"]["name"]
        numbers = summary["models"][label]
        results = {result["evaluation_result_id"]: result for result in record["evaluation_results"]}
        assert results["accuracy"]["score_details"]["score"] == numbers["accuracy_original"]["value"]
        interval = results["accuracy"]["score_details"]["uncertainty"]["confidence_interval"]
        assert [interval["lower"], interval["upper"]] == numbers["accuracy_original"]["ci95"]
        assert {f"success_rate@L{level['level']}" for level in numbers["success_by_level"]} <= set(results)
        levels = results["minimal_scaffolding_level"]
        assert levels["metric_config"]["score_type"] == "levels" and levels["metric_config"]["has_unknown_level"]
        counts = json.loads(levels["score_details"]["details"]["distribution"])
        assert counts.get("unknown", 0) == numbers["k_distribution"].get("-1", 0)
        assert {f"k_share@{k}" for k in numbers["k_share"]} <= set(results)
        for skill, entry in numbers["per_skill"].items():
            if entry["isolated_accuracy"]["value"] is None:  # no step of it asked alone was answered
                assert f"isolated_accuracy@{skill}" not in results
                continue
            share = results[f"isolated_accuracy@{skill}"]["score_details"]
            assert share["score"] == entry["isolated_accuracy"]["value"]
            assert "confidence_interval" in share["uncertainty"]
        claim = results["composition_failure"]["score_details"]
        assert claim["score"] == float(numbers["diagnosis"]["composition_failure"])
        assert json.loads(claim["details"]["diagnosis_json"]) == numbers["diagnosis"]
        assert all(result["metric_config"]["additional_details"]["judge"] for result in results.values())
        rows = [json.loads(line) for line in path.with_name(path.stem + "_samples.jsonl").read_text().splitlines()]
        replies = [row for row in rows if row["evaluation_name"] != "minimal_scaffolding_level"]
        assert len(replies) == 144
        assert {row["metadata"]["outcome"] for row in replies} <= {"correct", "wrong", "no_answer", "undecided",
                                                                   "error"}
        k_rows = [row for row in rows if row["evaluation_name"] == "minimal_scaffolding_level"]
        assert sum(row["evaluation"]["score"] == -1 for row in k_rows) == numbers["k_distribution"].get("-1", 0)
    generation = results["accuracy"]["generation_config"]
    assert generation["generation_args"]["max_tokens"] == 256 and generation["generation_args"]["reasoning"] is False
    # the validator is no rubber stamp: a levels result without its unknown level is refused
    record = json.loads(written[0].read_text())
    next(r for r in record["evaluation_results"] if r["evaluation_result_id"] == "minimal_scaffolding_level")[
        "metric_config"].pop("has_unknown_level")
    written[0].write_text(json.dumps(record))
    [refused] = [entry for entry in validate(tmp_path / "eee", valid=False) if not entry["valid"]]
    assert refused["file"].endswith(written[0].name) and "has_unknown_level" in json.dumps(refused["errors"])


def test_a_seeded_run_of_three_models_exported_passes_the_validator(tmp_path):
    targets = [{"name": name, "kind": "simulated", "model": name, "simulation": simulation}
               for name, simulation in (
                   ("planted-multiplication", {"step_accuracy": {"multiplication": 0.2, "default": 0.9}, "seed": 3}),
                   ("planted-chaining", {"step_accuracy": {"default": 0.9}, "composition_penalty": 0.3, "seed": 4}),
                   ("planted-nothing", {"step_accuracy": {"default": 0.9}, "seed": 5}))]
    paths = RunPaths(tmp_path / "seeded")
    paths.root.mkdir()
    stage_params = {"01_tasks": {"n_tasks": 40, "seed": 7, "max_steps": 4}, "05_evaluate": {"targets": targets}}
    (paths.root / "params.yaml").write_text(yaml.safe_dump({"run": "seeded", "stages": stage_params}))
    tasks.run(paths, tasks.Params(**stage_params["01_tasks"]))
    decompose.run(paths)
    scaffold.run(paths)
    skills.run(paths, skills.Params(embedding_model="tfidf", cluster_on="skill", skill_source="label"))
    evaluate.run(paths, evaluate.Params(targets=targets, cache_path=str(tmp_path / "cache.sqlite")))
    analyze.run(paths, analyze.Params(n_resamples=200))
    written = export_eee(paths.root, tmp_path / "eee")
    assert sorted(json.loads(path.read_text())["model_info"]["id"] for path in written) == [
        "stad-simulated/planted-chaining", "stad-simulated/planted-multiplication", "stad-simulated/planted-nothing"]
    assert_valid(tmp_path / "eee", written)
