"""The authors' prompts, read at run time from a local checkout of their repository, never copied here.

`load_official_prompts` parses ``STaD/scripts/prompts.py`` of the checkout with `ast` and
takes its string constants by name: the file is read, not executed. The ``fill_*``
functions put values in the placeholders as the official helpers do (plain `str.replace`),
and the ``read_*`` functions take the replies apart as the official code does
(``../shared/docs/official-files.md``, beside the project, §3 describes both).
"""

from __future__ import annotations

import ast
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..models import literal_value

OFFICIAL_REPOSITORY = "https://github.com/ibm-granite/scaffolded-task-design"
OFFICIAL_TAG = "stad-acl_2026"
PROMPTS_FILE = Path("STaD", "scripts", "prompts.py")
REPO_VARIABLE = "STAD_OFFICIAL_REPO"
"""The environment variable the params files name for the checkout (``official_repo: ${STAD_OFFICIAL_REPO}``)."""

PLACEHOLDERS = {
    "prompt_segment": ("{{ question }}",),
    "prompt_sequential_segments_answers_reasoning": ("{{ question }}", "{{ sequential_segments }}"),
    "prompt_variation": ("{{ question }}", "{{ solved_sequential_segments }}"),
    "prompt_decomposition": ("{{ question }}", "{{ specific_step_name }}", "{{ prior_info_as_list }}"),
    "prompt_correctness_value": ("{{validator_final_answer}}", "{{ground_truth}}"),
}
"""Each official prompt constant and the placeholders it must contain."""


class OfficialRepoMissing(FileNotFoundError):
    """The checkout of the authors' repository is not where the settings say."""


def clone_hint(setting: str = "official_repo") -> str:
    """What to run and what to set when the checkout is missing."""
    return (f"clone the authors' repository at tag {OFFICIAL_TAG}:\n"
            f"    git clone --branch {OFFICIAL_TAG} {OFFICIAL_REPOSITORY} <folder>\n"
            f"and point the teacher's '{setting}' setting at <folder> (the params files under params/paper/ read it "
            f"from the environment variable {REPO_VARIABLE}: export {REPO_VARIABLE}=<folder>)")


@dataclass(frozen=True)
class OfficialPrompts:
    """The five prompt texts of the official code, by constant name, and where they were read."""

    texts: dict[str, str]
    source: Path

    def fill(self, name: str, values: dict[str, str]) -> str:
        """Constant ``name`` with each placeholder replaced by its value, in order, by plain `str.replace`."""
        text = self.texts[name]
        for placeholder in PLACEHOLDERS[name]:
            text = text.replace(placeholder, values[placeholder])
        return text


def load_official_prompts(repo: Path | str | None) -> OfficialPrompts:
    """The official prompt constants from a checkout of the authors' repository.

    Parameters
    ----------
    repo : the checkout's folder (``${STAD_OFFICIAL_REPO}`` and ``~`` are expanded); ``None``
        or ``""`` reads the environment variable ``STAD_OFFICIAL_REPO``.

    Raises
    ------
    OfficialRepoMissing
        No ``STaD/scripts/prompts.py`` there; the message says what to clone and what to set.
    ValueError
        A constant is missing, is not a string, or lacks one of its placeholders.

    Examples
    --------
    >>> prompts = load_official_prompts("tests/fixtures/official/checkout")  # doctest: +SKIP
    >>> fill_segment(prompts, "How many slots?")                             # doctest: +SKIP
    """
    folder = _checkout_folder(repo)
    path = folder / PROMPTS_FILE
    if not path.is_file():
        raise OfficialRepoMissing(f"the official prompts file {path} does not exist; {clone_hint()}")
    constants = string_constants(path.read_text(encoding="utf-8"))
    texts = {}
    for name, placeholders in PLACEHOLDERS.items():
        if name not in constants:
            raise ValueError(f"{path} has no string constant {name}; is the checkout at tag {OFFICIAL_TAG}?")
        missing = [p for p in placeholders if p not in constants[name]]
        if missing:
            raise ValueError(f"{path}: {name} lacks the placeholder(s) {missing}; "
                             f"is the checkout at tag {OFFICIAL_TAG}?")
        texts[name] = constants[name]
    return OfficialPrompts(texts=texts, source=path)


def _checkout_folder(repo: Path | str | None) -> Path:
    value = os.path.expandvars(str(repo)) if repo else os.environ.get(REPO_VARIABLE, "")
    if not value or "$" in value:
        raise OfficialRepoMissing(f"no checkout of the official repository is set ({repo or REPO_VARIABLE!s} is "
                                  f"empty or names an unset environment variable); {clone_hint()}")
    return Path(value).expanduser()


def string_constants(source: str) -> dict[str, str]:
    """The module-level ``NAME = "text"`` assignments of Python source, found with `ast` (nothing is executed).

    Examples
    --------
    >>> string_constants('import os\\nA = "x"\\nB = 3\\nC = ("y"\\n     "z")\\nos.system("never run")')
    {'A': 'x', 'C': 'yz'}
    """
    constants: dict[str, str] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            constants |= {target.id: node.value.value for target in node.targets if isinstance(target, ast.Name)}
    return constants


# ---------------------------------------------------------------- filling, as the official helpers do


def fill_segment(prompts: OfficialPrompts, question: str) -> str:
    """``prompt_segment`` for a question."""
    return prompts.fill("prompt_segment", {"{{ question }}": question})


def fill_step_answers(prompts: OfficialPrompts, question: str, segments: list[str]) -> str:
    """``prompt_sequential_segments_answers_reasoning``: the sub-task list as Python's ``str()`` shows it (not JSON).

    Examples
    --------
    >>> text = "{{ question }} | {{ sequential_segments }}"
    >>> prompts = OfficialPrompts({"prompt_sequential_segments_answers_reasoning": text}, Path())
    >>> fill_step_answers(prompts, "Q?", ["Find the overlap", "Count it"])
    "Q? | [{'segment': 'Find the overlap'}, {'segment': 'Count it'}]"
    """
    return prompts.fill("prompt_sequential_segments_answers_reasoning",
                        {"{{ question }}": question,
                         "{{ sequential_segments }}": str([{"segment": segment} for segment in segments])})


def fill_scaffold(prompts: OfficialPrompts, question: str, solved: list[tuple[str, str]]) -> str:
    """``prompt_variation`` with the solved ``(segment, answer)`` pairs dumped as indented, ASCII-escaped JSON."""
    return prompts.fill("prompt_variation", {"{{ question }}": question,
                                             "{{ solved_sequential_segments }}": _solved_steps(solved)})


def fill_isolated(prompts: OfficialPrompts, question: str, step: str, earlier: list[tuple[str, str]]) -> str:
    """``prompt_decomposition`` for one step, with the earlier ``(segment, answer)`` pairs (``[]`` for the first)."""
    return prompts.fill("prompt_decomposition", {"{{ question }}": question, "{{ specific_step_name }}": step,
                                                 "{{ prior_info_as_list }}": _solved_steps(earlier)})


def fill_judge(prompts: OfficialPrompts, prediction: str, gold: Any) -> str:
    """``prompt_correctness_value``: the prediction ``.strip()``-ed (it must be a string), the gold ``str()``-ed.

    Examples
    --------
    >>> text = "P={{validator_final_answer}} G={{ground_truth}}"
    >>> prompts = OfficialPrompts({"prompt_correctness_value": text}, Path())
    >>> fill_judge(prompts, "  10:30 ", 1030)
    'P=10:30 G=1030'
    """
    if not isinstance(prediction, str):
        raise TypeError(f"the official judge prompt takes the prediction as a string, got {type(prediction).__name__}")
    return prompts.fill("prompt_correctness_value",
                        {"{{validator_final_answer}}": prediction.strip(), "{{ground_truth}}": str(gold)})


def _solved_steps(pairs: list[tuple[str, str]]) -> str:
    return json.dumps([{"segment": segment, "answer": answer} for segment, answer in pairs], indent=2)


# ---------------------------------------------------------------- reading replies, as the official code does

_SEGMENT_VALUE = re.compile(r'"segment"\s*:\s*(?:"([^"]*)"|(-?\d+(?:\.\d+)?))')


def read_segments(reply: str | None) -> list[str]:
    """Every ``"segment"`` value in a reply (a string or a number), as strings.

    As in the official code, only ``\\n`` and ``\\t`` are unescaped, and a ``\\"`` ends the value.

    Examples
    --------
    >>> read_segments('[{"segment": "Find\\\\nthe overlap"}, {"segment": 2}]')
    ['Find\\nthe overlap', '2']
    """
    values = [m.group(1) if m.group(1) is not None else m.group(2) for m in _SEGMENT_VALUE.finditer(reply or "")]
    return [value.replace("\\n", "\n").replace("\\t", "\t") for value in values]


def read_step_answers(reply: str | None) -> list[dict]:
    """The ``{"explanation", "answer"}`` objects of the reply's last JSON array (else the whole unfenced reply).

    Objects with other keys are dropped; a reply that does not decode gives ``[]``.

    Examples
    --------
    >>> read_step_answers('Steps: [{"explanation": "9:30 to 10", "answer": "30 min"}, {"answer": 1}] done')
    [{'explanation': '9:30 to 10', 'answer': '30 min'}]
    """
    text = (reply or "").replace("```json", "```").replace("```", "").strip()
    arrays = _json_values(text, "[")
    if arrays:
        found = arrays[-1]
    else:
        try:
            found = json.loads(text)
        except json.JSONDecodeError:
            return []
    if not isinstance(found, list):
        return []
    return [item for item in found if isinstance(item, dict) and set(item) == {"explanation", "answer"}]


_REWRITTEN = re.compile(r"rewritten question:", re.IGNORECASE)


def read_rewritten_question(reply: str | None) -> str | None:
    """The text after the first ``Rewritten Question:`` (any case) up to a blank line; ``None`` without one.

    Examples
    --------
    >>> read_rewritten_question("Thinking…\\nREWRITTEN QUESTION: Bo is free 9:30-10. How many slots?\\n\\nNotes")
    'Bo is free 9:30-10. How many slots?'
    """
    text = reply or ""
    match = _REWRITTEN.search(text)
    if match is None:
        return None
    return re.split(r"\n\s*\n", text[match.end():], maxsplit=1)[0].strip()


def read_judge_reply(reply: str | None) -> dict | None:
    """The last balanced ``{…}`` of a judge reply that parses as JSON or as a Python literal; ``None`` without one.

    Examples
    --------
    >>> read_judge_reply("Equal in value. {'score': 1, 'justification': '10:30 is 1030'}")
    {'score': 1, 'justification': '10:30 is 1030'}
    """
    for candidate in reversed(_balanced_braces(reply or "")):
        if isinstance(value := literal_value(candidate), dict):
            return value
    return None


def read_judge_score(reply: str | None) -> tuple[bool | None, str]:
    """``(correct, justification)`` from a reply to ``prompt_correctness_value``.

    ``correct`` is ``True`` for a score of 1 and ``False`` for 0 (``"1"`` and ``1.0`` count
    by their number); ``None`` when the reply holds no such score, with the reason instead of
    the justification.

    Examples
    --------
    >>> read_judge_score('{"score": "1", "justification": "same time"}')
    (True, 'same time')
    >>> read_judge_score("I think they match.")
    (None, 'no {score, justification} object in the judge reply')
    """
    verdict = read_judge_reply(reply)
    if verdict is None or "score" not in verdict:
        return None, "no {score, justification} object in the judge reply"
    try:
        score = float(verdict["score"])
    except (TypeError, ValueError):
        score = None
    if score not in (0.0, 1.0):
        return None, f"judge score {verdict['score']!r} is neither 0 nor 1"
    return score == 1.0, str(verdict.get("justification", ""))


def _balanced_braces(text: str) -> list[str]:
    """Every ``{…}`` span whose braces balance, outermost spans only, in order."""
    spans, depth, start = [], 0, 0
    for position, char in enumerate(text):
        if char == "{":
            start = position if depth == 0 else start
            depth += 1
        elif char == "}" and depth:
            depth -= 1
            if depth == 0:
                spans.append(text[start: position + 1])
    return spans


def _json_values(text: str, opener: str) -> list[Any]:
    """The JSON values that start at an ``opener`` and are not inside an earlier one, in order."""
    decoder, found, position = json.JSONDecoder(), [], text.find(opener)
    while position != -1:
        try:
            value, end = decoder.raw_decode(text, position)
        except json.JSONDecodeError:
            position = text.find(opener, position + 1)
            continue
        found.append(value)
        position = text.find(opener, end)
    return found
