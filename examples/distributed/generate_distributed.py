#!/usr/bin/env python3
"""Generate training puzzles on a Dask cluster: N shards, each one `tsume
generate --json --jobs 1` with a seed of its own, merged in shard order
and deduplicated (a position and its left-right mirror image once).

Shard i of a run with --seed S uses the seed S * 2^20 + i: the shards of
one run never share a seed, nor do those of runs with other seeds (up to
2^20 shards). Each shard makes the same puzzles wherever and whenever it
runs, and the merge takes the shards in their order, whatever order they
finish in: the output depends on the arguments only, not on the workers.

    python generate_distributed.py --tsume target/release/tsume \
        --shards 8 --count 100 --seed 1 -o puzzles.jsonl -- --plies 7

Arguments after `--` go to each `tsume generate` (--plies, --nodes,
--max-candidates, --exclude FILE with FILE on every worker, ...). The
related-puzzle marks (`related_to`, `similarity`) of a shard number its
own puzzles, so the merge leaves them out; --drop-related still drops
within each shard. A summary goes to stderr. Exit code 0, or 1 when a
shard failed.
"""

import argparse
import json
import logging
import subprocess
import sys

from dask.distributed import Client, LocalCluster, as_completed

SHARD_BITS = 20


def shard_seed(seed, index):
    """The seed of shard `index` of a run with `seed`."""
    return (seed << SHARD_BITS) + index


def generate_shard(tsume, extra_args, seed, count):
    """Runs `tsume generate` for one shard and returns its JSON Lines.
    Runs on a worker."""
    command = [tsume, "generate", "--json", "--jobs", "1",
               "--seed", str(seed), "--count", str(count), *extra_args]
    done = subprocess.run(command, capture_output=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(
            f"tsume generate with seed {seed} exited with "
            f"{done.returncode}: {done.stderr.decode('utf-8', 'replace')}")
    return done.stdout.decode("utf-8")


def mirrored_board(board):
    """The SFEN board field mirrored left to right."""
    rows = []
    for row in board.split("/"):
        cells = []
        i = 0
        while i < len(row):
            c = row[i]
            if c.isdigit():
                cells.extend([""] * int(c))
            elif c == "+":
                cells.append(row[i:i + 2])
                i += 1
            else:
                cells.append(c)
            i += 1
        out, empty = [], 0
        for cell in reversed(cells):
            if cell == "":
                empty += 1
                continue
            if empty:
                out.append(str(empty))
                empty = 0
            out.append(cell)
        if empty:
            out.append(str(empty))
        rows.append("".join(out))
    return "/".join(rows)


def canonical(sfen):
    """One key for a position and its mirror image: the smaller of the two
    SFENs without the move number."""
    board, side, hands = sfen.split()[:3]
    return min((board, side, hands), (mirrored_board(board), side, hands))


def merge(shard_outputs):
    """The puzzles of the shards in shard order, each position (or its
    mirror image) once, without the per-shard related-puzzle marks."""
    seen = set()
    merged = []
    for lines in shard_outputs:
        for line in lines.splitlines():
            record = json.loads(line)
            key = canonical(record["sfen"])
            if key in seen:
                continue
            seen.add(key)
            record.pop("related_to", None)
            record.pop("similarity", None)
            merged.append(record)
    return merged


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tsume", default="tsume", help="the tsume binary")
    parser.add_argument("--shards", type=int, default=4,
                        help="shards (tasks), each with a seed of its own")
    parser.add_argument("--count", type=int, default=10,
                        help="puzzles per shard")
    parser.add_argument("--seed", type=int, default=1,
                        help="the run's seed (shard i: seed * 2^20 + i)")
    parser.add_argument("--workers", type=int, default=2,
                        help="worker processes of the local cluster")
    parser.add_argument("--scheduler", help="a running Dask scheduler's "
                        "address, instead of a local cluster")
    parser.add_argument("-o", "--output", help="where to write the JSON "
                        "Lines (default: stdout)")
    parser.epilog = "Arguments after -- are passed to each tsume generate."
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    args.tsume_args = argv[split + 1:]
    if args.shards < 1 or args.workers < 1 or args.count < 1:
        parser.error("--shards, --count and --workers must be at least 1")
    if not 0 <= args.seed < 2 ** (64 - SHARD_BITS) or \
            args.shards > 2 ** SHARD_BITS:
        parser.error(f"--seed must be below 2^{64 - SHARD_BITS} and "
                     f"--shards at most 2^{SHARD_BITS}")

    if args.scheduler:
        cluster = None
        client = Client(args.scheduler)
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1,
                               processes=True, dashboard_address=None,
                               silence_logs=logging.ERROR)
        client = Client(cluster)
    try:
        futures = {}
        for index in range(args.shards):
            future = client.submit(generate_shard, args.tsume,
                                   args.tsume_args,
                                   shard_seed(args.seed, index), args.count,
                                   pure=False)
            futures[future] = index
        outputs = [None] * args.shards
        for future in as_completed(futures):
            outputs[futures[future]] = future.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    merged = merge(outputs)
    out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout
    try:
        for record in merged:
            out.write(json.dumps(record, ensure_ascii=False,
                                 separators=(",", ":")) + "\n")
    finally:
        if out is not sys.stdout:
            out.close()
    made = sum(len(o.splitlines()) for o in outputs)
    print(f"summary: {len(merged)} puzzles from {args.shards} shards "
          f"({made - len(merged)} duplicates dropped)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
