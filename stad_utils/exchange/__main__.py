"""The command line of the exchanges::

    python -m stad_utils.exchange from-inspect LOG… --run RUN_DIR [--name INSPECT_MODEL=LABEL]
    python -m stad_utils.exchange to-inspect RUN_DIR --out LOG_DIR [--params PARAMS.yaml]
    python -m stad_utils.exchange to-eee RUN_DIR --out DIR [--params PARAMS.yaml] [--organization NAME]

``from-inspect`` appends the verdicts of `stad_ladders` logs to the run the task was built from and
derives its outcomes (then run 06_analyze and 07_compare); ``to-inspect`` writes one Inspect log
per target (``inspect view --log-dir LOG_DIR``); ``to-eee`` writes Every Eval Ever records under
``DIR/data/`` (needs 06_analyze). The two Inspect commands need the ``inspect`` extra.
"""

from __future__ import annotations

import argparse
import sys

from ..models import MissingExtra


def main(argv: list[str] | None = None) -> int:
    """Run one exchange command; the exit status."""
    parser = argparse.ArgumentParser(prog="python -m stad_utils.exchange", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    read = commands.add_parser("from-inspect", help="read stad_ladders logs back into the run they were built from")
    read.add_argument("logs", nargs="+", help=".eval or .json logs of the stad_ladders task")
    read.add_argument("--run", required=True, help="the run folder the task was built from (-T run=…)")
    read.add_argument("--name", action="append", default=[], metavar="INSPECT_MODEL=LABEL",
                      help="the label of a model in the run (default: its Inspect name); repeatable")
    for name, helped in (("to-inspect", "write one Inspect log per target model"),
                         ("to-eee", "write an Every Eval Ever record per target model (needs 06_analyze)")):
        command = commands.add_parser(name, help=helped)
        command.add_argument("run", help="a run folder")
        command.add_argument("--out", required=True, help="the folder to write into")
        command.add_argument("--params", help="the params file the run was made with (default: RUN/params.yaml)")
        if name == "to-eee":
            command.add_argument("--organization", default="unknown", help="who ran the evaluation")
    args = parser.parse_args(argv)
    try:
        if args.command == "from-inspect":
            from . import read_inspect_logs

            names = dict(assignment.partition("=")[::2] for assignment in args.name)
            for label, verdicts in read_inspect_logs(args.logs, args.run, names).items():
                print(f"{label}: {len(verdicts)} verdicts appended to {args.run}")
        elif args.command == "to-inspect":
            from . import export_inspect_logs

            for path in export_inspect_logs(args.run, args.out, params=args.params):
                print(path)
        else:
            from . import export_eee

            for path in export_eee(args.run, args.out, params=args.params, organization=args.organization):
                print(path)
    except (MissingExtra, FileNotFoundError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
