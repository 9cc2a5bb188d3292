"""Official files ↔ a run folder: what ``python -m stad_utils.official import`` and ``export`` do.

Import (`import_chain`) reads any files of the authors' two chains (a folder is read file by
file) and merges them per task: the files join on the task, as the authors' scripts join them
on the question, and each record comes from the row that went furthest along the chain. So
one run holds every task, decomposition and ladder they name, and one target's verdicts. A
solved original needs ``…_evaluation_scored.jsonl``: the test script asks variants only of
failed originals, so every later test file leaves the solved ones out (their k = 0).

Export (`export_run`) writes the generation chain's files (its last, the verified ladders, is
the test script's input) and, for each target, the six files the test script would have
written for it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..method import k_distribution, outcomes
from ..records import Decomposition, Ladder, Outcome, RecordError, RecordFile, RunPaths, Task, Verdict, read_records
from ._fields import CHAIN, GENERATION, KINDS, TEST, FileKind, file_name
from ._files import read_official, write_official, write_test_chain
from ._rows import Imported

SOLVED_ORIGINALS = KINDS["evaluation_scored"]
"""The last test file that holds every original, solved or not."""


@dataclass
class ChainFile:
    """One file read: how many of its rows reached each kind."""

    path: Path
    kinds: Counter[str]

    @property
    def kind(self) -> FileKind | None:
        """The furthest kind of its rows (``None`` for a file without valid rows)."""
        return max((KINDS[name] for name in self.kinds), key=CHAIN.index, default=None)


@dataclass
class Chain:
    """Official files merged per task (see `read_chain`)."""

    files: list[ChainFile] = field(default_factory=list)
    skipped: list[RecordError] = field(default_factory=list)
    rows: dict[str, Imported] = field(default_factory=dict)  # task id → the row that went furthest
    verdicts: dict[tuple[str, str, int], Verdict] = field(default_factory=dict)

    @property
    def tasks(self) -> list[Task]:
        return [row.task for row in self.rows.values()]

    @property
    def decompositions(self) -> list[Decomposition]:
        return [row.decomposition for row in self.rows.values() if row.decomposition is not None]

    @property
    def ladders(self) -> list[Ladder]:
        return [row.ladder for row in self.rows.values() if row.ladder is not None]

    def warnings(self) -> list[str]:
        """What the files leave out that the run would need."""
        kinds = {file.kind for file in self.files}
        if kinds & set(TEST) and SOLVED_ORIGINALS not in kinds:
            return [f"no file of kind '{SOLVED_ORIGINALS.name}' (…_evaluation_scored.jsonl): the later test files "
                    "leave out every solved original, so those tasks have no verdict and no k = 0; import that "
                    "file too"]
        return []


def chain_files(paths: Iterable[Path | str]) -> list[Path]:
    """The files to read: each file given, and every ``.jsonl`` file of each folder given (sorted by name)."""
    files: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            found = sorted(path.glob("*.jsonl"))
            if not found:
                raise FileNotFoundError(f"{path}: no .jsonl file in this folder")
            files.extend(found)
        elif path.is_file():
            files.append(path)
        else:
            raise FileNotFoundError(f"{path} does not exist")
    return list(dict.fromkeys(files))


def read_chain(paths: Iterable[Path | str], *, model: str = "official", skip_invalid: bool = False) -> Chain:
    """Read official files (or folders of them) and merge them per task.

    Each task's task, decomposition and ladder come from its row that reached the furthest
    kind, and each of its questions' verdict from the furthest row that holds it (so a scored
    verdict replaces the same reply unscored). Two files that disagree on a task's gold
    answer or on a reply (two targets' test chains, or two different chains) are an error:
    import each target's files into a run of its own.
    """
    chain = Chain()
    reached: dict[str, int] = {}
    seen_in: dict[tuple[str, str, int], tuple[int, Path]] = {}
    for path in chain_files(paths):
        problems: list[RecordError] = []
        imported = read_official(path, model=model, skip_invalid=skip_invalid, problems=problems)
        chain.skipped.extend(problems)
        chain.files.append(ChainFile(path, Counter(row.kind.name for row in imported)))
        for row in imported:
            rank, task_id = CHAIN.index(row.kind), row.task.task_id
            if task_id in chain.rows and chain.rows[task_id].task.answer != row.task.answer:
                raise ValueError(f"{path}: task {task_id} has the gold answer {row.task.answer!r}, another file "
                                 f"{chain.rows[task_id].task.answer!r}: import each chain into a run of its own")
            if rank > reached.get(task_id, -1):
                chain.rows[task_id], reached[task_id] = row, rank
            for verdict in row.verdicts:
                key = (task_id, verdict.variant, verdict.level)
                if key in chain.verdicts and not _agree(chain.verdicts[key], verdict):
                    raise ValueError(f"{path} and {seen_in[key][1]} give task {task_id} different replies to its "
                                     f"{verdict.variant} question {verdict.level}: a run holds one target's test "
                                     "chain; import each target's files into a run of its own")
                if rank > seen_in.get(key, (-1, path))[0]:
                    chain.verdicts[key], seen_in[key] = verdict, (rank, path)
    return chain


def _agree(one: Verdict, other: Verdict) -> bool:
    """The same reply, and the same score unless one of them is not scored yet."""
    return one.response == other.response and (one.outcome == other.outcome
                                               or "undecided" in (one.outcome, other.outcome))


@dataclass
class ImportReport:
    """What `import_chain` read and wrote; ``str()`` is the summary the command prints."""

    chain: Chain
    run: RunPaths
    outcomes: list[Outcome]

    def __str__(self) -> str:
        chain = self.chain
        lines = [f"read {len(chain.files)} file(s):"]
        lines += [f"  {file.path}: {sum(file.kinds.values())} rows"
                  + "".join(f", {count} {kind}" for kind, count in
                            sorted(file.kinds.items(), key=lambda item: CHAIN.index(KINDS[item[0]])))
                  for file in chain.files]
        if chain.skipped:
            lines.append(f"skipped {len(chain.skipped)} row(s):")
            lines += [f"  {problem}" for problem in chain.skipped]
        ladders = chain.ladders
        models = Counter(verdict.model for verdict in chain.verdicts.values())
        lines.append(f"tasks {len(chain.tasks)}, decompositions {len(chain.decompositions)}, ladders {len(ladders)} "
                     f"({sum(ladder.verified for ladder in ladders)} verified), verdicts {len(chain.verdicts)}"
                     + "".join(f" (model {model!r}: {count})" for model, count in sorted(models.items())))
        for model in sorted(models):
            mine = [outcome for outcome in self.outcomes if outcome.model == model]
            undetermined = sum(outcome.k is None for outcome in mine)
            lines.append(f"k of model {model!r}: {k_distribution(mine)}, undetermined {undetermined}")
        lines += [f"warning: {warning}" for warning in chain.warnings()]
        lines.append(f"run folder: {self.run.root}")
        return "\n".join(lines)


def import_chain(paths: Iterable[Path | str], run_dir: Path | str, *, model: str = "official",
                 skip_invalid: bool = False) -> ImportReport:
    """Read official files (`read_chain`) into a new run folder: its tasks, decompositions, ladders, verdicts and
    outcomes.

    ``model`` names the target of the test files (the official config's ``debugging_model_name``).
    Outcomes use the skill ``unmapped`` until 04_skills runs on the folder; 05_evaluate then
    evaluates more targets on its verified ladders. A folder that already holds records is refused.
    """
    run = RunPaths(run_dir)
    held = [path.name for path in (run.tasks, run.decompositions, run.ladders, run.verdicts, run.outcomes)
            if path.exists()]
    if held:
        raise FileExistsError(f"{run.root} already holds {', '.join(held)}: import into a new run")
    chain = read_chain(paths, model=model, skip_invalid=skip_invalid)
    RecordFile(run.tasks, Task).append(chain.tasks)
    RecordFile(run.decompositions, Decomposition).append(chain.decompositions)
    RecordFile(run.ladders, Ladder).append(chain.ladders)
    verdicts = list(chain.verdicts.values())
    RecordFile(run.verdicts, Verdict).append(verdicts)
    results = outcomes([ladder for ladder in chain.ladders if ladder.verified], verdicts, [])
    run.outcomes.write_text("".join(outcome.model_dump_json() + "\n" for outcome in results))
    return ImportReport(chain, run, results)


def export_run(run_dir: Path | str, to: Path | str, *, models: Sequence[str] | None = None,
               stem: str | None = None) -> dict[str, list[Path]]:
    """Write a run's official files into ``to``; returns the files written, by target (``""``: the generation chain).

    * the generation chain, with the rows each of its modes would have kept: ``<stem>.jsonl``
      (the tasks), ``<stem>_segment.jsonl`` and ``<stem>_segment_answers.jsonl`` (the
      decompositions), ``…_scaffolding.jsonl`` and ``…_verify.jsonl`` (the ladders), and
      ``<stem>_final.jsonl`` (the verified ladders: the official test script's input);
    * per target (``models``; default: every target of the run), in ``<target>/``:
      ``<stem>_final.jsonl`` and the six files the test script writes from it with that target's
      verdicts, ``<stem>_final_evaluation.jsonl`` … ``<stem>_final_evaluation_scored.jsonl``
      (every original) … ``…_scaffolding_evaluation_scored_scored.jsonl`` (failed originals only).
      ``<target>`` is the model name with characters other than letters, digits, ``.``, ``-``
      and ``_`` replaced by ``_``.

    ``stem`` defaults to the run folder's name.
    """
    run, to = RunPaths(run_dir), Path(to)
    stem = stem or run.root.name
    ladders = read_records(run.ladders, Ladder.model_validate)
    verified = [ladder for ladder in ladders if ladder.verified]
    verdicts = read_records(run.verdicts, Verdict.model_validate, missing_ok=True)
    held = sorted({verdict.model for verdict in verdicts})
    chosen = list(models) if models is not None else held
    missing = sorted(set(chosen) - set(held))
    if missing:
        raise ValueError(f"{run.root} has no verdicts of {missing}; its targets are {held}")
    folders = {model: to / re.sub(r"[^\w.-]+", "_", model).strip("_") for model in chosen}
    if len(set(folders.values())) < len(folders):
        raise ValueError(f"targets {chosen} would share a folder: export them one at a time with models=[…]")
    records: dict[str, Sequence[Task | Decomposition | Ladder]] = {
        "input": read_records(run.tasks, Task.model_validate),
        "segment": read_records(run.decompositions, Decomposition.model_validate, missing_ok=True)}
    records["answers"] = records["segment"]
    written: dict[str, list[Path]] = {"": []}
    for kind in GENERATION:
        written[""].append(to / file_name(stem, kind))
        write_official(written[""][-1], records.get(kind.name, ladders), kind=kind)
    for model, folder in folders.items():
        written[model] = write_test_chain(folder, f"{stem}_final", verified, verdicts, model=model)
    return written
