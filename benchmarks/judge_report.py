"""How well does each stage of the judge cascade decide? A labelled set from all three benchmarks.

The labelled set (``tests/fixtures/judge_labelled.json``) holds only task ids and the name of
a transformation with its label; the answers are built at run time from the real gold answers
in ``../shared/data`` (which the project never copies). Equivalent rewrites ("$1,234.00",
``\\dfrac``, a JSON answer, a list in another order for unordered lists) are labelled correct;
perturbed values (another era, one more, another task's answer, a missing item) are wrong.

    python benchmarks/judge_report.py                       # deterministic and math-verify stages
    python benchmarks/judge_report.py --llm-judge embedded  # also SmolLM2 as the LLM judge on every pair
    python benchmarks/judge_report.py --make-fixture        # re-draw the labelled set (seeded)
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path

from stad_utils.judge import Judgement, judge_answers, years_in
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


def report(pairs: list[dict], verdicts: list[Judgement]) -> dict:
    """Per benchmark and per deciding stage: how many pairs it decided and how many of those rightly."""
    table: dict = defaultdict(lambda: defaultdict(Counter))
    for pair, verdict in zip(pairs, verdicts):
        cell = table[pair["benchmark"]][verdict.decided_by]
        cell["decided"] += 1
        cell["right"] += verdict.correct is pair["label"]
    return {bench: {stage: {"decided": c["decided"], "accuracy": round(c["right"] / c["decided"], 3)}
                    for stage, c in stages.items()} for bench, stages in table.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--make-fixture", action="store_true")
    parser.add_argument("--llm-judge", choices=["embedded"], help="also run an LLM judge on every pair")
    args = parser.parse_args(argv)
    if args.make_fixture:
        FIXTURE.write_text(json.dumps(make_fixture(args.data), indent=1) + "\n")
        print(f"wrote {FIXTURE}")
    pairs = labelled_pairs(args.data, json.loads(FIXTURE.read_text()))
    print(f"{len(pairs)} labelled pairs: {dict(Counter(p['benchmark'] for p in pairs))}, "
          f"{sum(p['label'] for p in pairs)} correct / {sum(not p['label'] for p in pairs)} wrong")
    cascade = judge_answers([(p["response"], p["reference"], p["format"]) for p in pairs])
    print("\nCascade without an LLM judge (stage that decided: pairs decided, accuracy on them):")
    print(json.dumps(report(pairs, cascade), indent=2))
    undecided = sum(v.decided_by == "no_answer" for v in cascade)
    print(f"LLM-judge calls the cascade saves: {len(pairs) - undecided} of {len(pairs)} pairs "
          f"({(len(pairs) - undecided) / len(pairs):.0%}) are decided before the LLM stage")
    if args.llm_judge:
        from stad_utils.judge import extract_answer
        from stad_utils.roles import LLMJudge
        from stad_utils.serving import open_client

        endpoint = {"kind": "embedded", "model": "smollm2-135m-instruct", "max_tokens": 60,
                    "json_mode": "llama_schema", "concurrency": 1}
        with open_client(endpoint, role="judge") as client:
            llm = LLMJudge(client)([(extract_answer(p["response"]), p["reference"]) for p in pairs])
        print("\nThe LLM judge alone on every pair (SmolLM2-135M, JSON schema mode):")
        print(json.dumps(report(pairs, llm), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
