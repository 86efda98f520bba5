"""``tavolo ratings rebuild [--check]``: every rating again from the saved matches
(docs/ratings.md). With ``--check`` nothing is written: the differences between the saved
ratings and the recomputed ones are printed, and the exit status is 1 if there are any."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from service import cli_ops
from service.sessions.ratings import judge
from service.store import Store

#: differences printed at most; the count says how many more there were
SHOWN = 50


def add_parser(sub: Any, db: argparse.ArgumentParser) -> None:
    ratings = sub.add_parser("ratings", help="players' ratings").add_subparsers(
        dest="ratings_command", required=True)
    rebuild = ratings.add_parser(
        "rebuild", parents=[db], help="recompute every rating from the saved matches, in the "
        "order they were taken in (then those finished but not taken in yet)")
    rebuild.add_argument("--check", action="store_true",
                         help="write nothing: print where the saved ratings differ from the "
                              "recomputed ones, exit 1 if they do")


def run(args: argparse.Namespace, url: str) -> int:
    return cli_ops.run_readonly(url, lambda store: rebuild(store, check=args.check))


async def rebuild(store: Store, *, check: bool) -> int:
    report = await store.rebuild_ratings(judge, write=not check)
    for line in report.differences[:SHOWN]:
        print(line)
    if len(report.differences) > SHOWN:
        print(f"... and {len(report.differences) - SHOWN} more")
    summary = (f"{report.matches} match(es) taken in, {report.rated} rated; "
               f"{len(report.differences)} difference(s)")
    if check:
        print(summary, file=sys.stderr)
        return 1 if report.differences else 0
    print(f"{summary}; {'ratings rewritten' if report.written else 'nothing to rewrite'}",
          file=sys.stderr)
    return 0
