"""Every example of ../shared/examples/positions.json is judged as its "expected" block says."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sim.referee import format_judgement, judge  # noqa: E402


def _examples_path() -> Path | None:
    candidates = [Path(__file__).resolve().parents[2] / "shared" / "examples" / "positions.json"]
    if os.environ.get("DURAK_SHARED"):
        candidates.append(Path(os.environ["DURAK_SHARED"]) / "examples" / "positions.json")
    for p in candidates:
        if p.is_file():
            return p
    return None


PATH = _examples_path()
EXAMPLES = json.loads(PATH.read_text())["examples"] if PATH else []
pytestmark = pytest.mark.skipif(
    PATH is None, reason="shared/examples/positions.json not found beside the repository; "
                         "set DURAK_SHARED to the shared/ folder to run these tests")


def _expected_legal(ex: dict) -> bool:
    exp = ex["expected"]
    if "legal" in exp:
        return exp["legal"]
    return exp.get("attack_legal", True)  # P5-12 asks "what happens", its action is legal


@pytest.mark.parametrize("ex", EXAMPLES, ids=[e["id"] for e in EXAMPLES])
def test_example_verdict(ex):
    res = judge(ex)
    assert res["legal"] is _expected_legal(ex), res
    assert res["rule"] and res["reason"]
    text = format_judgement(res)
    assert text.startswith("LEGAL" if res["legal"] else "ILLEGAL")
    if not res["legal"]:
        # an illegal verdict names one of the example's own rule ids
        assert res["rule"] in ex["rule_refs"], (res["rule"], ex["rule_refs"])
        assert "position" not in res
    else:
        assert "position" in res and "events" in res


def _by_id(ident):
    for e in EXAMPLES:
        if e["id"] == ident:
            return e
    pytest.skip(f"example {ident} is not in positions.json")


def test_p5_12_partial_defence_consequences():
    ex = _by_id("P5-12")
    exp = ex["expected"]
    res = judge(ex)
    assert res["legal"]
    ev, pos = res["events"], res["position"]
    assert sorted(ev["discarded"]) == sorted(exp["discarded"])
    assert pos["discard_count"] == exp["discard_count_after"]
    for seat, cards in exp["hands_after"].items():
        assert sorted(pos["hands"][seat]) == sorted(cards)
    assert len(pos["hands"][str(ex["position"]["defender"])]) == exp["defender_hand_size_after"]
    assert ev["next_attacker"] == exp["next_attacker"] and pos["attacker"] == exp["next_attacker"]
    assert ev["next_defender"] == exp["next_defender"] and pos["defender"] == exp["next_defender"]
    assert ev["taken"] == {"1": ["QH"]}
    assert pos["table"] == []


def test_pv_01_transfer_roles_and_table():
    ex = _by_id("PV-01")
    exp = ex["expected"]
    res = judge(ex)
    assert res["legal"]
    pos = res["position"]
    assert pos["attacker"] == exp["new_attacker"]
    assert pos["defender"] == exp["new_defender"]
    assert pos["table"] == exp["table_after"]
    assert "7S" not in pos["hands"]["1"]


def test_pk_03_rule_is_first_bout_limit():
    ex = _by_id("PK-03")
    res = judge(ex)
    assert not res["legal"] and res["rule"] == "POD-L3"


def test_p5_01_attacker_draws_unknown_cards_honestly():
    """The talon order is not given: the attacker's immediate draw (PR5-R1) is reported as unknown."""
    ex = _by_id("P5-01")
    res = judge(ex)
    pos = res["position"]
    assert pos["hand_sizes"]["0"] == 5
    assert pos["hands"]["0"] == ["9S", "AH"]           # only the cards the referee knows
    assert pos["unknown_draws"]["drawn"] == {"0": 3}
    assert pos["talon_size"] == ex["position"]["talon_size"] - 3
