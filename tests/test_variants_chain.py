"""Chain beating: Дорожный (VAR-DR1, bout_rule=chain_road) and Китайский (VAR-CN1,
bout_rule=chain_chinese), RUL-70..RUL-79. Positions are judged by the referee; whole deals are played by the
core and checked decision by decision against the referee (legal sets) and replayed."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from core_adapter import check_decisions, check_trace, core_decisions, core_traces
from sim.core.cards import card_name, parse_card, suit_of
from sim.core.rules import RulesError, resolve
from sim.referee import decisions as D
from sim.referee import game as G
from rulegen import config_problem, drawn_toggles, toggle_values
from test_fuzz import fuzz_config, fuzz_legal_sets
from test_rules_scenarios import P

ROAD = {"bout_rule": "chain_road"}
CHINESE = {"variant": "kitaisky"}


def load(toggles, n, pos):
    return G.load_position("podkidnoy", toggles, pos)


def legal(st):
    return D.to_act(st), {("-" if o == D.NO_CARD else card_name(o)) if D.to_act(st)[1] == D.K_COVER
                          else "+".join(card_name(c) for c in range(36) if o >> c & 1) for o in D.legal_options(st)}


def names(cards):
    return sorted(card_name(c) for c in cards if c is not None)


# ---- Дорожный ---------------------------------------------------------------------------------------
@pytest.mark.rules("VAR-DR1", "RUL-71", "RUL-74")
@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_road_deals_the_whole_pack_and_the_dealer_keeps_the_trump(n):
    for g in range(3):
        for i, tr in enumerate(core_traces("podkidnoy", n, ROAD, "greedy", 5, g, 2)):
            st = D.trace_state(tr)
            deck = [parse_card(c) for c in tr["deck"]]
            assert [len(h) for h in st.hands] == [36 // n] * n and not st.talon
            assert deck[-1] in st.hands[tr["dealer"]] and st.trump_suit == suit_of(deck[-1])
            six = 4 * 0 + st.trump_suit  # the trump six is always dealt: its holder leads (RUL-71)
            holder = next(s for s in range(n) if six in st.hands[s])
            assert tr["actions"][0]["player"] == holder == st.attacker
            if i:  # RUL-74: the fool deals the next deal
                assert tr["dealer"] == tr["previous_fool"] or tr["previous_fool"] is None
            check_trace(tr)
            G.replay(tr)


@pytest.mark.rules("VAR-DR1", "RUL-72", "RUL-77")
def test_road_attacker_beats_the_top_card_or_agrees_to_the_discard():
    st = load(ROAD, 2, P({0: "8H 10H 6S", 1: "JH 7C"}, table=["7H/9H"], attacker=0, defender=1, talon=0,
                         trump="S"))
    who, opts = legal(st)
    assert who == (0, D.K_COVER) and opts == {"10H", "6S", "-"}  # the top card is 9H: 8H does not beat it
    assert not G.check(st, {"type": "cover", "player": 0, "attack": "7H", "cover": "8H"}).legal  # only the top
    assert not G.check(st, {"type": "take", "player": 0}).legal  # the attacker does not take
    G.apply(st, {"type": "pass", "player": 0})  # agree to the discard: the defender leads next
    assert st.table == [] and names(st.discard) == ["7H", "9H"] and st.attacker == 1 and st.defender == 0


@pytest.mark.rules("VAR-DR1", "RUL-73", "RUL-72")
def test_road_defender_who_does_not_beat_takes_every_card_and_loses_his_turn():
    st = load(ROAD, 3, P({0: "8H AH", 1: "QH 7C", 2: "6D 6C"}, table=["7H/9H", "10H"], attacker=0, defender=1,
                         talon=0, trump="S"))
    who, opts = legal(st)
    assert who == (1, D.K_COVER) and opts == {"QH", "-"}
    assert not G.check(st, {"type": "pass", "player": 1}).legal  # the defender beats or takes
    G.apply(st, {"type": "take", "player": 1})
    assert names(st.hands[1]) == ["10H", "7C", "7H", "9H", "QH"]
    assert st.attacker == 2 and st.defender == 0  # the turn passes to the next player


@pytest.mark.rules("VAR-DR1", "RUL-71", "RUL-70")
def test_road_is_refused_with_five_players_teams_and_other_modifiers():
    with pytest.raises(RulesError, match="do not split among 5"):
        resolve("podkidnoy", 5, ROAD)
    with pytest.raises(RulesError, match="teams"):
        resolve("podkidnoy", 4, {**ROAD, "teams": "2v2"})
    with pytest.raises(RulesError, match="belong to a chain bout"):
        resolve("podkidnoy", 2, {"ten_above_king": True})
    with pytest.raises(RulesError, match="no trump-six exchange"):
        resolve("podkidnoy", 3, {**CHINESE, "trump_six_exchange": True})
    with pytest.raises(RulesError, match="does not apply to perevodnoy"):
        resolve("perevodnoy", 2, {"variant": "dorozhny"})


# ---- Китайский --------------------------------------------------------------------------------------
@pytest.mark.rules("VAR-CN1", "RUL-77")
def test_chinese_ten_above_king_clubs_only_by_clubs_spades_trump():
    st = load(CHINESE, 3, P({0: "KH 10H AH QS 6D", 1: "10C 9C 8C", 2: "JC AS 7D"}, table=["QH"], attacker=2,
                            defender=0, talon=10, trump="S"))
    who, opts = legal(st)
    assert who == (0, D.K_COVER) and opts == {"KH", "10H", "AH", "QS", "-"}  # 10H is above the king
    st = load(CHINESE, 3, P({0: "KC 10C QS AS 6D", 1: "10D 9C 8C", 2: "JC 7D"}, table=["AC"], attacker=2,
                            defender=0, talon=10, trump="S"))
    assert legal(st)[1] == {"-"}  # no spade beats a club, and the ace of clubs is the top club
    st = load(CHINESE, 3, P({0: "QC 10C QS AS 6D", 1: "10D 9C 8C", 2: "JC 7D"}, table=["KC"], attacker=2,
                            defender=0, talon=10, trump="S"))
    assert legal(st)[1] == {"10C", "-"}  # the ten of clubs beats the king of clubs


@pytest.mark.rules("VAR-CN1", "RUL-76")
def test_chinese_chain_of_one_card_per_player_goes_to_the_discard_and_the_last_beater_leads():
    st = load(CHINESE, 3, P({0: "8H AH", 1: "QH 7C", 2: "6D KH 6C"}, table=["7H/9H"], attacker=0, defender=2,
                            talon="6S 7S", trump="S", bout_opener=0))
    assert legal(st) == ((2, D.K_COVER), {"KH", "-"})
    G.apply(st, {"type": "cover", "player": 2, "attack": "9H", "cover": "KH"})
    assert st.table == [] and names(st.discard) == ["7H", "9H", "KH"]
    assert st.attacker == 2 and st.defender == 0
    assert names(st.hands[0]) == ["6S", "7S", "8H", "AH"] and len(st.hands[2]) == 2  # the leader refills first


@pytest.mark.rules("VAR-CN1", "RUL-78")
def test_chinese_player_who_does_not_beat_takes_the_bottom_card_and_the_chain_goes_on():
    st = load(CHINESE, 4, P({0: "8H AH", 1: "QH 7C", 2: "6D 6C", 3: "JH 7D"}, table=["7H/9H"], attacker=0,
                            defender=2, talon=0, trump="S"))
    G.apply(st, {"type": "take", "player": 2})
    assert names(st.hands[2]) == ["6C", "6D", "7H"] and D.chain.chain(st) == [parse_card("9H")]
    assert legal(st) == ((3, D.K_COVER), {"JH", "-"})  # the next player beats the same top card
    G.apply(st, {"type": "take", "player": 3})  # he takes the last card: the next player leads
    assert st.table == [] and st.attacker == 0 and names(st.hands[3]) == ["7D", "9H", "JH"]


@pytest.mark.rules("VAR-CN1", "RUL-78")
def test_chinese_next_lead_taker_leads_after_taking_the_last_card():
    st = load({**CHINESE, "chinese_next_lead": "taker"}, 3,
              P({0: "8H AH", 1: "6C", 2: "6D 7D"}, table=["QH"], attacker=0, defender=1, talon=0, trump="S"))
    G.apply(st, {"type": "take", "player": 1})
    assert st.attacker == 1 and st.defender == 2


@pytest.mark.rules("VAR-CN1", "RUL-75")
def test_chinese_deal_spades_trump_and_the_first_player_leads():
    for g in range(4):
        for tr in core_traces("podkidnoy", 4, CHINESE, "random", 9, g, 2):
            st = D.trace_state(tr)
            assert st.trump_suit == 3 and [len(h) for h in st.hands] == [6] * 4 and len(st.talon) == 12
            assert tr["actions"][0]["player"] == (tr["dealer"] + 1) % 4
            check_trace(tr)
            if tr["result"]["bouts"] < 1000:
                G.replay(tr)


# ---- the core against the referee ----------------------------------------------------------------------
@pytest.mark.rules("VAR-DR1", "VAR-CN1", "RUL-70", "RUL-79")
@pytest.mark.parametrize("n,toggles", [
    (2, ROAD), (3, {**ROAD, "trump_only_if_cannot_follow": True, "ten_above_king": True}),
    (6, {**ROAD, "clubs_only_by_clubs": True, "trump_six_beats_trump_ace": True}),
    (2, {**ROAD, "pogony_instant_win": True, "trump_six_exchange": True, "pogony_scoring": "last_lead_sixes"}),
    (2, CHINESE), (3, {**CHINESE, "chinese_next_lead": "taker"}), (5, {**CHINESE, "hand_size": 5}),
    (3, {**CHINESE, "pogony_instant_win": True}),
    (6, {"bout_rule": "chain_chinese", "trump_only_if_cannot_follow": True}),
])
def test_core_legal_sets_equal_the_referees_in_chain_bouts(n, toggles):
    for strategy in ("random", "greedy"):
        for g in range(3):
            for tr, decisions in core_decisions("podkidnoy", n, toggles, strategy, 3, g, 2):
                check_decisions(tr, decisions)


@pytest.mark.rules("RUL-79")
@pytest.mark.parametrize("n,toggles", [(2, ROAD), (3, ROAD), (3, CHINESE),
                                       (4, {**CHINESE, "chinese_next_lead": "taker"})])
def test_a_chain_observation_completed_by_sampling_is_a_consistent_state(n, toggles):
    """The search player's determinization (kernels.sample_hidden) in a chain bout: same decision, same
    options, every card the seat knows in place, and the deal plays on with cards conserved."""
    import random

    from sim.core import layout as L
    from sim.core.machine import Deal
    rules = resolve("podkidnoy", n, toggles)
    rnd = random.Random(5)
    checked = 0
    for seed in range(6):
        d = Deal(rules, seed)
        while not d.over:
            if rnd.random() < 0.2:
                seat, kind = d.to_act()
                obs = d.observe(seat)
                s = Deal.sampled(rules, obs, seed=rnd.randrange(1 << 30))
                assert s.conserved() and s.to_act() == (seat, kind)
                assert s.legal_options() == d.legal_options()
                for t in range(n):
                    assert s.hands()[t] & int(obs[L.O_KNOWN + t]) == int(obs[L.O_KNOWN + t])
                    assert bin(s.hands()[t]).count("1") == bin(d.hands()[t]).count("1")
                steps = 0
                while not s.over and steps < 3000:
                    s.apply(rnd.choice(sorted(s.legal_options())))
                    steps += 1
                assert s.result()[L.F_INVARIANT] == 0
                checked += 1
            d.apply(rnd.choice(sorted(d.legal_options())))
    assert checked > 10


# ---- fuzzing chain configurations (tests/rulegen.py draws a chain bout in about 1 configuration of 100) ----
@st.composite
def chain_configs(draw):
    n = draw(st.sampled_from((2, 3, 4, 5, 6)))
    toggles = {t.name: draw(st.sampled_from(toggle_values(t, "podkidnoy")), label=t.name)
               for t in drawn_toggles("podkidnoy")}
    toggles["bout_rule"] = draw(st.sampled_from(("chain_road", "chain_chinese")), label="bout_rule")
    for name in ("ten_above_king", "clubs_only_by_clubs"):
        toggles[name] = draw(st.booleans(), label=name)
    if toggles["bout_rule"] == "chain_chinese":
        toggles["chinese_next_lead"] = draw(st.sampled_from(("next_player", "taker")), label="chinese_next_lead")
    dps = draw(st.integers(1, 3), label="deals_per_series")
    assume(config_problem("podkidnoy", n, toggles, dps) is None)
    return n, toggles, dps


@pytest.mark.rules("VAR-DR1", "VAR-CN1", "RUL-70")
@settings(max_examples=30, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(chain_configs())
def test_fuzz_chain_configurations_against_the_referee(cfg):
    """test_fuzz.py's two checks (trace walk and replay; the whole legal set at every decision) on chain
    configurations combined with every other toggle of podkidnoy."""
    n, toggles, dps = cfg
    fuzz_config("podkidnoy", n, toggles, dps, games=1)
    fuzz_legal_sets("podkidnoy", n, toggles, dps, games=1)
