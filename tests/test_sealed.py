"""Strategies are sealed in: they cannot change the game, see hidden cards, hang or crash a run
silently. Each bad strategy is a fixture file in tests/fixtures/bad_strategies."""
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.core import rules as R
from sim.experiments import batch

BAD = str(Path(__file__).resolve().parent / "fixtures" / "bad_strategies")


@pytest.mark.parametrize("name, what", [("writer", "read-only"), ("allocator", "memory manager")])
def test_a_strategy_that_breaks_the_sandbox_is_refused_in_one_line(name, what):
    """Writing the observation, or creating an array (strategies run without numba's memory manager)."""
    r = R.resolve("podkidnoy", 2)
    with pytest.raises(batch.StrategyFailedError) as e:
        batch.Runner(r, batch.make_lineup(r, [name, "greedy"], [BAD]), [BAD]).play_raw(1, 0, 5)
    msg = str(e.value)
    assert f"'{name}'" in msg and what in msg and f"{name}.py" in msg and "\n" not in msg


def test_observation_given_to_strategies_is_read_only():
    ws, obs = batch.Runner._state()
    assert not obs.flags.writeable and obs.base is ws or obs.base is ws.base
    with pytest.raises(ValueError):
        obs[0] = 1


def test_reading_hidden_cards_through_a_module_helper_is_stopped():
    r = R.resolve("podkidnoy", 2)
    with pytest.raises(batch.HiddenInformationError) as e:
        batch.Runner(r, batch.make_lineup(r, ["peeker", "greedy"], [BAD]), [BAD]).play_raw(1, 0, 5)
    assert "'peeker'" in str(e.value) and "durak replay" in str(e.value)


def test_a_strategy_that_raises_gives_one_clear_message():
    r = R.resolve("podkidnoy", 2)
    runner = batch.Runner(r, batch.make_lineup(r, ["greedy", "raiser"], [BAD]), [BAD])
    with pytest.raises(batch.StrategyFailedError) as e:
        runner.play_raw(3, 0, 5)
    msg = str(e.value)
    assert "'raiser' (seat 1)" in msg and "no idea what to cover" in msg and "--strategy raiser" in msg


def test_a_strategy_that_loops_is_stopped_with_the_game_named(tmp_path):
    env = dict(os.environ, DURAK_STALL_SECONDS="3")
    cmd = [sys.executable, "-m", "sim.cli", "run", "--strategy-path", BAD, "--strategy", "greedy", "--strategy",
           "looper", "--games", "20", "--threads", "1", "--no-rotate", "--out", str(tmp_path / "o")]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    assert p.returncode == 3, p.stderr[-2000:]
    err = p.stderr.strip().splitlines()[-1]
    assert "'looper' (seat 1)" in err and "has not answered" in err and "durak replay" in err
    assert "Traceback" not in p.stderr


def test_illegal_move_replay_command_reproduces_that_game():
    """The printed command carries rules, players, toggles and the seat order actually played."""
    r = R.resolve("prostoy_6", 3, {"partial_defence": True})
    runner = batch.Runner(r, batch.make_lineup(r, ["greedy", "greedy", "two-card-lead"], [BAD]), [BAD])
    with pytest.raises(batch.IllegalMoveError) as e:
        runner.play_raw(5, 0, 20)
    cmd = str(e.value).split("Replay it with: ")[1].split(" ; ")[0]
    assert "--rules prostoy_6" in cmd and "--players 3" in cmd and "--toggle partial_defence=true" in cmd
    at_error = str(e.value).split("see the position and the answer with: ")[1]
    assert at_error == cmd + " --at-error"
    res = CliRunner().invoke(main, at_error.split()[1:])
    assert res.exit_code == 0 and "'two-card-lead'" in res.output and "ILLEGAL (PR6-A" in res.output, res.output


def test_strategy_stream_is_not_the_deal_stream():
    """The key a strategy sees is a one-way function of (seed, series): different from the deal's."""
    from sim.core.engine import strategy_key
    from sim.core.lib import seed_stream
    d = np.zeros(1, dtype=np.uint64)
    seed_stream(d, np.int64(7), np.int64(0), np.int64(0))
    k = strategy_key(np.int64(7), np.int64(0))
    assert k != d[0] and strategy_key(np.int64(7), np.int64(1)) != k
