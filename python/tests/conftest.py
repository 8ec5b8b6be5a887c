import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def resident_bytes():
    """This process's resident set, from /proc (Linux)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.fixture
def root():
    return ROOT
