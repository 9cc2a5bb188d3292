"""The whole chain with papermill and the real local model (SmolLM2-135M via llama.cpp)."""

import json

import pytest
import yaml

from stad_utils.pipeline import StageFailed, main, run_pipeline
from stad_utils.records import Ladder, Outcome, RunPaths, Task, Verdict, read_records

TARGET = {"kind": "embedded", "model": "smollm2-135m-instruct", "name": "plain", "max_tokens": 96, "concurrency": 1}


def write_params(tmp_path, **stage_overrides):
    params = {
        "run": "it", "results_dir": str(tmp_path / "results"), "cache": str(tmp_path / "cache.sqlite"),
        "stages": {"01_tasks": {"n_tasks": 4, "seed": 3, "min_steps": 2, "max_steps": 3},
                   "04_skills": {"cluster_on": "description"}, "06_analyze": {"n_resamples": 100},
                   "05_evaluate": {"targets": [TARGET, {**TARGET, "name": "answer-line",
                                                        "system_prompt": "End with 'Answer: <value>'."}]},
                   "07_compare": {"n_permutations": 100},
                   **stage_overrides},
    }
    path = tmp_path / "params.yaml"
    path.write_text(yaml.safe_dump(params))
    return path


@pytest.mark.slow
def test_whole_chain_then_one_stage_again_without_model_calls(tmp_path):
    params = write_params(tmp_path)
    run_dir = run_pipeline(params)
    paths = RunPaths(run_dir)
    tasks = read_records(paths.tasks, Task.model_validate)
    ladders = read_records(paths.ladders, Ladder.model_validate)
    verdicts = read_records(paths.verdicts, Verdict.model_validate)
    results = read_records(paths.outcomes, Outcome.model_validate)
    assert len(tasks) == 4 and len(ladders) == 4 and all(ladder.verified for ladder in ladders)
    questions = sum(2 * ladder.n_steps for ladder in ladders)  # original + K−1 scaffolds + K isolated
    assert len(verdicts) == 2 * questions and all(v.error is None and v.response for v in verdicts)
    assert {v.model for v in verdicts} == {"plain", "answer-line"}
    assert len(results) == 8 and all(len(o.curve) == o.n_steps for o in results)
    for summary in json.loads(paths.summary.read_text())["models"].values():
        assert sum(summary["k_distribution"].values()) == 4 - summary["undetermined"]["total"]
        assert 0 <= summary["accuracy_original"]["value"] <= summary["accuracy_scaffolded"]["value"] <= 1
        assert set(summary["per_skill"]) <= {s for o in results for s in o.skills}
    [comparison] = json.loads(paths.comparison.read_text())["comparisons"]
    assert comparison["models"] == ["answer-line", "plain"] and comparison["statement"]
    for figure in ("k_distribution", "success_by_level", "skills", "compare_differences", "compare_bottlenecks",
                   "compare_isolated_vs_whole", "compare_pair_gaps"):
        assert (paths.figures / f"{figure}.png").stat().st_size > 10_000
    assert len(list(paths.notebooks.glob("*.ipynb"))) == 7
    for stage in ("06_analyze", "07_compare"):  # a batch run builds no widget: no frontend would draw it
        executed = (paths.notebooks / f"{stage}.ipynb").read_text()
        assert "interactive = False" in executed and "widget-view" not in executed
    html = paths.html.read_text()
    assert html.count("data:image/png;base64") >= 8 and comparison["statement"][:40] in html
    usage = json.loads(paths.usage.read_text())["05_evaluate"]["target"]
    assert set(usage) == {"plain", "answer-line"}
    assert all(u["calls"] + u["cache_hits"] == questions and u["errors"] == 0 for u in usage.values())
    assert {row["role"] for row in json.loads(paths.summary.read_text())["usage"]} == {"target"}

    # one stage again: answered from the cache and the verdict file, no duplicate records
    run_pipeline(params, stages=["05_evaluate"])
    assert all(u["calls"] == 0 for u in json.loads(paths.usage.read_text())["05_evaluate"]["target"].values())
    assert len(read_records(paths.verdicts, Verdict.model_validate)) == 2 * questions


def test_a_typo_in_the_params_names_the_stage_and_parameter(tmp_path):
    params = write_params(tmp_path, **{"02_decompose": {"teachr": "oracle"}})
    with pytest.raises(ValueError, match=r"stage 02_decompose has no parameter\(s\) \['teachr'\]"):
        run_pipeline(params, stages=["02_decompose"])


def test_a_failing_stage_names_its_cell_and_notebook(tmp_path, capsys):
    params = write_params(tmp_path)  # valid params (a bad one is refused before any stage): 02 is left out instead
    with pytest.raises(StageFailed, match=r"stage 03_scaffold failed in cell \d+ \(FileNotFoundError: .*decompositions"):
        run_pipeline(params, stages=["01_tasks", "03_scaffold"])
    assert main([str(params), "--stage", "03_scaffold"]) == 1
    assert "03_scaffold.ipynb" in capsys.readouterr().err


@pytest.mark.slow
def test_gsm8k_teacher_free_on_real_items_with_the_local_model(shared_data, tmp_path):
    run_dir = run_pipeline("params/gsm8k_local.yaml", results_dir=tmp_path, overrides={
        "01_tasks": {"data_path": str(shared_data), "n_tasks": 3, "seed": 1},
        "05_evaluate": {"targets": [{**TARGET, "max_tokens": 64}]}, "06_analyze": {"n_resamples": 50}},
        stages=["01_tasks", "02_decompose", "03_scaffold", "04_skills", "05_evaluate", "06_analyze"])
    paths = RunPaths(run_dir)
    ladders = [ladder for ladder in read_records(paths.ladders, Ladder.model_validate) if ladder.verified]
    assert ladders and all(ladder.task.source == "gsm8k" and ladder.teacher == "gsm8k_solution" for ladder in ladders)
    verdicts = read_records(paths.verdicts, Verdict.model_validate)
    assert len(verdicts) == sum(2 * ladder.n_steps for ladder in ladders) and not any(v.error for v in verdicts)
    assert json.loads(paths.summary.read_text())["models"]["plain"]["n_tasks"] == len(ladders)
