"""math-verify's worker: `math-verify` compares a committed expression with a LaTeX reference, for the
cascade's second stage (`_math_verify_stage`, which decides what is sent and how the answer is heard).

math-verify bounds its own time with ``signal.alarm``, which only a process's main thread may
set, while evaluation judges each target's replies in a thread of its own. So math-verify runs
in one worker process, this file run as a script (started on first use; it imports math-verify
alone, never the caller's main module as ``multiprocessing``'s spawn would), where it is the main
thread and its timeouts work. The caller waits at most `WAIT_SECONDS` for each answer and ends
the worker if it does not come (a parse that hangs past its own timeout), leaving the item
undecided. ``benchmarks/math_verify_overhead.py`` measures what the round trip costs.
"""

from __future__ import annotations

import atexit
import json
import re
import select
import subprocess
import sys
import threading

TIMEOUT_SECONDS = 5
"""math-verify's own limit for parsing each expression and for comparing them (in the worker)."""
WAIT_SECONDS = 3 * TIMEOUT_SECONDS + 10
"""How long a caller waits for the worker's answer (two parses, a comparison and a start) before ending it."""
MAX_CHARS = 1000
"""A longer span is prose that no reader committed to; sympy may take long on it."""


def verify_in_this_process(span: str, reference: str, timeout: int | None = TIMEOUT_SECONDS) -> bool | None:
    """Whether math-verify finds ``span`` equal to ``reference``; ``None`` if it cannot read either.

    Runs in the worker process; ``timeout`` works only on a main thread.
    """
    from math_verify import parse, verify

    gold = parse(f"${reference}$", parsing_timeout=timeout)
    answer = parse(span if "$" in span or "\\boxed" in span else f"${span}$", parsing_timeout=timeout)
    if not gold or not answer:
        return None
    return bool(verify(gold, answer, timeout_seconds=timeout)) or _expand_to_the_same(gold[0], answer[0])


def _expand_to_the_same(gold, answer) -> bool:
    """Whether two expressions expand to one polynomial in the same letters: math-verify misses some
    (``\\frac{3+3i}{2}`` and ``\\frac32+\\frac32 i``, whose ``i`` it gives two different assumptions); equal
    expansions are the same value, so this never credits a wrong answer.
    """
    from sympy import Expr, Symbol, expand

    if not isinstance(gold, Expr) or not isinstance(answer, Expr):
        return False

    def by_name(expression: Expr) -> Expr:
        return expression.xreplace({letter: Symbol(letter.name) for letter in expression.free_symbols
                                    if isinstance(letter, Symbol)})

    try:
        return expand(by_name(gold) - by_name(answer)) == 0
    except Exception:  # noqa: BLE001 -- sympy cannot expand it: math-verify's verdict stands
        return False


def _serve() -> None:
    """The worker: one JSON ``[span, reference]`` per line in, one JSON verdict (or null) per line out."""
    for line in sys.stdin:
        span, reference = json.loads(line)
        try:
            verdict = verify_in_this_process(span, reference)
        except Exception:  # noqa: BLE001 -- math-verify's own errors (and its timeouts) leave the item undecided
            verdict = None
        print(json.dumps(verdict), flush=True)


class _Worker:
    """The one math-verify process, shared by every thread; ended after a hang and started again when needed."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen | None = None

    def compare(self, span: str, reference: str) -> bool | None:
        with self._lock:
            if self._process is None or self._process.poll() is not None:
                self._process = subprocess.Popen([sys.executable, "-u", __file__], stdin=subprocess.PIPE,
                                                 stdout=subprocess.PIPE, text=True)
            stdin, stdout = self._process.stdin, self._process.stdout
            assert stdin is not None and stdout is not None  # both are pipes (PIPE above)
            stdin.write(json.dumps([span, reference]) + "\n")
            stdin.flush()
            ready, _, _ = select.select([stdout], [], [], WAIT_SECONDS)
            line = stdout.readline() if ready else ""
            if not line:
                self._stop()
                return None
            return json.loads(line)

    def _stop(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait()
            self._process = None

    def stop(self) -> None:
        with self._lock:
            if self._process is not None:
                if self._process.stdin is not None:  # always: it is a pipe
                    self._process.stdin.close()  # the worker ends when its input does
                try:
                    self._process.wait(timeout=WAIT_SECONDS)
                except subprocess.TimeoutExpired:
                    self._stop()
                self._process = None


_WORKER = _Worker()
atexit.register(_WORKER.stop)


def compare_math_verify(span: str, reference: str) -> bool | None:
    """Stage 2: symbolic equivalence of a committed expression and a LaTeX reference, from any thread.

    ``None`` when math-verify cannot read one of them, or takes longer than its limits.

    Examples
    --------
    >>> compare_math_verify("\\\\frac{6}{8}", "\\\\frac{3}{4}"), compare_math_verify("2\\\\sqrt5", "\\\\sqrt{21}")
    (True, False)
    """
    if len(span) > MAX_CHARS:
        return None
    return _WORKER.compare(span, reference)


MATH_SEGMENT = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", re.DOTALL)
_RESULT_SIGN = re.compile(r"=|\\approx|≈")
# a run of LaTeX or plain math written in prose: commands, digits, operators, brackets (no words)
_MATH_RUN = re.compile(r"(?:\\[A-Za-z]+|[0-9]|[{}()\[\]^_+\-*/.,√π]|\s|(?<![A-Za-z])[a-z](?![A-Za-z]))+")


_APPROXIMATION_SIGN = re.compile(r"\\approx|≈")


def _result_of(expression: str) -> str:
    """The right-hand side of an expression's last ``=`` (``x = 2\\sqrt5`` → ``2\\sqrt5``)."""
    return _RESULT_SIGN.split(expression)[-1].strip().rstrip(".,;")


def _whole(expression: str) -> str:
    """An expression as math-verify compares it: whole, relation signs and all, since math-verify compares an
    equation's right-hand side with a value and a relation with a relation (``y=-\\frac12x+\\frac34`` with
    ``2x+4y-3=0``); only an approximation is cut to what it approximates to.
    """
    return _APPROXIMATION_SIGN.split(expression)[-1].strip().rstrip(".,;")


_SO = re.compile(r"[\s,;.]*(?:so|thus|hence|therefore|which gives|giving|and so|and thus)[\s,:]*", re.IGNORECASE)


def _between_the_last_two(sentence: str) -> str:
    """The prose between a sentence's last two math segments."""
    *_, before_last, last = MATH_SEGMENT.finditer(sentence)
    return sentence[before_last.end():last.start()]


UNKNOWN = r"[A-Za-z](?:_\{?\w+\}?)?"
"""The name of an unknown in an answer: ``x``, ``p``, ``a_1``, ``F_{n}``."""
_BETWEEN_LISTED = re.compile(r"\s*(?:,|,?\s*and)\s*")
_BEFORE_A_LIST = re.compile(r"(?:\b(?:are|is)|:)\s*$")  # "the solutions are", "Solutions:"
_ONLY_PUNCTUATION = re.compile(r"[\s.]*")
_LISTED_SOLUTION = re.compile(rf"\s*(?:(?P<unknown>{UNKNOWN})\s*=)?[^=]+")


def _segment_math(match: re.Match) -> str:
    """The math of a `MATH_SEGMENT` match, without its delimiters."""
    return next(group for group in match.groups() if group is not None).strip()


def solutions_listed(sentence: str) -> str | None:
    """The solutions a sentence lists as its result, math segment by math segment ("the solutions are $x = 1$
    and $x = 2$", "The roots are $3$, $5$ and $7$."), as one list; ``None`` unless the list follows "are",
    "is" or a colon and ends the sentence, only commas and "and" lie between its segments, and every
    segment is a value of one unknown (or a bare value) without a ``\\pm``. "$a = 3$ and $b = 4$" states
    two unknowns; "So $x = 1$ and $x = 5$ are extraneous." lists no result; "$x = 1 \\pm \\sqrt2$ and
    $x = 0$" is no list math-verify reads.

    Examples
    --------
    >>> solutions_listed("So the solutions are $x = 1$ and $x = 5$.")
    'x = 1, x = 5'
    >>> solutions_listed("So $x = 1$ and $x = 5$ are extraneous.") is None
    True
    """
    found = list(MATH_SEGMENT.finditer(sentence))
    if len(found) < 2 or not _BEFORE_A_LIST.search(sentence[:found[0].start()]) \
            or not _ONLY_PUNCTUATION.fullmatch(sentence[found[-1].end():]) \
            or not all(_BETWEEN_LISTED.fullmatch(sentence[before.end():after.start()])
                       for before, after in zip(found, found[1:])):
        return None
    segments = [_segment_math(match) for match in found]
    solutions = [_LISTED_SOLUTION.fullmatch(segment) for segment in segments]
    if not all(solutions) or any(re.search(r"\\[mp]{2}(?![A-Za-z])", segment) for segment in segments):
        return None
    return ", ".join(segments) if len({solution["unknown"] for solution in solutions if solution}) == 1 else None


_COPULA_BEFORE = re.compile(r"\b(?:is|are|equals)\s*$")
# a sentence that states ("The range …", "So the value …"), not one that supposes, doubts or asks ("If the value …")
_A_STATEMENT = re.compile(r"^\W*(?:(?:so|thus|hence|therefore|finally)\s*,?\s*)?the\b", re.IGNORECASE)


def value_of_what_is_named(sentence: str) -> str | None:
    """The value a sentence states for what it names ("The range of $h$ is $[-13, 3]$.", "So the value of $b$ is
    $0$."); ``None`` unless the sentence opens with "The" (or "So the" …: "If the value of $x$ is $5$" and
    "We cannot say that …" state nothing), holds two math segments, the name without a digit and not
    recurring in the value, "is", "are" or "equals" just before the value, and nothing after it but
    punctuation.

    Examples
    --------
    >>> value_of_what_is_named("The range of $h$ is $[-13, 3]$.")
    '[-13, 3]'
    >>> value_of_what_is_named("So $x = 2$ is $5$ more than $y$.") is None
    True
    >>> value_of_what_is_named("Suppose the value of $x$ is $5$.") is None
    True
    """
    found = list(MATH_SEGMENT.finditer(sentence))
    if len(found) != 2 or not _A_STATEMENT.match(sentence) \
            or not _COPULA_BEFORE.search(sentence[found[0].end():found[1].start()]) \
            or not _ONLY_PUNCTUATION.fullmatch(sentence[found[1].end():]):
        return None
    name, value = (_segment_math(match) for match in found)
    if re.search(r"[\d=<>]", name) or name in value:
        return None  # "the smallest value of $PQ$ is $2PQ$" names no value
    return _whole(value)


def math_expression(sentence: str) -> str | None:
    """The one expression a concluding sentence states as its result, for math-verify; ``None`` if not just one.

    The math between ``$…$``, ``\\(…\\)`` or ``\\[…\\]``: one segment whole (an equation with both
    sides, which math-verify compares as it should: its right-hand side with a value, the whole with
    a relation), several solutions of one unknown as one list, the value of what earlier segments name
    ("the range of $h$ is $[-13, 3]$"), several others by the right-hand sides they agree on; else the
    math written in the prose after its last ``=``. A sentence with two different expressions, or with
    math and numbers in its prose, states no one result.

    Examples
    --------
    >>> math_expression("Therefore, the area is $\\\\frac{3}{4}$.")
    '\\\\frac{3}{4}'
    >>> math_expression("So the line is $y=-\\\\frac12x+\\\\frac34$.")
    'y=-\\\\frac12x+\\\\frac34'
    >>> math_expression("so x = 2\\\\sqrt5")
    '2\\\\sqrt5'
    >>> math_expression("So $a = 3$ and $b = \\\\frac{1}{2}$.") is None
    True
    >>> math_expression("So the solutions are $x = 3 + 2\\\\sqrt{2}$ and $x = 3 - 2\\\\sqrt{2}$.")
    'x = 3 + 2\\\\sqrt{2}, x = 3 - 2\\\\sqrt{2}'
    """
    segments = [_segment_math(match) for match in MATH_SEGMENT.finditer(sentence)]
    if segments and re.search(r"\d", MATH_SEGMENT.sub(" ", sentence)):
        return None  # "the possible values of $|z|$ are 0 and 1": the math and the prose both state something
    if len(segments) == 1 or segments and _SO.fullmatch(_between_the_last_two(sentence)):
        # "$r^2 = \\frac{596}{9}$, so $r = \\frac{2\\sqrt{149}}{3}$" concludes the last
        candidates = {_whole(segments[-1])}
    elif listed := solutions_listed(sentence):  # "the solutions are $x = 1$ and $x = 2$": math-verify reads a list
        candidates = {listed}
    elif named := value_of_what_is_named(sentence):  # "The range of $h$ is $[-13, 3]$."
        candidates = {named}
    elif segments:  # "$r^2 = \\frac{596}{9}$, so $r = \\frac{\\sqrt{596}}{3}$" states one result only if all agree
        candidates = {_result_of(segment) for segment in segments}
    else:
        prose = _RESULT_SIGN.split(sentence)[-1]
        candidates = {run.strip().rstrip(".,;") for run in _MATH_RUN.findall(prose)
                      if re.search(r"[\d\\√π]", run)}
    candidates.discard("")
    return candidates.pop() if len(candidates) == 1 else None


if __name__ == "__main__":
    _serve()
