#!/usr/bin/env bash
# The distributed example, checked: solves a 51-row problem file on a Dask
# LocalCluster of two workers (examples/distributed/solve_distributed.py,
# the tsume Python package in each task) and checks that the merged output
# equals one `tsume solve --file --json` (timing fields aside). Sets up its
# Python venv (default .ci/venv, or $TSUME_VENV) from requirements.txt and
# fails if Dask cannot be installed; the tsume package is the one
# python/test.sh installed there (.ci/run runs that first), else
# `pip install ./python` here. Run from anywhere:
# `examples/distributed/test.sh` (CI runs it from .ci/run).
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

# The test suite's build (.ci/run has just made it with `cargo test
# --profile ci`): as fast as release, and no second build of the crate.
cargo build --profile ci --quiet
tsume="${CARGO_TARGET_DIR:-target}/ci/tsume"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Every 40th row of the generated set (mates in 1 to 11), a comment, a
# blank line, a malformed row, a row with two pawns on a file (an error
# that relaxed reading accepts) and a no-mate row.
{
    echo "# a shard boundary may fall on this comment"
    awk 'NR % 40 == 1 && ++n <= 24' problems/tanuki_generated.tsv
    echo
    echo "4k4/9/4x4/9/9/9/9/9/9 b G 1	malformed"
    echo "4k4/9/4P4/9/9/9/9/4P4/9 b G2r2b3g4s4n4l16p 1	two pawns on a file"
    echo "8k/9/9/9/9/9/9/9/9 b Rr2b4g4s4n4l18p 1	no mate"
    awk 'NR % 40 == 21 && ++n <= 24' problems/tanuki_generated.tsv
} > "$work/problems.tsv"

status=0
"$tsume" solve --file "$work/problems.tsv" --json --jobs 1 --hash 16 \
    > "$work/single.jsonl" 2> "$work/single.err" || status=$?
[ "$status" -le 2 ] || { cat "$work/single.err"; exit 1; }
status=0
"$venv/bin/python" "$here/solve_distributed.py" "$work/problems.tsv" \
    --workers 2 --shard-lines 7 -o "$work/merged.jsonl" \
    -- hash_mb=16 2> "$work/merged.err" || status=$?
cat "$work/merged.err"
# Exit code 2: a row could not be read (as from tsume solve).
if [ "$status" -ne 2 ] || ! grep -q '^summary: solved ' "$work/merged.err"; then
    echo "distributed example failed (exit $status)"
    exit 1
fi

"$venv/bin/python" - "$work/single.jsonl" "$work/merged.jsonl" <<'PY'
import json, sys

def records(path):
    with open(path, encoding="utf-8") as f:
        out = [json.loads(line) for line in f]
    for r in out:
        r.pop("millis")
    return out

single, merged = records(sys.argv[1]), records(sys.argv[2])
assert len(single) == 51, f"{len(single)} records from tsume solve"
results = {r["result"] for r in single}
assert {"mate", "nomate", "error"} <= results, results
lines = [r["line"] for r in merged]
assert lines == sorted(lines) and len(set(lines)) == len(lines), lines
# The one difference: an error the relaxed reading would accept names the
# way each asks for it (the CLI's --relaxed, the package's relaxed=True).
cli_hint, python_hint = "; --relaxed accepts this", "; relaxed=True accepts this"
hinted = 0
for i, (a, b) in enumerate(zip(single, merged)):
    if python_hint in b.get("error", ""):
        assert a.get("error", "").endswith(cli_hint), (a, b)
        b["error"] = b["error"].replace(python_hint, cli_hint)
        hinted += 1
    assert a == b, f"record {i}: single {a}\n  merged {b}"
assert len(single) == len(merged), (len(single), len(merged))
assert hinted > 0, "no row the relaxed reading accepts: the hint went unchecked"
print(f"distributed example: {len(merged)} records equal to tsume solve's "
      f"({hinted} errors naming relaxed=True for --relaxed)")
PY
echo "1 passed, 0 failed"
