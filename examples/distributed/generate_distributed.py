#!/usr/bin/env python3
"""Generate training puzzles on a Dask cluster: N shards, each one
`tsume.generate(..., jobs=1)` of the tsume Python package with a seed of
its own, merged in shard order and deduplicated (a position and its
left-right mirror image once).

Shard i of a run with --seed S uses the seed S * 2^20 + i: the shards of
one run never share a seed, nor do those of runs with other seeds (up to
2^20 shards). Each shard makes the same puzzles wherever and whenever it
runs (those of `tsume generate --json --jobs 1 --seed SEED`), and the
merge takes the shards in their order, whatever order they finish in: the
output depends on the arguments only, not on the workers.

    python generate_distributed.py --shards 8 --count 100 --seed 1 \
        -o puzzles.jsonl -- plies=7

Arguments after `--` are keyword arguments of tsume.generate (`name=value`:
plies=7, nodes=100000, max_candidates=500, defender_holds_rest=False).
Every worker needs the tsume package (`pip install ./python`). The records
have the fields of `tsume generate --json` but for the related-puzzle marks
(`related_to`, `similarity`), which that command numbers within its own
output. A summary goes to stderr. Exit code 0, or 1 when a shard failed
(for one, when it found fewer than --count puzzles).
"""

import argparse
import json
import sys

from dask.distributed import as_completed

from solve_distributed import connect, disconnect, keyword_arguments

SHARD_BITS = 20

# The fields of `tsume generate --json` for a made-up puzzle, in its order.
FIELDS = ("sfen", "plies", "solution_usi", "solution_japanese", "nodes",
          "checks", "defences", "score", "tags", "seed", "index")


def shard_seed(seed, index):
    """The seed of shard `index` of a run with `seed`."""
    return (seed << SHARD_BITS) + index


def generate_shard(options, seed, count):
    """Generates one shard's puzzles and returns them as JSON Lines. Runs
    on a worker."""
    import tsume

    puzzles = list(tsume.generate(count=count, seed=seed, jobs=1, **options))
    if len(puzzles) < count:
        raise RuntimeError(f"the shard with seed {seed} found only "
                           f"{len(puzzles)} of {count} puzzles")
    return "".join(json.dumps({name: getattr(p, name) for name in FIELDS},
                              ensure_ascii=False, separators=(",", ":")) + "\n"
                   for p in puzzles)


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
    parser.epilog = ("Arguments after -- are keyword arguments of "
                     "tsume.generate (name=value).")
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    if args.shards < 1 or args.workers < 1 or args.count < 1:
        parser.error("--shards, --count and --workers must be at least 1")
    if not 0 <= args.seed < 2 ** (64 - SHARD_BITS) or \
            args.shards > 2 ** SHARD_BITS:
        parser.error(f"--seed must be below 2^{64 - SHARD_BITS} and "
                     f"--shards at most 2^{SHARD_BITS}")
    try:
        options = keyword_arguments(argv[split + 1:])
    except ValueError as e:
        parser.error(str(e))

    client, cluster = connect(args.scheduler, args.workers)
    try:
        futures = {}
        for index in range(args.shards):
            future = client.submit(generate_shard, options,
                                   shard_seed(args.seed, index), args.count,
                                   pure=False)
            futures[future] = index
        outputs = [None] * args.shards
        for future in as_completed(futures):
            outputs[futures[future]] = future.result()
    finally:
        disconnect(client, cluster)
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
