"""The model client against a scripted OpenAI-compatible server on loopback."""

import re
import time

import pytest
from helpers import ladder
from scripted_server import ScriptedServer

from stad_utils.method import evaluate, outcomes
from stad_utils.models import EndpointConfig, ModelClient, ResponseCache


def echo_sum(messages):
    numbers = [int(n) for n in re.findall(r"\d+", messages[-1]["content"])]
    return f"The answer is {sum(numbers)}."


def endpoint(server, **overrides):
    return EndpointConfig(**{"model": "scripted", "base_url": server.base_url, "max_retries": 3, "timeout_s": 5,
                             **overrides})


def test_answers_keep_order_and_the_cache_answers_repeats(tmp_path):
    cache = ResponseCache(tmp_path / "cache.sqlite")
    with ScriptedServer(echo_sum) as server:
        client = ModelClient(endpoint(server, concurrency=4), cache)
        first = client.chat([f"{i} + 1" for i in range(20)])
        assert [r.text for r in first] == [f"The answer is {i + 1}." for i in range(20)]
        assert len(server.requests) == 20
        again = ModelClient(endpoint(server), cache).chat([f"{i} + 1" for i in range(20)])
        assert [r.text for r in again] == [r.text for r in first] and all(r.cached for r in again)
        assert len(server.requests) == 20  # no new calls
        ModelClient(endpoint(server, temperature=0.7), cache).chat(["1 + 1"])
        assert len(server.requests) == 21  # another sampling parameter is another cache entry


def test_transient_failures_are_retried(tmp_path):
    with ScriptedServer(echo_sum, faults=[500, 503, "drop"]) as server:
        [result] = ModelClient(endpoint(server)).chat(["2 + 2"])
    assert result.text == "The answer is 4." and len(server.requests) == 4


def test_retry_after_is_honoured():
    with ScriptedServer(echo_sum, faults=[429], retry_after="1") as server:
        started = time.perf_counter()
        [result] = ModelClient(endpoint(server)).chat(["2 + 2"])
    assert result.ok and time.perf_counter() - started >= 1.0


def test_exhausted_retries_and_client_errors_become_error_results():
    with ScriptedServer(echo_sum, faults=[500] * 10) as server:
        [result] = ModelClient(endpoint(server, max_retries=2)).chat(["2 + 2"])
        assert result.text is None and "500" in result.error and len(server.requests) == 3
    with ScriptedServer(echo_sum, faults=[400]) as server:
        [result] = ModelClient(endpoint(server)).chat(["2 + 2"])
        assert "400" in result.error and len(server.requests) == 1  # not retried


def test_a_server_error_is_never_scored_as_a_wrong_answer(tmp_path):
    tasks = [ladder("a", 2, answer="5")]
    with ScriptedServer(lambda m: "The answer is 5.", faults=[500] * 3) as server:  # 3 of 4 questions fail
        client = ModelClient(endpoint(server, max_retries=0, concurrency=1))
        verdicts = evaluate(tasks, client, tmp_path / "verdicts.jsonl")
        errored = [v for v in verdicts if v.error]
        assert len(errored) == 3 and all(v.correct is None and v.decided_by == "error" for v in errored)
        [outcome] = outcomes(tasks, verdicts, [])
        assert outcome.k is None and outcome.n_errors == 3
        # re-running asks only the errored items again, and their new verdicts supersede the errors
        asked_before = len(server.requests)
        verdicts = evaluate(tasks, client, tmp_path / "verdicts.jsonl")
        assert len(server.requests) - asked_before == 3
        [outcome] = outcomes(tasks, verdicts, [])
        assert outcome.curve == [True, True] and outcome.k == 0 and outcome.n_errors == 0


def test_replicas_share_the_load():
    with ScriptedServer(echo_sum) as one, ScriptedServer(echo_sum) as two:
        config = EndpointConfig(model="scripted", base_url=[one.base_url, two.base_url], concurrency=2)
        results = ModelClient(config).chat([f"{i}" for i in range(40)])
    assert all(r.ok for r in results)
    assert len(one.requests) > 0 and len(two.requests) > 0


def test_api_key_comes_from_the_environment_only(monkeypatch):
    monkeypatch.setenv("STAD_TEST_KEY", "sk-test-secret")
    with ScriptedServer(echo_sum) as server:
        ModelClient(endpoint(server, api_key_env="STAD_TEST_KEY")).chat(["1"])
        assert server.requests[0]["headers"]["authorization"] == "Bearer sk-test-secret"
    monkeypatch.delenv("STAD_TEST_KEY")
    with pytest.raises(RuntimeError, match="STAD_TEST_KEY"):
        ModelClient(EndpointConfig(model="m", base_url="http://127.0.0.1:9/v1", api_key_env="STAD_TEST_KEY"))
