"""Re-judging a run's saved replies: new verdicts appended with their judge version, outcomes recomputed."""

import json

import pytest

from stad_utils.judge import JUDGE_VERSION, Judgement
from stad_utils.method import agreement_table, main, rejudge_run
from stad_utils.records import Ladder, Outcome, RunPaths, Step, StepSkill, Task, Verdict, read_records

QUESTION = "Sam has 5 trays with 4 cookies in each. Sam sells all of them for $2 each. How many dollars does Sam make?"
SCAFFOLD = "Sam has 20 cookies. Sam sells all of them for $2 each. How many dollars does Sam make?"
ISOLATED = "Sam has 5 trays with 4 cookies in each. How many cookies does Sam have?"


def old_verdict(variant, level, prompt, reference, response, correct, **fields):
    """A verdict line as written before judge outcomes existed: no outcome, no finish reason."""
    return {"task_id": "t1", "model": "smollm2", "variant": variant, "level": level, "prompt": prompt,
            "reference": reference, "response": response, "error": None, "extracted": None, "correct": correct,
            "decided_by": "deterministic", "latency_s": 1.0, "cached": False, **fields}


@pytest.fixture
def run(tmp_path):
    """A one-task run (two steps) whose old verdicts credited a hedge and a cut-off restatement."""
    task = Task(task_id="t1", source="generated/word", question=QUESTION, answer="40", answer_format="number")
    steps = [Step(description="Count the cookies.", answer="20"), Step(description="Price them.", answer="40")]
    ladder = Ladder(task=task, teacher="oracle", steps=steps, scaffolds=[SCAFFOLD], isolated=[ISOLATED, SCAFFOLD])
    paths = RunPaths(tmp_path)
    paths.ladders.write_text(ladder.model_dump_json() + "\n")
    paths.skills.write_text("".join(StepSkill(task_id="t1", step=i, description=s.description, label=None,
                                              cluster=i, skill=f"skill {i}").model_dump_json() + "\n"
                                    for i, s in enumerate(steps, start=1)))
    lines = [
        old_verdict("original", 0, QUESTION, "40", "Sam makes 20 x $2 = $40. Maybe $40 or $20.", True),
        old_verdict("scaffold", 1, SCAFFOLD, "40", "Sam has 20 cookies. So Sam makes 20 x 2 = 40 dollars.", True),
        old_verdict("isolated", 1, ISOLATED, "20", "Sam has 5 trays with 4 cookies in each, so he has 20", True,
                    finish_reason="length"),
        old_verdict("isolated", 2, SCAFFOLD, "40", None, None, error="HTTP 500", decided_by="error"),
    ]
    paths.verdicts.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return paths


def latest_by_key(paths):
    return {(v.variant, v.level): v for v in read_records(paths.verdicts, Verdict.model_validate)}


def test_rejudging_appends_new_verdicts_beside_the_old(run):
    table = rejudge_run(run.root)
    assert list(zip(table.variant, table.level, table.old_outcome, table.new_outcome)) == [
        ("original", 0, "correct", "undecided"),  # the hedge is no longer credited
        ("scaffold", 1, "correct", "correct"),
        ("isolated", 1, "correct", "no_answer"),  # cut off before committing to anything
    ]
    verdicts = read_records(run.verdicts, Verdict.model_validate)
    assert len(verdicts) == 4 + 3 and all(v.judge_version == "" for v in verdicts[:4])
    assert all(v.judge_version == JUDGE_VERSION for v in verdicts[4:])
    latest = latest_by_key(run)
    assert latest["isolated", 1].truncated and latest["isolated", 1].correct is False
    assert (latest["isolated", 2].correct, latest["isolated", 2].error) == (None, "HTTP 500")  # never re-judged


def test_rejudging_recomputes_k(run):
    rejudge_run(run.root)
    [outcome] = read_records(run.outcomes, Outcome.model_validate)
    assert outcome.curve == [None, True]  # the original is undecided now, so k is undetermined
    assert outcome.k is None


def test_an_llm_judge_decides_what_the_cascade_leaves_undecided(run):
    seen = []

    def strict_llm_judge(pairs):
        seen.extend(pairs)
        return [Judgement("wrong", span, "llm_judge", "hedged") for span, _ in pairs]

    strict_llm_judge.__name__ = "strict"
    table = rejudge_run(run.root, llm_judge=strict_llm_judge)
    assert seen == [("Maybe $40 or $20.", "40")]
    assert table.new_outcome.tolist() == ["wrong", "correct", "no_answer"]
    assert latest_by_key(run)["original", 0].judge_version == f"{JUDGE_VERSION}+llm:strict"


def test_the_agreement_table_counts_old_against_new_outcomes_per_model(run):
    table = agreement_table(rejudge_run(run.root))
    assert table.loc[("smollm2", "correct"), "undecided"] == 1
    assert table.loc[("smollm2", "correct"), "no_answer"] == 1
    assert table.loc[("all", ""), "all"] == 3


def test_the_command_prints_the_agreement_table(run, capsys):
    assert main([str(run.root)]) == 0
    printed = capsys.readouterr().out
    assert "re-judged 3 replies" in printed and "2 changed outcome" in printed and "no_answer" in printed
