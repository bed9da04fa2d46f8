"""Scenarios of the scoring variants (group "scoring"): Pogonny (VAR-PG1) and Ochkovy (VAR-OC1).

Each scenario is played twice: by the reference referee (``sim.referee.game``) and by the compiled core (the
position rebuilt on the core by ``sim.referee.trace.to_core``, then the same answers), and both must give the
counts and the score winners the rulings say (sim/RULINGS.md RUL-60..63).
"""
from __future__ import annotations

import numpy as np
import pytest

from sim import referee as R
from sim.core import kernels as K
from sim.core import layout as L
from sim.core.cards import RANKS, parse_card
from sim.core.rules import RulesError, resolve
from test_rules_scenarios import P, A

ENGINES = ("referee", "core")


def _core_answers(ws, rv, rec, answers):
    trace = np.zeros((1, 4), dtype=np.int64)
    tn = np.zeros(1, dtype=np.int64)
    for a in answers:
        assert K.apply(rv, ws, rec, np.int64(a), trace, tn, False), f"the core refused {a}"
    # nobody throws in: pass until the bout is over (or the deal)
    while int(ws[L.O_KIND]) == L.K_THROW_IN and int(ws[L.O_NTABLE]) > 0:
        assert K.apply(rv, ws, rec, np.int64(L.NO_CARD), trace, tn, False)


def play(engine, family, toggles, pos, ref_actions, core_answers):
    """(points, pogony, pogon_top as rank texts, score winners or None while the deal goes on)."""
    n = pos["num_players"]
    if engine == "referee":
        st = R.load_position(family, toggles, pos)
        for a in ref_actions:
            R.apply(st, a)
        sc = st.scores()
        return sc["points"], sc["pogony"], sc["pogon_top"], None if st.result is None else st.result["score_winners"]
    from sim.referee.trace import to_core
    rules, ws = to_core(family, toggles, pos)
    rv = rules.vector()
    rec = np.zeros(L.F_SIZE, dtype=np.int64)
    _core_answers(ws, rv, rec, core_answers)
    top = [None if ws[L.O_POGON_TOP + s] < 0 else RANKS[int(ws[L.O_POGON_TOP + s])] for s in range(n)]
    over = int(ws[L.O_KIND]) == L.K_NONE
    wins = [s for s in range(n) if (int(rec[L.F_SCORE_WIN]) >> s) & 1] if over else None
    return ([int(x) for x in ws[L.O_POINTS:L.O_POINTS + n]], [int(x) for x in ws[L.O_POGONY:L.O_POGONY + n]],
            top, wins)


def c(text):
    return parse_card(text)


def with_by(pos, *seats):
    for row, s in zip(pos["table"], seats):
        row["by"] = s
    return pos


# ---- VAR-PG1: what a pogon is, and who makes it (RUL-61) ----------------------------------------------------
@pytest.mark.rules("VAR-PG1", "VAR-OC1", "RUL-60", "RUL-61")
@pytest.mark.parametrize("engine", ENGINES)
def test_pg1_two_of_a_rank_taken_is_a_pogon_for_whoever_laid_the_second(engine):
    # 0 led 7C; 1 beats it with 9C, 2 throws in 7D and 1 takes: two sevens of the attack (his own
    # 9C does not count) -> one pogon, made by player 2 (the second seven); the cover still beat a card (RUL-60)
    pos = P({0: "8H JH", 1: "9C 6H 10S", 2: "7D JD QH"}, ["7C"], attacker=0, defender=1, talon=8, trump="S")
    ref = [A("cover", 1, attack="7C", cover="9C"), A("throw_in", 2, cards=["7D"]), A("take", 1)]
    got = play(engine, "podkidnoy", {"scoring": "pogonny"}, pos, ref, [c("9C"), c("7D"), L.NO_CARD])
    assert got[:3] == ([0, 1, 0], [0, 0, 1], [None, None, "7"])


@pytest.mark.rules("VAR-PG1", "RUL-61")
@pytest.mark.parametrize("engine", ENGINES)
def test_pg1_a_position_says_who_laid_each_attack_card(engine):
    # the same table given as a position: "by" names the layers, "scores" the counts so far
    pos = with_by(P({0: "8H JH", 1: "6H 10S", 2: "JD QH"}, ["7C/9C", "7D"], attacker=0, defender=1, talon=8,
                    trump="S"), 0, 2)
    pos["scores"] = {"points": [0, 1, 0], "pogony": [0, 0, 0], "pogon_top": [None, None, None]}
    got = play(engine, "podkidnoy", {"scoring": "pogonny"}, pos, [A("take", 1)], [L.NO_CARD])
    assert got[:3] == ([0, 1, 0], [0, 0, 1], [None, None, "7"])
    st = R.load_position("podkidnoy", {"scoring": "pogonny"}, pos)
    assert st.to_position()["table"][1]["by"] == 2 and st.to_position()["scores"]["points"] == [0, 1, 0]


@pytest.mark.rules("VAR-PG1", "RUL-61")
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("lead,pogony,top", [("QC QD", 1, "Q"), ("7C 7D 7H", 0, None), ("6C 6D 6H 6S", 0, None)])
def test_pg1_only_exactly_two_cards_of_a_rank_make_a_pogon(engine, lead, pogony, top):
    pos = P({0: "8H JH", 1: "9H 10H KH AH 9D 10D"}, lead.split(), attacker=0, defender=1, talon=8, trump="S")
    got = play(engine, "podkidnoy", {"scoring": "pogonny"}, pos, [A("take", 1)], [L.NO_CARD])
    assert got[1:3] == ([pogony, 0], [top, None])


@pytest.mark.rules("VAR-PG1", "VAR-OC1", "RUL-60", "RUL-61")
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("family,toggles,ref_covers,core_answers,points", [
    # take-all (PR6-D2): nothing is beaten, the whole attack is taken: 7C 7D is a pogon by the attacker
    ("prostoy_6", {}, [], [L.NO_CARD], 0),
    # partial defence (PR5-D1): 9H is beaten (one card), 7C 7D are taken: a pogon by the attacker
    ("prostoy_5", {}, [{"attack": "9H", "cover": "10H"}], [L.NO_CARD, L.NO_CARD, "10H"], 1),
])
def test_pg1_oc1_simple_durak_take_and_beaten_cards(engine, family, toggles, ref_covers, core_answers, points):
    pos = P({0: "8C JC", 1: "10H KC 6D 8D"}, ["7C", "7D", "9H"], attacker=0, defender=1, talon=8, trump="S")
    take = [x for x in ("7C", "7D", "9H") if x not in {r["attack"] for r in ref_covers}]
    answers = [a if isinstance(a, int) else c(a) for a in core_answers]
    for scoring in ("pogonny", "ochkovy"):
        got = play(engine, family, {**toggles, "scoring": scoring}, pos,
                   [A("defend", 1, covers=ref_covers, take=take)], answers)
        assert got[:3] == ([0, points], [1, 0], ["7", None])


@pytest.mark.rules("VAR-OC1", "RUL-60")
@pytest.mark.parametrize("engine", ENGINES)
def test_oc1_a_transfer_beats_nothing_the_covers_after_it_do(engine):
    # perevodnoy: 1 passes 8C on with 8D to 2, who beats both: 2 has beaten two cards, 1 none
    pos = with_by(P({0: "6H 7H", 1: "8D 6S", 2: "10C 10D QH"}, ["8C"], attacker=0, defender=1, talon=8,
                    trump="S"), 0)
    ref = [A("transfer", 1, card="8D"), A("cover", 2, attack="8C", cover="10C"),
           A("cover", 2, attack="8D", cover="10D")]
    got = play(engine, "perevodnoy", {"scoring": "ochkovy"}, pos, ref, [c("8D"), c("10C"), c("10D")])
    assert got[:2] == ([0, 0, 2], [0, 0, 0])


# ---- who wins the score (RUL-62) ---------------------------------------------------------------------------
@pytest.mark.rules("VAR-PG1", "VAR-OC1", "RUL-62")
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("scoring,points,pogony,top,winners", [
    ("pogonny", [5, 0], [1, 1], ["7", "K"], [1]),        # level on pogony: the higher pogon (K) wins
    ("pogonny", [5, 0], [2, 1], ["6", "A"], [0]),        # more pogony wins, whatever their ranks
    ("pogonny", [5, 0], [1, 1], ["9", "9"], [0, 1]),     # still level: shared
    ("pogonny", [5, 0], [0, 0], [None, None], []),       # no pogon at all: nobody wins the score
    ("ochkovy", [3, 3], [0, 0], [None, None], [1]),      # the last cover (1 beats 6C) decides
    ("ochkovy", [4, 3], [0, 0], [None, None], [0, 1]),   # level after it: shared
])
def test_score_winner_count_then_highest_pogon_then_shared(engine, scoring, points, pogony, top, winners):
    # the last bout: 0 leads his last card 6C, 1 beats it with 7C and is left holding 8D: 1 is the fool
    pos = P({0: "", 1: "7C 8D"}, ["6C"], attacker=0, defender=1, talon=0, trump="S")
    pos["scores"] = {"points": points, "pogony": pogony, "pogon_top": top}
    got = play(engine, "podkidnoy", {"scoring": scoring}, pos, [A("cover", 1, attack="6C", cover="7C")], [c("7C")])
    assert got[3] == winners
    if engine == "referee":  # the fool is still found (the score is a second result)
        st = R.load_position("podkidnoy", {"scoring": scoring}, pos)
        R.apply(st, A("cover", 1, attack="6C", cover="7C"))
        assert st.result["fool"] == 1 and st.result["points"] == [points[0], points[1] + 1]


@pytest.mark.rules("VAR-PG1", "VAR-OC1", "RUL-62")
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("scoring,winners", [("ochkovy", [0, 2]), ("pogonny", [1, 3])])
def test_team_scores_are_summed_and_the_whole_team_wins(engine, scoring, winners):
    # 2v2 (0, 2 against 1, 3), 2 and 3 are out: team 0 beat 3 + 2 cards, team 1 beat 2 + 0 (+1 for the last
    # cover by 1); team 1 made the only pogon. The team still holding cards (1, 3) loses the deal.
    pos = P({0: "", 1: "7C 8D", 2: "", 3: ""}, ["6C"], attacker=0, defender=1, talon=0, trump="S", out=(2, 3),
            teams=[[0, 2], [1, 3]])
    pos["scores"] = {"points": [3, 2, 2, 0], "pogony": [0, 0, 0, 1], "pogon_top": [None, None, None, "8"]}
    got = play(engine, "podkidnoy", {"scoring": scoring}, pos, [A("cover", 1, attack="6C", cover="7C")], [c("7C")])
    assert got[0] == [3, 3, 2, 0] and got[3] == winners


# ---- RUL-63: pogony_scoring=pogonny is scoring=pogonny -------------------------------------------------------
@pytest.mark.rules("VAR-PG1", "RUL-63")
def test_pogony_scoring_pogonny_names_the_scoring_toggle():
    with pytest.raises(RulesError, match="scoring=pogonny"):
        resolve("podkidnoy", 2, {"pogony_scoring": "pogonny"})
    r = resolve("podkidnoy", 2, {"variant": "pogonny", "pogony_scoring": "last_lead_sixes"})
    assert r.toggles["scoring"] == "pogonny" and r.toggles["pogony_scoring"] == "last_lead_sixes"
    assert resolve("perevodnoy", 3, {"variant": "ochkovy"}).toggles["scoring"] == "ochkovy"


# ---- whole deals: the core's scores are the referee's, and they add up ---------------------------------------
WHOLE = [("prostoy_5", 3, {}), ("prostoy_6", 4, {}), ("podkidnoy", 2, {"pogony_instant_win": True}),
         ("podkidnoy", 4, {"teams": "2v2"}), ("perevodnoy", 3, {"pokaznoy": True, "proezdnoy": True})]


@pytest.mark.rules("VAR-PG1", "VAR-OC1", "RUL-60", "RUL-61", "RUL-62")
@pytest.mark.parametrize("family,n,toggles", WHOLE)
@pytest.mark.parametrize("scoring", ("pogonny", "ochkovy"))
def test_whole_deals_core_scores_replay_on_the_referee(family, n, toggles, scoring, runner_for):
    decided = beaten = pogony = 0
    for strategy in ("greedy", "random"):
        run = runner_for(family, n, {**toggles, "scoring": scoring}, (strategy,))
        for seed in range(3):
            for tr in run.trace(seed, 0, 2):
                mine = R.replay(tr)  # compares points, pogony, pogon_top and score_winners too
                res = tr["result"]
                assert mine["points"] == res["points"] and mine["score_winners"] == res["score_winners"]
                decided += bool(res["score_winners"])
                beaten += sum(res["points"])
                pogony += sum(res["pogony"])
    assert decided > 0 and beaten > 0 and pogony > 0


# ---- durak judge: the worked examples of docs/examples/scoring.json ----------------------------------------
@pytest.mark.rules("VAR-PG1", "VAR-OC1", "RUL-61", "RUL-62")
def test_judge_scoring_examples():
    import json
    from pathlib import Path
    from sim.referee.judge import format_judgement, judge
    doc = json.loads((Path(__file__).resolve().parents[1] / "docs" / "examples" / "scoring.json").read_text())
    got = {ex["id"]: judge(ex) for ex in doc["examples"]}
    for ex in doc["examples"]:
        assert got[ex["id"]]["legal"] == ex["expected"]["legal"]
    assert got["PG-01"]["position"]["scores"]["pogony"] == [0, 0, 1]
    res = got["OC-01"]["events"]["result"]
    assert res["fool"] == 1 and res["score_winners"] == [1] and res["points"] == [3, 4]
    assert "score: won by 1" in format_judgement(got["OC-01"])


# ---- the tally and the report: score rows only with a scoring variant ----------------------------------------
@pytest.mark.rules("VAR-PG1", "VAR-OC1", "RUL-62")
def test_report_and_json_carry_the_score_only_with_a_scoring_variant(tmp_path):
    from sim.experiments import experiment as X
    from sim.experiments import report
    exp = X.experiment("podkidnoy", 2, {"variant": "pogonny"}, ["greedy", "random"], games=2000, seed=3).run()
    s = exp.summary()
    sc = s["score"]
    assert sc["scoring"] == "pogonny" and 0 < sc["decided"] <= sc["finished"]
    assert 0 <= sc["fool_won_score"] <= sc["games_with_fool"]
    won = {r["strategy"]: r for r in s["strategies"]}
    assert all(0 <= r["score_won_lo"] <= r["score_won"] <= r["score_won_hi"] <= 1 for r in won.values())
    # every decided game has at least one winner; with two players a shared win counts for both
    wins = sum(int(t.score_won.sum()) for t in exp.tallies)
    assert sc["decided"] <= wins == sc["decided"] + sc["shared"]
    assert won["greedy"]["pogony_per_game"] > won["random"]["pogony_per_game"] > 0  # random takes far more often
    text = report.text(exp)
    assert "Score per strategy" in text and "the fool also won the score" in text
    plain = X.experiment("podkidnoy", 2, {}, ["greedy"], games=200, seed=3).run()
    assert plain.summary()["score"] is None and "score_won" not in plain.strategy_table()
    assert "Score" not in report.text(plain)
