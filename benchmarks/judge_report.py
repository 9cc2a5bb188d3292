"""How well does each stage of the judge cascade decide? Precision, recall and undecided share on labelled replies.

Two labelled sets:

* ``--replies PATH`` (the measure issue #8 asks for): a JSONL file of real replies, one per line,
  with ``benchmark`` (or ``source``), ``question``, ``reference``, ``answer_format``, ``response``,
  ``finish_reason`` and ``label``: ``"correct"``, ``"wrong"`` or ``"no_answer"`` by a careful
  reading of the reply's committed final answer (``reason``: one line why).
* the default, ``tests/fixtures/judge_labelled.json``: task ids and the name of a rewrite of the
  real gold answer ("$1,234.00", ``\\dfrac``, a JSON answer …, labelled correct; another era, one
  more, another task's answer …, labelled wrong), built at run time from ``../shared/data``
  (which the project never copies). Rewrites of gold answers are no real replies: this set
  only checks that each stage is right whenever it decides, and is to be replaced by the
  real-reply set.

    python benchmarks/judge_report.py                          # the rewrite set, no LLM judge
    python benchmarks/judge_report.py --replies labelled.jsonl # real replies
    python benchmarks/judge_report.py --llm-judge embedded     # SmolLM2 as the LLM judge for undecided items
    python benchmarks/judge_report.py --make-fixture           # re-draw the rewrite set (seeded)
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

import pandas as pd

from stad_utils.judge import JudgeItem, Judgement, LLMJudgeFn, judge_answers, years_in
from stad_utils.records import Task
from stad_utils.tasks import load_benchmark

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "judge_labelled.json"
FILES = {"gsm8k": "gsm8k_test.jsonl", "math_hard": "math_hard_test.jsonl", "tot_arithmetic": "tot_arithmetic_test.jsonl"}


def _bump(value: str) -> str:
    number = float(value.replace(",", ""))
    return str(int(number) + 1) if number.is_integer() else str(number + 1)


def _flip_era(value: str) -> str:
    return value.replace("BC", "AD") if "BC" in value else value.replace("AD", "BC")


def _record_bump(value: str) -> str:
    record = json.loads(value)
    key = next(k for k, v in record.items() if isinstance(v, (int, float)) or str(v).lstrip("+-").isdigit())
    record[key] = _bump(str(record[key])) if isinstance(record[key], str) else record[key] + 1
    return json.dumps(record)


def _record_as_text(value: str) -> str:
    record = json.loads(value)
    hours, minutes, seconds = (record.get(k) for k in sorted(record, key="HXAMYBSZC".index))
    return f"It takes {hours:g} hours, {minutes:g} minutes and {seconds:g} seconds."


_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
          "seventeen eighteen nineteen twenty").split()


# transformation → (label, applies to which answer formats, how to write the answer)
TRANSFORMS = {
    "announced": (True, {"number", "text", "date"}, lambda g, t, o: f"Let me work it out.\nAnswer: {g}"),
    "sentence": (True, {"number", "date"}, lambda g, t, o: f"After these steps we find that it is {g}."),
    "money": (True, {"number"}, lambda g, t, o: f"She gets ${float(g):,.2f} in total."),
    "boxed": (True, {"number", "latex"}, lambda g, t, o: f"Therefore the answer is $\\boxed{{{g}}}$."),
    "dfrac": (True, {"latex"}, lambda g, t, o: f"So we get $\\boxed{{{g.replace('frac', 'dfrac')}}}$."),
    "json": (True, {"date", "text", "number", "list", "set", "record"},
             lambda g, t, o: json.dumps({"explanation": "step by step", **(json.loads(g) if t.answer_format == "record"
                                         else {"answer": json.loads(g) if t.answer_format in ("list", "set") else g})})),
    "reordered": (True, {"set"}, lambda g, t, o: json.dumps({"unordered_list": list(reversed(json.loads(g)))})),
    "as_text": (True, {"record"}, lambda g, t, o: _record_as_text(g)),
    "number_words": (True, {"number"}, lambda g, t, o: f"She ends up with {_WORDS[int(g)]} of them."),
    "plus_one": (False, {"number"}, lambda g, t, o: f"Answer: {_bump(g)}"),
    "other_task": (False, {"number", "latex", "text", "date"}, lambda g, t, o: f"The answer is $\\boxed{{{o}}}$."
                   if t.answer_format == "latex" else f"Answer: {o}"),
    "other_era": (False, {"date"}, lambda g, t, o: f"Answer: {_flip_era(g)}"),
    "dropped_item": (False, {"list", "set"}, lambda g, t, o: json.dumps({"answer": json.loads(g)[:-1]})),
    "record_bump": (False, {"record"}, lambda g, t, o: _record_bump(g)),
    "refusal": (False, {"number", "latex", "text", "date", "list", "set", "record"},
                lambda g, t, o: "I cannot determine this from the information given."),
}


def _applies(name: str, task: Task) -> bool:
    label, formats, _ = TRANSFORMS[name]
    if task.answer_format not in formats:
        return False
    if name == "other_era":
        return "BC" in task.answer or "AD" in task.answer
    if name == "as_text":
        return set(json.loads(task.answer)) in ({"H", "M", "S"}, {"X", "Y", "Z"}, {"A", "B", "C"})
    if name == "record_bump":
        return any(isinstance(v, (int, float)) for v in json.loads(task.answer).values())
    if name in ("dropped_item", "reordered"):
        return len(json.loads(task.answer)) >= 2 and len(set(json.loads(task.answer))) >= 2
    if name == "money":
        return task.source == "gsm8k"
    if name == "number_words":
        return task.answer.isdigit() and int(task.answer) <= 20
    if name == "dfrac":
        return "\\frac" in task.answer
    return True


def load_all(data_dir: Path) -> dict[str, dict[str, Task]]:
    return {name: {t.task_id: t for t in load_benchmark(name, data_dir / file)} for name, file in FILES.items()}


def make_fixture(data_dir: Path, per_benchmark: int = 80, seed: int = 0) -> list[dict]:
    """Draw ``per_benchmark`` (task, transformation) pairs per benchmark, half correct, half wrong."""
    rng = random.Random(seed)
    rows = []
    for name, tasks in load_all(data_dir).items():
        pool = list(tasks.values())
        for index in range(per_benchmark):
            want = index % 2 == 0
            while True:
                task = rng.choice(pool)
                choices = [t for t in TRANSFORMS if TRANSFORMS[t][0] is want and _applies(t, task)]
                if choices:
                    break
            rows.append({"benchmark": name, "task_id": task.task_id, "transform": rng.choice(choices),
                         "label": want})
    return rows


def labelled_pairs(data_dir: Path, rows: list[dict]) -> list[dict]:
    """The fixture's rows with the answer written from the real gold answer."""
    tasks = load_all(data_dir)
    pairs = []
    for row in rows:
        task = tasks[row["benchmark"]][row["task_id"]]
        other = next(t.answer for t in tasks[row["benchmark"]].values()  # a wrong value of the same kind
                     if t.answer_format == task.answer_format and t.answer != task.answer
                     and bool(years_in(t.answer)) == bool(years_in(task.answer)))
        response = TRANSFORMS[row["transform"]][2](task.answer, task, other)
        pairs.append({**row, "response": response, "reference": task.answer, "format": task.answer_format})
    return pairs


def rewrite_rows(data_dir: Path) -> list[dict]:
    """The rewrite set as labelled rows (``label`` ``"correct"`` or ``"wrong"``)."""
    return [{**pair, "label": "correct" if pair["label"] else "wrong", "answer_format": pair["format"]}
            for pair in labelled_pairs(data_dir, json.loads(FIXTURE.read_text()))]


def reply_rows(path: Path) -> list[dict]:
    """A labelled set of real replies (JSONL, fields as in the module docstring)."""
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [{**row, "benchmark": row.get("benchmark") or row["source"]} for row in rows]


def judge_rows(rows: list[dict], llm_judge: LLMJudgeFn | None = None) -> list[Judgement]:
    return judge_answers([JudgeItem(row["response"], row["reference"], row.get("answer_format"),
                                    question=row.get("question"), truncated=row.get("finish_reason") == "length")
                          for row in rows], llm_judge)


def report(rows: list[dict], verdicts: list[Judgement]) -> pd.DataFrame:
    """Per benchmark and deciding stage (and ``all`` stages): how the verdicts compare with the labels.

    Columns: ``replies``; ``decided`` (correct, wrong or no answer); ``agree`` (share of decided
    verdicts that match the label, no answer counting as not correct); ``precision`` and
    ``recall`` of "correct" on decided replies; ``undecided`` (share of the replies labelled as
    committing to an answer that the judge left undecided).
    """
    frame = pd.DataFrame({"benchmark": [row["benchmark"] for row in rows],
                          "stage": [verdict.decided_by for verdict in verdicts],
                          "label": [row["label"] for row in rows],
                          "outcome": [verdict.outcome for verdict in verdicts]})
    every_stage = frame.assign(stage="all")

    def summary(group: pd.DataFrame) -> pd.Series:
        decided = group[group.outcome.isin(["correct", "wrong", "no_answer"])]
        said_correct, is_correct = decided.outcome == "correct", decided.label == "correct"
        committing = group[group.label != "no_answer"]
        return pd.Series({
            "replies": len(group), "decided": len(decided),
            "agree": (said_correct == is_correct).mean() if len(decided) else None,
            "precision": (said_correct & is_correct).sum() / said_correct.sum() if said_correct.any() else None,
            "recall": (said_correct & is_correct).sum() / is_correct.sum() if is_correct.any() else None,
            "undecided": (committing.outcome == "undecided").mean() if len(committing) else None,
        })

    table = pd.concat([frame, every_stage]).groupby(["benchmark", "stage"]).apply(summary, include_groups=False)
    return table.astype({"replies": int, "decided": int})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--replies", type=Path, help="a labelled JSONL file of real replies")
    parser.add_argument("--make-fixture", action="store_true")
    parser.add_argument("--llm-judge", choices=["embedded"], help="SmolLM2 as the LLM judge for undecided replies")
    args = parser.parse_args(argv)
    if args.make_fixture:
        FIXTURE.write_text(json.dumps(make_fixture(args.data), indent=1) + "\n")
        print(f"wrote {FIXTURE}")
    rows = reply_rows(args.replies) if args.replies else rewrite_rows(args.data)
    print(f"{len(rows)} labelled replies: {dict(Counter(row['benchmark'] for row in rows))}, "
          f"labels {dict(Counter(row['label'] for row in rows))}")
    with pd.option_context("display.float_format", "{:.3f}".format, "display.width", 160):
        print("\nCascade without an LLM judge:")
        print(report(rows, judge_rows(rows)).to_string())
        if args.llm_judge:
            from stad_utils.serving import open_client
            from stad_utils.judge import LLMJudge

            endpoint = {"kind": "embedded", "model": "smollm2-135m-instruct", "max_tokens": 60,
                        "json_mode": "llama_schema", "concurrency": 1}
            with open_client(endpoint, role="judge") as client:
                verdicts = judge_rows(rows, LLMJudge(client))
            print("\nCascade with SmolLM2-135M as the LLM judge (JSON schema mode):")
            print(report(rows, verdicts).to_string())
    return 0


if __name__ == "__main__":
    sys.exit(main())
