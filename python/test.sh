#!/usr/bin/env bash
# The Python package, checked as a user gets it: `pip install ./python`
# (maturin pinned in python/pyproject.toml builds the extension once, with
# Cargo's `ci` profile, whose build of the crate `cargo test --profile ci` has made) into a venv (default .ci/venv, or $TSUME_VENV)
# with the pinned test requirements (python/requirements-test.txt), then
# `import tsume` and the pytest suite (python/tests), which compares the
# package with the CLI built by `cargo test --profile ci` and reads the
# CLI's KIF and CSA records with cshogi. Run from anywhere:
# `python/test.sh` (CI runs it from .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=$(realpath -m "${TSUME_VENV:-.ci/venv}")

if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
pip=("$venv/bin/python" -m pip --disable-pip-version-check)
"${pip[@]}" install --quiet -r python/requirements-test.txt
# Always the tree's code: the version does not change with it.
"${pip[@]}" install --quiet --force-reinstall --no-deps ./python
# Outside the tree, so that the installed package is what is imported.
(cd / && "$venv/bin/python" -c 'import tsume; assert tsume.solve("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1").moves == ["G*5b"]')

cargo build --profile ci --quiet
export TSUME_BIN="${CARGO_TARGET_DIR:-$PWD/target}/ci/tsume"
# From the repository's root: python/tsume (without its extension) is not
# on the path there, the installed package is. The Python examples of
# README.md and docs/ are doctests, run by python/tests/test_docs.py.
"$venv/bin/python" -m pytest -q -p no:cacheprovider python/tests
