import json
from pathlib import Path

import pytest

from stad_utils.judge import Judgement, extract_answer, infer_format, judge_answers, parse_number

CASES = json.loads((Path(__file__).parent / "fixtures" / "judge_cases.json").read_text())


@pytest.mark.parametrize("case", CASES, ids=[f"{c['format']}-{i}" for i, c in enumerate(CASES)])
def test_deterministic_and_math_verify_stages(case):
    [verdict] = judge_answers([(case["response"], case["reference"], case["format"])])
    if case.get("decided_by") == "no_answer_or_llm":  # free text that only an LLM judge can decide
        assert verdict.decided_by == "no_answer" and verdict.correct is False
        return
    assert verdict.correct is case["correct"], verdict
    assert verdict.decided_by == case.get("decided_by", "math_verify" if case["format"] == "latex" else "deterministic")


def test_undecided_items_go_to_the_llm_judge_with_only_the_extracted_answer():
    seen = []

    def fake_llm_judge(pairs):
        seen.extend(pairs)
        return [Judgement(True, candidate, "llm_judge") for candidate, _ in pairs]

    verdicts = judge_answers([("Long reasoning... Answer: E49", "E49", "text"),
                              ("The E49 era started first.", "E49", "text"),
                              ("I get 7", "7", "number")], llm_judge=fake_llm_judge)
    assert [v.decided_by for v in verdicts] == ["deterministic", "llm_judge", "deterministic"]
    assert seen == [("The E49 era started first.", "E49")]


def test_a_missing_response_is_an_error_not_a_wrong_answer():
    [verdict] = judge_answers([(None, "18", "number")])
    assert verdict.correct is None and verdict.decided_by == "error"


@pytest.mark.parametrize("text, expected", [
    ("so we get 5. Answer: $42", "$42"), ("\\boxed{\\frac{1}{2}} done", "\\frac{1}{2}"),
    ('{"explanation": "x", "answer": "352 BC"}', "352 BC"), ("the answer is 7.", "7."), ("just 3", "just 3"),
])
def test_extract_answer(text, expected):
    assert extract_answer(text) == expected


@pytest.mark.parametrize("reference, fmt", [
    ("18", "number"), ("11:15 AM", "clock"), ("352 BC", "date"), ("2004-01-11", "date"), ("12/11/2011", "date"),
    ("\\frac{1}{2}", "latex"), ('["a", "b"]', "list"), ('{"hours": 1}', "record"), ("95 minutes", "duration"),
    ("E49", "text"),
])
def test_infer_format(reference, fmt):
    assert infer_format(reference) == fmt


@pytest.mark.parametrize("text, value", [("$1,234.50", 1234.5), ("3/4", 0.75), ("45%", 45.0), ("−3", -3.0),
                                         ("x", None), ("1/0", None)])
def test_parse_number(text, value):
    assert parse_number(text) == value
