"""Edge cases of the commands that need a compiled engine (the bad-input catalogue needs none)."""
import json

import pytest

from click.testing import CliRunner

from sim.cli import main


@pytest.mark.rules("RUL-22")
def test_replay_of_an_unfinished_deal_says_so():
    # prostoy_5, 4 x greedy under zanudny (VAR-ZA1: leads forced to the highest rank), seed 1: game 2 is
    # still running after 1,000 bouts (RUL-22; the library's strategies no longer cycle under the plain rules)
    res = CliRunner().invoke(main, ["replay", "--rules", "prostoy_5", "--players", "4", "--toggle", "variant=zanudny",
                                    "--strategy", "greedy", "--seed", "1", "--game", "2"])
    assert res.exit_code == 0, res.output
    last = res.output.strip().splitlines()[-1]
    assert last.startswith("deal unfinished") and "RUL-22" in last
    assert "bout 1001" not in res.output
    finished = CliRunner().invoke(main, ["replay", "--players", "3", "--strategy", "expert", "--seed", "1",
                                         "--game", "1304"])
    assert "deal unfinished" not in finished.output and "game over after" in finished.output


def test_threads_zero_means_all_cores_and_gives_the_same_result(tmp_path):
    args = ["run", "--rules", "prostoy_5", "--games", "3000", "--seed", "5", "--no-save", "--json", "--quiet"]
    a = json.loads(CliRunner().invoke(main, args + ["--threads", "0"]).output)
    b = json.loads(CliRunner().invoke(main, args + ["--threads", "1"]).output)
    assert a["seats"] == b["seats"] and a["games"] == b["games"] == 3000


def test_run_accepts_scientific_notation_for_a_whole_number():
    res = CliRunner().invoke(main, ["run", "--rules", "prostoy_5", "--games", "2e3", "--no-save", "--json",
                                    "--quiet"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["games"] == 2000
