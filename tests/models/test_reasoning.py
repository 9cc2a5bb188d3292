"""Reasoning models as targets, teachers and judges, against scripted servers that answer as real ones do.

Every shape of `reasoning_shapes` is read into an answer and a trace kept apart; judges and teachers read
the answer only; a reply cut off while thinking is a truncated ``no_answer``, never an error.
"""

import json
import re
import sqlite3

import pytest
from helpers import FIXTURES, ROOT
from reasoning_shapes import REASONING_TOKENS, SHAPES, answering, completion
from scripted_server import Raw, ScriptedServer
from test_vllm_client import vllm_client  # noqa: F401  (the stand-in engine, a fixture)

from stad_utils.analysis import DROP_NAMES
from stad_utils.judge import LLMJudge
from stad_utils.method import Question, answered_verdict, build_ladders, decompose, judge_reply, open_teacher
from stad_utils.models import (
    RAN_OUT_WHILE_REASONING,
    TRACE_PROBE_TOKENS,
    EndpointConfig,
    ModelClient,
    ResponseCache,
    endpoint_config,
    from_cache,
    read_completion,
    storable,
)
from stad_utils.pipeline import preflight
from stad_utils.records import Ladder, Step, Task, Verdict, read_records
from stad_utils.report import usage_table

ANSWER, TRACE = "The answer is 5.", "First 2 + 3 = 5. Hmm, or is it 7?"


def client_for(server, cache=None, **settings):
    config = {"model": "m", "base_url": server.base_url, "max_retries": 0, "timeout_s": 5, **settings}
    return ModelClient(EndpointConfig(**config), cache, progress=False)


def shaped_server(shape: str, answer: str = ANSWER, trace: str = TRACE) -> ScriptedServer:
    return ScriptedServer(lambda messages: answer,
                          raw=answering(lambda messages: answer, lambda body: shape, lambda messages, a: trace))


# ---------------------------------------------------------------- one reading of a reply, live and from the cache


@pytest.mark.parametrize("name", list(SHAPES))
def test_each_shape_is_read_into_its_answer_and_its_trace_live_and_from_the_cache(name, tmp_path):
    shape = SHAPES[name]
    cache_path = tmp_path / "cache.sqlite"
    with shaped_server(name) as server:
        live_client = client_for(server, ResponseCache(cache_path))
        live = live_client.chat_one("What is 2 + 3?")
        again_client = client_for(server, ResponseCache(cache_path))
        again = again_client.chat_one("What is 2 + 3?")
        assert len(server.requests) == 1  # the second came from the cache
    for reply in (live, again):
        assert reply.ok and reply.error is None
        assert reply.text == ("" if shape.cut_off else ANSWER)
        assert reply.reasoning == TRACE and reply.reasoning_source == shape.source
        assert reply.finish_reason == ("length" if shape.cut_off else "stop")
        assert reply.cut_off_while_reasoning is shape.cut_off
        assert reply.reasoning_tokens == (REASONING_TOKENS if shape.reports_reasoning_tokens else 0)
    assert again.cached and not live.cached
    usage = live_client.usage.as_dict()
    assert (usage["errors"], usage["traces"]) == (0, 1)
    assert usage["reasoning_tokens"] == (REASONING_TOKENS if shape.reports_reasoning_tokens else 0)


def test_the_cache_keeps_what_the_server_sent_so_a_changed_tag_setting_reads_it_anew(tmp_path):
    cache_path = tmp_path / "cache.sqlite"
    with shaped_server("think_tags") as server:
        client_for(server, ResponseCache(cache_path)).chat_one("q")
        untagged = client_for(server, ResponseCache(cache_path), reasoning={"tags": None}).chat_one("q")
        assert len(server.requests) == 1
    with sqlite3.connect(cache_path) as db:
        [(stored,)] = db.execute("SELECT response FROM responses").fetchall()
    assert json.loads(stored)["text"] == f"<think>\n{TRACE}\n</think>\n\n{ANSWER}"
    assert untagged.cached and untagged.reasoning is None and untagged.text.startswith("<think>")


def test_other_tags_are_read_when_configured():
    body = completion("think_tags", ANSWER, TRACE).replace(b"<think>", b"<reasoning>").replace(b"</think>",
                                                                                               b"</reasoning>")
    config = endpoint_config({"model": "m", "reasoning": {"tags": ["<reasoning>", "</reasoning>"]}}, "target")
    reply = read_completion(body, reasoning=config.reasoning)
    assert (reply.text, reply.reasoning, reply.reasoning_source) == (ANSWER, TRACE, "tags")
    default = read_completion(body)
    assert default.text.startswith("<reasoning>") and default.reasoning is None


@pytest.mark.parametrize("message, error", [
    ({"role": "assistant", "content": None}, "empty response"),
    ({"role": "assistant", "content": None, "reasoning": TRACE}, "empty response (finish_reason 'stop' after a trace in "
                                                                 "reasoning)"),
])
def test_no_content_that_ended_on_its_own_stays_an_error(message, error):
    body = json.dumps({"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}).encode()
    reply = read_completion(body)
    assert reply.text is None and reply.error == error


def test_a_reply_without_trace_is_read_and_cached_as_before():
    body = json.dumps({"choices": [{"index": 0, "message": {"role": "assistant", "content": " 5 "},
                                    "finish_reason": "stop"}],
                       "usage": {"prompt_tokens": 3, "completion_tokens": 2}}).encode()
    reply = read_completion(body)
    assert (reply.text, reply.reasoning, reply.reasoning_tokens) == (" 5 ", None, 0)  # untouched, not stripped
    assert set(storable(reply)) == {"text", "finish_reason", "latency_s", "prompt_tokens", "completion_tokens"}
    old_entry = {"text": "<think>x</think>5", "finish_reason": "stop", "latency_s": 0.1, "prompt_tokens": 3,
                 "completion_tokens": 2}  # written before traces were read: its trace is read now
    cached = from_cache(old_entry, {"max_tokens": 10})
    assert (cached.text, cached.reasoning, cached.cached) == ("5", "x", True)


def test_a_server_that_sends_no_token_details_counts_no_reasoning_tokens_but_still_the_trace():
    body = json.loads(completion("reasoning", ANSWER, TRACE))
    body["usage"]["completion_tokens_details"] = None  # as vLLM sends it without a reasoning-token count
    reply = read_completion(json.dumps(body).encode())
    assert (reply.text, reply.reasoning, reply.reasoning_tokens, reply.completion_tokens) == (ANSWER, TRACE, 0, 48)


def test_old_verdicts_load_without_the_trace_fields():
    old = {"task_id": "t", "model": "m", "variant": "original", "level": 0, "prompt": "q", "reference": "5",
           "response": "5", "correct": True, "decided_by": "deterministic"}
    verdict = Verdict.model_validate(old)
    assert verdict.reasoning is None and verdict.reasoning_tokens is None
    assert "reasoning" not in verdict.model_dump_json()  # and a reply without a trace is written as before
    thought = Verdict.model_validate_json(verdict.model_copy(update={"reasoning": "2 + 3", "reasoning_tokens": 4})
                                          .model_dump_json())
    assert (thought.reasoning, thought.reasoning_tokens) == ("2 + 3", 4)


# ---------------------------------------------------------------- settings sent, budgets


def test_the_reasoning_settings_are_sent_and_the_trace_budget_is_added_to_max_tokens():
    with shaped_server("reasoning") as server:
        client = client_for(server, reasoning={"trace_tokens": 4096}, reasoning_effort="low",
                            chat_template_kwargs={"enable_thinking": True}, max_tokens=1024)
        client.chat_one("q")
        client.chat_one("q2", max_tokens=2000)  # a teacher's rewrite limit: the trace budget comes on top
        first, second = (request["body"] for request in server.requests)
    assert first["max_tokens"] == 1024 + 4096 and second["max_tokens"] == 2000 + 4096
    assert first["reasoning_effort"] == "low" and first["chat_template_kwargs"] == {"enable_thinking": True}


def test_an_endpoint_without_reasoning_settings_sends_and_caches_what_it_did_before():
    with shaped_server("reasoning") as server:
        client = client_for(server, max_tokens=1024)
        key, _, params = client.request("q")
        client.chat_one("q")
        [request] = server.requests
    assert params == {"temperature": 0.0, "max_tokens": 1024, "seed": 0}
    assert key == ResponseCache.key("m", [{"role": "user", "content": "q"}], params)
    assert not {"reasoning_effort", "chat_template_kwargs"} & set(request["body"])


@pytest.mark.parametrize("block, problem", [
    ({"extra_body": {"reasoning_effort": "low"}}, "give reasoning_effort as endpoint setting(s) of their own"),
    ({"reasoning": {"tags": ["<t>", "<t>"]}}, "two distinct non-empty strings"),
    ({"reasoning": {"trace_tokenz": 10}}, "target.reasoning.trace_tokenz"),
    ({"reasoning_effort": "very high"}, "target.reasoning_effort"),
])
def test_reasoning_settings_are_checked(block, problem):
    with pytest.raises(ValueError, match=re.escape(problem)):
        endpoint_config({"model": "m", **block}, "target")


@pytest.mark.parametrize("name", ["reasoning", "think_tags", "cut_off_in_field"])
def test_the_trace_probe_says_whether_replies_carry_a_trace_and_where(name):
    with shaped_server(name) as server:
        probed = client_for(server, reasoning={"trace_tokens": 100}).probe_trace()
        [probe] = server.requests
    assert probed["trace"] == SHAPES[name].source and probed["trace_cut_off"] is SHAPES[name].cut_off
    assert probe["body"]["max_tokens"] == TRACE_PROBE_TOKENS + 100  # asked with the endpoint's own trace budget


def test_the_runner_preflight_prints_which_endpoint_thinks_aloud_and_records_it(capsys):
    with shaped_server("cut_off_in_field") as thinking, ScriptedServer(lambda messages: "5") as plain:
        served = preflight({"05_evaluate": {"targets": [{"model": "m", "base_url": thinking.base_url},
                                                        {"model": "m", "name": "p", "base_url": plain.base_url}]}})
    thinker, other = served.values()
    assert thinker[0]["trace"] == "reasoning" and thinker[0]["models"] == ["scripted"]
    assert other[0]["trace"] is None
    [line] = capsys.readouterr().out.splitlines()
    assert "replies carry a reasoning trace (reasoning)" in line and "ran out of tokens while reasoning" in line


def test_a_failed_trace_probe_is_reported_and_does_not_stop_the_run():
    with ScriptedServer(lambda messages: "5", faults=[500]) as server:
        probed = client_for(server).probe_trace()
    assert probed["trace"] is None and "500" in probed["trace_probe_error"]


# ---------------------------------------------------------------- judged on the answer only


WRONG_TRACE_RIGHT_ANSWER = ("So the answer is 7.", "The answer is 5.", "correct")
RIGHT_TRACE_WRONG_ANSWER = ("So the answer is 5.", "The answer is 7.", "wrong")


@pytest.mark.parametrize("name", [name for name, shape in SHAPES.items() if not shape.cut_off])
@pytest.mark.parametrize("trace, answer, outcome", [WRONG_TRACE_RIGHT_ANSWER, RIGHT_TRACE_WRONG_ANSWER])
def test_the_target_is_judged_on_its_answer_never_on_its_trace(name, trace, answer, outcome):
    reply = read_completion(completion(name, answer, trace))
    verdict = answered_verdict(question(), reply, "m", judge_reply(question(), reply))
    assert (verdict.outcome, verdict.response, verdict.reasoning) == (outcome, answer, trace)
    assert verdict.extracted in answer and verdict.error is None and not verdict.truncated


@pytest.mark.parametrize("name", [name for name, shape in SHAPES.items() if shape.cut_off])
def test_a_reply_cut_off_while_thinking_is_a_truncated_no_answer_and_no_error(name):
    reply = read_completion(completion(name, "", "So far 2 + 3 = 5, and then"))
    verdict = answered_verdict(question(), reply, "m", judge_reply(question(), reply))
    assert (verdict.outcome, verdict.truncated, verdict.correct, verdict.error) == ("no_answer", True, False, None)
    assert verdict.response == "" and verdict.reasoning == "So far 2 + 3 = 5, and then"
    assert verdict.reasoning_tokens == (REASONING_TOKENS if SHAPES[name].reports_reasoning_tokens else None)


def question() -> Question:
    task = Task(task_id="t", source="generated/word", question="What is 2 + 3?", answer="5", answer_format="number")
    ladder = Ladder(task=task, teacher="oracle", steps=[Step(description="add", answer="5")], scaffolds=[],
                    isolated=["What is 2 + 3?"])
    return Question(ladder, "original", 0, task.question, task.answer)


@pytest.mark.parametrize("name", ["think_tags", "closing_tag_only", "reasoning"])
def test_the_llm_judge_reads_its_verdict_from_its_answer_never_from_its_trace(name):
    verdict = json.dumps({"justification": "7 is not 5", "score": 0})
    with ScriptedServer(lambda messages: verdict,
                        raw=answering(lambda messages: verdict, lambda body: name,
                                      lambda messages, answer: 'Draft: {"justification": "same", "score": 1}')) as server:
        [judged] = LLMJudge(client_for(server, json_mode="json_object"))([("7", "5")])
    assert (judged.outcome, judged.explanation) == ("wrong", "7 is not 5")


def test_a_judge_cut_off_while_thinking_says_so():
    with shaped_server("cut_off_in_field") as server:
        [judged] = LLMJudge(client_for(server))([("7", "5")])
    assert judged.outcome == "error" and "judge ran out of tokens while reasoning" in judged.explanation


# ---------------------------------------------------------------- teachers


def segments_reply(messages):
    text = messages[0]["content"]
    if "Break the problem below into" in text:
        return json.dumps({"segments": [{"segment": "Add the apples.", "skill": "addition"},
                                        {"segment": "Subtract the eaten ones.", "skill": "subtraction"}]})
    if "by carrying out the given steps in order" in text:
        return json.dumps({"answers": [{"explanation": "3 + 4", "answer": "7"},
                                       {"explanation": "7 - 2", "answer": "5"}]})
    if "Rewrite the problem so that the first" in text or "Write a short, self-contained question" in text:
        return json.dumps({"question": "[variant] How many are left?"})
    return "Answer: 5"


def apples(tag: str) -> Task:
    return Task(task_id=tag, source="gsm8k", question=f"[{tag}] Tom has 3 apples, buys 4 and eats 2. How many?",
                answer="5", answer_format="number")


def test_a_teacher_cut_off_while_thinking_is_asked_again_then_dropped_with_the_reason(tmp_path):
    """[never]: every segmentation runs out of tokens; [once]: the first does, the fresh sample answers."""
    asked: dict[str, int] = {}

    def shape_of(body):
        text = body["messages"][0]["content"]
        tag = "never" if "[never]" in text else "once"
        if "Break the problem below into" not in text:
            return "reasoning"
        asked[tag] = asked.get(tag, 0) + 1
        return "cut_off_in_field" if tag == "never" or asked[tag] == 1 else "reasoning"

    with ScriptedServer(segments_reply, raw=answering(segments_reply, shape_of)) as server:
        spec = {"endpoint": {"model": "teacher", "base_url": server.base_url, "json_mode": "json_object"},
                "max_reasks": 2}
        with open_teacher(spec, cache_path=tmp_path / "cache.sqlite") as teacher:
            never, once = decompose([apples("never"), apples("once")], teacher)
        seeds = [r["body"]["seed"] for r in server.requests
                 if "[never]" in r["body"]["messages"][0]["content"]]
    assert asked == {"never": 3, "once": 2}  # max_reasks + 1 attempts at most
    assert seeds == [0, 1, 2]  # each attempt a fresh sample: a new draw, its own cache entry
    assert never.drop_reason.startswith(RAN_OUT_WHILE_REASONING) and "3 attempt(s)" in never.drop_reason
    assert DROP_NAMES[never.drop_code] == RAN_OUT_WHILE_REASONING  # its own line in the funnel
    assert once.consistent and [step.answer for step in once.steps] == ["7", "5"]


def test_a_teacher_that_runs_out_while_verifying_drops_the_ladder_with_the_reason(tmp_path):
    def shape_of(body):
        return "cut_off_in_tags" if body["messages"][0]["content"].startswith("[variant]") else "think_tags"

    with ScriptedServer(segments_reply, raw=answering(segments_reply, shape_of)) as server:
        spec = {"endpoint": {"model": "teacher", "base_url": server.base_url, "json_mode": "json_object"},
                "max_reasks": 1}
        with open_teacher(spec, cache_path=tmp_path / "cache.sqlite") as teacher:
            [decomposition] = decompose([apples("a")], teacher)
            [ladder] = build_ladders([decomposition], teacher)
    assert decomposition.consistent  # the segmentation's <think> trace was not read as its JSON
    assert not ladder.verified
    assert ladder.drop_reason == f"{RAN_OUT_WHILE_REASONING} at scaffold level(s) [1]"
    assert DROP_NAMES[ladder.drop_code] == RAN_OUT_WHILE_REASONING
    [check] = ladder.verification
    assert check.answer is None and check.justification.startswith(RAN_OUT_WHILE_REASONING)


def test_the_official_readers_never_see_segments_written_in_the_trace(tmp_path):
    checkout = FIXTURES / "official" / "checkout"

    def reply(messages):
        return json.dumps([{"segment": "Add the apples."}, {"segment": "Subtract the eaten ones."}])

    def trace(messages, answer):
        return 'Draft: [{"segment": "A draft step the answer drops."}]'

    with ScriptedServer(reply, raw=answering(reply, lambda body: "think_tags", trace)) as server:
        spec = {"endpoint": {"model": "teacher", "base_url": server.base_url}, "prompts": "official",
                "official_repo": str(checkout)}
        with open_teacher(spec, cache_path=tmp_path / "cache.sqlite") as teacher:
            [segmented] = teacher.protocol.segments([apples("a")])
    assert [s["segment"] for s in segmented] == ["Add the apples.", "Subtract the eaten ones."]


def test_with_the_authors_prompts_a_reply_cut_off_while_thinking_is_asked_again_too(tmp_path):
    """Their prompts get no re-asks for a reply they cannot read, but one with no answer at all is asked again."""
    checkout = FIXTURES / "official" / "checkout"
    with shaped_server("cut_off_in_tags") as server:
        spec = {"endpoint": {"model": "teacher", "base_url": server.base_url}, "prompts": "official",
                "official_repo": str(checkout), "max_reasks": 1}
        with open_teacher(spec, cache_path=tmp_path / "cache.sqlite") as teacher:
            [decomposition] = decompose([apples("a")], teacher)
        assert len(server.requests) == 2
    assert decomposition.drop_reason.startswith(RAN_OUT_WHILE_REASONING)


# ---------------------------------------------------------------- usage


def test_the_usage_table_counts_reasoning_tokens_and_reads_old_files():
    usage = {"05_evaluate": {"target": {
        "thinker": {"calls": 2, "cache_hits": 0, "errors": 0, "prompt_tokens": 40, "completion_tokens": 96,
                    "reasoning_tokens": 80, "traces": 2, "seconds": 1.0},
        "old": {"calls": 1, "cache_hits": 0, "errors": 0, "prompt_tokens": 10, "completion_tokens": 5,
                "seconds": 0.5}}}}
    table = usage_table(usage, {"thinker": {"prompt": 1.0, "completion": 10.0}}).set_index("model")
    assert table.loc["thinker", "reasoning_tokens"] == 80 and table.loc["thinker", "traces"] == 2
    assert table.loc["old", "reasoning_tokens"] == 0 and table.loc["old", "traces"] == 0
    assert table.loc["thinker", "cost_usd"] == pytest.approx((40 * 1.0 + 96 * 10.0) / 1e6)  # the trace is billed
    del usage["05_evaluate"]["target"]["thinker"]
    assert "reasoning_tokens" not in usage_table(usage).columns  # a run without reasoning models reads as before


def test_a_raw_reply_body_reaches_the_client_as_sent():
    """The scripted hook serves exactly the shape's body (the tests above rely on it)."""
    with ScriptedServer(lambda messages: "x", raw=lambda path, request: Raw(completion("gpt_oss", "5", "t"))
                        if "body" in request else None) as server:
        reply = client_for(server).chat_one("q")
    assert (reply.text, reply.reasoning, reply.reasoning_source) == ("5", "t", "reasoning_content")


# ---------------------------------------------------------------- the whole chain


@pytest.mark.slow
def test_a_reasoning_teacher_and_a_target_per_shape_through_the_whole_chain(shared_data, tmp_path, monkeypatch):
    """01 → 07 on three GSM8K tasks: a gpt-oss-style teacher (the first task it segments always runs out of
    tokens while reasoning) and one target per shape, with no error allowed (``max_error_share: 0``)."""
    import yaml
    from helpers import SEGMENT, scripted_gsm8k_roles

    from stad_utils.pipeline import run_pipeline
    from stad_utils.records import RunPaths
    from stad_utils.tasks import load_benchmark

    tasks = load_benchmark("gsm8k", shared_data / "gsm8k_test.jsonl")
    roles = scripted_gsm8k_roles(tasks, target_answer="I am not sure. Answer: 0")
    doomed: list[str] = []

    def teacher_shape(body):
        first = body["messages"][0]["content"]
        if SEGMENT in first:
            doomed.append(first) if not doomed else None
            if first == doomed[0]:
                return "cut_off_in_field"
        return "gpt_oss"

    def target_trace(messages, answer):
        return "Let me think step by step. So the answer is 123456."

    teacher_server = ScriptedServer(roles, raw=answering(roles, teacher_shape))
    target_server = ScriptedServer(roles, raw=answering(roles, lambda body: body["model"], target_trace))
    with teacher_server, target_server:
        teacher = {"endpoint": {"model": "gpt-oss", "base_url": teacher_server.base_url, "json_mode": "json_object",
                                "reasoning": {"trace_tokens": 512}}, "max_reasks": 1}
        targets = [{"name": name, "model": name, "base_url": target_server.base_url, "max_tokens": 1024,
                    "reasoning": {"trace_tokens": 1000}, "concurrency": 2} for name in SHAPES]
        params = {"run": "reasoning", "results_dir": str(tmp_path / "results"), "cache": str(tmp_path / "c.sqlite"),
                  "stages": {"01_tasks": {"source": "gsm8k", "data_path": str(shared_data), "n_tasks": 3},
                             "02_decompose": {"teacher": teacher}, "03_scaffold": {"teacher": teacher},
                             "04_skills": {"cluster_on": "description"},
                             "05_evaluate": {"targets": targets, "max_error_share": 0.0},
                             "06_analyze": {"n_resamples": 50}, "07_compare": {"n_permutations": 50}}}
        path = tmp_path / "params.yaml"
        path.write_text(yaml.safe_dump(params))
        run_dir = run_pipeline(path)
        segment_attempts = [r for r in teacher_server.requests if r["body"]["messages"][0]["content"] == doomed[0]]
        originals = [r["body"] for r in target_server.requests if r["body"]["messages"][0]["content"] in
                     {t.question for t in tasks}]
    paths = RunPaths(run_dir)
    verdicts = read_records(paths.verdicts, Verdict.model_validate)
    assert len(segment_attempts) == 2  # asked again once (max_reasks 1), then dropped
    summary = json.loads(paths.summary.read_text())
    assert summary["funnel"]["dropped"] == {RAN_OUT_WHILE_REASONING: 1} and summary["funnel"]["verified"] == 2
    assert {v.model for v in verdicts} == set(SHAPES) and all(body["max_tokens"] == 2024 for body in originals)
    for name, shape in SHAPES.items():
        mine = [v for v in verdicts if v.model == name]
        assert mine and all(v.error is None and v.reasoning == target_trace([], "") for v in mine), name
        expected = ("", "no_answer", True) if shape.cut_off else ("I am not sure. Answer: 0", "wrong", False)
        assert {(v.response, v.outcome, v.truncated) for v in mine} == {expected}, name
        assert {v.reasoning_tokens for v in mine} == {REASONING_TOKENS if shape.reports_reasoning_tokens else None}
    usage = json.loads(paths.usage.read_text())
    for name, shape in SHAPES.items():
        stats = usage["05_evaluate"]["target"][name]
        assert stats["errors"] == 0 and stats["traces"] == stats["calls"] > 0
        assert stats["reasoning_tokens"] == (REASONING_TOKENS * stats["calls"] if shape.reports_reasoning_tokens else 0)
    teacher_usage = usage["02_decompose"]["teacher"]["gpt-oss"]
    assert teacher_usage["reasoning_tokens"] == REASONING_TOKENS * teacher_usage["calls"] > 0
    [invocation] = json.loads(paths.manifest.read_text())["invocations"]
    probed = {where: served[0]["trace"] for where, served in invocation["endpoints"].items()}
    assert probed["stages.05_evaluate.targets[3]"] == "tags" and probed["stages.02_decompose.teacher.endpoint"] == \
        "reasoning_content"  # what the preflight saw, kept with the run
    truncated = {(row["model"], row["cut_off"] > 0) for row in
                 (r | {"model": m} for m, s in summary["models"].items() for r in s["truncated"])}
    assert {model for model, cut in truncated if cut} == {"cut_off_in_field", "cut_off_in_tags"}


@pytest.mark.parametrize("block", [{"reasoning_effort": "low"}, {"token_limit_field": "max_completion_tokens"},
                                   {"temperature": None}])
def test_reasoning_settings_for_an_engine_without_requests_are_refused(block):
    with pytest.raises(ValueError, match="kind 'vllm' takes none of them"):
        endpoint_config({"model": "m", "kind": "vllm", **block}, "target")


def refuse_as_openai_reasoning_models_do(path, request):
    """OpenAI's o-series and GPT-5 answer HTTP 400 to ``max_tokens`` and to a temperature other than their own."""
    body = request.get("body", {})
    if "max_tokens" in body or body.get("temperature", 1) != 1:
        return Raw(b'{"error": {"message": "Unsupported parameter: \'max_tokens\'", "type": "invalid_request_error"}}',
                   status=400)
    return None


def test_an_openai_reasoning_model_is_asked_with_max_completion_tokens_and_its_own_temperature():
    with ScriptedServer(lambda messages: ANSWER, raw=refuse_as_openai_reasoning_models_do) as server:
        refused = client_for(server, max_tokens=1024).chat_one("q")
        accepted = client_for(server, max_tokens=1024, reasoning={"trace_tokens": 4096}, temperature=None,
                              token_limit_field="max_completion_tokens").chat_one("q")
        sent = server.requests[-1]["body"]
    assert refused.text is None and "HTTP 400" in refused.error  # as from OpenAI itself, with the defaults
    assert accepted.error is None and accepted.text == ANSWER
    assert sent["max_completion_tokens"] == 1024 + 4096 and "temperature" not in sent and "max_tokens" not in sent


def test_a_model_without_a_temperature_gets_none_even_from_a_stage_that_sets_one():
    """Teachers verify and the skill namer names at a temperature of their own: an OpenAI reasoning model refuses it."""
    with ScriptedServer(lambda messages: ANSWER, raw=refuse_as_openai_reasoning_models_do) as server:
        client = client_for(server, temperature=None, token_limit_field="max_completion_tokens")
        reply = client.chat_one("q", temperature=0.0, max_tokens=40)
        sent = server.requests[-1]["body"]
    assert reply.error is None and "temperature" not in sent and sent["max_completion_tokens"] == 40


def test_the_in_process_engine_reads_a_trace_in_tags_apart_live_and_from_the_cache(vllm_client):
    generated = "2 + 3 = 5, or 7?\n</think>\n\nThe answer is 5."  # the stand-in engine answers the prompt reversed
    live, again = vllm_client.chat_one(generated[::-1]), vllm_client.chat_one(generated[::-1])
    for reply in (live, again):
        assert (reply.text, reply.reasoning, reply.reasoning_source) == ("The answer is 5.", "2 + 3 = 5, or 7?", "tags")
    assert again.cached and not live.cached


@pytest.mark.parametrize("benchmark", ["gsm8k", "math_hard", "tot_arithmetic"])
def test_the_paper_teacher_has_room_for_its_thinking_and_its_answer(benchmark):
    """gpt-oss's trace counts against max_tokens: the paper's answer budgets stay, the trace gets its own, and the
    largest request (rewrite_tokens + trace_tokens) leaves 2,000 tokens of prompt in the authors' 8,192 context."""
    import yaml

    params = yaml.safe_load((ROOT / "params" / "paper" / f"{benchmark}.yaml").read_text())
    teacher = params["anchors"]["teacher"]
    trace_tokens = teacher["endpoint"]["reasoning"]["trace_tokens"]
    assert teacher["endpoint"]["model"] == "openai/gpt-oss-120b"
    assert (teacher["step_tokens"], teacher["rewrite_tokens"]) == (1024, 2000)  # the answer keeps the paper's budget
    assert trace_tokens >= 2 * teacher["step_tokens"] and teacher["rewrite_tokens"] + trace_tokens <= 8192 - 2000
