"""The LLM-teacher chain end to end against scripted OpenAI-compatible servers on loopback."""

import json
import re

import pytest
from helpers import FIXTURES, REASK, SEGMENT, role_of, scripted_gsm8k_roles
from scripted_server import ScriptedServer

from stad_utils.method import (
    build_ladders,
    decompose,
    decomposition_agreement,
    gsm8k_solution_steps,
    open_teacher,
    template_variants,
)
from stad_utils.pipeline import run_pipeline
from stad_utils.records import Ladder, RunPaths, Verdict, read_records
from stad_utils.tasks import load_benchmark


def segments(*names):
    return json.dumps({"segments": [{"segment": f"Do {n}.", "skill": n} for n in names]})


def answers(*values):
    return json.dumps({"answers": [{"explanation": "worked", "answer": v} for v in values]})


# Each task is tagged [A]…[E] so the script knows which one a prompt is about.
SCRIPT = {
    "A": {"segment": segments("addition", "subtraction"), "solve_steps": answers("7", "5"), "verify": "Answer: 5"},
    "B": {"segment": "Sure! Here are the steps: 1. add 2. subtract", "segment_reask": segments("addition", "subtraction"),
          "solve_steps": answers("15", "12"), "verify": "Answer: 12"},
    "C": {"segment": segments(*[f"s{i}" for i in range(7)])},
    "D": {"segment": segments("addition", "multiplication"), "solve_steps": answers("4", "8")},
    "E": {"segment": segments("addition", "subtraction"), "solve_steps": answers("6", "4"), "verify": "Answer: 3"},
}
QUESTIONS = {"A": ("[A] Tom has 3 apples and buys 4 more. He eats 2. How many are left?", "5"),
             "B": ("[B] Ann has 10 pens, then buys 5 more and gives 3 away. How many pens?", "12"),
             "C": ("[C] A question the teacher over-splits?", "1"),
             "D": ("[D] A question the teacher gets wrong?", "9"),
             "E": ("[E] A question whose scaffold the teacher fails?", "4")}


def teacher_reply(messages):
    tag = re.search(r"\[([A-E])\]", messages[0]["content"]).group(1)
    role = role_of(messages)
    if role == "segment" and messages[-1]["content"].startswith(REASK):
        return SCRIPT[tag]["segment_reask"]
    if role in ("scaffold", "isolated"):
        return json.dumps({"question": f"[{tag}] rewritten {role} question?"})
    return SCRIPT[tag][role]


@pytest.fixture
def gsm8k_file(tmp_path):
    path = tmp_path / "gsm8k_test.jsonl"
    path.write_text("".join(json.dumps({"question": q, "answer": f"work\n#### {a}"}) + "\n"
                            for q, a in QUESTIONS.values()))
    return path


def test_filters_drop_what_they_should_and_say_why(gsm8k_file, tmp_path):
    tasks = load_benchmark("gsm8k", gsm8k_file)
    with ScriptedServer(teacher_reply) as server:
        spec = {"endpoint": {"model": "teacher", "base_url": server.base_url, "json_mode": "json_object"}}
        with open_teacher(spec, cache_path=tmp_path / "cache.sqlite") as teacher:
            decompositions = decompose(tasks, teacher)
            ladders = build_ladders(decompositions, teacher)
        segment_requests = [r for r in server.requests if SEGMENT in r["body"]["messages"][0]["content"]]
        assert all(r["body"]["response_format"] == {"type": "json_object"} for r in segment_requests)
        assert all(r["body"]["temperature"] == 0.2 for r in segment_requests)
    by_tag = {d.task.question[1]: d for d in decompositions}
    assert by_tag["A"].consistent and by_tag["B"].consistent and by_tag["E"].consistent
    assert [s.answer for s in by_tag["B"].steps] == ["15", "12"]  # usable after one re-ask
    assert "7 steps (at most 6)" in by_tag["C"].drop_reason
    assert "does not match the gold answer '9'" in by_tag["D"].drop_reason
    kept = {ladder.task.question[1]: ladder for ladder in ladders}
    assert set(kept) == {"A", "B", "E"}
    assert kept["A"].verified and kept["B"].verified
    assert not kept["E"].verified and kept["E"].drop_reason == "teacher failed scaffold level(s) [1]"
    assert kept["A"].scaffolds == ["[A] rewritten scaffold question?"] and len(kept["A"].isolated) == 2


def test_unparseable_output_is_recorded_after_the_bounded_re_asks(gsm8k_file, tmp_path):
    [task] = load_benchmark("gsm8k", gsm8k_file)[:1]
    with ScriptedServer(lambda messages: "no JSON here") as server:
        spec = {"endpoint": {"model": "teacher", "base_url": server.base_url}, "max_reasks": 2}
        with open_teacher(spec) as teacher:
            [decomposition] = decompose([task], teacher)
    assert len(server.requests) == 3
    assert decomposition.drop_reason == "unusable segments output after 3 attempt(s): no JSON object found"


def test_an_unreachable_teacher_leaves_the_task_for_a_re_run(gsm8k_file):
    [task] = load_benchmark("gsm8k", gsm8k_file)[:1]
    with ScriptedServer(teacher_reply, faults=[500] * 10) as server:
        spec = {"endpoint": {"model": "teacher", "base_url": server.base_url, "max_retries": 0}}
        with open_teacher(spec) as teacher, pytest.warns(UserWarning, match="re-run the stage to retry"):
            assert decompose([task], teacher) == []


def test_gsm8k_solution_teacher_on_the_real_test_set(shared_data):
    tasks = load_benchmark("gsm8k", shared_data / "gsm8k_test.jsonl")
    with open_teacher("gsm8k_solution") as teacher:
        decompositions = decompose(tasks, teacher)
    consistent = [d for d in decompositions if d.consistent]
    # dropped: solutions whose last line has no annotation, and those with more than 6 annotated steps
    assert len(consistent) == 1178
    assert all(d.steps[-1].answer.replace(",", "").rstrip("0").rstrip(".") in d.task.answer for d in consistent)
    assert {s.skill for d in consistent for s in d.steps} >= {"addition", "subtraction", "multiplication", "division"}
    # the reference compared with itself, and with a teacher that drops the first step
    agreement = decomposition_agreement(consistent[:50], consistent[:50])
    assert (agreement["steps"] == agreement["reference_steps"]).all()
    assert (agreement["reference_answers_found"] == 1.0).all()
    shortened = [d.model_copy(update={"steps": d.steps[1:]}) for d in consistent[:50] if len(d.steps) == 2]
    partial = decomposition_agreement(shortened, consistent[:50])
    assert len(partial) > 5 and (partial["reference_answers_found"] <= 0.5).all()
    steps = consistent[0].steps
    scaffolds, isolated = template_variants(consistent[0].task, steps)
    assert len(scaffolds) == len(steps) - 1 and "Result: 9" in scaffolds[0] and len(isolated) == len(steps)


def official_gsm8k_teacher(tasks):
    """A scripted teacher for the fixture checkout's prompts (tests/fixtures/official), from GSM8K's solutions."""
    by_question = {t.question: t for t in tasks}

    def reply(messages):
        text = messages[-1]["content"]
        task = next(t for q, t in by_question.items() if q in text)
        steps = gsm8k_solution_steps(task.solution)
        if text.startswith("\n[fixture:segment]"):
            return json.dumps([{"segment": s.description} for s in steps])
        if text.startswith("\n[fixture:answers]"):
            return json.dumps([{"explanation": s.explanation, "answer": s.answer} for s in steps])
        if text.startswith(("\n[fixture:variation]", "\n[fixture:decomposition]")):
            return f"Rewritten Question: {task.question} (variant)"
        return f"Answer: {task.answer}"  # a scaffold, asked verbatim

    return reply


@pytest.mark.slow
def test_paper_params_run_against_scripted_servers(shared_data, tmp_path, monkeypatch):
    """params/paper/gsm8k.yaml end to end with the authors' prompts (a fixture checkout): scripted teacher (from
    GSM8K's solutions) on its own server, judge and six targets on another."""
    tasks = load_benchmark("gsm8k", shared_data / "gsm8k_test.jsonl")
    monkeypatch.setenv("STAD_OFFICIAL_REPO", str(FIXTURES / "official" / "checkout"))

    with ScriptedServer(official_gsm8k_teacher(tasks)) as teacher, ScriptedServer(scripted_gsm8k_roles(tasks)) as server:
        monkeypatch.setenv("STAD_TEACHER_URL", teacher.base_url)
        for variable in ("STAD_JUDGE_URL", "STAD_QWEN25_3B_URL", "STAD_QWEN25_7B_URL",
                         "STAD_LLAMA32_3B_URL", "STAD_LLAMA31_8B_URL", "STAD_GRANITE33_2B_URL",
                         "STAD_GRANITE33_8B_URL"):
            monkeypatch.setenv(variable, server.base_url)
        monkeypatch.setenv("STAD_TEACHER_API_KEY", "sk-scripted-not-a-secret")
        run_dir = run_pipeline("params/paper/gsm8k.yaml", results_dir=tmp_path, overrides={
            "01_tasks": {"data_path": str(shared_data), "n_tasks": 3},
            "06_analyze": {"n_resamples": 50}})
    paths = RunPaths(run_dir)
    ladders = read_records(paths.ladders, Ladder.model_validate)
    verdicts = read_records(paths.verdicts, Verdict.model_validate)
    assert ladders and all(ladder.verified for ladder in ladders)
    assert all(request["body"]["messages"][-1]["content"].startswith("\n[fixture:")
               for request in teacher.requests if request["body"]["temperature"] == 0.2)  # the checkout's prompts
    assert {v.model for v in verdicts} == {"qwen2.5-3b", "qwen2.5-7b", "llama-3.2-3b", "llama-3.1-8b",
                                            "granite-3.3-2b", "granite-3.3-8b"}
    summary = json.loads(paths.summary.read_text())
    assert all(m["k_distribution"] == {"-1": len(ladders)} for m in summary["models"].values())
