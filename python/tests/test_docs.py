"""The commands shown in the guide (docs/*.md): every `$ tsume ...` line of
a ```console block is run, and its stdout must be the lines after it."""

import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "docs").glob("*.md"))


def examples():
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for block in re.findall(r"```console\n(.*?)```", text, re.S):
            command, expected = None, []
            for line in block.splitlines():
                if line.startswith("$ "):
                    if command:
                        yield page.name, command, expected
                    command, expected = line[2:], []
                else:
                    expected.append(line)
            if command:
                yield page.name, command, expected


EXAMPLES = list(examples())


def test_the_guide_shows_commands():
    assert {page for page, _, _ in EXAMPLES} >= {"solve.md"}, EXAMPLES


@pytest.mark.parametrize("page,command,expected", EXAMPLES, ids=[c for _, c, _ in EXAMPLES])
def test_a_shown_command_gives_what_is_shown(cli, page, command, expected):
    words = shlex.split(command)
    assert words[0] == "tsume", f"{page}: {command}"
    out = cli(*words[1:])
    assert out.stdout.splitlines() == expected, f"{page}: {command}"
