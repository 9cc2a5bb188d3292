"""Does a reply commit to an answer equal to the reference in value? A precision-first cascade.

A wrong "correct" is worse than an honest "undecided": the judge credits only the answer a reply
commits to, and leaves anything it cannot read for sure to a later stage, never to a guess.

Stages
------
1. ``deterministic``: read the committed answer (below), read its value of the reference's kind
   (numbers, money, fractions, percents, clock times, durations, years with an era, calendar
   dates, weekdays, names, lists, sets, ToT records) and compare: **correct**, **wrong** or
   **undecided**.
2. ``math_verify``: an undecided explicit LaTeX answer is compared symbolically with `math-verify`.
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
  before "is the answer". "answered", "unanswerable" and "To answer this" open no span; nor does
  an answer line inside a JSON object, or one whose answer is a JSON object or a ``\\boxed{}``
  (they commit by themselves).

Otherwise, if the reply ended on its own (not ``truncated``):

* ``conclusion``: its last sentence, passing over closing courtesies ("I hope this helps!").

A reply cut off by ``max_tokens``, or that visibly stops mid-sentence (it ends in an operator, a
comma, a colon, a connective or an open bracket: how a cut shows in files recorded without a
finish reason), has no concluding sentence; without an explicit commitment it has no answer.

Reading a span (`_cascade`, with the value readers of `_values`)
------------------------------------------------------------------
* An equation states its result: the value after the last ``=`` ("9 eggs * $2 = $18" → 18).
* A negated value followed by the asserted one states the latter ("not 18, it's 17" → 17); a
  negated value without one is undecided.
* A hedge ("maybe", "perhaps", "either", "likely", "not sure" …) or several distinct values
  ("18 or 17") is undecided, never a guess.
* On the ``conclusion`` path only: numbers, times, dates and weekdays that the question already
  states are not credited, and a concluding sentence that only restates them is ``no_answer``;
  so is one that declines to answer ("I cannot determine …"), or that holds no digit or number
  word where the answer is numeric.
* Values: integers exactly; a decimal reference at its own precision, a fraction within a
  relative 1e-9; thousands separators only in groups of three; a duration is one contiguous
  expression with units from larger to smaller (a bracketed restatement is the same value); a
  numeric date whose day and month could be swapped ("09-04-2014") matches another writing of
  it only when both orders agree; lists and sets come from JSON or a plain prose list ("A, B and
  C", "A, then B"), else undecided; free text other than the reference's is left undecided.

Precedence between commitments
------------------------------
Explicit commitments outrank the concluding sentence, which is the answer only when there is
none. Among explicit commitments the **last** one is the answer, provided every earlier one
states the same value, or is followed by an explicit correction ("wait", "actually", "I made a
mistake", "let me recheck" …) before the last one: "Answer: 17. Wait, … Answer: 18" is 18.
Two commitments that disagree without such a correction are undecided, and a later stage sees
the text from one to the other. A reply that ended on its own and, on a later line, concludes
a different value than its last commitment ("#### 15", then "Lena has 1 cupcake.") is undecided
too, unless a correction comes between. Commitments with no value of the reference's kind
("The answer is as follows:") are passed over.
"""

from ._cascade import JUDGE_VERSION, JudgeItem, Judgement, LLMJudgeFn, judge_answers, judge_version
from ._extract import Commitment, Reading, extract_answer, last_boxed, read_reply
from ._llm import LLMJudge
from ._values import (calendar_dates_in, clocks_in, durations_in, infer_format, kind_for, lists_in, numbers_in,
                      parse_number, years_in)

__all__ = [
    "JUDGE_VERSION", "Commitment", "JudgeItem", "Judgement", "LLMJudge", "LLMJudgeFn", "Reading",
    "calendar_dates_in", "clocks_in", "durations_in", "extract_answer", "infer_format", "judge_answers",
    "judge_version", "kind_for", "last_boxed", "lists_in", "numbers_in", "parse_number", "read_reply", "years_in",
]
