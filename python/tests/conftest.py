"""Shared by the Python tests: the tsume CLI binary they compare with."""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cli():
    """Runs `tsume ARGS` (the binary of $TSUME_BIN, else target/ci/tsume,
    which `cargo test --profile ci` builds) and returns its stdout."""
    binary = Path(os.environ.get("TSUME_BIN", ROOT / "target" / "ci" / "tsume"))
    assert binary.is_file(), f"no tsume binary at {binary}: build it (cargo build --profile ci)"

    def run(*args, check=True):
        out = subprocess.run(
            [str(binary), *args], capture_output=True, text=True, stdin=subprocess.DEVNULL
        )
        if check:
            assert out.returncode == 0, out.stderr
        return out

    return run


@pytest.fixture(scope="session")
def cli_json(cli):
    def run(*args, check=True):
        return [json.loads(line) for line in cli(*args, check=check).stdout.splitlines()]

    return run
