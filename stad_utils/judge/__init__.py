"""Does a reply commit to an answer equal to the reference in value? A precision-first cascade.

A wrong "correct" is worse than an honest "undecided": the judge credits only the answer a reply
commits to, and leaves anything it cannot read for sure to a later stage, never to a guess.

Stages
------
1. ``deterministic``: read the committed answer (below), read its value of the reference's kind
   (numbers, money, fractions, percents, clock times, durations, years with an era, calendar
   dates, weekdays, names, lists, sets, ToT records) and compare: **correct**, **wrong** or
   **undecided**.
2. ``math_verify``: an undecided explicit answer, or the one expression a concluding sentence states
   (`_symbolic.math_expression`: "so x = 2\\sqrt5", "The area is $\\frac{3}{4}$."), is compared
   symbolically with a LaTeX reference by `math-verify`, in a worker process where its timeout works
   from any thread.
3. ``llm_judge``: what is still undecided goes to an LLM, which sees only the committed span
   (`LLMJudge`). Without one it stays ``undecided``: kept out of k like an error, and counted.

A reply that commits to no answer at all is ``no_answer`` (wrong; ``truncated`` says whether
``max_tokens`` cut it off); a missing reply is an ``error``, never wrong.

The committed-answer grammar
----------------------------
Explicit commitments, found anywhere in the reply (`_extract`):

* ``boxed``: ``\\boxed{…}`` (balanced braces);
* ``hashes``: a line ``#### <answer>`` (GSM8K); a Markdown heading ``#### Step 1`` is not one;
* ``json``: the ``answer`` of a JSON (or Python-style) object, or ToT's ``date``, ``ordered_list``,
  ``unordered_list``, ``age``, or the reference's own keys for a ToT record;
* ``answer_line``: the whole word "Answer" or "Final answer" at the start of a line or sentence,
  possibly in Markdown (``**Answer:** 18``; ``### Final Answer`` with the answer on the next
  line), followed by ``:``, ``=`` or "is"; or "… answer is …" anywhere; the span is the first
  sentence after the marker. Also a sentence "<answer> is the answer", whose span is the text
  before "is the answer"; one that only points back ("This is the answer.", "That is the answer
  to your question.", "Which is the answer.") commits to the sentence just before it, read by
  the same rules ("… 800 * $2.00 = $1600. / This is the answer to your question." → 1600).
  "answered", "unanswerable" and "To answer this" open no span; nor does an answer line inside a
  JSON object, or one whose answer is a JSON object or a ``\\boxed{}`` (they commit by themselves).

Otherwise, if the reply ended on its own (not ``truncated``):

* ``conclusion``: its last sentence, passing over closing courtesies ("I hope this helps!").

A reply cut off by ``max_tokens``, or that visibly stops mid-sentence (it ends in an operator, a
comma, a colon, a connective or an open bracket: how a cut shows in files recorded without a
finish reason; a closing Markdown bold ``**Answer: $94**`` is no operator), has no concluding
sentence; without an explicit commitment it has no answer. A last commitment that the cut runs
through (the reply ends with its span) may hold a value cut short: it counts only as a
repetition of the commitment just before it, when that one's span begins with it and no
correction comes between ("#### 47 / The answer is: 4" → 47); otherwise the answer is undecided
("So, the answer is 10" cut off, which may have gone on "10:50 AM").

Reading a span (`_cascade`, with the value readers of `_values`)
------------------------------------------------------------------
* An equation states its result: the value after the last ``=``, or "which gives (us)" <number>
  ("9 eggs * $2 = $18" → 18; "multiplying 10 by 20, which gives us 20" → 20). On the
  ``conclusion`` path an equation copied from the question (``$x^2 + ax + 5a = 0$``) states no result.
* A negated value followed by the asserted one states the latter ("not 18, it's 17" → 17,
  "cannot be 18, so it is 17" → 17); a negated value without one is undecided. The negations:
  "not", "never", "cannot", "n't" (with either apostrophe), "no longer", "neither", "nor". A value
  the span itself calls wrong is negated the same way ("So 18 is wrong.", "The answer 18 is not
  correct." are undecided; "18 is wrong; it's 17" → 17).
* A hedge ("maybe", "perhaps", "either", "likely", "not sure", "can't be sure" …), a bound ("more
  than 18", "at least 18": no commitment to 18) or several distinct values ("18 or 17") is
  undecided, never a guess.
* On the ``conclusion`` path only: numbers, times, dates and weekdays that the question already
  states are not credited, and a concluding sentence that only restates them is ``no_answer``;
  so is one that declines to answer ("I cannot determine …"), or that holds no digit or number
  word where the answer is numeric.
* Numbers: integers and decimals exactly ("2.50" is 2.5); a candidate with more decimals than a
  decimal reference that rounds to it ("2.45" or "2.549" for 2.5, "1/3" for 0.33) is undecided,
  since the reference may itself be rounded; any other is wrong ("2.4" or "2.56" for 2.5). A
  fraction reference matches within a relative 1e-9.
* Clock times: a candidate in the 1–12 hour range without AM/PM is either half of the day. Against
  a reference whose half is known (written with AM/PM, or 24-hour from 13:00 or before 01:00) it is
  undecided when one of its two readings is the reference ("10:50" for 10:50 PM, 22:50 or 10:50 AM)
  and wrong when neither is ("12:10" for 1:15 PM). A 24-hour candidate ("13:40"), or a reference
  written without AM/PM in the 1–12 range (ToT's "04:31"), compares as 24-hour ("4:31 PM" is not
  04:31).
* Other values: thousands separators only in groups of three; a duration is one contiguous
  expression with units from larger to smaller (a bracketed restatement is the same value); a
  numeric date whose day and month could be swapped ("09-04-2014") matches another writing of
  it only when both orders agree; lists and sets come from JSON or a plain prose list ("A, B and
  C", "A, then B"), else undecided; free text other than the reference's is left undecided.

Answers of another kind (`_values.OtherKind`)
----------------------------------------------
When no explicit commitment states a value of the reference's kind, the commitments are read
for a value of another kind, with the same rules and precedence (a hedge, a negation, several
values or two disagreeing commitments are undecided). A clearly readable one is **wrong** —
unless a value of another kind that the reply commits to or concludes could still be the
reference, whole or in part (then undecided), or the reply's concluding sentence goes on to
state a value of the reference's kind (undecided). The pairs, most specific kind first:

* a calendar date asked: a number ("368", "22.14"), unless it is the date's year, month or day
  or the date run together (``20130824``);
* a number asked: a calendar date ("2005-01-13" for 21), unless the number is its year, month or day;
* a clock time asked: a number ("250", "1"), unless it is the hour (12- or 24-hour), minute,
  second, or hour and minute run together ("1755", "5.55");
* a weekday, or a list or set of weekdays, asked: a number or ordinal ("19", "the 27th day of
  the week"), unless it is 0–7 (weeks are numbered from 0 or 1, from Sunday or Monday);
* a ToT duration record ``{"H", "M", "S"}`` asked: a bare number ("4", "6.22333"), unless it is
  one of its fields, its total in one of its units (at the number's own precision), or its two
  largest fields run together; a duration with units is compared as the record itself;
* a ToT ``{"day", "time"}`` record asked: a time alone (which leaves the day out: undecided if
  it is the record's time to the minute, wrong otherwise: "12:08:58" for 15:08:58), a duration
  ("4.8 hours"; undecided if it is the time, the day offset, or both, from midnight) or a bare
  number ("175"; undecided if it could be the day offset or a part of the time).

Never compared across kinds: free text (``unanswerable``, era names, entity names), years with
an era, durations against clock times, lists of other items. A LaTeX reference is left to
math-verify, except one that is a single number (``\\frac{5}{16}``): a span that writes its
numbers plainly (no LaTeX, root, power, percent, factorial or function) and states another
number ("… is 1/100.") is wrong, on either path; an equal number is still left to math-verify
or a later stage.

Precedence between commitments
------------------------------
Explicit commitments outrank the concluding sentence, which is the answer only when there is
none. Among explicit commitments the **last** one is the answer, provided every earlier one
states the same value, or is followed by an explicit correction before the last one: "Answer:
17. Wait, … Answer: 18" is 18. A correction is a second thought ("wait", "actually", "hold on",
"on second thought", "I meant", "let me recheck" …) or a retraction ("No, …", "that's wrong",
"that seems wrong", "I was wrong", "I made a (sign) error", "scratch that", "Correction:").
Two commitments that disagree without such a correction are undecided, and a later stage sees
the text from one to the other.

After the last commitment, on its own line or a later one, a correction is read too: from the
correction on, every sentence that states a value of the reference's kind must state the
answer again ("Answer: 18. Wait, let me check: 9 * 2 = 18." stays 18). One that states another
value ("The answer is 18. Wait, no, it is 17.", "Answer: 18? No — 17", "Answer: 18. Actually,
17.") leaves the answer undecided, and so does a retraction that no later value restates ("I
said 18 but that's wrong."); a later stage sees the text from the commitment through the
correction. The corrected value is not credited: what follows a correction is prose, not a
commitment, and a re-check states values of its own ("Let me recompute: 15 − 7 = 8 remain.
Check: 22 + 8 = 30"), which a reader cannot tell from a new answer.

A reply that ended on its own and, on a later line, concludes a different value than its last
commitment ("#### 15", then "Lena has 1 cupcake.") is undecided too. Commitments with no value of
the reference's kind ("The answer is as follows:") are passed over; only when none has one are
they read for a value of another kind (above), with the same precedence.

Reading numbers (`_numbers`)
----------------------------
Numbers are read by small named readers, in order of precedence, each tabled with the real
replies it was written for (``tests/fixtures/judge_number_readers.json``): magnitudes (``$70K``,
``$1.2 million``, ``70 thousand``; never dropped: ``$70k`` against 70 is undecided, as the
question may ask in thousands), decimal commas where a currency or unit leaves no doubt (``€3,50``,
``2,5 kg``, ``1.234,56``), ordinals (``13th``), number words (``ten``, ``twenty-five``,
``three-fourths``; not "one" as a pronoun), and digits. Where the question asks for a unit of
time ("How many minutes …?"), a duration counts in it ("2 hours and 40 minutes" is 160); a reply
that writes the 24-hour clock (a time such as 22:30, no AM/PM) has ``01:15`` at 1:15 AM. What reads
two ways (``70k`` with no currency, ``2,5`` with no unit, "one two three") leaves the reply undecided.

A reply that shows it groups thousands with dots or spaces (``3.000``, ``21 000``) has ``1.875``
for 1875; a duration in several units where no unit is asked ("2 hours and 40 minutes") reads two
ways; a number with a letter in algebra (``21k = 1575``) is no number.

On the concluding-sentence path, a sentence that states a value of the question besides another
states several quantities: the other is its answer only when the sentence marks it (the result of
an equation, Markdown bold, "a total of …", "… in total"), never as "the one number left" ("… at 4
miles per hour for the remaining 6 miles", 4 given); among several new values, the one marked
value is the answer ("7 × 5 = **35 seconds** to set off all 8 fountains"). A closing recap — a
bracketed aside that ends the reply, or a last sentence opening "To recap", "In summary" — passes
the conclusion to the sentence before it ("Each person got 20 seashells. (Jim collected 27 …, for
60 in total.)"), and a bracketed aside closing the concluding sentence is left out when the rest
states a value ("17 hours (1,020 minutes)"). math-verify reads no sentence whose prose states
numbers beside its math, and never calls an approximation ("approximately 47.12") wrong.

Versions
--------
``cascade-5`` (from ``cascade-4``): the number readers above; the one number left after the
question's is no answer; math-verify also reads the one expression of a concluding sentence, in a
worker process with a working timeout; a closing recap is passed over.

``cascade-4`` (from ``cascade-3``): a correction after the last commitment is read on the
commitment's own line too, not only on a later one, and a corrected conclusion is no longer
credited (undecided); corrections include the retractions above ("that's wrong" was missed).
"cannot", "no longer", "neither", "nor" and "n’t" are negations, a value the span calls wrong is
negated, and a bound is a hedge. A time without AM/PM is undecided against a reference whose
half of the day is known. Decimals are compared exactly; a more precise one that rounds to the
reference is undecided.
"""

from ._cascade import JUDGE_VERSION, JudgeItem, Judgement, LLMJudgeFn, judge_answers, judge_version
from ._extract import Commitment, Reading, extract_answer, last_boxed, read_reply
from ._llm import JudgeTemplate, LLMJudge
from ._values import (calendar_dates_in, clocks_in, durations_in, infer_format, kind_for, lists_in, numbers_in,
                      parse_number, years_in)

__all__ = [
    "JUDGE_VERSION", "Commitment", "JudgeItem", "JudgeTemplate", "Judgement", "LLMJudge", "LLMJudgeFn", "Reading",
    "calendar_dates_in", "clocks_in", "durations_in", "extract_answer", "infer_format", "judge_answers",
    "judge_version", "kind_for", "last_boxed", "lists_in", "numbers_in", "parse_number", "read_reply", "years_in",
]
