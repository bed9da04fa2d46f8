"""Every worked example of docs/examples/positions.json is judged as its "expected" block says.

The file is the repository's own (docs/positions.md documents the format); nothing here needs a folder
outside the repository, so none of these tests can skip."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sim.referee import format_judgement, judge

PATH = Path(__file__).resolve().parents[1] / "docs" / "examples" / "positions.json"
EXAMPLES = json.loads(PATH.read_text())["examples"]


def test_examples_cover_every_family():
    fams = {e["family"] for e in EXAMPLES}
    assert fams == {"prostoy_5", "prostoy_6", "podkidnoy", "perevodnoy"}
    assert len(EXAMPLES) >= 5
    assert any(e["expected"]["legal"] for e in EXAMPLES) and any(not e["expected"]["legal"] for e in EXAMPLES)


@pytest.mark.parametrize("ex", EXAMPLES, ids=[e["id"] for e in EXAMPLES])
def test_example_verdict(ex):
    res = judge(ex)
    exp = ex["expected"]
    assert res["legal"] is exp["legal"], res
    assert res["rule"] and res["reason"]
    text = format_judgement(res)
    assert text.startswith("LEGAL" if res["legal"] else "ILLEGAL")
    if not res["legal"]:
        # an illegal verdict names one of the example's own rule ids
        assert res["rule"] in ex["rule_refs"], (res["rule"], ex["rule_refs"])
        assert "position" not in res
        return
    ev, pos = res["events"], res["position"]
    if "discarded" in exp:
        assert sorted(ev["discarded"]) == sorted(exp["discarded"])
    if "taken" in exp:
        assert sorted(ev["taken"][str(ex["action"]["player"])]) == sorted(exp["taken"])
    for seat, cards in exp.get("hands_after", {}).items():
        assert sorted(pos["hands"][seat]) == sorted(cards)
    if "next_attacker" in exp:
        assert (ev["next_attacker"], ev["next_defender"]) == (exp["next_attacker"], exp["next_defender"])
    if "new_attacker" in exp:
        assert (pos["attacker"], pos["defender"]) == (exp["new_attacker"], exp["new_defender"])
    if "table_after" in exp:
        assert pos["table"] == exp["table_after"]
    # card conservation after the action (cards drawn from a talon of unknown order count in hand_sizes)
    sizes = pos.get("hand_sizes") or {k: len(h) for k, h in pos["hands"].items()}
    n_cards = (sum(sizes.values()) + sum(1 + (t["cover"] is not None) for t in pos["table"])
               + pos["talon_size"] + pos["discard_count"])
    assert n_cards == 36


def test_judge_command_reads_the_examples_file():
    from sim.cli import main
    res = CliRunner().invoke(main, ["judge", str(PATH)])
    assert res.exit_code == 0, res.output
    assert res.output.count("== ") == len(EXAMPLES)
    assert "ILLEGAL (PER-3)" in res.output and "LEGAL (PR5-D1)" in res.output


def test_partial_defence_worked_example():
    """S5-03: beaten pairs are discarded, the unbeaten card is taken, the taker is skipped (PR5-D3, PR5-T2)."""
    ex = next(e for e in EXAMPLES if e["id"] == "S5-03")
    res = judge(ex)
    assert res["events"]["taken"] == {"1": ["QC"]}
    assert res["position"]["table"] == []
    assert res["position"]["discard_count"] == ex["position"]["discard_count"] + 4
