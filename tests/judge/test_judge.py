"""The judge cascade: the committed-answer reader, the value readers, and the verdicts they lead to.

The tables in ``fixtures/judge_*cases.json`` hold real replies of the embedded model (the
quickstart), replies in the styles of common instruct models, and written cases; each row says
where it comes from. Expected values are what a careful reader of the reply would say.
"""

import doctest
import importlib
import json
import re
from fractions import Fraction

import pytest
from helpers import FIXTURES

from stad_utils.judge import JUDGE_VERSION, JudgeItem, Judgement, extract_answer, infer_format, judge_answers
from stad_utils.judge import _extract as reader
from stad_utils.judge import _kinds as kinds
from stad_utils.judge import _numbers as numbers
from stad_utils.judge._kinds import _clock as clock
from stad_utils.judge._kinds import _number as number

READER_CASES = json.loads((FIXTURES / "judge_reader_cases.json").read_text())
VALUE_CASES = json.loads((FIXTURES / "judge_value_cases.json").read_text())
CASES = json.loads((FIXTURES / "judge_cases.json").read_text())


def judge_one(response, reference, answer_format=None, **options) -> Judgement:
    [verdict] = judge_answers([JudgeItem(response, reference, answer_format, **options)])
    return verdict


def ids(cases, field="text"):
    return [repr(case[field][:40]) for case in cases]


# ---------------------------------------------------------------- the misreadings listed in issue #8

def test_an_equation_in_a_final_answer_line_is_read_as_its_result():
    assert judge_one("Final answer: 9 eggs * $2 = $18", "18").outcome == "correct"
    assert judge_one("Final answer: 9 eggs * $2 = $18", "9").outcome == "wrong"


def test_an_answer_line_with_a_sum_is_read_as_the_sum():
    assert judge_one("Answer: 3 + 4 = 7", "7").outcome == "correct"
    assert judge_one("Answer: 3 + 4 = 7", "3").outcome == "wrong"


def test_to_answer_this_question_opens_no_answer_span():
    reply = "To answer this question, we first compute 16 - 3 - 4 = 9 eggs."
    assert extract_answer(reply) == reply  # only the concluding sentence, not "this question, we first…"
    assert judge_one(reply, "16").outcome == "wrong"
    assert judge_one(reply, "9").outcome == "correct"


def test_a_negated_value_is_not_the_answer():
    assert judge_one("The answer is not 18, it's 17", "17").outcome == "correct"
    assert judge_one("The answer is not 18, it's 17", "18").outcome == "wrong"
    assert judge_one("The answer is not 18.", "18").outcome == "undecided"


@pytest.mark.parametrize("reply", [
    "The answer cannot be 18.", "The answer can not be 18.", "The answer can't be 18.", "The answer can’t be 18.",
    "The answer isn't 18.", "The answer isn’t 18.", "The answer is not 18.", "The answer is no longer 18.",
    "The answer is never 18.", "The answer is neither 18 nor 17.", "So 18 is wrong.", "The answer 18 is not correct.",
])
def test_every_negation_of_the_value_leaves_it_undecided(reply):
    assert judge_one(reply, "18").outcome == "undecided"


def test_a_refusal_that_hedges_between_values_is_undecided():
    verdict = judge_one("I cannot answer this. Maybe 18 or 17", "18")
    assert verdict.outcome == "undecided" and verdict.correct is None


@pytest.mark.parametrize("reply", ["She answered: 18", "The question is unanswerable: 18", "Answered: 18"])
def test_answered_and_unanswerable_open_no_answer_span(reply):
    assert reader.answer_lines(reply) == []


def test_integers_are_compared_exactly():
    assert judge_one("Answer: 1000001", "1000000").outcome == "wrong"
    assert judge_one("Answer: 123456900", "123456789").outcome == "wrong"


def test_thousands_separators_count_only_in_groups_of_three():
    assert judge_one("Answer: 1,2,3", "123").correct is not True
    assert judge_one("Answer: 1,234", "1234").outcome == "correct"


def test_a_duration_restated_in_brackets_is_one_duration():
    assert judge_one("It takes 1 hour 35 minutes (95 minutes).", "95 minutes", "duration").outcome == "correct"
    assert judge_one("It takes 1 hour 35 minutes (95 minutes).", "190 minutes", "duration").outcome == "wrong"


def test_repeated_durations_are_not_summed():
    assert judge_one("1 hour, 1 hour, 1 hour", "3 hours", "duration").outcome == "wrong"


def test_a_list_is_read_from_prose():
    days = '["Thursday", "Friday"]'
    assert judge_one("The days are Thursday and Friday.", days, "set").outcome == "correct"
    assert judge_one("The days are Thursday and Saturday.", days, "set").outcome == "wrong"
    assert judge_one("Thursday and Friday are both too late for the deadline.", days, "set").outcome == "undecided"


# ---------------------------------------------------------------- precedence and truncation

def test_an_explicit_correction_lets_the_later_answer_count():
    assert judge_one("Answer: 17. Wait, 9 * 2 = 18. Answer: 18", "18").outcome == "correct"


@pytest.mark.parametrize("between", [" ", "\n", "\n\n"])
def test_a_correction_after_the_last_commitment_is_read_on_its_line_or_a_later_one(between):
    for reference in ("18", "17"):
        verdict = judge_one(f"The answer is 18.{between}Wait, no, it is 17.", reference)
        assert verdict.outcome == "undecided", verdict
        assert "18" in verdict.extracted and "17" in verdict.extracted  # a later stage sees the correction


@pytest.mark.parametrize("between", [" ", "\n"])
def test_a_recheck_after_the_last_commitment_that_states_the_answer_again_keeps_it(between):
    assert judge_one(f"Answer: 18.{between}Wait, let me check: 16 - 3 - 4 = 9, 9 * 2 = 18.", "18").outcome == "correct"


def test_two_disagreeing_answers_without_a_correction_are_undecided():
    verdict = judge_one("Answer: 17. Then 9 * 2 = 18. Answer: 18", "18")
    assert verdict.outcome == "undecided" and "17" in verdict.extracted and "18" in verdict.extracted


def test_answers_in_several_forms_that_agree_commit_to_one_value():
    assert judge_one("Total = 20\n#### 20\nThe answer is: 20\n\\boxed{20}", "20").outcome == "correct"


def test_a_cut_off_reply_that_committed_to_nothing_has_no_answer():
    reply = "Sam has 5 trays with 4 cookies in each, so 5 * 4 = 20 cookies. Then he sells 20 * $2 = $40"
    verdict = judge_one(reply, "40", truncated=True)
    assert (verdict.outcome, verdict.correct, verdict.truncated) == ("no_answer", False, True)
    assert judge_one(reply, "40").outcome == "correct"  # the same text, ended on its own, concludes 40


def test_a_cut_off_reply_is_judged_by_what_it_committed_to_before_the_cut():
    verdict = judge_one("5 * 4 = 20 cookies.\n#### 40\nLet me check: 20 * 2 =", "40", truncated=True)
    assert (verdict.outcome, verdict.truncated) == ("correct", True)


def test_a_concluding_sentence_that_only_restates_the_question_is_not_credited():
    question = "Janet's ducks lay 16 eggs per day. She eats 3. How many eggs are left each day?"
    assert judge_one("Janet's ducks lay 16 eggs per day.", "13", question=question).outcome == "no_answer"
    assert judge_one("Janet's ducks lay 16 eggs per day.", "16").outcome == "correct"  # no question to restate


def test_a_restated_given_that_is_also_the_answer_is_left_to_a_reader():
    """'Each of his four friends received five lollipops' may answer 5, or only repeat the question."""
    question = "Janet's ducks lay 16 eggs per day. How many eggs do the ducks lay per day?"
    assert judge_one("Janet's ducks lay 16 eggs per day.", "16", question=question).outcome == "undecided"


def test_an_explicit_answer_may_restate_a_value_of_the_question():
    question = "Janet's ducks lay 16 eggs per day. How many eggs do the ducks lay per day?"
    assert judge_one("Answer: 16", "16", question=question).outcome == "correct"


# ---------------------------------------------------------------- the tables

@pytest.mark.parametrize("extractor, cases", [
    (reader.boxed_answers, READER_CASES["boxed"]),
    (reader.hash_answers, READER_CASES["hashes"]),
    (reader.json_answers, READER_CASES["json"]),
    (lambda text: reader.answer_lines(text, skip=reader.json_regions(text)), READER_CASES["answer_line"]),
    (reader.is_the_answer_sentences, READER_CASES["is_the_answer"]),
], ids=["boxed", "hashes", "json", "answer_line", "is_the_answer"])
def test_each_extractor_finds_the_committed_spans(extractor, cases):
    for case in cases:
        assert [c.text for c in extractor(case["text"])] == case["spans"], case


@pytest.mark.parametrize("case", READER_CASES["json_record"], ids=ids(READER_CASES["json_record"]))
def test_a_json_object_with_the_record_keys_commits_to_the_record(case):
    assert [c.text for c in reader.json_answers(case["text"], tuple(case["keys"]))] == case["spans"]


@pytest.mark.parametrize("case", READER_CASES["conclusion"], ids=ids(READER_CASES["conclusion"]))
def test_the_concluding_sentence(case):
    found = reader.concluding_sentence(case["text"])
    assert (found.text if found else None) == case["span"]


@pytest.mark.parametrize("case", READER_CASES["read_reply"], ids=ids(READER_CASES["read_reply"]))
def test_read_reply_orders_commitments_and_keeps_a_later_conclusion(case):
    reading = reader.read_reply(case["text"], truncated=case["truncated"])
    final, conclusion = reading.final, reading.conclusion
    assert (final.text if final else None, final.form if final else None) == (case["final"], case["form"])
    assert (conclusion.text if conclusion else None) == case["conclusion"]


def show_clock(clock: clock.Clock) -> str:
    hours, rest = divmod(clock.seconds, 3600)
    return f"{hours:02d}:{rest // 60:02d}" + (f":{rest % 60:02d}" if rest % 60 else "")


@pytest.mark.parametrize("name, read", [
    ("numbers", lambda text: [str(n.value) for n in numbers.numbers_in(text)]),
    ("day_numbers", lambda text: [str(n.value) for n in numbers.numbers_in(text)]),
    ("clocks", lambda text: [show_clock(c) for c in kinds.clocks_in(text)]),
    ("durations", lambda text: [int(d) for d in kinds.durations_in(text)]),
    ("years", kinds.years_in),
    ("dates", lambda text: [sorted(d.isoformat() for d in found.readings) for found in kinds.calendar_dates_in(text)]),
    ("lists", lambda text: [list(items) for items in kinds.lists_in(text)]),
])
def test_each_value_reader(name, read):
    expected_field = {"numbers": "values", "day_numbers": "values", "clocks": "values", "durations": "seconds",
                      "years": "years", "dates": "readings", "lists": "items"}[name]
    for case in VALUE_CASES[name]:
        expected = case[expected_field]
        if name in ("numbers", "day_numbers"):
            expected = [str(Fraction(value)) for value in expected]
        assert read(case["text"]) == expected, case


@pytest.mark.parametrize("candidate, reference, equal", [
    ("10:50", "22:50", None), ("10:50", "10:50 PM", None), ("10:50", "10:50 AM", None), ("10:50", "11:50 PM", False),
    ("12:05", "00:05", None), ("10:50 PM", "22:50", True), ("13:40", "1:40 PM", True), ("1:40 AM", "1:40 PM", False),
    ("10:50", "10:50", True), ("4:31", "04:31", True), ("4:31 PM", "04:31", False), ("16:31", "04:31", False),
])
def test_a_time_without_am_pm_is_undecided_only_against_a_reference_whose_half_of_the_day_is_known(
        candidate, reference, equal):
    [found], [gold] = kinds.clocks_in(candidate), kinds.clocks_in(reference)
    assert clock.clock_matches(found, gold) is equal


@pytest.mark.parametrize("candidate, reference, equal", [
    ("2.5", "2.5", True), ("2.50", "2.5", True), ("5/2", "2.5", True), ("2.5", "2.50", True),
    ("2.45", "2.5", None), ("2.549", "2.5", None), ("0.34", "0.3", None), ("1/3", "0.33", None),
    ("2.4", "2.5", False), ("2.6", "2.55", False), ("2.56", "2.5", False), ("18", "18.5", False),
    ("1000001", "1000000", False), ("18.4", "18", False),
])
def test_a_decimal_is_equal_exactly_and_undecided_when_more_precise_and_rounding_to_the_reference(
        candidate, reference, equal):
    [found], [gold] = numbers.numbers_in(candidate), numbers.numbers_in(reference)
    assert number.number_matches(found, gold) is equal


@pytest.mark.parametrize("case", VALUE_CASES["other_kinds"], ids=ids(VALUE_CASES["other_kinds"]))
def test_a_value_of_another_kind_could_state_the_reference_only_in_part(case):
    kind = kinds.kind_for(case["reference"], case["format"])
    [gold] = kind.read(case["reference"])
    [other] = [other for other in kind.others if other.kind.name == case["other"]]
    assert [other.could_state(value, gold) for value in other.kind.read(case["text"])] == case["could_state"]


@pytest.mark.parametrize("reference, fmt", [
    ("unanswerable", "text"), ("E37", "text"), ("352 BC", "date"), ("95 minutes", "duration"),
    (r"\frac{5}{16}", "latex"), ('["Lily", "Joe", "Dan"]', "list"),
])
def test_free_text_years_durations_latex_and_lists_of_names_are_never_compared_across_kinds(reference, fmt):
    assert kinds.kind_for(reference, fmt).others == ()


@pytest.mark.parametrize("case", CASES, ids=[f"{c['format']}-{i}" for i, c in enumerate(CASES)])
def test_the_cascade_without_an_llm_judge(case):
    verdict = judge_one(case["response"], case["reference"], case["format"], question=case.get("question"),
                        truncated=case.get("truncated", False))
    assert verdict.outcome == case["outcome"], verdict
    assert verdict.decided_by == case.get("decided_by", {"correct": "deterministic", "wrong": "deterministic",
                                                         "undecided": "none", "no_answer": "none"}[case["outcome"]])


def test_the_case_tables_cite_replies_of_the_labelled_set_by_id_and_no_file_outside_the_repository():
    labelled = {json.loads(line)["id"] for line in (FIXTURES / "judge_replies.jsonl").read_text().splitlines()
                if line.strip()}
    for table in ("judge_reader_cases.json", "judge_value_cases.json", "judge_cases.json"):
        sources = re.findall(r'"source": "([^"]*)"', (FIXTURES / table).read_text(encoding="utf-8"))
        assert not [source for source in sources if "/work/" in source], table
        cited = {reply_id for source in sources for reply_id in re.findall(r"\b[0-9a-f]{10}\b", source)}
        assert cited <= labelled, (table, cited - labelled)


# ---------------------------------------------------------------- the cascade's contract

def test_undecided_items_go_to_the_llm_judge_with_only_the_committed_span():
    seen = []

    def fake_llm_judge(pairs):
        seen.extend(pairs)
        return [Judgement("wrong", candidate, "llm_judge") for candidate, _ in pairs]

    verdicts = judge_answers([JudgeItem("Long reasoning... Answer: E49", "E49", "text"),
                              JudgeItem("Some thoughts.\nMaybe 18 or 17", "18", "number", truncated=False),
                              JudgeItem("I get 7", "7", "number")], llm_judge=fake_llm_judge)
    assert [v.decided_by for v in verdicts] == ["deterministic", "llm_judge", "deterministic"]
    assert seen == [("Maybe 18 or 17", "18")]


def test_without_an_llm_judge_undecided_stays_undecided_not_wrong():
    verdict = judge_one("Maybe 18 or 17", "18")
    assert (verdict.outcome, verdict.correct, verdict.decided_by) == ("undecided", None, "none")


def test_a_missing_response_is_an_error_never_wrong():
    verdict = judge_one(None, "18", truncated=True)
    assert (verdict.outcome, verdict.correct, verdict.decided_by) == ("error", None, "error")


def test_teacher_filters_may_still_pass_tuples():
    [verdict] = judge_answers([("$18", "18", "number")])
    assert verdict.outcome == "correct"


def test_the_judge_version_names_the_llm_judge_model():
    from stad_utils.judge import judge_version

    class FakeJudge:
        client = type("Client", (), {"model": "llama-70b"})()

        def __call__(self, pairs):
            return []

    assert judge_version() == JUDGE_VERSION
    assert judge_version(FakeJudge()) == f"{JUDGE_VERSION}+llm:llama-70b"


@pytest.mark.parametrize("reference, fmt", [
    ("18", "number"), ("11:15 AM", "clock"), ("352 BC", "date"), ("2004-01-11", "date"), ("12/11/2011", "date"),
    ("\\frac{1}{2}", "latex"), ('["a", "b"]', "list"), ('{"hours": 1}', "record"), ("95 minutes", "duration"),
    ("E49", "text"),
])
def test_infer_format(reference, fmt):
    assert infer_format(reference) == fmt


@pytest.mark.parametrize("module", [
    "_extract", "_span_value", "_reconcile", "_deterministic", "_form_as_asked", "_types", "_cascade", "_llm",
    "_kinds._kind", "_kinds._registry", "_kinds._number", "_kinds._clock", "_kinds._duration", "_kinds._year",
    "_kinds._calendar_date", "_kinds._latex_expression", "_kinds._lists", "_kinds._tot_record",
])
def test_the_docstring_examples_hold(module):
    result = doctest.testmod(importlib.import_module(f"stad_utils.judge.{module}"))
    assert result.attempted > 0 and result.failed == 0


def test_math_verify_runs_off_the_main_thread():
    """Evaluation judges each target's replies in its own thread; math-verify's alarm-based timeout cannot."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as pool:
        [verdict] = pool.submit(judge_answers, [("The answer is $\\boxed{3\\sqrt{2}}$", "\\sqrt{18}", "latex")]).result()
    assert (verdict.outcome, verdict.decided_by) == ("correct", "math_verify")
