"""The Python examples of README.md and the guide (docs/*.md): every
```python block is a doctest (`>>>` lines and the output they give), and
every page that has one is run by doctest here. The ```console commands of
the same pages are run by tests/docs_commands.rs."""

import doctest
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def python_blocks(page):
    return re.findall(r"^```python\n(.*?)^```", page.read_text(encoding="utf-8"), re.S | re.M)


WITH_PYTHON = [page for page in PAGES if python_blocks(page)]


def test_the_readme_and_the_guide_show_python():
    assert {page.name for page in WITH_PYTHON} >= {"README.md", "python.md"}, WITH_PYTHON


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_python_block_is_a_doctest(page):
    for block in python_blocks(page):
        assert block.lstrip().startswith(">>> "), f"{page.name}: a ```python block not run:\n{block}"


@pytest.mark.parametrize("page", WITH_PYTHON, ids=[p.name for p in WITH_PYTHON])
def test_the_python_examples_give_what_is_shown(page):
    # The examples import tsume themselves; nothing else is in scope.
    result = doctest.testfile(
        str(page), module_relative=False, encoding="utf-8", optionflags=doctest.ELLIPSIS,
        verbose=False, report=True,
    )
    assert result.attempted > 0, page.name
    assert result.failed == 0, f"{page.name}: {result.failed} of {result.attempted} examples failed"
