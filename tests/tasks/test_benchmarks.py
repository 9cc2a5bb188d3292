"""Loaders on the real benchmark files in ../shared/data (never copied into the project)."""

import json

import pytest

from stad_utils.judge import judge_answers
from stad_utils.records import RecordError
from stad_utils.tasks import load_benchmark, load_tasks, strip_format_instruction, tot_gold

COUNTS = {"gsm8k": ("gsm8k_test.jsonl", 1319), "math_hard": ("math_hard_test.jsonl", 1324),
          "tot_arithmetic": ("tot_arithmetic_test.jsonl", 1850)}


@pytest.mark.parametrize("name", COUNTS)
def test_counts_and_every_gold_answer_parses(shared_data, name):
    filename, count = COUNTS[name]
    tasks = load_benchmark(name, shared_data / filename)
    assert len(tasks) == count and len({t.task_id for t in tasks}) == count
    # the gold answer, written as a model would, is judged equal to itself by a non-LLM stage
    verdicts = judge_answers([(f"Answer: {t.answer}" if t.answer_format not in ("latex",) else f"\\boxed{{{t.answer}}}",
                               t.answer, t.answer_format) for t in tasks])
    undecided = [(t.answer, t.answer_format, v) for t, v in zip(tasks, verdicts) if v.correct is not True]
    allowed = 0 if name == "gsm8k" else 0.02 * count  # a few free-text ToT names and exotic LaTeX need the LLM judge
    assert len(undecided) <= allowed, undecided[:10]


def test_a_folder_finds_its_file(shared_data):
    assert len(load_benchmark("gsm8k", shared_data)) == 1319


def test_gsm8k_gold_is_the_number_after_the_hashes(shared_data):
    first = load_benchmark("gsm8k", shared_data / "gsm8k_test.jsonl")[0]
    assert first.answer == "18" and first.question.startswith("Janet")


def test_tot_labels_and_format_instruction(shared_data):
    assert tot_gold("{'answer': '352 BC'}") == ("352 BC", "date")
    assert tot_gold('{"X": 2.0, "Y": 24.0, "Z": 44.0}') == ('{"X": 2.0, "Y": 24.0, "Z": 44.0}', "record")
    assert tot_gold("{'unordered_list': ['Thursday', 'Friday']}") == ('["Thursday", "Friday"]', "set")
    assert tot_gold("{'answer': 1}") == ("1", "number")
    question = ("The war started in 360 BC and went on for 8 years. What year did the war end in? Format your "
                "answer as a JSON, like JSON = {\"answer\": <year> <era>}. Eg: 1958 BC")
    assert strip_format_instruction(question) == ("The war started in 360 BC and went on for 8 years. "
                                                   "What year did the war end in?")
    kept = load_benchmark("tot_arithmetic", shared_data / "tot_arithmetic_test.jsonl")  # the default keeps it
    assert sum("json" in t.question.lower() for t in kept) == 1850
    tasks = load_benchmark("tot_arithmetic", shared_data / "tot_arithmetic_test.jsonl", keep_format_instruction=False)
    assert sum("json" in t.question.lower() for t in tasks) == 0


def test_math_hard_answers_come_from_the_last_box(shared_data):
    tasks = load_benchmark("math_hard", shared_data / "math_hard_test.jsonl")
    assert tasks[0].answer == "i" and tasks[0].category == "Algebra"
    assert all(t.answer_format in ("latex", "number") for t in tasks)


def test_sampling_is_seeded(shared_data):
    a = load_tasks("gsm8k", data_path=str(shared_data), n_tasks=10, seed=1)
    assert a == load_tasks("gsm8k", data_path=str(shared_data), n_tasks=10, seed=1)
    assert a != load_tasks("gsm8k", data_path=str(shared_data), n_tasks=10, seed=2)


def test_bad_benchmark_lines_name_file_line_and_field(tmp_path):
    path = tmp_path / "gsm8k_test.jsonl"
    path.write_text(json.dumps({"question": "Q?", "answer": "x\n#### 3"}) + "\n"
                    + json.dumps({"question": "Q?", "answer": "no hashes"}) + "\n"
                    + json.dumps({"answer": "#### 3"}) + "\n")
    with pytest.raises(RecordError, match=r"gsm8k_test.jsonl, line 2, field 'answer'"):
        load_benchmark("gsm8k", path)
    problems = []
    tasks = load_benchmark("gsm8k", path, skip_invalid=True, problems=problems)
    assert len(tasks) == 1 and [(p.line, p.field) for p in problems] == [(2, "answer"), (3, "question")]


def test_duplicate_ids_are_refused(tmp_path):
    path = tmp_path / "math_hard.jsonl"
    row = {"idx": 1, "problem": "P", "solution": "\\boxed{2}"}
    path.write_text(json.dumps(row) + "\n" + json.dumps(row) + "\n")
    with pytest.raises(RecordError, match="duplicate task id"):
        load_benchmark("math_hard", path)
