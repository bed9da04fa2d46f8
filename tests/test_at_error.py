"""`durak replay --at-error`: from an illegal-move error to the position where it happened."""
import json
import re
from pathlib import Path

from click.testing import CliRunner

from sim.cli import main
from sim.referee import judge

BAD = str(Path(__file__).resolve().parent / "fixtures" / "bad_strategies")
LINEUP = ["--rules", "prostoy_5", "--strategy-path", BAD, "--strategy", "greedy", "--strategy", "two-card-lead"]


def test_at_error_shows_the_position_and_the_answer_from_the_error_message():
    cli = CliRunner()
    run = cli.invoke(main, ["run", *LINEUP, "--games", "50", "--no-save", "--quiet", "--seed", "9"])
    assert run.exit_code != 0 and "illegal move" in run.output
    seed, game = re.search(r"--seed (\d+) --game (\d+)", run.output).groups()
    wrong = re.search(r": attack with \[(.*?)\]", run.output).group(1).split(", ")
    res = cli.invoke(main, ["replay", *LINEUP, "--seed", seed, "--game", game, "--at-error"])
    assert res.exit_code == 0, res.output
    assert "'two-card-lead'" in res.output and "ILLEGAL (PR5-A5)" in res.output
    held = next(x for x in res.output.splitlines() if x.endswith("<- answered"))
    assert all(c in held.split() for c in wrong)  # the cards it tried to lead are in its hand in that position
    # the same as a judge file: the referee rules the answer illegal there
    js = cli.invoke(main, ["replay", *LINEUP, "--seed", seed, "--game", game, "--at-error", "--json"])
    doc = json.loads(js.output)
    assert doc["action"]["type"] == "attack" and sorted(doc["action"]["cards"]) == sorted(wrong)
    verdict = judge(doc)
    assert verdict["legal"] is False and verdict["rule"] == "PR5-A5"


def test_at_error_without_an_error_says_so():
    res = CliRunner().invoke(main, ["replay", "--rules", "prostoy_5", "--seed", "1", "--game", "0", "--at-error"])
    assert res.exit_code != 0 and "no illegal move" in res.output
