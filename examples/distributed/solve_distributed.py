#!/usr/bin/env python3
"""Solve a problem file on a Dask cluster: shards of lines go to workers
that each solve theirs with the tsume Python package
(`tsume.solve_lines(..., jobs=1)`), and the JSON Lines that come back are
written in input order, as from one `tsume solve --file FILE --json`.

A shard's text travels to the worker with the task, its records come back
with the result, and `start_line` keeps the line numbers those of the whole
file. Here a LocalCluster of worker processes stands in for machines; give
--scheduler ADDRESS to use a real cluster (every worker needs the tsume
package: `pip install ./python`).

    python solve_distributed.py problems.tsv --workers 2 --shard-lines 10 \
        -o results.jsonl -- hash_mb=64 time=5

Arguments after `--` are keyword arguments of tsume.solve_lines
(`name=value`, the value a Python literal or else a string: hash_mb=64,
nodes=100000, relaxed=True, useless_rule=piece-unused). A row that cannot
be read is a record with result "error" and the message `tsume solve`
gives, except that it names the package's `relaxed=True` where the CLI
says `--relaxed`. A summary goes to stderr. Exit code 0, or 2 when some
row could not be read or asked (as `tsume solve`), 1 when a shard failed.
"""

import argparse
import ast
import itertools
import json
import logging
import sys

from dask.distributed import Client, LocalCluster, as_completed


def solve_shard(options, start_line, data):
    """Solves one shard (the bytes of consecutive lines of the file, the
    first of them numbered `start_line`) and returns its JSON Lines and
    whether some row was bad. Runs on a worker."""
    import tsume

    results = tsume.solve_lines(data, start_line=start_line, jobs=1, **options)
    lines = "".join(json.dumps(r.to_dict(), ensure_ascii=False,
                               separators=(",", ":")) + "\n"
                    for r in results)
    return lines, any(r.result == "error" for r in results)


def connect(scheduler, workers):
    """A client of the scheduler at `scheduler`, or of a local cluster of
    `workers` processes when it is None; and that cluster."""
    if scheduler:
        return Client(scheduler), None
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1,
                           processes=True, dashboard_address=None,
                           silence_logs=logging.ERROR)
    return Client(cluster), cluster


def disconnect(client, cluster):
    """Closes what `connect` opened."""
    client.close()
    if cluster is not None:
        cluster.close()


def keyword_arguments(words):
    """`name=value` words as keyword arguments: the value a Python literal
    (64, 0.5, True) or else the text itself (piece-unused)."""
    options = {}
    for word in words:
        name, sep, value = word.partition("=")
        if not sep or not name.isidentifier():
            raise ValueError(f"`{word}`: expected name=value, a keyword "
                             "argument of tsume.solve_lines")
        try:
            options[name] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            options[name] = value
    return options


def shards(path, shard_lines):
    """(first line number, bytes) of each run of `shard_lines` lines (as
    they are: solve_lines reports a line that is not UTF-8, as the CLI
    does)."""
    with open(path, "rb") as f:
        number = 1
        while True:
            lines = list(itertools.islice(f, shard_lines))
            if not lines:
                return
            yield number, b"".join(lines)
            number += len(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", help="the problem file (one problem a line)")
    parser.add_argument("--workers", type=int, default=2,
                        help="worker processes of the local cluster")
    parser.add_argument("--scheduler", help="a running Dask scheduler's "
                        "address, instead of a local cluster")
    parser.add_argument("--shard-lines", type=int, default=10,
                        help="lines of the file per task")
    parser.add_argument("-o", "--output", help="where to write the JSON "
                        "Lines (default: stdout)")
    parser.epilog = ("Arguments after -- are keyword arguments of "
                     "tsume.solve_lines (name=value).")
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    if args.shard_lines < 1 or args.workers < 1:
        parser.error("--shard-lines and --workers must be at least 1")
    try:
        options = keyword_arguments(argv[split + 1:])
    except ValueError as e:
        parser.error(str(e))

    client, cluster = connect(args.scheduler, args.workers)
    out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout
    counts = {}
    bad_rows = False
    try:
        futures = {}
        for index, (start, data) in enumerate(shards(args.file,
                                                     args.shard_lines)):
            future = client.submit(solve_shard, options, start, data,
                                   pure=False)
            futures[future] = index
        # Shards finish in any order: each is written once it and all
        # before it are done.
        ready = {}
        next_index = 0
        for future in as_completed(futures):
            ready[futures[future]] = future.result()
            while next_index in ready:
                lines, bad = ready.pop(next_index)
                next_index += 1
                bad_rows |= bad
                out.write(lines)
                for line in lines.splitlines():
                    result = json.loads(line)["result"]
                    counts[result] = counts.get(result, 0) + 1
        out.flush()
    finally:
        if out is not sys.stdout:
            out.close()
        disconnect(client, cluster)
    print(f"summary: solved {counts.get('mate', 0)}, "
          f"no mate {counts.get('nomate', 0)}, "
          f"unknown {counts.get('unknown', 0)}, "
          f"errors {counts.get('error', 0)}, shards {next_index}",
          file=sys.stderr)
    return 2 if bad_rows else 0


if __name__ == "__main__":
    sys.exit(main())
