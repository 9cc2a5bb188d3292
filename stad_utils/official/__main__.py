"""Official files from the command line.

    python -m stad_utils.official import PATH… --run NAME [--results-dir DIR] [--model NAME] [--skip-invalid]
    python -m stad_utils.official export RUN --to DIR [--model NAME]… [--stem STEM] [--results-dir DIR]

``import`` reads files or folders of the authors' generation chain (``X.jsonl`` … ``X_final.jsonl``)
and test chain (``…_evaluation.jsonl`` … ``…_scored_scored.jsonl``) into a new run folder and
prints what it read (`stad_utils.official.import_chain`). ``export`` writes a run's generation
chain and each target's six test files (`stad_utils.official.export_run`). RUN is a run name in the results
folder, or a run folder's path.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..records import RESULTS
from ._run import export_run, import_chain


def main(argv: list[str] | None = None) -> int:
    """The command line (``python -m stad_utils.official``); the exit status."""
    parser = argparse.ArgumentParser(prog="python -m stad_utils.official", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    reading = commands.add_parser("import", help="official files or folders → a new run folder")
    reading.add_argument("paths", nargs="+", metavar="PATH", help="an official JSONL file, or a folder of them")
    reading.add_argument("--run", required=True, help="the new run's name (its folder in the results folder)")
    reading.add_argument("--model", default="official",
                         help="the target the test files answered for (their debugging_model_name; default: official)")
    reading.add_argument("--skip-invalid", action="store_true", help="skip bad rows (listed) instead of stopping")
    writing = commands.add_parser("export", help="a run → the official test script's input and files per target")
    writing.add_argument("run", metavar="RUN", help="a run name in the results folder, or a run folder")
    writing.add_argument("--to", required=True, help="the folder to write into")
    writing.add_argument("--model", action="append", help="export this target only (repeatable; default: all)")
    writing.add_argument("--stem", help="X of the files X.jsonl … X_final.jsonl … (default: the run's name)")
    for command in (reading, writing):
        command.add_argument("--results-dir", type=Path, default=RESULTS,
                             help=f"the results folder (default {RESULTS})")
    args = parser.parse_args(argv)
    try:
        if args.command == "import":
            print(import_chain(args.paths, args.results_dir / args.run, model=args.model,
                               skip_invalid=args.skip_invalid))
        else:
            run_dir = Path(args.run) if Path(args.run).is_dir() else args.results_dir / args.run
            written = export_run(run_dir, args.to, models=args.model, stem=args.stem)
            generation = written.pop("")
            print(f"the generation chain: {len(generation)} files in {generation[-1].parent}; "
                  f"the test script's input: {generation[-1]}")
            for model, files in written.items():
                print(f"target {model!r}: {len(files)} files in {files[0].parent}")
    except (ValueError, OSError) as exc:  # a RecordError is a ValueError
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
