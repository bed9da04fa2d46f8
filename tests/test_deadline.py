"""The tier's wall-clock budget (tests/conftest.py, set by .ci/run for the slow tier): a test that would start
after DURAK_TEST_DEADLINE is skipped with the reason, and one before it runs."""
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PICK = "tests/test_layers.py::test_every_module_has_a_layer"


def _run(deadline):
    env = {**os.environ, "DURAK_TEST_DEADLINE": str(deadline)}
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "-n", "0",
                          PICK], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    return out.stdout + out.stderr


def test_a_test_after_the_deadline_is_skipped_with_the_reason():
    out = _run(time.time() - 1)
    assert re.search(r"\b1 skipped\b", out) and "passed" not in out, out
    assert "time budget (DURAK_TEST_DEADLINE) ran out" in out, out


def test_a_test_before_the_deadline_runs():
    out = _run(time.time() + 3600)
    assert re.search(r"\b1 passed\b", out) and "skipped" not in out, out
