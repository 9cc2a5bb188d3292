"""Params files, --check, the manifest, preflight and concurrent targets (no model is run)."""

import json
import threading
import time

import pytest
import yaml
from helpers import ROOT
from scripted_server import ScriptedServer

from stad_utils.method import OracleTeacher, build_ladders, decompose, evaluate, evaluate_targets
from stad_utils.models import EndpointConfig, EndpointUnavailable, ModelClient, ResponseCache, free_port
from stad_utils.pipeline import check_params, load_params, main, run_pipeline
from stad_utils.records import Verdict, read_records
from stad_utils.tasks import generate_tasks

COMMITTED_PARAMS = sorted((ROOT / "params").rglob("*.yaml"))


@pytest.mark.parametrize("params", COMMITTED_PARAMS, ids=[p.relative_to(ROOT).as_posix() for p in COMMITTED_PARAMS])
def test_every_committed_params_file_passes_the_check(params):
    report = check_params(params)
    assert report.ok, str(report)


def test_relative_paths_resolve_against_the_params_file_not_the_working_directory(tmp_path, monkeypatch):
    folder = tmp_path / "params" / "nested"
    folder.mkdir(parents=True)
    (folder / "run.yaml").write_text(yaml.safe_dump({
        "run": "r", "results_dir": "../results",
        "stages": {"01_tasks": {"data_path": "../../data"}, "07_compare": {"other_runs": ["../other"]}}}))
    monkeypatch.chdir(tmp_path / "params")  # anywhere but the params file's folder's parent
    params = load_params(folder / "run.yaml")
    assert params["results_dir"] == str(tmp_path / "params" / "results")
    assert params["stages"]["01_tasks"]["data_path"] == str(tmp_path / "data")
    assert params["stages"]["07_compare"]["other_runs"] == [str(tmp_path / "params" / "other")]


def test_a_params_file_without_results_dir_sends_its_runs_beside_itself(tmp_path, monkeypatch):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "run.yaml").write_text(yaml.safe_dump({"run": "r"}))
    monkeypatch.chdir(tmp_path)
    assert load_params(folder / "run.yaml")["results_dir"] == str(folder / "results")


def test_check_names_a_misspelt_endpoint_key_an_unknown_parameter_and_a_missing_path(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump({"run": "bad", "stages": {
        "01_tasks": {"source": "gsm8k", "data_path": "no/such/folder", "n_taks": 3},
        "05_evaluate": {"targets": [{"kind": "embedded", "model": "m", "max_token": 50}]}}}))
    report = check_params(path)
    text = str(report)
    assert not report.ok
    assert "stages.05_evaluate.targets[0].max_token: Extra inputs are not permitted" in text
    assert "stages.01_tasks.n_taks: 01_tasks has no such parameter" in text
    assert f"stages.01_tasks.data_path: {tmp_path / 'no/such/folder'} does not exist" in text
    assert main([str(path), "--check"]) == 1


def test_a_misspelt_endpoint_key_is_refused_at_run_time_too():
    with pytest.raises(ValueError, match="max_token"):
        EndpointConfig.model_validate({"model": "m", "max_token": 50})


def test_a_server_that_is_down_fails_the_run_before_any_stage(tmp_path, capsys):
    url = f"http://127.0.0.1:{free_port()}/v1"  # nothing listens there
    path = tmp_path / "params.yaml"
    path.write_text(yaml.safe_dump({"run": "down", "results_dir": str(tmp_path / "results"), "stages": {
        "01_tasks": {"n_tasks": 2}, "05_evaluate": {"targets": [{"model": "m", "base_url": url, "max_retries": 0}]}}}))
    started = time.perf_counter()
    with pytest.raises(EndpointUnavailable, match=url.replace(".", r"\.")):
        run_pipeline(path)
    assert time.perf_counter() - started < 30
    assert not (tmp_path / "results" / "down" / "tasks.jsonl").exists()  # no stage ran
    assert main([str(path)]) == 1 and url in capsys.readouterr().err


def test_the_manifest_records_commit_versions_params_hash_endpoints_and_times(tmp_path):
    with ScriptedServer(lambda messages: "Answer: 1") as server:
        path = tmp_path / "params.yaml"
        path.write_text(yaml.safe_dump({"run": "m", "results_dir": str(tmp_path / "results"), "stages": {
            "01_tasks": {"n_tasks": 2, "seed": 5}, "05_evaluate": {"targets": [{"model": "scripted",
                                                                              "base_url": server.base_url}]}}}))
        run_dir = run_pipeline(path, stages=["01_tasks"])
    manifest = json.loads((run_dir / "manifest.json").read_text())
    [invocation] = manifest["invocations"]
    assert len(invocation["git"]["commit"]) == 40 and invocation["packages"]["openai"]
    assert len(invocation["params_sha256"]) == 64 and invocation["seeds"] == {"01_tasks.seed": 5}
    assert invocation["completed"] == ["01_tasks"] and invocation["started"] <= invocation["finished"]
    # only the stages that ran are preflighted; 05_evaluate's endpoint was not asked
    assert invocation["endpoints"] == {}


def test_the_preflight_records_what_the_endpoint_serves():
    with ScriptedServer(lambda messages: "ok", models=["served-model"]) as server:
        [served] = ModelClient(EndpointConfig(model="m", base_url=server.base_url)).preflight()
    assert served["models"] == ["served-model"] and served["url"] == server.base_url
    assert served["server"].startswith("BaseHTTP")


def test_the_sample_index_changes_the_cache_key_and_only_the_seed_of_the_request():
    client = ModelClient(EndpointConfig(model="m", base_url="http://127.0.0.1:9/v1", temperature=0.7, seed=3))
    key0, messages0, params0 = client.request("What is 2 + 3?")
    key1, messages1, params1 = client.request("What is 2 + 3?", sample=1)
    assert key0 != key1 and messages0 == messages1
    assert {k: v for k, v in params0.items() if k != "seed"} == {k: v for k, v in params1.items() if k != "seed"}
    assert (params0["seed"], params1["seed"]) == (3, 4)
    assert key0 == ResponseCache.key("m", messages0, params0)  # sample 0: the key of caches written before samples


def small_ladders(n_tasks=6):
    teacher = OracleTeacher()
    return build_ladders(decompose(generate_tasks(n_tasks, seed=2), teacher), teacher)


def test_targets_on_separate_endpoints_are_asked_at_the_same_time(tmp_path):
    ladders = small_ladders()
    with ScriptedServer(lambda m: "Answer: 1", latency=lambda: 0.05) as a, \
            ScriptedServer(lambda m: "Answer: 2", latency=lambda: 0.05) as b:
        targets = [ModelClient(EndpointConfig(model=name, base_url=server.base_url, concurrency=1), progress=False)
                   for name, server in (("a", a), ("b", b))]
        evaluate_targets(ladders, targets, tmp_path / "verdicts.jsonl", progress=False)
    first_b, last_a = b.requests[0]["time"], a.requests[-1]["time"]
    assert first_b < last_a  # b started long before a finished
    verdicts = read_records(tmp_path / "verdicts.jsonl", Verdict.model_validate)
    assert {v.model for v in verdicts} == {"a", "b"} and len(verdicts) == 2 * len(a.requests)


def test_each_verdict_is_on_disk_as_soon_as_its_question_is_judged(tmp_path):
    ladders = small_ladders(3)
    release = threading.Event()
    served = []

    def reply(messages):
        served.append(1)
        if len(served) == 4:
            release.wait(30)  # the fourth question hangs until the test has looked at the file
        return "Answer: 5"

    with ScriptedServer(reply) as server:
        target = ModelClient(EndpointConfig(model="t", base_url=server.base_url, concurrency=1), progress=False)
        worker = threading.Thread(target=evaluate, args=(ladders, target, tmp_path / "verdicts.jsonl"),
                                  kwargs={"progress": False})
        worker.start()
        deadline = time.monotonic() + 30
        while len(served) < 4 and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.2)
        on_disk = len(read_records(tmp_path / "verdicts.jsonl", Verdict.model_validate))
        release.set()
        worker.join()
    assert on_disk == 3


def test_n_samples_asks_each_question_once_per_sample(tmp_path):
    ladders = small_ladders(2)
    with ScriptedServer(lambda m: "Answer: 5") as server:
        target = ModelClient(EndpointConfig(model="t", base_url=server.base_url, n_samples=3, temperature=0.7),
                             progress=False)
        verdicts = evaluate(ladders, target, tmp_path / "verdicts.jsonl", progress=False)
    questions = sum(2 * ladder.n_steps for ladder in ladders)
    assert len(verdicts) == 3 * questions and {v.sample for v in verdicts} == {0, 1, 2}
    assert sorted({r["body"]["seed"] for r in server.requests}) == [0, 1, 2]


def test_originals_and_variants_have_their_own_token_limits(tmp_path):
    ladders = small_ladders(2)
    with ScriptedServer(lambda m: "Answer: 5") as server:
        target = ModelClient(EndpointConfig(model="t", base_url=server.base_url, max_tokens=1024,
                                            max_tokens_variants=2000), progress=False)
        evaluate(ladders, target, tmp_path / "verdicts.jsonl", progress=False)
    originals = {ladder.task.question for ladder in ladders}
    limits = {(r["body"]["messages"][-1]["content"] in originals, r["body"]["max_tokens"]) for r in server.requests}
    assert limits == {(True, 1024), (False, 2000)}


def test_an_unknown_policy_is_an_error(tmp_path):
    with pytest.raises(ValueError, match="unknown policy 'on-failure'"):
        evaluate(small_ladders(1), None, tmp_path / "v.jsonl", policy="on-failure")


def test_a_teacher_answer_the_judge_cannot_decide_is_not_called_a_failed_level():
    class HedgingTeacher(OracleTeacher):
        def solve(self, questions):
            return [f"It is either {task.answer} or 1000, I am not sure." for task, _ in questions]

    teacher = HedgingTeacher()
    ladders = build_ladders(decompose(generate_tasks(2, seed=1, min_steps=2, max_steps=2), teacher), teacher)
    assert all(not ladder.verified for ladder in ladders)
    assert all("could not decide the teacher's answer at level(s) [1]" in ladder.drop_reason
               and "teacher failed" not in ladder.drop_reason for ladder in ladders)


def test_check_refuses_an_unknown_top_level_key_a_misspelt_simulation_and_a_boolean_count(tmp_path):
    path = tmp_path / "typos.yaml"
    path.write_text(yaml.safe_dump({"run": "t", "result_dir": "out", "stages": {
        "05_evaluate": {"targets": [{"kind": "simulated", "model": "s", "simulation": {"step_acuracy": {}}}]},
        "06_analyze": {"n_resamples": True}}}))
    report = check_params(path)
    text = str(report)
    assert "unknown top-level key 'result_dir'" in text
    assert "stages.05_evaluate.targets[0].simulation" in text and "step_acuracy" in text
    assert "stages.06_analyze.n_resamples: expected int, got True" in text
