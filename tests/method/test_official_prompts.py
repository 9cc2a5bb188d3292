"""``prompts: official``: the authors' prompts read from a checkout, filled and read as their code does.

The checkout is a fixture folder whose ``STaD/scripts/prompts.py`` holds invented texts under the
official constant names and placeholders (none of the authors' text), and raises if it is executed.
"""

import json
import shutil

import pytest
import yaml
from helpers import FIXTURES, ROOT
from scripted_server import ScriptedServer

from stad_utils.method import (
    OfficialRepoMissing,
    build_ladders,
    decompose,
    fill_isolated,
    fill_judge,
    fill_scaffold,
    fill_segment,
    fill_step_answers,
    load_official_prompts,
    open_teacher,
    read_judge_reply,
    read_judge_score,
    read_rewritten_question,
    read_segments,
    read_step_answers,
)
from stad_utils.pipeline import check_params
from stad_utils.tasks import load_tasks

OFFICIAL = FIXTURES / "official"
CHECKOUT = OFFICIAL / "checkout"
PROMPTS_FILE = CHECKOUT / "STaD" / "scripts" / "prompts.py"
PARAMS = ROOT / "params" / "paper"


@pytest.fixture
def prompts():
    return load_official_prompts(CHECKOUT)


def test_the_prompts_file_is_parsed_never_run(prompts):
    assert "raise RuntimeError" in PROMPTS_FILE.read_text()  # executing it would fail
    assert set(prompts.texts) == {"prompt_segment", "prompt_sequential_segments_answers_reasoning", "prompt_variation",
                                  "prompt_decomposition", "prompt_correctness_value"}
    assert prompts.texts["prompt_segment"].startswith("\n[fixture:segment]")


@pytest.mark.parametrize("setting", ["/nowhere/scaffolded-task-design", "${STAD_UNSET_FOR_THIS_TEST}", ""])
def test_without_the_checkout_the_error_says_what_to_clone_and_what_to_set(setting, monkeypatch):
    monkeypatch.delenv("STAD_OFFICIAL_REPO", raising=False)
    with pytest.raises(OfficialRepoMissing) as error:
        load_official_prompts(setting)
    message = str(error.value)
    assert "git clone --branch stad-acl_2026 https://github.com/ibm-granite/scaffolded-task-design" in message
    assert "'official_repo'" in message and "STAD_OFFICIAL_REPO" in message


def test_the_checkout_can_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("STAD_OFFICIAL_REPO", str(CHECKOUT))
    assert load_official_prompts("${STAD_OFFICIAL_REPO}").source == PROMPTS_FILE
    assert load_official_prompts("").source == PROMPTS_FILE


def test_a_prompt_without_its_placeholder_is_named(tmp_path):
    copy = tmp_path / "checkout"
    shutil.copytree(CHECKOUT, copy)
    target = copy / "STaD" / "scripts" / "prompts.py"
    target.write_text(target.read_text().replace("{{ prior_info_as_list }}", "{{ prior }}"))
    with pytest.raises(ValueError, match=r"prompt_decomposition lacks the placeholder\(s\) \['{{ prior_info_as_list"):
        load_official_prompts(copy)


def test_filling_follows_the_official_helpers(prompts):
    question = "Ana is free 9:00–11:00 and Bo 9:30–10:30. How many slots?"
    text = prompts.texts
    assert fill_segment(prompts, question) == text["prompt_segment"].replace("{{ question }}", question)
    answers = fill_step_answers(prompts, question, ["Find when both are free", "Count them"])
    assert "Steps: [{'segment': 'Find when both are free'}, {'segment': 'Count them'}]" in answers  # str(), not JSON
    scaffold = fill_scaffold(prompts, question, [("Find when both are free", "9:30–10:30")])
    assert ('Solved steps: [\n  {\n    "segment": "Find when both are free",\n    "answer": "9:30\\u201310:30"\n  }\n]'
            in scaffold)  # json.dumps(indent=2), ASCII-escaped
    assert question in scaffold  # the question itself is put in as it is
    first = fill_isolated(prompts, question, "Find when both are free", [])
    assert "Known results: []" in first and "only for this step of the problem: Find when both are free" in first
    judge = fill_judge(prompts, "  2 slots \n", 2)
    assert "Prediction: 2 slots\nReference: 2\n" in judge
    with pytest.raises(TypeError):
        fill_judge(prompts, {"answer": 2}, 2)


@pytest.mark.parametrize("reply, segments", [
    ('[{"segment": "Find the overlap"}, {"segment": 2}]', ["Find the overlap", "2"]),
    ('```json\n[{"segment":"Line one\\nline two\\tend"}]\n```', ["Line one\nline two\tend"]),
    ('[{"segment": "Say \\"hi\\" twice"}]', ["Say \\"]),  # a \" ends the value, as in the official regex
    ("no steps here", []),
])
def test_segments_are_read_by_regex(reply, segments):
    assert read_segments(reply) == segments


@pytest.mark.parametrize("reply, answers", [
    ('First [1, 2]. Then [{"explanation": "e", "answer": 3}, {"explanation": "f", "answer": "x", "extra": 1}]',
     [{"explanation": "e", "answer": 3}]),
    ('{"explanation": "only an object", "answer": 1}', []),
    ('[{"explanation": "a", "answer": "1"} {"explanation": "missing comma", "answer": "2"}]', []),
    ('```json\n[{"answer": "1", "explanation": "any order"}]\n```', [{"answer": "1", "explanation": "any order"}]),
])
def test_step_answers_come_from_the_last_json_array(reply, answers):
    assert read_step_answers(reply) == answers


@pytest.mark.parametrize("reply, question", [
    ("Sure.\nrewritten QUESTION: Bo is free 9-10.\nHow many slots?\n\nThat is all.", "Bo is free 9-10.\nHow many slots?"),
    ("Rewritten Question:   One line.", "One line."),
    ("No such line.", None),
])
def test_rewritten_questions_run_to_a_blank_line(reply, question):
    assert read_rewritten_question(reply) == question


def test_judge_replies_are_read_from_the_last_balanced_object():
    assert read_judge_reply('{"score": 0} then {"score": 1, "justification": "same {value}"}') == {
        "score": 1, "justification": "same {value}"}
    assert read_judge_reply("{'score': 1, 'justification': 'a Python literal'}")["score"] == 1
    assert read_judge_reply("no verdict") is None
    assert read_judge_score('Reasoning... {"score": "0", "justification": "3 is not 4"}') == (False, "3 is not 4")
    assert read_judge_score('{"score": 0.5}')[0] is None


def sample_tasks():
    return load_tasks("official", data_path=str(OFFICIAL / "sample.jsonl"))


def official_teacher_reply(reply_to_scaffolds="So there are 2 slots."):
    """A scripted teacher for the fixture prompts, on the first two tasks of ``sample.jsonl``."""
    steps = {"Ana": [("Find when both are free", "9:30–10:30"), ("Count the starts", "2")],
             "Éva": [("Count all pens", "12"), ("Subtract the pens given away", "7")]}

    def reply(messages):
        text = messages[-1]["content"]
        if text.startswith("\n[fixture:"):
            task = next(name for name in steps if f"Problem: {name}" in text)
        if text.startswith("\n[fixture:segment]"):
            return json.dumps([{"segment": segment} for segment, _ in steps[task]])
        if text.startswith("\n[fixture:answers]"):
            answers = [{"explanation": "w", "answer": answer} for _, answer in steps[task]]
            return "Working:\n```json\n" + json.dumps(answers) + "\n```"
        if text.startswith("\n[fixture:variation]"):
            return f"Rewritten Question: {task}: scaffold of {text.count('segment')} step(s)?\n\nDone."
        if text.startswith("\n[fixture:decomposition]"):
            return f"REWRITTEN QUESTION: {task}: only this step?"
        return reply_to_scaffolds if text.startswith("Ana") else "She keeps 7 pens."

    return reply


def test_an_llm_teacher_with_the_official_prompts(prompts, tmp_path):
    tasks = [t for t in sample_tasks() if t.question[:3] in ("Ana", "Éva")]
    with ScriptedServer(official_teacher_reply()) as server:
        spec = {"endpoint": {"model": "teacher", "base_url": server.base_url, "json_mode": "json_object"},
                "prompts": "official", "official_repo": str(CHECKOUT)}
        with open_teacher(spec, cache_path=tmp_path / "cache.sqlite") as teacher:
            ladders = build_ladders(decompose(tasks, teacher), teacher)
    bodies = [request["body"] for request in server.requests]
    assert all("response_format" not in body for body in bodies)  # the authors ask for JSON in words only
    sent = [body["messages"][-1]["content"] for body in bodies]
    assert fill_segment(prompts, tasks[0].question) in sent
    assert fill_step_answers(prompts, tasks[1].question, ["Count all pens", "Subtract the pens given away"]) in sent
    solved = [("Find when both are free", "9:30–10:30")]
    assert fill_isolated(prompts, tasks[0].question, "Count the starts", solved) in sent
    settings = {content.split("]")[0].lstrip("\n["): (body["temperature"], body["max_tokens"])
                for content, body in zip(sent, bodies)}
    assert settings["fixture:segment"] == settings["fixture:answers"] == (0.2, 1024)
    assert settings["fixture:variation"] == settings["fixture:decomposition"] == (0.2, 2000)
    verify = [(body["temperature"], body["max_tokens"]) for content, body in zip(sent, bodies)
              if not content.startswith("\n[fixture:")]
    assert verify == [(0.0, 2000)] * 2  # each scaffold asked verbatim
    assert [ladder.verified for ladder in ladders] == [True, True]
    assert ladders[0].teacher.endswith("(official prompts)") and ladders[0].steps[0].skill is None
    assert ladders[0].scaffolds == ["Ana: scaffold of 1 step(s)?"]
    assert ladders[0].isolated == ["Ana: only this step?"] * 2


def test_an_unusable_official_reply_drops_the_task_without_re_asking(tmp_path):
    [task] = [t for t in sample_tasks() if t.question.startswith("Ana")]
    with ScriptedServer(lambda messages: "I cannot split this.") as server:
        spec = {"endpoint": {"model": "teacher", "base_url": server.base_url}, "prompts": "official",
                "official_repo": str(CHECKOUT)}
        with open_teacher(spec) as teacher:
            [decomposition] = decompose([task], teacher)
    assert len(server.requests) == 1
    assert decomposition.drop_reason == 'no "segment" value in the reply'


def test_an_unknown_prompts_setting_is_refused():
    with ScriptedServer(lambda messages: "") as server, pytest.raises(ValueError, match="unknown prompts 'authors'"):
        with open_teacher({"endpoint": {"model": "t", "base_url": server.base_url}, "prompts": "authors"}):
            pass


@pytest.mark.parametrize("benchmark", ["gsm8k", "math_hard", "tot_arithmetic"])
def test_the_paper_params_use_the_authors_prompts_limits_and_filters(benchmark, monkeypatch):
    params = yaml.safe_load((PARAMS / f"{benchmark}.yaml").read_text())
    stages = params["stages"]
    for stage in ("02_decompose", "03_scaffold"):
        teacher = stages[stage]["teacher"]
        assert teacher["prompts"] == "official" and teacher["official_repo"] == "${STAD_OFFICIAL_REPO}"
        assert (teacher["generation_temperature"], teacher["verification_temperature"]) == (0.2, 0.0)
        assert (teacher["step_tokens"], teacher["rewrite_tokens"]) == (1024, 2000)
    assert stages["03_scaffold"]["drop_single_step"] is True
    judge = stages["05_evaluate"]["judge"]
    assert judge["prompts"] == "official" and judge["official_repo"] == "${STAD_OFFICIAL_REPO}"
    assert judge["endpoint"]["temperature"] == 0.0 and judge["endpoint"]["max_tokens"] == 1024
    for target in stages["05_evaluate"]["targets"]:
        assert (target["temperature"], target["max_tokens"], target["max_tokens_variants"]) == (0.0, 1024, 2000)
    monkeypatch.setenv("STAD_OFFICIAL_REPO", str(CHECKOUT))
    report = check_params(PARAMS / f"{benchmark}.yaml")
    assert report.ok, str(report)


def test_the_llm_judge_can_ask_with_the_authors_prompt():
    from stad_utils.method import open_judge

    def judge_reply(messages):
        prompt = messages[-1]["content"]
        return '{"score": "1", "justification": "same time"}' if "Prediction: 10:30 AM" in prompt else "They differ, I think."

    with ScriptedServer(judge_reply) as server:
        spec = {"endpoint": {"model": "judge", "base_url": server.base_url}, "prompts": "official",
                "official_repo": str(CHECKOUT)}
        with open_judge(spec) as judge:
            same, unreadable = judge([("10:30 AM", "10:30"), ("11:00", "10:30")])
        sent = [request["body"] for request in server.requests]
    assert (same.outcome, same.decided_by, same.explanation) == ("correct", "llm_judge", "same time")
    assert unreadable.outcome == "error"  # no score in the reply: never a verdict
    assert sorted(body["messages"][-1]["content"].split("\n")[2] for body in sent) == [
        "Prediction: 10:30 AM", "Prediction: 11:00"]  # filled as the authors fill it
    assert not any("response_format" in body for body in sent)
