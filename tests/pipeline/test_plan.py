"""The cost of a run before its first call (--check, --plan), and a limit that stops a run that a re-run resumes."""

import json
import math
import subprocess
import sys

import pytest
from helpers import ROOT
from scripted_server import ScriptedServer

from stad_utils.models import TRACE_PROBE
from stad_utils.pipeline import main, plan_for, run_pipeline
from stad_utils.records import RunPaths, Verdict, read_records

VOLATILE = {"latency_s", "cached"}


def stad_run(*args):
    return subprocess.run([sys.executable, "-m", "stad_utils.pipeline", *map(str, args)], capture_output=True,
                          text=True, timeout=600)


def test_check_on_the_paper_gsm8k_params_prints_calls_and_tokens_per_stage_and_model():
    checked = stad_run(ROOT / "params" / "paper" / "gsm8k.yaml", "--check")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    rows = {tuple(line.split()[:3]): line.split()[3:] for line in checked.stdout.splitlines()
            if line.startswith("0") and "no model calls" not in line}
    targets = ["qwen2.5-3b", "qwen2.5-7b", "llama-3.2-3b", "llama-3.1-8b", "granite-3.3-2b", "granite-3.3-8b"]
    teacher, judge = "openai/gpt-oss-120b", "meta-llama/Llama-3.3-70B-Instruct"
    expected = {("02_decompose", "teacher", teacher), ("03_scaffold", "teacher", teacher),
                ("04_skills", "namer", teacher), ("02_decompose", "judge", judge), ("05_evaluate", "judge", judge),
                *(("05_evaluate", "target", target) for target in targets)}
    assert expected <= set(rows), checked.stdout
    for row in expected:
        calls, _, prompt_tokens, answer_tokens = (cell.replace(",", "") for cell in rows[row][:4])
        assert int(calls) > 0 and int(prompt_tokens) > 0 and int(answer_tokens) > 0, (row, rows[row])
    # 1,319 GSM8K items (the hub's test split is not read for a plan), each target asked its questions
    assert int(rows["05_evaluate", "target", "qwen2.5-3b"][0].replace(",", "")) > 1319 * 4
    assert "gsm8k from the hub is not read for a plan: 1,319 test items" in checked.stdout
    assert "4 characters a token" in checked.stdout


def test_plan_counts_what_a_run_folder_holds_as_done(tmp_path):
    params = tmp_path / "params.yaml"
    params.write_text(json.dumps({"run": "planned", "results_dir": str(tmp_path / "results"), "stages": {
        "01_tasks": {"n_tasks": 3, "seed": 2},
        "05_evaluate": {"targets": [{"name": "t", "model": "m", "base_url": "http://127.0.0.1:9/v1", "max_tokens": 50,
                                     "n_samples": 2}]},
        "06_analyze": {"prices": {"t": {"prompt": 1.0, "completion": 2.0}}}}}))
    [row] = [row for row in plan_for(params).rows if row.role == "target"]
    questions = row.calls + row.cache_hits
    assert row.calls > 0 and row.usd == pytest.approx((row.prompt_tokens + 2 * row.answer_tokens) / 1e6)
    assert row.answer_tokens == 50 * row.calls
    planned = stad_run(params, "--plan", "--stage", "05_evaluate")
    assert planned.returncode == 0 and f"{row.calls}" in planned.stdout and "01_tasks" not in planned.stdout
    assert questions % 2 == 0  # two samples of every question, each its own request


@pytest.mark.slow
def test_the_quickstart_plan_predicts_the_calls_of_a_fresh_run_with_the_cache_off(tmp_path, monkeypatch):
    """params/quickstart.yaml on 6 of its 30 tasks: all of them keep the embedded model busy for half an hour on two
    cores (the whole quickstart, measured by hand: 114 calls and 30 cache hits per SmolLM2 target, as planned)."""
    fewer = {"01_tasks": {"n_tasks": 6}, "06_analyze": {"n_resamples": 100}, "07_compare": {"n_permutations": 100}}
    quickstart = ROOT / "params" / "quickstart.yaml"
    plan = plan_for(quickstart, results_dir=tmp_path, fresh=True, overrides=fewer, cache_mode="off")
    monkeypatch.setenv("STAD_CACHE", "off")  # as --no-cache: read by the stages' kernel
    run_dir = run_pipeline(quickstart, results_dir=tmp_path, fresh=True, overrides=fewer)
    used = json.loads(RunPaths(run_dir).usage.read_text())
    planned = {(row.stage, row.role, row.model): row for row in plan.rows if row.role != "–"}
    made = {(stage, role, model): stats for stage, roles in used.items() for role, models in roles.items()
            for model, stats in models.items()}
    assert planned.keys() == made.keys()
    assert {key: row.calls for key, row in planned.items()} == {key: stats["calls"] for key, stats in made.items()}
    assert all(row.calls > 0 and row.cache_hits for key, row in planned.items() if "smollm2" in key[2])
    for key, row in planned.items():
        if row.cache_hits is not None:
            assert row.cache_hits == made[key]["cache_hits"]


def test_a_limit_stops_a_run_cleanly_and_a_re_run_resumes_to_the_same_result(tmp_path, capsys):
    def reply(messages):
        return f"Answer: {sum(map(ord, messages[-1]['content'])) % 7}"

    def params_file(name):
        path = tmp_path / f"{name}.yaml"
        path.write_text(json.dumps({
            "run": name, "results_dir": str(tmp_path / "results"), "cache": str(tmp_path / f"{name}.sqlite"),
            "stages": {"01_tasks": {"n_tasks": 6, "seed": 6},
                       "04_skills": {"embedding_model": "tfidf", "cluster_on": "skill", "skill_source": "label"},
                       "05_evaluate": {"targets": [{"name": "scripted", "model": "scripted", "base_url": base_url,
                                                    "concurrency": 2}]},
                       "06_analyze": {"n_resamples": 50}, "07_compare": {"n_permutations": 50}}}))
        return path

    with ScriptedServer(reply) as server:
        base_url = server.base_url
        limited, reference = params_file("limited"), params_file("reference")
        planned = plan_for(limited).calls
        assert main([str(limited), "--limit", "calls=10"]) == 3
        stopped = capsys.readouterr().err
        assert stopped.startswith("stopped: stage 05_evaluate stopped: ") and "calls 10 (limit 10)" in stopped
        assert "run the same command again to go on" in stopped
        asked = [r for r in server.requests if r["body"]["messages"][-1]["content"] != TRACE_PROBE]
        assert len(asked) == 10 < planned
        statuses = [main([str(limited), "--limit", "calls=10"]) for _ in range(math.ceil(planned / 10) - 1)]
        assert statuses == [3] * (len(statuses) - 1) + [0]  # ten more calls each time, from where it stopped
        asked = [r for r in server.requests if r["body"]["messages"][-1]["content"] != TRACE_PROBE]
        assert len(asked) == planned  # no question asked twice over the invocations
        assert main([str(reference)]) == 0
    paths = {name: RunPaths(tmp_path / "results" / name) for name in ("limited", "reference")}

    def verdicts(name):
        return sorted(({k: v for k, v in verdict.model_dump().items() if k not in VOLATILE}
                       for verdict in read_records(paths[name].verdicts, Verdict.model_validate)),
                      key=lambda v: (v["task_id"], v["variant"], v["level"]))

    assert verdicts("limited") == verdicts("reference")
    summaries = {name: json.loads(paths[name].summary.read_text()) for name in paths}
    for summary in summaries.values():
        summary.pop("usage")
    assert summaries["limited"] == summaries["reference"]
    assert paths["limited"].outcomes.read_text() == paths["reference"].outcomes.read_text()
