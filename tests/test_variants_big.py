"""§6 two packs: VAR-BD1 Большой, rulings RUL-80..RUL-86.

Referee scenarios on a fixed 72-card pack (new_deal + apply), and the compiled core on the same rules: its
deal, its conservation invariant over twins, its sampler, and its whole legal sets against the referee's.
"""
from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from sim.core import layout as L
from sim.core.cards import card_name, parse_card
from sim.core.machine import Deal
from sim.core.rules import RulesError, resolve
from sim.referee.decisions import legal_options, to_act
from sim.referee.game import apply, check, new_deal, replay

BIG = {"two_packs": True}
PACK72 = [card_name(c % 36) for c in np.random.RandomState(9).permutation(72)]


def A(kind, player, **kw) -> dict:
    return {"type": kind, "player": player, **kw}


def stacked(n, hands: dict, trump="AS", dealer=None):
    """A 72-card pack whose deal (6 each, one at a time from the dealer's left) gives seat s the cards
    hands[s] (padded from what is left), the next card `trump` turned; the rest follows."""
    dealer = n - 1 if dealer is None else dealer
    left = Counter({card_name(c): 2 for c in range(36)})
    want = {s: hands.get(s, "").split() for s in range(n)}
    for cs in list(want.values()) + [[trump]]:
        for c in cs:
            left[c] -= 1
            assert left[c] >= 0, c
    pool = [c for c in sorted(left.elements(), key=parse_card)][::-1]  # high cards first: no low trumps
    for s in range(n):
        while len(want[s]) < 6:
            c = next(c for c in pool if c[-1] != trump[-1])
            pool.remove(c)
            want[s].append(c)
    order = []
    for i in range(6):
        for k in range(1, n + 1):
            order.append(want[(dealer + k) % n][i])
    return order + [trump] + pool, dealer


def deal(n, hands, trump="AS", toggles=BIG, family="podkidnoy"):
    pack, dealer = stacked(n, hands, trump)
    return new_deal(resolve(family, n, toggles), pack, dealer)


def core_vs_referee(family, n, toggles, games=3, strategies=("random", "greedy")):
    from core_adapter import check_decisions, check_trace, core_decisions, core_traces
    for strategy in strategies:
        for g in range(games):
            for tr, dec in core_decisions(family, n, toggles, strategy, 23, g, 2):
                check_decisions(tr, dec)
            for tr in core_traces(family, n, toggles, strategy, 23, g, 2):
                replay(tr)
                check_trace(tr)


# ---- the deal (RUL-81) -------------------------------------------------------------------------
@pytest.mark.rules("VAR-BD1", "RUL-81")
@pytest.mark.parametrize("n", [2, 4, 6])
def test_two_packs_deal_every_card_twice(n):
    rules = resolve("podkidnoy", n, {"variant": "bolshoy"})
    for seed in range(5):
        d = Deal(rules, seed)
        assert sorted(Counter(d.deck).values()) == [2] * 36 and len(d.deck) == 72
        assert d.conserved()
        ws = d.ws
        assert int(ws[L.O_TALON]) == 72 - 6 * n
        held = sum(int(ws[L.O_HAND_SIZE + s]) for s in range(n))
        assert held == 6 * n
        assert int(ws[L.O_TRUMP_CARD]) == d.deck[6 * n]  # the next card is turned (RUL-2)
    st = new_deal(rules, PACK72, 0)
    assert [len(h) for h in st.hands] == [6] * n and len(st.talon) == 72 - 6 * n
    assert st.card_invariant_problem(require_known=True) is None
    with pytest.raises(ValueError, match="twice each"):
        new_deal(rules, PACK72[:36], 0)


# ---- an equal card does not beat (RUL-85) -------------------------------------------------------
@pytest.mark.rules("VAR-BD1", "RUL-85")
def test_a_card_never_beats_its_twin():
    st = deal(2, {0: "9H 7C 8C", 1: "9H 10H 6S"}, trump="AS")
    st.attacker, st.defender = 0, 1
    apply(st, A("attack", 0, cards=["9H"]))
    v = check(st, A("cover", 1, attack="9H", cover="9H"))
    assert not v.legal and "9H" in v.reason
    assert check(st, A("cover", 1, attack="9H", cover="10H")).legal
    # the core's beating relation: no card beats its twin, under every trump and the six-beats-ace rule
    from sim.core.lib import beaters, cover_options_for
    for c in range(36):
        for trump in range(-1, 4):
            for six in (False, True):
                assert not (int(beaters(c, trump, six)) >> c) & 1
    for extra in ({}, {"trump_six_beats_trump_ace": True, "trump_only_if_cannot_follow": True}):
        v = resolve("podkidnoy", 2, {**BIG, **extra}).vector()
        obs = np.zeros(L.O_SIZE, dtype=np.int64)
        obs[L.O_RULES:L.O_RULES + len(v)] = v
        for trump in range(4):
            obs[L.O_TRUMP_SUIT] = trump
            for c in range(36):
                assert cover_options_for(obs, c, np.int64(1) << c, 1) == 0


@pytest.mark.rules("VAR-BD1", "RUL-85")
def test_a_trump_twin_does_not_beat_even_with_trump_only_if_cannot_follow():
    st = deal(2, {0: "6S 7C", 1: "6S 8C"}, trump="AS",
              toggles={**BIG, "trump_only_if_cannot_follow": True, "trump_six_beats_trump_ace": True})
    st.attacker, st.defender = 0, 1
    apply(st, A("attack", 0, cards=["6S"]))
    assert not check(st, A("cover", 1, attack="6S", cover="6S")).legal
    assert to_act(st) == (1, 1)
    assert legal_options(st) == frozenset({-1})  # only taking


# ---- 52 cards lose at once (RUL-82) ---------------------------------------------------------------
def _loaded(loss="52", extra=45):
    """Player 1 takes: he holds 6 + `extra` cards moved from the talon, the attack is one card."""
    toggles = {**BIG, "big_durak_loss_at": loss}
    st = deal(2, {0: "7C 8C 9C 10C JC QC", 1: "6D 6H 7D 7H 8D 8H"}, trump="AS", toggles=toggles)
    st.hands[1].extend(st.talon[:extra])
    del st.talon[:extra]
    st.attacker, st.defender, st.bout_opener = 0, 1, 0
    assert st.card_invariant_problem() is None
    return st


@pytest.mark.rules("VAR-BD1", "RUL-82")
def test_reaching_52_cards_by_taking_loses_at_once():
    st = _loaded(extra=45)  # 51 cards; taking one attack card makes 52
    apply(st, A("attack", 0, cards=["7C"]))
    apply(st, A("take", 1))  # nothing to throw in: the bout ends at the take
    assert st.over
    assert st.result["fool"] == 1 and st.result["outcome"] == ["escaped", "fool"]
    assert st.result["places"] == [1, 2]
    assert len(st.hands[1]) == 52 and len(st.hands[0]) == 5  # nobody drew
    assert st.card_invariant_problem() is None


@pytest.mark.rules("VAR-BD1", "RUL-82")
def test_51_cards_play_on_and_the_rule_can_be_turned_off():
    st = _loaded(extra=44)  # 50 + 1 = 51 cards: play goes on
    apply(st, A("attack", 0, cards=["7C"]))
    apply(st, A("take", 1))  # nothing to throw in: the bout ends at the take
    assert not st.over and len(st.hands[1]) == 51
    st = _loaded(loss="none", extra=45)
    apply(st, A("attack", 0, cards=["7C"]))
    apply(st, A("take", 1))  # nothing to throw in: the bout ends at the take
    assert not st.over and len(st.hands[1]) == 52


@pytest.mark.rules("VAR-BD1", "RUL-82")
@pytest.mark.parametrize("n,loss", [(2, 20), (3, 20), (2, 52)])
def test_core_ends_the_deal_at_the_take_that_reaches_the_limit(n, loss):
    """The core's deals: a deal whose fool holds `loss` cards or more ended at the take that brought him
    there (he held fewer before it), the referee replays every trace to the same result; at 52 the rule is
    in force but (RUL-82) practically never fires."""
    from sim.experiments.batch import Runner, make_lineup
    from sim.referee.game import _do, trace_state
    r = resolve("podkidnoy", n, {**BIG, "big_durak_loss_at": loss})
    run = Runner(r, make_lineup(r, ["random"] * (n - 1) + ["greedy"]))
    fired = 0
    for g in range(30):
        for tr, rec in zip(*run.trace(5, g, deals=1, with_raw=True)):
            replay(tr)
            fool = tr["result"]["fool"]
            if fool is None or rec[L.F_FOOL_CARDS] < loss:
                continue
            fired += 1
            st = trace_state(tr)
            for a in tr["actions"][:-1]:
                _do(st, a)
            assert tr["actions"][-1]["type"] in ("take", "pass", "throw_in", "cover")
            assert len(st.hands[fool]) + len(st.table) * 2 >= loss - 12
    assert fired > 0 if loss < 52 else fired == 0


# ---- twins on the table (RUL-83) ------------------------------------------------------------------
@pytest.mark.rules("VAR-BD1", "RUL-83")
def test_a_lead_may_lay_both_copies_of_a_card():
    st = deal(3, {0: "7S 7S 7H 9C", 1: "8S 8S", 2: "6C"}, trump="AD")
    st.attacker, st.defender = 0, 1
    assert to_act(st) == (0, 0)
    opts = legal_options(st)
    twin = (1 << parse_card("7S")) | (1 << parse_card("7H")) | (1 << (L.TWIN_LEAD + 3))
    assert twin in opts and ((1 << parse_card("7S")) | (1 << (L.TWIN_LEAD + 3))) in opts
    assert check(st, A("attack", 0, cards=["7S", "7S", "7H"])).legal
    apply(st, A("attack", 0, cards=["7S", "7H", "7S"]))
    assert [card_name(a) for a, _ in st.table] == ["7S", "7H", "7S"]
    # covering names the attack card: the first uncovered copy is covered
    apply(st, A("cover", 1, attack="7S", cover="8S"))
    apply(st, A("cover", 1, attack="7S", cover="8S"))
    assert [(card_name(a), card_name(c) if c is not None else None) for a, c in st.table] == \
        [("7S", "8S"), ("7H", None), ("7S", "8S")]


@pytest.mark.rules("VAR-BD1", "RUL-83")
def test_a_card_held_once_cannot_be_led_twice():
    st = deal(2, {0: "7S 7H 9C", 1: "8S"}, trump="AD")
    st.attacker, st.defender = 0, 1
    v = check(st, A("attack", 0, cards=["7S", "7S"]))
    assert not v.legal and v.rule == "RUL-83"
    st1 = deal(2, {0: "7S 7S 9C", 1: "8S"}, trump="AD", toggles={**BIG, "initial_lead": "single"})
    st1.attacker, st1.defender = 0, 1
    assert not check(st1, A("attack", 0, cards=["7S", "7S"])).legal
    # the core's test of a twin lead reads the attacker's twins
    from sim.core.lib import attack_ok
    obs = np.zeros(L.O_SIZE, dtype=np.int64)
    obs[L.O_RULES:L.O_RULES + len(resolve("podkidnoy", 2, BIG).vector())] = resolve("podkidnoy", 2, BIG).vector()
    obs[L.O_LIMIT] = 6
    hand = (1 << parse_card("7S")) | (1 << parse_card("7H"))
    lead = (1 << parse_card("7S")) | (1 << (L.TWIN_LEAD + 3))
    assert not attack_ok(obs, hand, lead)
    obs[L.O_HAND2] = 1 << parse_card("7S")
    assert attack_ok(obs, hand, lead)
    assert not attack_ok(obs, hand, lead | (1 << (L.TWIN_LEAD + 2)))  # 7H is held once


# ---- lowest trump ties (RUL-84) --------------------------------------------------------------------
@pytest.mark.rules("VAR-BD1", "RUL-84")
def test_both_lowest_trumps_dealt_the_first_holder_from_the_dealers_left_leads():
    for dealer in range(4):
        pack, _ = stacked(4, {(dealer + 2) % 4: "6D", (dealer + 3) % 4: "6D"}, trump="AD", dealer=dealer)
        st = new_deal(resolve("podkidnoy", 4, BIG), pack, dealer)
        assert st.attacker == (dealer + 2) % 4
    # the core on its own deals: whenever two seats hold the lowest trump, the first from the dealer's left
    rules = resolve("podkidnoy", 4, BIG)
    ties = 0
    for seed in range(300):
        d = Deal(rules, seed)
        tr = int(d.ws[L.O_TRUMP_SUIT])
        low = min((c for s in range(4) for c in _cards(d, s) if c & 3 == tr), default=None)
        holders = [s for s in ((d.dealer + k) % 4 for k in range(1, 5)) if low in _cards(d, s)]
        if len(holders) == 2:
            ties += 1
            assert int(d.ws[L.O_ATTACKER]) == holders[0]
    assert ties > 3


def _cards(d, s):
    h = int(d.ws[L.S_HANDS + s])
    return [c for c in range(36) if h >> c & 1]


# ---- transfers with a full table (RUL-85) -----------------------------------------------------------
@pytest.mark.rules("VAR-BD1", "RUL-85")
def test_no_laid_transfer_past_the_attack_limit():
    st = deal(3, {0: "AC AC AD AD AH AH", 1: "AS 9C 9D 9H 9S 8C", 2: "7C"}, trump="KD", family="perevodnoy")
    st.attacker, st.defender, st.bout_opener, st.first_bout = 0, 1, 0, False
    apply(st, A("attack", 0, cards=["AC", "AC", "AD", "AD", "AH", "AH"]))
    v = check(st, A("transfer", 1, card="AS"))
    assert not v.legal


# ---- knowledge and sampling with twins (RUL-86) ----------------------------------------------------
@pytest.mark.rules("VAR-BD1", "RUL-86")
@pytest.mark.parametrize("family,n", [("podkidnoy", 2), ("perevodnoy", 4)])
def test_sampled_states_hold_every_card_twice(family, n):
    rules = resolve(family, n, {**BIG, "pokaznoy": True} if family == "perevodnoy" else BIG)
    rnd = random.Random(3)
    checked = 0
    for seed in range(8):
        d = Deal(rules, seed)
        while not d.over:
            if rnd.random() < 0.3:
                seat, kind = d.to_act()
                obs = d.observe(seat)
                assert int(obs[L.O_HAND2]) == int(d.ws[L.S_HANDS2 + seat])
                s = Deal.sampled(rules, obs, seed=rnd.randrange(1 << 30))
                assert s.conserved()
                assert s.to_act() == (seat, kind)
                assert s.legal_options() == d.legal_options()
                for t in range(n):
                    assert int(s.ws[L.O_HAND_SIZE + t]) == int(d.ws[L.O_HAND_SIZE + t])
                    k1, k2 = int(obs[L.O_KNOWN + t]), int(obs[L.O_KNOWN2 + t])
                    assert int(s.ws[L.S_HANDS + t]) & k1 == k1 and int(s.ws[L.S_HANDS2 + t]) & k2 == k2
                while not s.over:
                    s.apply(rnd.choice(sorted(s.legal_options())))
                assert s.result()[L.F_INVARIANT] == 0
                checked += 1
            assert d.conserved()
            d.apply(rnd.choice(sorted(d.legal_options())))
        assert d.result()[L.F_INVARIANT] == 0
    assert checked > 20


# ---- the core against the referee, refusals (RUL-80) ----------------------------------------------
@pytest.mark.rules("VAR-BD1", "RUL-80", "RUL-83", "RUL-84", "RUL-85")
@pytest.mark.parametrize("family,n,toggles", [
    ("podkidnoy", 2, BIG), ("perevodnoy", 3, {**BIG, "pokaznoy": True, "transfer_in_first_bout": True}),
    ("podkidnoy", 6, {**BIG, "teams": "3v3"}), ("perevodnoy", 2, {**BIG, "proezdnoy": True})])
def test_core_legal_sets_equal_the_referees(family, n, toggles):
    core_vs_referee(family, n, toggles)


@pytest.mark.rules("VAR-BD1", "RUL-80")
@pytest.mark.parametrize("family,toggles,message", [
    ("prostoy_6", {"two_packs": True}, "does not apply to prostoy_6"),
    ("podkidnoy", {"two_packs": True, "korolevsky": True}, "not combined with other §6 modifiers"),
    ("podkidnoy", {"variant": "bolshoy+zanudny"}, "not combined with other §6 modifiers"),
    ("podkidnoy", {"two_packs": True, "trump_six_exchange": True}, "trump_six_exchange is refused"),
    ("podkidnoy", {"two_packs": True, "pogony_instant_win": True}, "pogony"),
    ("podkidnoy", {"two_packs": True, "bout_rule": "chain_road"}, "does not combine"),
])
def test_refused_combinations_say_why(family, toggles, message):
    with pytest.raises(RulesError, match=message):
        resolve(family, 2, toggles)


# ---- the rule-configuration fuzzing with two packs forced on ---------------------------------------
# rulegen draws two_packs 1 in 8, but two packs refuse every other §6 modifier and three base toggles
# (RUL-80), so few drawn configurations keep it: here every §7 toggle is drawn as rulegen draws it and
# two packs are always on
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as hst  # noqa: E402

import rulegen  # noqa: E402
from core_adapter import check_decisions, check_trace, core_decisions, core_traces  # noqa: E402


@hst.composite
def big_configs(draw):
    family = draw(hst.sampled_from(("podkidnoy", "perevodnoy")))
    n = draw(hst.sampled_from((2, 3, 4, 5, 6)))
    toggles = {t.name: draw(hst.sampled_from(rulegen.toggle_values(t, family)), label=t.name)
               for t in rulegen.drawn_toggles(family)}
    toggles.update(two_packs=True, trump_six_exchange=False, pogony_instant_win=False, pogony_scoring="none")
    toggles["big_durak_loss_at"] = draw(hst.sampled_from((52, 20, 30, 40, "none")), label="loss")
    tv = rulegen.teams_values(family, n)
    if tv:
        toggles["teams"] = draw(hst.sampled_from(tv), label="teams")
    dps = draw(hst.integers(1, 3), label="deals_per_series")
    from hypothesis import assume
    assume(rulegen.config_problem(family, n, toggles, dps) is None)
    return family, n, toggles, dps


_BIG_SETTINGS = dict(derandomize=True, deadline=None, database=None,
                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@pytest.mark.rules("VAR-BD1", "RUL-80", "RUL-81", "RUL-82", "RUL-83", "RUL-84", "RUL-85")
@settings(max_examples=12, **_BIG_SETTINGS)
@given(big_configs())
def test_fuzz_two_packs_core_against_the_referee(cfg):
    _fuzz_big(cfg)


@pytest.mark.slow
@settings(max_examples=40, **_BIG_SETTINGS)
@given(big_configs())
def test_fuzz_two_packs_core_against_the_referee_full(cfg):
    _fuzz_big(cfg)


def _fuzz_big(cfg):
    family, n, toggles, dps = cfg
    for strategy in ("random", "greedy"):
        for g in range(2):
            for tr, dec in core_decisions(family, n, toggles, strategy, 4242, g, dps):
                check_decisions(tr, dec)
            for tr in core_traces(family, n, toggles, strategy, 4242, g, dps):
                check_trace(tr)
                if tr["result"]["bouts"] < 1000:  # RUL-22: an unfinished deal has no result to compare
                    replay(tr)
