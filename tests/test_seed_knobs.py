"""The seed advice no strategy followed, one switchable knob each, shown on built positions.

Each test builds a position (sim.referee.trace.to_core, the judge format), asks the strategy for its
decision with the knob off (the default: today's play) and on, and checks the answer the habit calls for:

- advice-002 ``take_high_attack`` — 002's «лучше принять, чем крыть хорошую, старшую масть» read as written:
  take rather than cover a high card led at you (the older knobs judge the covering card);
- advice-002 ``avoid_draw`` — 002's «не сделать ничьей»: with two left, no lead both would go out on;
- advice-002 ``endgame_many`` — 002's endgame rule («вынудила бы соседа принять») with three players;
- tactics ``keep_pair_talon`` — 001's «иногда выгоднее придержать пару карт для следующего кона».
"""
import numpy as np
import pytest

from sim.referee.trace import to_core
from sim.core import dispatch
from sim.core import layout as L
from sim.core.cards import card_name, parse_card
from sim.core.machine import Deal
from sim.experiments import batch

FUNCS = ("attack", "cover", "throw_in", "transfer", "exchange")


def _fn(spec, kind):
    seat = batch.parse_strategy(spec)
    mod = dispatch.load_module(dispatch.info(seat.name).path)
    p = dispatch.params_vector(dispatch.info(seat.name), [v for _, v in seat.params])
    return getattr(mod, FUNCS[kind]), p


def _decide(spec, rules, ws):
    """The strategy's answer at the core state's pending decision (seen from the seat to act)."""
    seat, kind = int(ws[L.O_ACTOR]), int(ws[L.O_KIND])
    obs = Deal.from_state(rules, ws).observe(seat)
    obs.flags.writeable = False
    fn, p = _fn(spec, kind)
    return int(fn(obs, np.int64(ws[L.S_LEGAL]), p, np.zeros(1, dtype=np.uint64)))


def _position(n, hands, table=(), talon=0, trump="7H", first=False, discard=None, attacker=0):
    """A judge-format position; talon counts the face-up trump under it."""
    pos = {"num_players": n, "seats_clockwise": list(range(n)), "trump_suit": trump[-1], "trump_card": trump,
           "trump_card_location": "talon_bottom" if talon else "already_drawn", "talon_size": talon,
           "talon_order_top_to_bottom": None, "hands": {str(s): h for s, h in enumerate(hands)},
           "attacker": attacker, "defender": (attacker + 1) % n, "first_bout": first, "dealer": None,
           "out_players": [], "teams": None,
           "table": [{"attack": a, "cover": c} for a, c in table]}
    placed = {parse_card(c) for h in hands for c in h} | {parse_card(x) for row in table for x in row if x}
    pos["discard_count"] = 36 - len(placed) - talon
    if discard is not None:
        pos["discard"] = discard
    return pos


def _cards(mask):
    return sorted(card_name(c) for c in range(36) if (mask >> c) & 1)


# ---- take_high_attack -------------------------------------------------------------------------------------
@pytest.mark.parametrize("family", ["prostoy_5", "prostoy_6", "podkidnoy"])
def test_take_high_attack_takes_a_ten_led_at_you_that_the_covering_card_rule_would_cover(family):
    """A ten led at you, the jack to cover it: the covering-card rule (high_rank=6: queen) covers; the attack
    reading at ten takes. Talon 20, so 'many cards still in the pack'."""
    h = 6 if family == "prostoy_6" else 5
    hands = [["JC", "8H", "9D", "7H", "QC", "AH"][:h], ["JD", "8S", "9S", "KH", "10C", "AC"][:h]]
    rules, ws = to_core(family, {}, _position(2, hands, [("10D", None)], talon=20, trump="QS"))
    assert int(ws[L.O_KIND]) == L.K_COVER
    assert card_name(_decide("advice-002", rules, ws)) == "JD"
    assert _decide("advice-002:take_high_attack=4", rules, ws) == L.NO_CARD
    assert card_name(_decide("advice-002:take_high_attack=5", rules, ws)) == "JD"  # a ten is below a jack
    rules, ws = to_core(family, {}, _position(2, hands, [("10D", None)], talon=8, trump="QS"))
    assert card_name(_decide("advice-002:take_high_attack=4", rules, ws)) == "JD"  # talon < take_high_talon


def _cover_answers(spec, rules, ws):
    d = Deal.from_state(rules, ws)
    out = []
    while not d.over and d.to_act()[1] == L.K_COVER:
        tgt = card_name(int(d.ws[L.O_TABLE_ATT + d.ws[L.O_COVER_TARGET]]))
        a = _decide(spec, rules, d.ws)
        out.append((tgt, card_name(a) if a != L.NO_CARD else "take"))
        d.apply(a)
    return out


def test_take_high_attack_leaves_only_the_high_card_with_partial_defence_and_takes_the_set_with_take_all():
    hands = [["6H", "KC"], ["8C", "8D", "JS", "9C", "QD"]]  # the attacker's led set is on the table
    rules, ws = to_core("prostoy_5", {}, _position(2, hands, [("7C", None), ("7D", None), ("10S", None)],
                                                     talon=20, trump="AH"))
    off = dict(_cover_answers("advice-002", rules, ws))
    on = dict(_cover_answers("advice-002:take_high_attack=4", rules, ws))
    assert off["10S"] == "JS" and on["10S"] == "take"
    assert on["7C"] != "take" and on["7D"] != "take"  # partial defence: the small cards are still covered
    hands = [h + x for h, x in zip(hands, (["AS"], ["AD"]))]
    rules, ws = to_core("prostoy_6", {}, _position(2, hands, [("7C", None), ("7D", None), ("10S", None)],
                                                     talon=20, trump="AH"))
    assert int(ws[L.O_TABLE_ATT + ws[L.O_COVER_TARGET]]) != parse_card("10S")  # the ten is not asked first
    assert _cover_answers("advice-002", rules, ws)[0][1] != "take"
    assert _cover_answers("advice-002:take_high_attack=4", rules, ws)[0][1] == "take"  # judged before any cover


# ---- avoid_draw ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("family", ["prostoy_5", "prostoy_6"])
def test_avoid_draw_does_not_lead_the_whole_hand_the_opponent_can_cover_with_his_last_cards(family):
    """Two players, talon empty: 7C 7D 8S (a legal triple) against 9C 9D 10S. The endgame rule leads the whole
    hand; he covers it with all three cards and both go out: a draw. avoid_draw leads the cheapest single."""
    rules, ws = to_core(family, {}, _position(2, [["7C", "7D", "8S"], ["9C", "9D", "10S"]]))
    assert int(ws[L.O_KIND]) == L.K_ATTACK
    assert _cards(_decide("advice-002", rules, ws)) == ["7C", "7D", "8S"]
    assert _cards(_decide("advice-002:avoid_draw=1", rules, ws)) == ["7C"]
    # when he cannot cover it all (a ten of spades is not there), the whole hand is no draw: led as before
    rules, ws = to_core(family, {}, _position(2, [["7C", "7D", "8S"], ["9C", "9D", "6S"]]))
    assert _cards(_decide("advice-002:avoid_draw=1", rules, ws)) == _cards(_decide("advice-002", rules, ws))


# ---- endgame_many ----------------------------------------------------------------------------------------
def test_endgame_many_leads_the_card_the_neighbour_cannot_beat_with_three_players():
    """Three players, talon empty, every heart (trump) gone: nobody can beat the ace of spades. Off (and the
    two-player endgame rule does not apply), the cheapest card is led; on, the ace, so the neighbour must take."""
    hands = [["AS", "7C", "8D", "9D"], ["6C", "8S", "10C", "10D"], ["JC", "QS", "6S"]]
    held = {c for h in hands for c in h}
    discard = [card_name(c) for c in range(36) if card_name(c) not in held]
    assert sum(x.endswith("H") for x in discard) == 9
    rules, ws = to_core("prostoy_5", {}, _position(3, hands, discard=discard))
    assert int(ws[L.O_KIND]) == L.K_ATTACK and int(ws[L.O_DEFENDER]) == 1
    assert _cards(_decide("advice-002", rules, ws)) == ["7C"]
    assert _cards(_decide("advice-002:endgame_many=0.9", rules, ws)) == ["AS"]
    assert _cards(_decide("advice-002:endgame=0,endgame_many=0.9", rules, ws)) == ["AS"]  # its own knob


# ---- keep_pair_talon -------------------------------------------------------------------------------------
def test_keep_pair_talon_keeps_a_pair_back_and_throws_in_a_single_instead():
    """podkidnoy: 7C covered by 9C; the attacker holds 7D 7S (a pair) and 9D. tactics throws in the cheapest
    (7D); keeping the pair back it throws in the 9D, and with nothing but the pair it passes."""
    hands = [["7D", "7S", "9D", "KS", "AC"], ["8C", "9H", "QS", "10D", "6S"]]
    rules, ws = to_core("podkidnoy", {}, _position(2, hands, [("7C", "9C")], talon=18, trump="6H"))
    assert int(ws[L.O_KIND]) == L.K_THROW_IN and int(ws[L.O_ACTOR]) == 0
    assert card_name(_decide("tactics", rules, ws)) == "7D"
    assert card_name(_decide("tactics:keep_pair_talon=0", rules, ws)) == "9D"
    assert card_name(_decide("tactics:keep_pair_talon=19", rules, ws)) == "7D"  # talon 18 < 19: not yet
    hands[0][2] = "JD"
    rules, ws = to_core("podkidnoy", {}, _position(2, hands, [("7C", "9C")], talon=18, trump="6H"))
    assert _decide("tactics:keep_pair_talon=0", rules, ws) == L.NO_CARD


# ---- defaults, parameters ------------------------------------------------------------------------------------
def test_the_new_knobs_are_off_by_default_and_say_what_they_change():
    from strategies import advice_002 as A, tactics as T
    assert A.PARAMS["take_high_attack"][0] == 99 and A.PARAMS["avoid_draw"][0] == 0
    assert A.PARAMS["endgame_many"][0] == 0 and T.PARAMS["keep_pair_talon"][0] == 99
    for p in (A.PARAMS["take_high_attack"], A.PARAMS["avoid_draw"], A.PARAMS["endgame_many"],
              T.PARAMS["keep_pair_talon"]):
        assert "«" in p[3] and "off" in p[3]  # the seed's words and how to switch it off


@pytest.mark.parametrize("spec,msg", [("expert:keep_ace=0.5", "keep_ace=0.5 must be 0 or 1"),
                                      ("expert:high_rank=-50", r"high_rank=-50 is outside \[0, 9\]"),
                                      ("expert:dump_hand=7.5", r"must be a whole number in \[1, 99\]"),
                                      ("expert:transfer=3", r"transfer=3 is outside \[0, 2\]"),
                                      ("expert:count_p=1.5", r"count_p=1.5 is outside \[0, 1\]"),
                                      ("advice-002:endgame=0.5", "endgame=0.5 must be 0 or 1")])
def test_expert_refuses_odd_parameter_values_in_one_line(spec, msg):
    with pytest.raises(batch.LineupError, match=msg) as e:
        batch.parse_strategy(spec)
    assert "\n" not in str(e.value) and "the value tuned for the family" in str(e.value) or "advice" in spec
    assert batch.parse_strategy("expert:high_rank=-99").label == "expert"  # -99 asks for the tuned value
    assert batch.parse_strategy("expert:count_p=0.95,high_rank=4").changed == ("high_rank", "count_p")


def test_strategies_lists_each_familys_default():
    from click.testing import CliRunner
    from sim.cli import main
    out = CliRunner().invoke(main, ["strategies"]).output
    # expert's two-player tables (strategies/expert.py) are what `durak strategies` shows per family
    from strategies import expert as E
    j = E.KNOB_NAMES.index("TAKE_HIGH_TALON")
    want = {f: E.table(f, 2)[j] for f in ("prostoy_5", "prostoy_6", "podkidnoy", "perevodnoy")}
    shown = ", ".join(f"{f} {v:g}" for f, v in want.items())
    assert f"take_high_talon  default by family: {shown}  [0, 99]" in out
    assert "keep_pair_talon=99  [0, 99]" in out and "take_high_attack=99  [0, 99]" in out
    import json
    rows = {r["name"]: r for r in json.loads(CliRunner().invoke(main, ["strategies", "--json"]).output)}
    assert rows["expert"]["params"]["take_high_talon"]["family_defaults"] == want
    assert "family_defaults" not in rows["tactics"]["params"]["keep_pair_talon"]
