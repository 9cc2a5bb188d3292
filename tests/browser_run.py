"""A hand-made run folder for the failure browser's tests: 6 tasks answered by 2 models, with an
error, an undecided verdict, a truncated reply, a non-monotonic curve, a re-asked error and three
disagreements."""

from pathlib import Path

from stad_utils.records import Ladder, Outcome, RecordFile, RunPaths, Step, StepSkill, Task, Verdict

QWEN, GRANITE = "qwen-7b", "granite-8b"

# task id: question, gold answer, steps (description, answer, skill), the judge stage deciding correct/wrong
TASKS = {
    "t1": (("Janet's ducks lay 16 eggs per day. She eats three for breakfast and bakes muffins with four. "
            "She sells the rest at $2 per egg. How many dollars does she make every day?"), "18",
           [("Add the eggs eaten and baked", "7", "addition"), ("Subtract them from the eggs laid", "9", "subtraction"),
            ("Multiply the eggs sold by the price", "18", "multiplication")], "deterministic"),
    "t2": ("A robe takes 2 bolts of blue fiber and half that much white fiber. How many bolts in total?", "3",
           [("Halve the blue bolts", "1", "multiplication"), ("Add blue and white bolts", "3", "addition")],
           "deterministic"),
    "t3": (("A train leaves at 09:40 and the trip lasts 135 minutes, with a 25-minute stop. "
            "How many minutes before 13:00 does it arrive?"), "30",
           [("Convert 135 minutes to hours and minutes", "2:15", "unit conversion"),
            ("Add the trip and the stop to 09:40", "12:20", "time arithmetic"),
            ("Subtract the arrival from 13:00", "40", "subtraction")], "deterministic"),
    "t4": ("A meeting starts at 14:50 and lasts 40 minutes. At what time does it end, plus 15 minutes of cleanup?",
           "15:45", [("Add 40 minutes to 14:50", "15:30", "time arithmetic"), ("Add 15 minutes", "15:45", "addition")],
           "deterministic"),
    "t5": ("Solve for $x$: $3(x + 2) = 2x + 11$, then give $x^2 - 1$.", "24",
           [("Expand the left side", "3x + 6", "addition"), ("Isolate $x$", "5", "multiplication"),
            ("Compute $x^2 - 1$", "24", "subtraction")], "math_verify"),
    "t6": ("A recipe needs 250 g of flour per cake. How many kilograms for 6 cakes?", "1.5",
           [("Multiply 250 g by 6", "1500", "multiplication"), ("Convert grams to kilograms", "1.5", "unit conversion")],
           "llm_judge"),
}

# (task, model): the verdicts of original, scaffolds | isolated steps, and the expected k and non-monotonicity.
# C correct, W wrong, N no answer, T no answer cut off by max_tokens, U undecided, E error.
ANSWERS = {
    ("t1", QWEN): ("WWC|CCC", 2, False), ("t1", GRANITE): ("CCC|CCC", 0, False),
    ("t2", QWEN): ("CC|CC", 0, False), ("t2", GRANITE): ("CC|CC", 0, False),
    ("t3", QWEN): ("EWW|CCC", None, False), ("t3", GRANITE): ("WTW|CWC", -1, False),
    ("t4", QWEN): ("UC|CC", None, False), ("t4", GRANITE): ("WC|CC", 1, False),
    ("t5", QWEN): ("WCW|CWC", 1, True), ("t5", GRANITE): ("WCW|CWC", 1, True),
    ("t6", QWEN): ("CC|WC", 0, False), ("t6", GRANITE): ("CC|CC", 0, False),
}

OUTCOMES = {"C": "correct", "W": "wrong", "N": "no_answer", "T": "no_answer", "U": "undecided", "E": "error"}
SKILL_MISTAKES = {"addition": "added one too many", "subtraction": "subtracted the wrong way round",
                  "multiplication": "multiplied instead of dividing", "unit conversion": "used 100 minutes per hour",
                  "time arithmetic": "forgot to carry the hour"}


def make_ladder(task_id: str) -> Ladder:
    question, answer, steps, _ = TASKS[task_id]
    task = Task(task_id=task_id, source="gsm8k" if task_id != "t5" else "math_hard", question=question, answer=answer)
    steps = [Step(description=d, answer=a, skill=s) for d, a, s in steps]
    scaffolds = [f"{question} (Already known: " + "; ".join(f"{s.description.lower()} gives {s.answer}"
                                                             for s in steps[:j]) + ".)" for j in range(1, len(steps))]
    isolated = [f"Given the earlier results, {s.description.lower()}. What is the result?" for s in steps]
    placebos = [f"{question} (Known: a robe is a garment.)"] if task_id == "t2" else []
    return Ladder(task=task, teacher="oracle", steps=steps, scaffolds=scaffolds, isolated=isolated, placebos=placebos)


def reply(model: str, code: str, reference: str, skill: str) -> dict:
    """The response fields of one verdict, written as a model would answer."""
    if code == "C":
        return {"response": f"[{model}] Working it out step by step, the result is {reference}.\nAnswer: {reference}",
                "extracted": reference}
    if code == "W":
        return {"response": f"[{model}] I {SKILL_MISTAKES[skill]}, so the result is 7.\nAnswer: 7", "extracted": "7"}
    if code == "U":
        return {"response": f"[{model}] It is either {reference} or 16:45, depending on the break.",
                "extracted": f"{reference} or 16:45"}
    if code == "T":
        return {"response": f"[{model}] Let me think. " + "First, the train leaves at 09:40 and then " * 40,
                "extracted": None, "truncated": True, "finish_reason": "length"}
    if code == "N":
        return {"response": f"[{model}] I cannot tell.", "extracted": None}
    return {"response": None, "error": "HTTP 500: internal server error", "extracted": None}


def make_verdicts(ladder: Ladder, model: str, codes: str) -> list[Verdict]:
    composed, alone = codes.split("|")
    _, _, _, stage = TASKS[ladder.task_id]
    questions = ([("original", 0, ladder.task.question, ladder.task.answer, ladder.steps[0].skill)]
                 + [("scaffold", j, text, ladder.task.answer, ladder.steps[j].skill)
                    for j, text in enumerate(ladder.scaffolds, start=1)]
                 + [("isolated", i, text, step.answer, step.skill)
                    for i, (text, step) in enumerate(zip(ladder.isolated, ladder.steps), start=1)])
    verdicts = []
    for (variant, level, prompt, reference, skill), code in zip(questions, composed + alone, strict=True):
        outcome = OUTCOMES[code]
        verdicts.append(Verdict(
            task_id=ladder.task_id, model=model, variant=variant, level=level, prompt=prompt, reference=reference,
            outcome=outcome, correct={"correct": True, "wrong": False, "no_answer": False}.get(outcome),
            decided_by=stage if code in "CW" else "error" if code == "E" else "none",
            judge_version="test", **reply(model, code, reference, skill)))
    return verdicts


def make_outcome(ladder: Ladder, model: str, verdicts: list[Verdict], k: int | None, non_monotonic: bool) -> Outcome:
    success = {(v.variant, v.level): v.correct for v in verdicts}
    return Outcome(
        task_id=ladder.task_id, model=model, source=ladder.task.source, n_steps=ladder.n_steps,
        skills=[step.skill for step in ladder.steps],
        curve=[success[("original", 0)]] + [success[("scaffold", j)] for j in range(1, ladder.n_steps)],
        isolated=[success[("isolated", i)] for i in range(1, ladder.n_steps + 1)], k=k, non_monotonic=non_monotonic,
        n_errors=sum(v.outcome == "error" for v in verdicts), n_undecided=sum(v.outcome == "undecided" for v in verdicts),
        truncated=[v.truncated for v in verdicts if v.variant != "isolated"])


def write_run(root: Path) -> RunPaths:
    """The hand-made run folder; qwen's first answer to t2 was an error, re-asked and answered since."""
    paths = RunPaths(root)
    ladders = [make_ladder(task_id) for task_id in TASKS]
    RecordFile(paths.ladders, Ladder).append(ladders)
    RecordFile(paths.skills, StepSkill).append(
        StepSkill(task_id=ladder.task_id, step=i, description=step.description, label=step.skill, cluster=0,
                  skill=step.skill) for ladder in ladders for i, step in enumerate(ladder.steps, start=1))
    first_try = make_verdicts(ladders[1], QWEN, "EC|CC")[0]
    verdicts, outcomes = [first_try], []
    for ladder in ladders:
        for model in (QWEN, GRANITE):
            codes, k, non_monotonic = ANSWERS[ladder.task_id, model]
            answered = make_verdicts(ladder, model, codes)
            verdicts += answered
            outcomes.append(make_outcome(ladder, model, answered, k, non_monotonic))
    RecordFile(paths.verdicts, Verdict).append(verdicts)
    RecordFile(paths.outcomes, Outcome).append(outcomes)
    return paths
