"""The package as a user installs it: the wheel built from this tree, installed into a fresh virtual environment,
and its commands run from a folder outside the repository (nothing of the checkout on the path). Everything a
command reads must ship in the package: the rule texts, the worked examples, the strategies and the questions."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(cmd, cwd, env, timeout=1800):
    p = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert p.returncode == 0, f"{' '.join(map(str, cmd))} failed:\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}"
    return p.stdout


@pytest.mark.slow
def test_the_wheel_works_in_a_fresh_environment_outside_the_repository(tmp_path):
    # a user's environment: no shared engine either (conftest's DURAK_SHARED_ENGINE would make `durak run`
    # compile a dozen strategies where a user's run compiles its line-up's two)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "NUMBA_CACHE_DIR",
                                                            "DURAK_NUMBA_FOLDER", "DURAK_SHARED_ENGINE")}
    env["DURAK_CACHE_DIR"] = str(tmp_path / "cache")
    _run([sys.executable, "-m", "pip", "wheel", ROOT, "--no-deps", "-q", "-w", tmp_path / "wheel"], tmp_path, env)
    wheel = next((tmp_path / "wheel").glob("durak_sim-*.whl"))
    _run([sys.executable, "-m", "venv", tmp_path / "venv"], tmp_path, env)
    bin_ = tmp_path / "venv" / "bin"
    _run([bin_ / "pip", "install", "-q", wheel], tmp_path, env)
    away = tmp_path / "elsewhere"
    away.mkdir()
    where = _run([bin_ / "python", "-c", "import sim, strategies; print(sim.__file__); print(strategies.__file__)"],
                 away, env)
    assert str(ROOT) not in where and all(line.startswith(str(tmp_path / "venv")) for line in where.split())
    out = _run([bin_ / "durak", "rules", "--explain", "POD-L3"], away, env)
    assert out.startswith("POD-L3 (") and "first bout" in out
    out = _run([bin_ / "durak", "judge", "--examples"], away, env)
    assert out.count("== ") >= 20 and "ILLEGAL" in out and "durak rules --explain" not in out.split("==")[0]
    out = _run([bin_ / "durak", "run", "--games", "1000", "--quiet"], away, env)
    assert "fool" in out and str(away / "results" / "runs") in out
    out = _run([bin_ / "durak", "play", "--help"], away, env)
    assert "Play deals in the terminal" in out
