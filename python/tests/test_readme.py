"""The Python examples of the README ("From Python"), run as they are: each block's
asserts are the documented behaviour."""
import re

import pytest

from conftest import ROOT


def blocks():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## From Python", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def test_the_section_has_examples():
    assert len(blocks()) >= 3


@pytest.mark.parametrize("number", range(len(blocks())))
def test_example_runs(number):
    code = blocks()[number]
    exec(compile(code, f"README.md (From Python, example {number + 1})", "exec"), {})
