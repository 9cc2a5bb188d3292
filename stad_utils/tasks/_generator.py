"""A seeded generator of multi-step problems whose steps are known exactly.

Every problem is a *story*: an introduction, then one sentence per step that changes a
running state (a count of things, a clock time, a number of minutes), then a final
question. Because the state after each step can be written as a sentence, every STaD
variant follows mechanically:

* the original is ``intro + all step sentences + final question``;
* scaffold level *j* replaces the intro and the first *j* step sentences by the sentence
  stating the state after step *j* (the solved steps are folded into the wording);
* isolated step *i* is ``state after step i−1 + sentence i + a question about step i``;
* placebo level *j* is the original with *j* restatements inserted before the final
  question: restatement *i* repeats a given of step *i* ("Recall that the friend gave Maya
  2 apples."), so it names the same steps as scaffold *j* but none of their results.

Two families exist: ``word`` (GSM8K-style quantities, rates, remainders and prices) and
``time`` (ToT-Arithmetic-style clock times, durations, unit conversions and the overlap
of two free intervals). Each step records its arithmetic in ``explanation`` (for example
``"24 - 3 = 21"``) so tests can re-check every step independently.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..records import Step, Task, clock

FAMILIES = ("word", "time")


@dataclass
class _Story:
    intro: str
    final_question: str = ""
    answer_format: str = "number"
    steps: list[Step] = field(default_factory=list)
    sentences: list[str] = field(default_factory=list)  # states the step's operation ("" if implicit)
    questions: list[str] = field(default_factory=list)  # asks for the step's result alone
    states: list[str] = field(default_factory=list)  # the situation once the step is done
    restatements: list[str] = field(default_factory=list)  # repeats a given of the step, computes nothing

    def add(self, sentence: str, description: str, skill: str, explanation: str, answer: str,
            question: str, state: str, restatement: str) -> None:
        self.steps.append(Step(description=description, answer=answer, explanation=explanation, skill=skill))
        self.sentences.append(sentence)
        self.questions.append(question)
        self.states.append(state)
        self.restatements.append(f"Recall that {restatement}.")

    def context(self, done: int) -> str:
        """The situation with the first ``done`` steps solved."""
        return self.intro if done == 0 else self.states[done - 1]

    def text(self, done: int, last: int, question: str, restated: int = 0) -> str:
        parts = [self.context(done), *self.sentences[done:last], *self.restatements[:restated], question]
        return " ".join(part for part in parts if part)

    def to_task(self, task_id: str, source: str) -> Task:
        n = len(self.steps)
        return Task(
            task_id=task_id,
            source=source,
            question=self.text(0, n, self.final_question),
            answer=self.steps[-1].answer,
            answer_format=self.answer_format,
            reference_steps=self.steps,
            reference_scaffolds=[self.text(j, n, self.final_question) for j in range(1, n)],
            reference_isolated=[self.text(i - 1, i, self.questions[i - 1]) for i in range(1, n + 1)],
            reference_placebos=[self.text(0, n, self.final_question, restated=j) for j in range(1, n)],
        )


# ---------------------------------------------------------------- word problems

_PEOPLE = ("Maya", "Leo", "Ana", "Sam", "Ravi", "Zoe", "Omar", "Lena", "Kofi", "Ines")
_GOODS = (  # (plural, container)
    ("apples", "bags"), ("pencils", "boxes"), ("cookies", "trays"), ("stickers", "sheets"),
    ("eggs", "cartons"), ("marbles", "jars"), ("cupcakes", "plates"), ("cards", "packs"),
)


def _word_story(rng: random.Random, n_steps: int, max_number: int) -> _Story:
    name = rng.choice(_PEOPLE)
    goods, container = rng.choice(_GOODS)
    top = max(3, max_number)
    bags, per_bag = rng.randint(2, min(top, 9)), rng.randint(2, min(top, 9))
    count = bags * per_bag
    story = _Story(intro=f"{name} is getting ready for a school fair.")
    has = f"{name} has {{}} {goods}."
    story.add(
        f"{name} has {bags} {container} with {per_bag} {goods} in each.",
        "Multiply the number of groups by the number of items in each group.",
        "multiplication", f"{bags} * {per_bag} = {count}", str(count),
        f"How many {goods} does {name} have?", has.format(count),
        f"each of the {bags} {container} holds {per_bag} {goods}",
    )
    for position in range(2, n_steps + 1):
        is_last = position == n_steps
        divisors = [d for d in range(2, 7) if count % d == 0 and count // d >= 1]
        kind = rng.choice(["sell", "share"] if is_last and divisors else ["sell"] if is_last else ["add", "remove"])
        if kind == "remove" and count < 3:
            kind = "add"
        if kind == "add":
            extra = rng.randint(1, top)
            story.add(
                f"Then {name} gets {extra} more {goods} from a friend.",
                "Add the newly received items to the current count.",
                "addition", f"{count} + {extra} = {count + extra}", str(count + extra),
                f"How many {goods} does {name} have now?", has.format(count + extra),
                f"the friend gave {name} {extra} {goods}",
            )
            count += extra
        elif kind == "remove":
            removed = rng.randint(1, min(top, count - 1))
            story.add(
                f"{name} gives {removed} of the {goods} to a neighbour.",
                "Subtract the items given away from the current count.",
                "subtraction", f"{count} - {removed} = {count - removed}", str(count - removed),
                f"How many {goods} does {name} have left?", has.format(count - removed),
                f"the neighbour got {removed} of the {goods}",
            )
            count -= removed
        elif kind == "share":
            friends = rng.choice(divisors)
            story.add(
                f"{name} shares all the {goods} equally among {friends} friends.",
                "Divide the items equally among the people sharing them.",
                "division", f"{count} / {friends} = {count // friends}", str(count // friends),
                f"How many {goods} does each friend get?", "",
                f"the {goods} are shared among {friends} friends",
            )
            story.final_question = f"How many {goods} does each friend get?"
            count //= friends
        else:
            price = rng.randint(2, min(top, 9))
            story.add(
                f"{name} sells all of them for ${price} each.",
                "Multiply the number of items sold by the price of one item.",
                "price times quantity", f"{count} * {price} = {count * price}", str(count * price),
                f"How many dollars does {name} make?", "",
                f"each of the {goods} sells for ${price}",
            )
            story.final_question = f"How many dollars does {name} make?"
            count *= price
    if not story.final_question:
        story.final_question = f"How many {goods} does {name} have now?"
    return story


def _hours_minutes(minutes: int) -> str:
    hours, mins = divmod(minutes, 60)
    hour_word = "hour" if hours == 1 else "hours"
    return f"{hours} {hour_word} and {mins} minutes" if mins else f"{hours} {hour_word}"


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")
_EVENTS = ("workshop", "conference day", "training course", "music festival", "coding camp")


def _schedule_story(rng: random.Random, n_steps: int) -> _Story:
    """A day of sessions and breaks: each step adds a duration to a clock time."""
    event = rng.choice(_EVENTS)
    now = rng.randrange(8 * 60, 10 * 60 + 1, 5)
    story = _Story(intro=f"A {event} starts at {clock(now)}.", answer_format="clock")
    session = 0
    for position in range(1, n_steps + 1):
        if position % 2 == 1:
            length = rng.randrange(65, 150, 5)
            name = f"{_ORDINALS[session]} session"
            session += 1
            story.add(
                f"The {name} lasts {_hours_minutes(length)}.",
                "Add a duration given in hours and minutes to a clock time.",
                "add a duration to a clock time",
                f"{clock(now)} + {length} min = {clock(now + length)}", clock(now + length),
                f"At what time does the {name} end?", f"The {name} ends at {clock(now + length)}.",
                f"the {name} is {_hours_minutes(length)} long",
            )
        else:
            length = rng.randrange(10, 45, 5)
            name = "break"
            story.add(
                f"Then there is a {length}-minute break.",
                "Add a number of minutes to a clock time.",
                "add minutes to a clock time",
                f"{clock(now)} + {length} min = {clock(now + length)}", clock(now + length),
                "At what time does the break end?", f"The break ends at {clock(now + length)}.",
                f"the break after the {_ORDINALS[session - 1]} session is {length} minutes long",
            )
        now += length
        story.final_question = f"At what time does the {name} end?"
    return story


def _journey_story(rng: random.Random, n_steps: int) -> _Story:
    """Convert a journey's length to minutes, take off the time travelled, find the arrival."""
    total = rng.randrange(70, 240, 5)
    story = _Story(intro="", answer_format="number")
    story.add(
        f"A train journey takes {_hours_minutes(total)}.",
        "Convert a duration in hours and minutes to minutes.",
        "convert hours and minutes to minutes",
        f"{_hours_minutes(total)} = {total} min", str(total),
        "How many minutes does the journey take?", f"The train journey takes {total} minutes.",
        f"the train journey is {_hours_minutes(total)} long",
    )
    story.final_question = "How many minutes does the journey take?"
    if n_steps >= 2:
        travelled = rng.randrange(15, total - 20, 5)
        left = total - travelled
        story.add(
            f"The train has already been travelling for {travelled} minutes.",
            "Subtract the minutes already travelled from the length of the journey.",
            "subtract minutes from a duration",
            f"{total} min - {travelled} min = {left} min", str(left),
            "How many minutes of the journey are left?", f"{left} minutes of the train journey are left.",
            f"the train has been on its way for {travelled} minutes",
        )
        story.final_question = "How many minutes of the journey are left?"
    if n_steps >= 3:
        now = rng.randrange(7 * 60, 18 * 60, 5)
        story.add(
            f"It is now {clock(now)}.",
            "Add a number of minutes to a clock time.",
            "add minutes to a clock time",
            f"{clock(now)} + {left} min = {clock(now + left)}", clock(now + left),
            "At what time does the train arrive?", "",
            f"the time now is {clock(now)}",
        )
        story.final_question = "At what time does the train arrive?"
        story.answer_format = "clock"
    return story


def _overlap_story(rng: random.Random, n_steps: int) -> _Story:
    """Two people's free intervals: common start, common end, its length, meeting slots."""
    first, second = rng.sample(_PEOPLE, 2)
    early_start = rng.randrange(8 * 60, 11 * 60, 15)
    late_start = early_start + rng.randrange(15, 120, 15)
    early_end = late_start + rng.randrange(45, 150, 15)
    late_end = early_end + rng.randrange(15, 120, 15)
    (start_a, end_a), (start_b, end_b) = rng.sample([(early_start, early_end), (late_start, late_end)], 2)
    common_start, common_end = max(start_a, start_b), min(end_a, end_b)
    length = common_end - common_start
    story = _Story(
        intro=f"{first} is free from {clock(start_a)} to {clock(end_a)}. "
              f"{second} is free from {clock(start_b)} to {clock(end_b)}.",
        answer_format="clock",
    )
    story.add(
        "", "Find the later of the two start times.", "later of two clock times",
        f"later of {clock(start_a)} and {clock(start_b)} = {clock(common_start)}", clock(common_start),
        "From what time are both of them free?",
        f"{first} and {second} are both free from {clock(common_start)}; {first} is free until "
        f"{clock(end_a)} and {second} until {clock(end_b)}.",
        f"{first}'s free time begins at {clock(start_a)}",
    )
    story.final_question = "From what time are both of them free?"
    if n_steps >= 2:
        story.add(
            "", "Find the earlier of the two end times.", "earlier of two clock times",
            f"earlier of {clock(end_a)} and {clock(end_b)} = {clock(common_end)}", clock(common_end),
            "Until what time are both of them free?",
            f"{first} and {second} are both free from {clock(common_start)} to {clock(common_end)}.",
            f"{second}'s free time ends at {clock(end_b)}",
        )
        story.final_question = "Until what time are both of them free?"
    if n_steps >= 3:
        story.add(
            "", "Compute the number of minutes between two clock times.", "minutes between two clock times",
            f"{clock(common_end)} - {clock(common_start)} = {length} min", str(length),
            "For how many minutes are both of them free at the same time?",
            f"{first} and {second} are both free at the same time for {length} minutes.",
            f"{second}'s free time begins at {clock(start_b)}",
        )
        story.final_question = "For how many minutes are both of them free at the same time?"
        story.answer_format = "number"
    if n_steps >= 4:
        slot = rng.choice([15, 20, 25, 30, 40])
        story.add(
            f"They want to hold meetings of {slot} minutes each, one after another.",
            "Divide the free minutes by the meeting length, rounding down.", "count slots in a duration",
            f"floor({length} min / {slot} min) = {length // slot}", str(length // slot),
            "How many such meetings fit into the time when both are free?", "",
            f"each meeting is to last {slot} minutes",
        )
        story.final_question = "How many such meetings fit into the time when both are free?"
    return story


def _time_story(rng: random.Random, n_steps: int) -> _Story:
    make = rng.choice([_schedule_story, _journey_story, _overlap_story])
    limits = {_schedule_story: 6, _journey_story: 3, _overlap_story: 4}
    return make(rng, min(n_steps, limits[make]))


# ---------------------------------------------------------------- public API

def generate_tasks(
    n_tasks: int,
    *,
    seed: int = 0,
    families: tuple[str, ...] | list[str] = FAMILIES,
    min_steps: int = 2,
    max_steps: int = 4,
    max_number: int = 9,
) -> list[Task]:
    """Generate ``n_tasks`` problems with exactly known steps, cycling through ``families``.

    Parameters
    ----------
    n_tasks : number of tasks.
    seed : task *i* depends only on ``(seed, i)``, so asking for more tasks keeps the first ones.
    families : any of ``"word"`` and ``"time"``.
    min_steps, max_steps : the number of steps K is drawn from this range (time templates have
        their own ceilings: 6 for schedules, 4 for overlaps, 3 for journeys).
    max_number : the largest operand in word problems (bags, items per bag, prices, amounts).

    Returns
    -------
    list of `Task`, each with ``reference_steps``, ``reference_scaffolds`` (levels 1…K−1),
    ``reference_isolated`` (steps 1…K) and ``reference_placebos`` (levels 1…K−1).

    Examples
    --------
    >>> task = generate_tasks(1, seed=3, families=["word"], min_steps=3, max_steps=3)[0]
    >>> len(task.reference_steps), len(task.reference_scaffolds), len(task.reference_isolated)
    (3, 2, 3)
    >>> [placebo.count("Recall that") for placebo in task.reference_placebos]
    [1, 2]
    """
    unknown = set(families) - set(FAMILIES)
    if unknown:
        raise ValueError(f"unknown task families {sorted(unknown)}; choose from {FAMILIES}")
    if not 1 <= min_steps <= max_steps <= 6:
        raise ValueError(f"need 1 <= min_steps <= max_steps <= 6, got {min_steps} and {max_steps}")
    tasks = []
    for index in range(n_tasks):
        family = families[index % len(families)]
        rng = random.Random(f"stad-{seed}-{index}")
        n_steps = rng.randint(min_steps, max_steps)
        story = _word_story(rng, n_steps, max_number) if family == "word" else _time_story(rng, n_steps)
        tasks.append(story.to_task(f"gen{seed}-{index:04d}", f"generated/{family}"))
    return tasks
