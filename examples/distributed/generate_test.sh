#!/usr/bin/env bash
# Sharded generation, checked: examples/distributed/generate_distributed.py
# makes 3-ply puzzles in 4 shards on a Dask LocalCluster of two workers
# (the tsume Python package in each task); the merged output must equal the
# shards run one by one with the CLI's tsume generate (their seeds, in
# shard order, a position or its mirror image once), hold no position
# twice, and pass tsume verify. Uses the venv of test.sh (default .ci/venv,
# or $TSUME_VENV; the tsume package as there). Run from anywhere:
# `examples/distributed/generate_test.sh` (CI runs it from .ci/run).
set -euo pipefail
cd "$(dirname "$0")/../.."
here=examples/distributed
venv=$(realpath -m "${TSUME_VENV:-.ci/venv}")

if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt"
"$venv/bin/python" -c 'import dask.distributed' # fails loudly without Dask
(cd / && "$venv/bin/python" -c 'import tsume') 2>/dev/null ||
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check ./python

cargo build --profile ci --quiet
tsume="${CARGO_TARGET_DIR:-target}/ci/tsume"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$venv/bin/python" "$here/generate_distributed.py" \
    --workers 2 --shards 4 --count 3 --seed 5 -o "$work/merged.jsonl" \
    -- plies=3 2> "$work/merged.err" || { cat "$work/merged.err"; exit 1; }
cat "$work/merged.err"
grep -q '^summary: .* puzzles from 4 shards' "$work/merged.err"

# The shards one by one, as the merge must take them.
for i in 0 1 2 3; do
    "$tsume" generate --json --jobs 1 --seed $(((5 << 20) + i)) --count 3 \
        --plies 3 > "$work/shard$i.jsonl" 2> /dev/null
done

"$venv/bin/python" - "$work" <<'PY'
import json, os, sys
sys.path.insert(0, "examples/distributed")
from generate_distributed import canonical, merge

work = sys.argv[1]
shards = [open(os.path.join(work, f"shard{i}.jsonl"), encoding="utf-8").read()
          for i in range(4)]
with open(os.path.join(work, "merged.jsonl"), encoding="utf-8") as f:
    merged = [json.loads(line) for line in f]
expected = merge(shards)
assert merged == expected, (merged, expected)
assert len(merged) >= 9, len(merged)
seeds = [r["seed"] for r in merged]
assert seeds == sorted(seeds) and len(set(seeds)) == 4, seeds
assert len({canonical(r["sfen"]) for r in merged}) == len(merged)
# A position and its mirror image are one key.
assert canonical("4k4/9/3P5/9/9/9/9/9/9 b G 1") == \
    canonical("4k4/9/5P3/9/9/9/9/9/9 b G 1")
assert canonical("4k4/9/3P5/9/9/9/9/9/9 b G 1") != \
    canonical("4k4/9/4P4/9/9/9/9/9/9 b G 1")
with open(os.path.join(work, "merged.tsv"), "w", encoding="utf-8") as f:
    for r in merged:
        f.write(f"{r['sfen']}\t{r['plies']}\t{' '.join(r['solution_usi'])}\n")
print(f"sharded generation: {len(merged)} puzzles, as the shards one by one")
PY
"$tsume" verify --file "$work/merged.tsv" > "$work/verify.txt" || {
    cat "$work/verify.txt"
    echo "a merged puzzle failed tsume verify"
    exit 1
}
echo "1 passed, 0 failed"
