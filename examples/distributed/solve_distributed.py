#!/usr/bin/env python3
"""Solve a problem file on a Dask cluster: shards of lines go to workers
that each run `tsume solve - --json --jobs 1`, and the JSON Lines that come
back are written in input order, as from one `tsume solve --file FILE --json`.

`tsume solve` reads lines and writes lines, so a shard can be solved
anywhere the binary is: the shard's text travels to the worker with the
task, its output comes back with the result, and `--start-line` keeps the
line numbers those of the whole file. Here a LocalCluster of worker
processes stands in for machines; give --scheduler ADDRESS to use a real
cluster (every worker needs the tsume binary at the path given by --tsume).

    python solve_distributed.py problems.tsv --tsume target/release/tsume \
        --workers 2 --shard-lines 10 -o results.jsonl -- --hash 64

Arguments after `--` are passed to each `tsume solve` (limits, --hash, ...).
A summary goes to stderr. Exit code 0, or 2 when some row could not be read
or asked (as `tsume solve`), 1 when a shard failed.
"""

import argparse
import itertools
import json
import logging
import subprocess
import sys

from dask.distributed import Client, LocalCluster, as_completed


def solve_shard(tsume, extra_args, start_line, text):
    """Runs `tsume solve` on one shard (the bytes of consecutive lines of
    the file, the first of them numbered `start_line`) and returns its JSON
    Lines and whether some row was bad. Runs on a worker."""
    command = [tsume, "solve", "-", "--json", "--jobs", "1",
               "--start-line", str(start_line), *extra_args]
    done = subprocess.run(command, input=text,
                          capture_output=True, check=False)
    # 2: some rows could not be read or asked; they are in the output.
    if done.returncode not in (0, 2):
        raise RuntimeError(
            f"tsume solve on the shard from line {start_line} exited with "
            f"{done.returncode}: {done.stderr.decode('utf-8', 'replace')}")
    return done.stdout.decode("utf-8"), done.returncode == 2


def shards(path, shard_lines):
    """(first line number, bytes) of each run of `shard_lines` lines (as
    they are: tsume reports a line that is not UTF-8)."""
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
    parser.add_argument("--tsume", default="tsume", help="the tsume binary")
    parser.add_argument("--workers", type=int, default=2,
                        help="worker processes of the local cluster")
    parser.add_argument("--scheduler", help="a running Dask scheduler's "
                        "address, instead of a local cluster")
    parser.add_argument("--shard-lines", type=int, default=10,
                        help="lines of the file per task")
    parser.add_argument("-o", "--output", help="where to write the JSON "
                        "Lines (default: stdout)")
    parser.epilog = "Arguments after -- are passed to each tsume solve."
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    args.tsume_args = argv[split + 1:]
    if args.shard_lines < 1 or args.workers < 1:
        parser.error("--shard-lines and --workers must be at least 1")

    if args.scheduler:
        cluster = None
        client = Client(args.scheduler)
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1,
                               processes=True, dashboard_address=None,
                               silence_logs=logging.ERROR)
        client = Client(cluster)
    out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout
    counts = {}
    bad_rows = False
    try:
        futures = {}
        for index, (start, text) in enumerate(shards(args.file,
                                                     args.shard_lines)):
            future = client.submit(solve_shard, args.tsume, args.tsume_args,
                                   start, text, pure=False)
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
        client.close()
        if cluster is not None:
            cluster.close()
    print(f"summary: solved {counts.get('mate', 0)}, "
          f"no mate {counts.get('nomate', 0)}, "
          f"unknown {counts.get('unknown', 0)}, "
          f"errors {counts.get('error', 0)}, shards {next_index}",
          file=sys.stderr)
    return 2 if bad_rows else 0


if __name__ == "__main__":
    sys.exit(main())
