"""The workshop's notebooks from the command line.

    python -m stad_utils.workshop student-copy workshop/09_workshop.ipynb     # outputs cleared, solutions folded
    python -m stad_utils.workshop groups workshop/groups.csv workshop/groups  # one notebook per group
    python -m stad_utils.workshop groups workshop/groups.csv workshop/groups --execute --only red

Both start from the instructor copy of ``09_workshop`` inside the installed package, so they work
from any folder and without a clone. Relative paths are relative to the folder the command is typed in.
"""

from __future__ import annotations

import argparse
import sys

from ._copies import write_group_notebooks, write_student_copy


def main(argv: list[str] | None = None) -> int:
    """The command line; the exit status."""
    parser = argparse.ArgumentParser(prog="python -m stad_utils.workshop", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    student = commands.add_parser("student-copy", help="write the participants' copy of 09_workshop")
    student.add_argument("out", help="the notebook to write, e.g. workshop/09_workshop.ipynb (replaced)")
    groups = commands.add_parser("groups", help="write one notebook per group of a table, its parameters injected")
    groups.add_argument("table", help="a CSV with a 'group' column (one column per parameter), or a YAML mapping")
    groups.add_argument("out_dir", help="a folder: each group's notebook and results go to OUT_DIR/<group>/")
    groups.add_argument("--execute", action="store_true", help="also run each notebook (about a minute each)")
    groups.add_argument("--only", metavar="GROUP", help="this group alone")
    args = parser.parse_args(argv)
    if args.command == "student-copy":
        print(write_student_copy(args.out))
        return 0
    try:
        written = write_group_notebooks(args.table, args.out_dir, execute=args.execute, only=args.only)
    except (ValueError, KeyError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print("\n".join(str(path) for path in written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
