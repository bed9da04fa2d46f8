"""durak play, driven as a person would: the real command in a pseudo-terminal (pexpect), one deal per family."""
import re
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")
ROOT = Path(__file__).resolve().parents[1]
PROMPT = r"your move \((\w[\w ]*): number"


def _play(args, first_inputs=(), timeout=240):
    child = pexpect.spawn(sys.executable, ["-m", "sim.cli", "play", *args], cwd=str(ROOT), encoding="utf-8",
                          timeout=timeout, dimensions=(50, 200))
    log = []
    pending = list(first_inputs)
    moves = 0
    while True:
        i = child.expect([PROMPT, r"type replay to see the deal again", pexpect.EOF])
        log.append(child.before)
        if i == 0:
            child.sendline(pending.pop(0) if pending else "1")
            moves += 1
            assert moves < 400, "the deal does not end"
        elif i == 1:
            child.sendline("replay")
            child.expect(r"the same deal: durak play")
            log.append(child.before)
            child.expect(r"type replay to see the deal again")
            child.sendline("")
            child.expect(pexpect.EOF)
            log.append(child.before)
            break
        else:
            raise AssertionError("the command ended before the deal: " + "".join(log)[-2000:])
    child.close()
    assert child.exitstatus == 0
    return "".join(log), moves


@pytest.mark.parametrize("family,players,extra", [
    ("prostoy_5", 2, []), ("prostoy_6", 3, []), ("podkidnoy", 2, []),
    ("perevodnoy", 4, ["--toggle", "teams=2v2"]),
])
def test_a_scripted_person_plays_a_deal_to_the_end(family, players, extra):
    out, moves = _play(["--rules", family, "--players", str(players), "--strategy", "greedy", "--seed", "5",
                        "--ascii", *extra])
    assert moves > 0
    assert "your hand:" in out and "trump " in out and "talon " in out and " 1) " in out
    assert re.search(r"^(you are the fool|you escaped; the fool: seat|the deal is a draw)", out, re.M)
    assert re.search(r"^game over after \d+ bouts", out, re.M)  # the replay, told by the referee


@pytest.mark.slow  # the hint's search: minutes of compile on a cold cache
def test_illegal_input_gets_the_referees_reason_and_a_hint_answers():
    # seed 3, podkidnoy, 2 players: you lead, then may throw in (hand 7D 7H AH 6S AS after leading 6C)
    out, _ = _play(["--rules", "podkidnoy", "--strategy", "greedy", "--seed", "3", "--ascii", "--hint-budget", "50"],
                   first_inputs=["6C", "AS", "?", "ZZ"])
    assert "illegal (POD-T2): AS matches no rank on the table" in out
    assert "hint: your fool probability after each move, over 50 deals" in out and "pass" in out
    assert "not a card: 'ZZ'" in out


def test_the_live_log_shows_forced_moves_and_how_each_bout_ends():
    """Seed 1, podkidnoy, 2 players: your first option (lead 10H) cannot be beaten, so greedy's take is forced;
    the screen tells the take, the pick-up, every bout's end and the draws, and the next bout's roles."""
    out, _ = _play(["--rules", "podkidnoy", "--strategy", "greedy", "--seed", "1", "--ascii"], first_inputs=["1", "2"])
    assert "seat 1 (greedy): take (the only move)" in out
    assert "took: seat 1 (greedy) picks up 10H" in out
    assert re.search(r"^  beaten off: .+ go to the discard", out, re.M)
    assert "  you draw 9D" in out and re.search(r"^  seat 1 \(greedy\) draws \d cards?", out, re.M)
    assert re.search(r"^bout 2: you attack seat 1 \(greedy\)", out, re.M)
    ends = len(re.findall(r"^  (beaten off|took):", out, re.M))
    bouts = int(re.search(r"^game over after (\d+) bouts", out, re.M).group(1))
    assert ends >= bouts - 1  # every bout but perhaps the last (which ends the deal) says how it ended


def test_several_cards_at_a_throw_in_are_refused_one_at_a_time():
    out, _ = _play(["--rules", "podkidnoy", "--strategy", "greedy", "--seed", "3", "--ascii"],
                   first_inputs=["6C", "6S 7D"])
    assert "one card at a time: throw in one of 6S 7D now" in out
    assert "the referee allows it" not in out


def test_suit_symbols_without_ascii():
    child = pexpect.spawn(sys.executable, ["-m", "sim.cli", "play", "--strategy", "greedy", "--seed", "3"],
                          cwd=str(ROOT), encoding="utf-8", timeout=240)
    child.expect(PROMPT)
    assert "\u2663" in child.before or "\u2660" in child.before
    child.sendline("q")
    child.expect(pexpect.EOF)


@pytest.mark.rules("VAR-PO1", "RUL-55")
def test_poker_swap_is_a_decision_of_its_own():
    # pokerny: the defender is asked whether to swap before beating; "1" (no swap) is always the first option
    out, _ = _play(["--rules", "podkidnoy", "--toggle", "variant=pokerny", "--strategy", "greedy", "--seed", "5",
                    "--ascii"])
    assert " 1) no swap" in out and " 2) swap " in out  # the prompt itself is consumed by _play
    assert re.search(r"^game over after \d+ bouts", out, re.M)
