"""The committed-answer reader: which spans of a reply commit to an answer (grammar in docs/judge.md).

Each extractor is a small function from the reply to the `Commitment` s of one form; `read_reply`
gathers them in reply order. The reader knows nothing about the reference: what a span *means*
(its value, a hedge, a disagreement) is decided in `stad_utils.judge._span_value` and `_reconcile`.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from ._symbolic import UNKNOWN

Form = Literal["boxed", "hashes", "json", "answer_line", "conclusion"]

ANSWER_KEYS = ("answer", "final_answer", "date", "ordered_list", "unordered_list", "age")
"""Keys of a JSON object that hold the answer (``answer`` and ToT's keys), in order of preference."""

Regions = Sequence[tuple[int, int]]


@dataclass(frozen=True)
class Commitment:
    """A span of the reply that states its answer.

    Attributes
    ----------
    form : str
        ``boxed``, ``hashes``, ``json``, ``answer_line`` or ``conclusion``.
    text : str
        The committed span.
    start, end : int
        Where the commitment lies in the reply (to order commitments and find corrections between them).
    """

    form: Form
    text: str
    start: int
    end: int


@dataclass(frozen=True)
class Reading:
    """What a reply commits to.

    Attributes
    ----------
    reply : str
    commitments : tuple of Commitment
        The explicit commitments, in reply order.
    conclusion : Commitment or None
        The concluding sentence of a reply that ended on its own: the answer when there is no
        explicit commitment; else, if it stands on a later line than every explicit commitment,
        a check on them ("#### 15", then "Lena has 1 cupcake.").
    cut_off : bool
        The reply did not end on its own: ``max_tokens`` cut it, or it visibly stops mid-sentence.
    """

    reply: str
    commitments: tuple[Commitment, ...]
    conclusion: Commitment | None = None
    cut_off: bool = False

    @property
    def final(self) -> Commitment | None:
        """The last explicit commitment, or else the concluding sentence."""
        return self.commitments[-1] if self.commitments else self.conclusion


# ---------------------------------------------------------------- chat-template tokens

# A token that ends the model's turn: whatever follows it (a new "<|im_start|>user" turn) is not the reply.
_END_OF_TURN = re.compile(r"<\|(?:im_end|eot_id|endoftext|end|im_start|start_header_id|eom_id)\|>|</s>|<end_of_turn>")
_CHAT_TOKEN = re.compile(r"<\|start_header_id\|>\w*<\|end_header_id\|>|<\|im_start\|>(?:assistant|system|user)?"
                         r"|<\|[a-z_]+\|>|</?s>|<(?:start|end)_of_turn>(?:model|user)?")


def without_chat_template(text: str) -> str:
    """The reply without the chat-template tokens a server left in it, and without a turn after its end.

    A reply runs up to the first token that ends the model's turn (``<|im_end|>``, ``<|eot_id|>``,
    ``</s>``, a new ``<|im_start|>user`` …), so that a turn the model goes on to write is not its
    last sentence; a token before any text (``<|im_start|>assistant``) is dropped.

    Examples
    --------
    >>> without_chat_template("<|im_start|>assistant\\nSo the area is 12.<|im_end|>\\n<|im_start|>user\\nAnd 13?")
    '\\nSo the area is 12.'
    """
    return _CHAT_TOKEN.sub("", text[:_end_of_reply(text)]) if _CHAT_TOKEN.search(text) else text


_THINKING = re.compile(r"^.*</think>", re.DOTALL)


def after_thinking(text: str) -> str:
    """The reply after a reasoning model's ``<think>…</think>`` block, when an answer follows it: what the model
    tried while thinking ("maybe 12? no…") is no commitment.

    Examples
    --------
    >>> after_thinking("<think>Is it 12? No, 13.</think>\\nThe answer is $\\\\boxed{13}$.")
    '\\nThe answer is $\\\\boxed{13}$.'
    """
    thinking = _THINKING.match(text)
    return text[thinking.end():] if thinking and text[thinking.end():].strip() else text


_FIGURE = re.compile(r"\[asy\].*?\[/asy\]", re.DOTALL)


def without_figures(text: str) -> str:
    """The reply without the Asymptote code of its figures (``[asy]…[/asy]``, as MATH's solutions draw them after
    the boxed answer): code draws, it concludes nothing.

    Examples
    --------
    >>> without_figures("So the area is $25$.\\n[asy]\\ndraw(Circle((0,0),5));\\n[/asy]\\n")
    'So the area is $25$.\\n\\n\\n'
    """
    return _FIGURE.sub("\n", text)


def _end_of_reply(text: str) -> int:
    for token in _END_OF_TURN.finditer(text):
        if _CHAT_TOKEN.sub("", text[:token.start()]).strip():
            return token.start()
    return len(text)


# ---------------------------------------------------------------- text helpers

def _closing_brace(text: str, start: int) -> int | None:
    """The index of the brace that closes the one opened just before ``start``."""
    depth = 1
    for position in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[position], 0)
        if depth == 0:
            return position
    return None


def _inside(position: int, regions: Regions) -> bool:
    return any(start <= position < end for start, end in regions)


def _strip_markup(span: str) -> str:
    return span.strip().strip("*_`").strip()


_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+|\n+")
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")  # a decimal point is no sentence end


def sentences(text: str) -> list[tuple[str, int, int]]:
    """The sentences of ``text`` (split after ``.!?`` and a space, and at line breaks), with positions.

    Examples
    --------
    >>> [sentence for sentence, _, _ in sentences("It is 2.5 kg. Wait!\\nNo")]
    ['It is 2.5 kg.', 'Wait!', 'No']
    """
    pieces, start = [], 0
    for brk in _SENTENCE_BREAK.finditer(text):
        pieces.append((text[start:brk.start()], start, brk.start()))
        start = brk.end()
    pieces.append((text[start:], start, len(text)))
    return pieces


def first_sentence(text: str) -> str:
    """``text`` up to the end of its first sentence, without the full stop."""
    end = _SENTENCE_END.search(text)
    return text[:end.start()] if end else text


# ---------------------------------------------------------------- \boxed{…}

_BOXED = re.compile(r"\\(?:boxed|fbox)\s*\{")


# What may stand between boxes that state one answer of several solutions: "$\\boxed{(2,2)}$ and $\\boxed{(6,2)}$",
# "$x = \\boxed{1}$, $x = \\boxed{2}$"; a word other than "and" ("then after checking") separates two answers.
_BETWEEN_SOLUTIONS = re.compile(r"(?:\s|\$|\\[()\[\]]|[,;]|\band\b|\\text\{\s*(?:and|,)\s*\}|\\q?quad\b|"
                                rf"{UNKNOWN}\s*=)*")


def boxed_answers(text: str) -> list[Commitment]:
    """Every ``\\boxed{…}`` with balanced braces; boxes side by side ("\\boxed{1} and \\boxed{2}") are one
    answer that lists several solutions ("1, 2").

    Examples
    --------
    >>> [c.text for c in boxed_answers(r"So $x = \\boxed{1}$ and $x = \\boxed{2}$. Check \\boxed{1}")]
    ['1, 2', '1']
    """
    found: list[Commitment] = []
    for match in _BOXED.finditer(text):
        end = _closing_brace(text, match.end())
        if end is None:
            continue
        box = Commitment("boxed", text[match.end():end].strip(), match.start(), end + 1)
        if found and _BETWEEN_SOLUTIONS.fullmatch(text, found[-1].end, box.start):
            earlier = found.pop()
            box = Commitment("boxed", f"{earlier.text}, {box.text}", earlier.start, box.end)
        found.append(box)
    return found


def last_boxed(text: str) -> str | None:
    """The content of the last ``\\boxed{…}`` with balanced braces, or ``None``.

    Examples
    --------
    >>> last_boxed(r"so $x = \\boxed{\\frac{1}{2}}$.")
    '\\\\frac{1}{2}'
    """
    found = boxed_answers(text)
    return found[-1].text if found else None


# ---------------------------------------------------------------- #### N

# GSM8K's final-answer line; a Markdown heading ("#### Step 1", "#### 2. Multiply") is not one.
_HASHES = re.compile(r"^[ \t]*####[ \t]*(?P<span>(?![A-Za-z]|\d+[.)]\s+[A-Za-z])\S[^\n]*)$", re.MULTILINE)


def hash_answers(text: str) -> list[Commitment]:
    """Every ``#### <answer>`` line."""
    return [Commitment("hashes", m["span"].strip(), m.start(), m.end()) for m in _HASHES.finditer(text)]


# ---------------------------------------------------------------- JSON objects

def _object_at(text: str, start: int) -> tuple[dict, int] | None:
    """The JSON (or Python-style, as ToT writes its labels) object that opens at ``start``, and its end."""
    try:
        found, end = json.JSONDecoder().raw_decode(text, start)
    except json.JSONDecodeError:
        close = _closing_brace(text, start + 1)
        if close is None:
            return None
        end = close + 1
        try:
            found = ast.literal_eval(text[start:end])
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return None
    return (found, end) if isinstance(found, dict) else None


def _objects(text: str) -> Iterator[tuple[dict, int, int]]:
    """The outermost objects of the text, with where each starts and ends."""
    position = text.find("{")
    while position != -1:
        found = _object_at(text, position)
        if found:
            yield found[0], position, found[1]
        position = text.find("{", found[1] if found else position + 1)


def json_regions(text: str) -> Regions:
    """Where the reply's JSON objects lie (an answer line inside an ``explanation`` is not a commitment)."""
    return [(start, end) for _, start, end in _objects(text)]


def _answer_of(obj: dict, record_keys: tuple[str, ...]) -> str | None:
    """The answer an object states: its answer key, or (for a ToT record) the record's keys as JSON."""
    for key in ANSWER_KEYS:
        if key in obj:
            value = obj[key]
            return json.dumps(value) if isinstance(value, (list, dict)) else str(value)
    if record_keys and set(record_keys) <= set(obj):
        return json.dumps({key: obj[key] for key in record_keys})
    return None


# A quoted answer key in text that does not parse as an object ({"answer": 352 BC}).
_LOOSE_ANSWER_KEY = re.compile(
    r"""["'](?:answer|final_answer|date|age)["']\s*:\s*(?P<span>"[^"\n]*"|'[^'\n]*'|[^,}\n]+)""")


def json_answers(text: str, record_keys: tuple[str, ...] = ()) -> list[Commitment]:
    """The answer of every JSON object that states one (keys `ANSWER_KEYS`, or ``record_keys``).

    A placeholder echoed from ToT's format instruction (``"answer": <year> <era>``) is no answer.
    """
    found, parsed = [], []
    for obj, start, end in _objects(text):
        parsed.append((start, end))
        answer = _answer_of(obj, record_keys)
        if answer is not None:
            found.append(Commitment("json", answer, start, end))
    for match in _LOOSE_ANSWER_KEY.finditer(text):
        span = match["span"].strip().strip("\"'")
        if not _inside(match.start(), parsed) and not span.startswith("<"):
            found.append(Commitment("json", span, match.start(), match.end()))
    return found


# ---------------------------------------------------------------- answer lines

_MARKUP = r"[ \t>*_#-]*"
# "Answer:", "**Final answer:**", "Final answer is 18" at a line's or a sentence's start; "### Final Answer"
# alone on its line (the answer on the next line). The rest of the line is looked at, not consumed, so
# that a second "Answer:" on the same line is found too.
_LINE_START_ANSWER = re.compile(
    rf"(?:^|(?<=[.!?])[ \t]+){_MARKUP}(?:final\s+)?answer\b(?:\*\*|__)?[ \t]*(?::|=|\bis\b|$)(?=(?P<rest>[^\n]*))",
    re.IGNORECASE | re.MULTILINE,
)
_ANSWER_IS = re.compile(r"\banswer(?:\*\*|__)?[ \t]+is\b[ \t]*:?(?=(?P<rest>[^\n]*))", re.IGNORECASE)
_NEXT_LINE = re.compile(r"[^\n]*\S[^\n]*")


def answer_lines(text: str, skip: Regions = ()) -> list[Commitment]:
    """Every answer line: ``Answer: …`` at a line's or sentence's start, or ``… the answer is …`` anywhere.

    The span is the first sentence after the marker; a marker that ends its line (a heading
    ``### Final Answer``, ``The answer is:``) takes the next non-empty line. Whole words only:
    "answered" and "unanswerable" open no span. Markers inside ``skip`` (JSON objects) are ignored,
    and so is a line whose answer is a JSON object or a ``\\boxed{}`` (which commit by themselves).
    """
    found: list[Commitment] = []
    for pattern in (_LINE_START_ANSWER, _ANSWER_IS):
        for match in pattern.finditer(text):
            if _inside(match.start(), skip) or any(c.start <= match.start() < c.end for c in found):
                continue
            rest, rest_start = match["rest"], match.start("rest")
            if not _strip_markup(rest):
                following = _NEXT_LINE.search(text, match.end())
                if following is None:
                    continue
                rest, rest_start = following.group(0), following.start()
            sentence = first_sentence(rest)
            span = without_answer_words(_strip_markup(sentence))
            if span and not _inside(rest_start + len(rest) - len(rest.lstrip()), skip) and not _BOXED.search(span):
                found.append(Commitment("answer_line", span, match.start(), rest_start + len(sentence)))
    return found


_ANSWER_WORDS = re.compile(r"^(?:(?:so|thus|hence|therefore),?\s+)?(?:the\s+|my\s+)?(?:final\s+)?answer"
                           r"(?:\*\*|__)?\s*(?:\bis\b|:|=)\s*:?\s*", re.IGNORECASE)


def without_answer_words(span: str) -> str:
    """The span without the words that announce it, when it repeats them ("Final Answer: The final answer is $3$").

    Examples
    --------
    >>> without_answer_words("The final answer is: $\\\\frac{3}{4}$")
    '$\\\\frac{3}{4}$'
    """
    while (words := _ANSWER_WORDS.match(span)) and span[words.end():].strip():
        span = _strip_markup(span[words.end():])
    return span


_IS_THE_ANSWER = re.compile(r"\s*\b(?:is|was)\s+(?:the|my|our)\s+(?:final\s+|correct\s+)?answer\b", re.IGNORECASE)
# "This is the answer (to your question)." points back at the sentence before; "This is the answer: 18" does not.
_POINTS_BACK = re.compile(r"(?:(?:so|and),?\s+)?(?:this|that|it|which)", re.IGNORECASE)
_NOTHING_AFTER_THE_ANSWER = re.compile(r"(?:\s+to\s+(?:the|your|this)\s+(?:given\s+)?(?:question|problem))?[\s.!*_]*",
                                       re.IGNORECASE)


def _pointed_at(pieces: list[tuple[str, int, int]], index: int, marker: re.Match) -> tuple[str, int] | None:
    """The sentence before a "This is the answer." that points back at it, with where it starts."""
    sentence = pieces[index][0]
    points_back = _POINTS_BACK.fullmatch(_strip_markup(sentence[:marker.start()]))
    if index == 0 or not points_back or not _NOTHING_AFTER_THE_ANSWER.fullmatch(sentence[marker.end():]):
        return None
    before, start, _ = pieces[index - 1]
    return _strip_markup(before), start


def is_the_answer_sentences(text: str, skip: Regions = ()) -> list[Commitment]:
    """Every sentence ``<answer> is the answer``: its text before "is the answer" is the span.

    A sentence that only points back ("This is the answer.", "That is the answer to your
    question.") commits to the sentence just before it.

    Examples
    --------
    >>> [c.text for c in is_the_answer_sentences("So, 100 * 10 = 1000 dollars is the answer. Ravi makes 1")]
    ['So, 100 * 10 = 1000 dollars']
    >>> [c.text for c in is_the_answer_sentences("So 800 * $2.00 = $1600.\\n\\nThis is the answer to your question.")]
    ['So 800 * $2.00 = $1600.']
    """
    found = []
    pieces = [piece for piece in sentences(text) if piece[0].strip()]
    for index, (sentence, start, end) in enumerate(pieces):
        marker = _IS_THE_ANSWER.search(sentence)
        if not marker or _inside(start + marker.start(), skip):
            continue
        span, span_start = _pointed_at(pieces, index, marker) or (_strip_markup(sentence[:marker.start()]), start)
        if span:
            found.append(Commitment("answer_line", span, span_start, end))
    return found


# ---------------------------------------------------------------- the concluding sentence

_COURTESY = re.compile(
    r"^(?:i hope|hope this|let me know|feel free|happy to|good luck|thanks?\b|thank you|"
    r"if you have any|please let|is there anything)", re.IGNORECASE)
_LIST_MARKER = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")


_UNFINISHED = re.compile(r"(?:[,:;(\[{+\-*/=×÷]|\b(?:and|or|by|is|are|of|the|to|with|from|for|then)\b)\s*$",
                         re.IGNORECASE)


def _without_closing_bold(sentence: str) -> str:
    """The sentence without a closing ``**`` or ``__`` (Markdown bold, not a trailing operator)."""
    for mark in ("**", "__"):
        if sentence.endswith(mark) and sentence.count(mark) % 2 == 0:
            return sentence[:-len(mark)]
    return sentence


def stops_mid_sentence(text: str) -> bool:
    """Whether a reply visibly breaks off: in an operator, a comma, a colon, a connective or an open bracket.

    Replies recorded without a finish reason are cut off too; this is how their cut shows. A
    closing Markdown bold (``**Answer: $94**``) is no multiplication sign.

    Examples
    --------
    >>> [stops_mid_sentence(reply) for reply in ("It is (2 + 1 +", "The gap is (1", "So, Maya has 25 apples")]
    [True, True, False]
    >>> stops_mid_sentence("**Answer: $94**"), stops_mid_sentence("Total: 2 *")
    (False, True)
    """
    last = _without_closing_bold(sentences(text.rstrip())[-1][0])
    return bool(_UNFINISHED.search(last)) or _unclosed_bracket(last)


def _unclosed_bracket(sentence: str) -> bool:
    """Whether a bracket is left open: an interval closes with either bracket (``(-\\infty,3]``, ``[0,\\infty)``)."""
    return sentence.count("(") + sentence.count("[") > sentence.count(")") + sentence.count("]")


def concluding_sentence(text: str) -> Commitment | None:
    """The reply's last sentence, passing over closing courtesies ("I hope this helps!").

    Examples
    --------
    >>> concluding_sentence("16 - 3 - 4 = 9 eggs. She earns 9 * $2.50 = $22.50.\\n\\nI hope this helps!").text
    'She earns 9 * $2.50 = $22.50.'
    """
    for sentence, start, end in reversed(sentences(text)):
        sentence = _LIST_MARKER.sub("", _strip_markup(sentence))
        if re.search(r"\w", sentence) and not _COURTESY.match(sentence):
            return Commitment("conclusion", sentence, start, end)
    return None


# ---------------------------------------------------------------- the reader

def read_reply(text: str, *, truncated: bool = False, record_keys: tuple[str, ...] = ()) -> Reading:
    """What a reply commits to, by the grammar of docs/judge.md.

    Parameters
    ----------
    text : str
        The reply.
    truncated : bool
        The reply was cut off by ``max_tokens``: its last sentence concludes nothing (nor does the
        last sentence of a reply that visibly stops mid-sentence).
    record_keys : tuple of str
        The keys of a ToT record reference, so that a JSON object with those keys is an answer.

    Examples
    --------
    >>> [c.text for c in read_reply("Answer: 17. Wait, 9 * 2 = 18. Answer: 18").commitments]
    ['17', '18']
    >>> read_reply("To answer this question, we first compute 16 - 3 - 4 = 9").final.form
    'conclusion'
    >>> read_reply("So far we have 16 - 3 - 4 = 9 eggs, and", truncated=True).final is None
    True
    """
    text = without_figures(after_thinking(without_chat_template(text)))
    json_objects = json_regions(text)
    explicit = sorted(boxed_answers(text) + hash_answers(text) + json_answers(text, record_keys)
                      + answer_lines(text, skip=json_objects) + is_the_answer_sentences(text, skip=json_objects),
                      key=lambda c: c.start)
    cut_off = truncated or stops_mid_sentence(text)
    conclusion = None if cut_off else concluding_sentence(text)
    if conclusion and explicit and "\n" not in text[max(c.end for c in explicit):conclusion.start]:
        # the last sentence is part of, or shares its line with, the last commitment ("The answer is 18. I
        # double-checked with 3 methods."); a correction there is read by the cascade's correction rule
        conclusion = None
    return Reading(text, tuple(explicit), conclusion, cut_off)


def extract_answer(text: str, *, truncated: bool = False) -> str | None:
    """The span a reply finally commits to (its last commitment), or ``None`` if it commits to none.

    Examples
    --------
    >>> extract_answer("so we get 5. Answer: $42"), extract_answer("Final answer: 9 eggs * $2 = $18")
    ('$42', '9 eggs * $2 = $18')
    >>> extract_answer("The answer is 18. I double-checked with 3 methods.")
    '18'
    """
    final = read_reply(text, truncated=truncated).final
    return final.text if final else None
