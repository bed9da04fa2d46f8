"""Hand-written scenarios for the §6 beating-and-trumps modifiers: VAR-NT1, VAR-PP1, VAR-BJ1,
VAR-KO1, VAR-DK1, VAR-SM1 and the rulings RUL-30..35. Each rule is checked on the referee (a position and
an action, or a fresh deal) and on the compiled core (its deal, its legal cover sets via
``sim.core.lib.cover_options_for``, whole deals stepped through ``sim.core.machine``)."""
from __future__ import annotations

import numpy as np
import pytest

from test_rules_scenarios import A, P, SEQ, _deck

from sim import referee as R
from sim.core import layout as L
from sim.core.cards import card_name, parse_card
from sim.core.machine import Deal
from sim.core.rules import RulesError, resolve

C = parse_card


def verdict(family, toggles, position, action):
    st = R.load_position(family, toggles, position)
    return R.check(st, action)


def core_covers(family, toggles, attack, hand, trump_suit, n=2, seat_trumps=None, defender=1):
    """The core's legal cover set (cards) for `attack` from `hand`, from a state array carrying the rules."""
    from sim.core.lib import cover_options_for
    rules = resolve(family, n, toggles)
    ws = np.zeros(L.STATE_SIZE, dtype=np.int64)
    rv = rules.vector()
    ws[L.O_RULES:L.O_RULES + len(rv)] = rv
    ws[L.O_TRUMP_SUIT] = trump_suit
    for s, t in enumerate(seat_trumps or []):
        ws[L.O_SEAT_TRUMPS + s] = t
    m = 0
    for c in hand.split():
        m |= 1 << C(c)
    got = cover_options_for(ws, C(attack), np.int64(m), defender)
    return {card_name(c) for c in range(36) if (int(got) >> c) & 1}


def deals(family, n, toggles, k, seed=3):
    rules = resolve(family, n, toggles)
    for g in range(k):
        yield Deal(rules, seed, g)


def play_out(d, rnd):
    while not d.over:
        d.apply(rnd.choice(sorted(d.legal_options())))
    return d


# ---- VAR-NT1 / RUL-30: no trumps ----------------------------------------------------------------
@pytest.mark.rules("VAR-NT1", "RUL-30")
def test_NT1_only_a_higher_card_of_the_suit_beats():
    pos = P({0: "7C", 1: "6S 9H KD"}, ["7H"], talon=8)
    pos.update(trump_suit=None, trump_card=None, trump_card_location="already_drawn")
    v = verdict("podkidnoy", {"no_trump": True}, pos, A("cover", 1, attack="7H", cover="6S"))
    assert not v.legal and v.rule == "VAR-NT1", v
    assert verdict("podkidnoy", {"no_trump": True}, pos, A("cover", 1, attack="7H", cover="9H")).legal
    assert core_covers("podkidnoy", {"no_trump": True}, "7H", "6S 9H KD", -1) == {"9H"}
    # every suit is an ordinary suit: a spade is beaten by a higher spade only
    assert core_covers("podkidnoy", {"no_trump": True}, "8S", "6S 9S AH", -1) == {"9S"}


@pytest.mark.rules("VAR-NT1", "RUL-30")
def test_NT1_no_card_is_turned_and_the_rest_is_the_talon():
    deck = _deck([])
    st = R.new_deal(resolve("podkidnoy", 2, {"no_trump": True}), deck, dealer=1)
    assert st.trump_card is None and st.trump_suit is None
    assert [card_name(c) for c in st.talon] == deck[12:]
    assert st.attacker == 0  # lowest_trump: nobody holds one, so left of the dealer (RUL-7 fallback)
    for d in deals("podkidnoy", 2, {"no_trump": True}, 20):
        ws = d.ws
        assert ws[L.O_TRUMP_SUIT] == -1 and ws[L.O_TRUMP_CARD] == -1 and ws[L.O_TRUMP_IN_TALON] == 0
        assert ws[L.O_TALON] == 24 and ws[L.O_KNOWN] == 0 and ws[L.O_KNOWN + 1] == 0
        assert d.rec[L.F_SIX_HOLDER] == -1 and d.rec[L.F_ACE_HOLDER] == -1
        assert [int(c) for c in ws[L.S_TALON:L.S_TALON + 24]] == d.deck[12:]


@pytest.mark.rules("VAR-NT1", "RUL-30")
def test_NT1_no_exchange_and_the_last_card_drawn_is_not_shown():
    import random
    rnd = random.Random(1)
    for d in deals("prostoy_5", 2, {"no_trump": True}, 30):  # prostoy_5 has the trump-six exchange on
        while not d.over:
            seat, kind = d.to_act()
            assert kind != L.K_EXCHANGE
            talon = d.ws[L.O_TALON]
            last = int(d.ws[L.S_TALON + d.ws[L.S_TEND] - 1])
            d.apply(rnd.choice(sorted(d.legal_options())))
            if talon and not d.ws[L.O_TALON]:
                # the talon's last card went into a hand unseen (no face-up card under it)
                assert all(not (int(d.ws[L.O_KNOWN + s]) >> last) & 1 for s in range(2))
        assert d.rec[L.F_ERROR] == 0 and d.rec[L.F_EXCHANGE_SEAT] == -1


# ---- VAR-PP1 / RUL-31: spades only by spades ---------------------------------------------------
PP = {"spades_only_by_spades": True}


@pytest.mark.rules("VAR-PP1", "RUL-31")
def test_PP1_a_spade_only_by_a_higher_spade():
    pos = P({0: "7C", 1: "6H 9S 7S"}, ["8S"], trump="H")
    v = verdict("podkidnoy", PP, pos, A("cover", 1, attack="8S", cover="6H"))
    assert not v.legal and v.rule == "VAR-PP1", v
    v = verdict("podkidnoy", PP, pos, A("cover", 1, attack="8S", cover="9S"))
    assert v.legal and v.rule == "VAR-PP1", v
    assert core_covers("podkidnoy", PP, "8S", "6H 9S 7S", 2) == {"9S"}
    assert core_covers("podkidnoy", {}, "8S", "6H 9S 7S", 2) == {"6H", "9S"}  # without it the trump covers


@pytest.mark.rules("VAR-PP1", "RUL-31")
def test_PP1_a_spade_beats_no_other_suit():
    pos = P({0: "7C", 1: "AS 8D"}, ["7D"], trump="H")
    v = verdict("podkidnoy", PP, pos, A("cover", 1, attack="7D", cover="AS"))
    assert not v.legal and v.rule == "VAR-PP1", v
    assert core_covers("podkidnoy", PP, "7D", "AS 8D 6H", 2) == {"8D", "6H"}
    with pytest.raises(RulesError):
        resolve("podkidnoy", 2, {"spades_only_by_spades": True, "fixed_trump_suit": "spades"})


@pytest.mark.rules("VAR-PP1", "RUL-31")
def test_PP1_a_turned_spade_redeals_or_leaves_no_trump():
    deck = _deck(["6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC", "6D", "7D", "8D", "7S"])
    with pytest.raises(ValueError, match="RUL-31"):
        R.new_deal(resolve("podkidnoy", 2, PP), deck, dealer=1)
    st = R.new_deal(resolve("podkidnoy", 2, {**PP, "spade_turnup_resolution": "no_trump"}), deck, dealer=1)
    assert card_name(st.trump_card) == "7S" and st.trump_suit is None and st.talon[-1] == C("7S")
    turned = []
    for d in deals("podkidnoy", 2, PP, 200):  # redeal: the core never leaves a spade turned up
        turned.append(int(d.ws[L.O_TRUMP_CARD]))
        assert d.ws[L.O_TRUMP_SUIT] == d.ws[L.O_TRUMP_CARD] & 3 != 3
    assert len({c & 3 for c in turned}) == 3
    nt = [d for d in deals("podkidnoy", 2, {**PP, "spade_turnup_resolution": "no_trump"}, 200)
          if d.ws[L.O_TRUMP_CARD] & 3 == 3]
    assert nt and all(d.ws[L.O_TRUMP_SUIT] == -1 and d.ws[L.O_TRUMP_IN_TALON] == 1 for d in nt)


# ---- VAR-BJ1 / RUL-32: a fixed trump suit --------------------------------------------------------
@pytest.mark.rules("VAR-BJ1", "VAR-PP1", "RUL-32")
def test_BJ1_diamonds_are_trumps_whatever_is_turned():
    rules = resolve("podkidnoy", 2, {"variant": "beshenyi_japanese"})
    assert rules.toggles["fixed_trump_suit"] == "diamonds" and rules.toggles["spades_only_by_spades"]
    deck = _deck(["6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC", "6H", "7H", "8H", "9S"])
    st = R.new_deal(rules, deck, dealer=1)
    assert st.trump_suit == 1 and card_name(st.trump_card) == "9S" and st.talon[-1] == C("9S")
    suits = set()
    for d in deals("podkidnoy", 2, {"variant": "beshenyi_japanese"}, 100):
        assert d.ws[L.O_TRUMP_SUIT] == 1 and d.ws[L.O_TRUMP_IN_TALON] == 1
        suits.add(int(d.ws[L.O_TRUMP_CARD]) & 3)
    assert suits == {0, 1, 2, 3}  # spades too: a turned spade is no problem when the suit is fixed


@pytest.mark.rules("VAR-BJ1", "VAR-PP1", "RUL-32")
def test_BJ1_a_diamond_covers_a_club_but_not_a_spade():
    pos = P({0: "7C", 1: "6D 9S"}, ["AC"], trump="D")
    pos["trump_card"] = "KH"  # the face-up card is a heart; the suit is fixed
    t = {"variant": "beshenyi_japanese"}
    v = verdict("podkidnoy", t, pos, A("cover", 1, attack="AC", cover="6D"))
    assert v.legal, v
    pos2 = P({0: "7C", 1: "6D 9S"}, ["8S"], trump="D")
    pos2["trump_card"] = "KH"
    v = verdict("podkidnoy", t, pos2, A("cover", 1, attack="8S", cover="6D"))
    assert not v.legal and v.rule == "VAR-PP1"
    assert core_covers("podkidnoy", t, "8S", "6D 9S", 1) == {"9S"}
    assert core_covers("podkidnoy", t, "AC", "6D 9S", 1) == {"6D"}


@pytest.mark.rules("VAR-BJ1", "VAR-PP1", "RUL-32")
def test_chervi_piki_hearts_always_trump():
    t = {"variant": "chervi_piki"}
    for d in deals("prostoy_6", 3, t, 40):
        assert d.ws[L.O_TRUMP_SUIT] == 2
    assert core_covers("prostoy_6", t, "AD", "6H 7S", 2, n=3) == {"6H"}
    assert core_covers("prostoy_6", t, "6S", "6H 7S", 2, n=3) == {"7S"}
    with pytest.raises(RulesError):
        resolve("podkidnoy", 2, {"variant": "chervi_piki", "no_trump": True})


# ---- VAR-KO1 / RUL-33: a six only by an ace ------------------------------------------------------
KO = {"korolevsky": True}


@pytest.mark.rules("VAR-KO1", "RUL-33")
def test_KO1_a_six_only_by_an_ace_of_its_suit_or_the_trump_ace():
    pos = P({0: "7C", 1: "KH AH AS AD 7S"}, ["6H"], trump="S")
    v = verdict("podkidnoy", KO, pos, A("cover", 1, attack="6H", cover="KH"))
    assert not v.legal and v.rule == "VAR-KO1", v
    v = verdict("podkidnoy", KO, pos, A("cover", 1, attack="6H", cover="7S"))
    assert not v.legal and v.rule == "VAR-KO1", v      # an ordinary trump does not beat a six
    for cov, ok in (("AH", True), ("AS", True), ("AD", False)):
        v = verdict("podkidnoy", KO, pos, A("cover", 1, attack="6H", cover=cov))
        assert v.legal is ok and v.rule == "VAR-KO1", (cov, v)
    assert core_covers("podkidnoy", KO, "6H", "KH AH AS AD 7S", 3) == {"AH", "AS"}
    assert core_covers("podkidnoy", KO, "7H", "KH AH AS AD 7S", 3) == {"KH", "AH", "AS", "7S"}


@pytest.mark.rules("VAR-KO1", "RUL-33")
def test_KO1_any_ace_reading_and_the_trump_six():
    t = {"korolevsky": True, "korolevsky_ace": "any_ace"}
    pos = P({0: "7C", 1: "AD KH"}, ["6H"], trump="S")
    assert verdict("podkidnoy", t, pos, A("cover", 1, attack="6H", cover="AD")).legal
    assert core_covers("podkidnoy", t, "6H", "AD KH AC", 3) == {"AD", "AC"}
    # the trump six only by the trump ace
    assert core_covers("podkidnoy", KO, "6S", "AH 7S KS AS", 3) == {"AS"}


@pytest.mark.rules("VAR-KO1", "HR-1", "RUL-33")
def test_KO1_with_the_six_beats_ace_house_rule_and_trump_only_if_cannot_follow():
    t = {"korolevsky": True, "trump_six_beats_trump_ace": True}
    assert core_covers("podkidnoy", t, "AS", "6S KH", 3) == {"6S"}   # HR-1 still holds
    assert core_covers("podkidnoy", t, "6S", "AS KS", 3) == {"AS"}   # and the six needs the ace
    t2 = {"korolevsky": True, "trump_only_if_cannot_follow": True}
    assert core_covers("podkidnoy", t2, "6H", "AH AS", 3) == {"AH"}
    # any_ace: the toggle forbids trumps only; a non-trump ace of another suit stays allowed
    t3 = {**t2, "korolevsky_ace": "any_ace"}
    assert core_covers("podkidnoy", t3, "6H", "AH AS AD", 3) == {"AH", "AD"}
    pos3 = P({0: "7C", 1: "AH AS AD"}, ["6H"], trump="S")
    assert verdict("podkidnoy", t3, pos3, A("cover", 1, attack="6H", cover="AD")).legal
    assert not verdict("podkidnoy", t3, pos3, A("cover", 1, attack="6H", cover="AS")).legal
    pos = P({0: "7C", 1: "AH AS"}, ["6H"], trump="S")
    v = verdict("podkidnoy", t2, pos, A("cover", 1, attack="6H", cover="AS"))
    assert not v.legal and v.rule == "PR6-D1", v


# ---- VAR-DK1 / RUL-34: own trumps ------------------------------------------------------------------
DK = {"own_trumps": True}


@pytest.mark.rules("VAR-DK1", "RUL-34")
def test_DK1_the_defenders_trump_counts():
    pos = P({0: "7C 9H", 1: "6C 8H AH"}, ["7H"], trump="H", seat_trumps=["H", "C"])
    v = verdict("podkidnoy", DK, pos, A("cover", 1, attack="7H", cover="6C"))
    assert v.legal and v.rule == "VAR-DK1", v   # the attacker's trump is an ordinary heart for player 1
    assert verdict("podkidnoy", DK, pos, A("cover", 1, attack="7H", cover="8H")).legal
    pos2 = P({0: "8C 9H", 1: "6C 8H AH"}, ["7C"], trump="H", seat_trumps=["H", "C"])
    v = verdict("podkidnoy", DK, pos2, A("cover", 1, attack="7C", cover="AH"))
    assert not v.legal and v.rule == "VAR-DK1", v   # his own trump is beaten only by a higher one of it
    assert core_covers("podkidnoy", DK, "7H", "6C 8H AH", 2, seat_trumps=[2, 0]) == {"6C", "8H", "AH"}
    assert core_covers("podkidnoy", DK, "7C", "6C 8H AH", 2, seat_trumps=[2, 0]) == set()


@pytest.mark.rules("VAR-DK1", "RUL-34")
def test_DK1_assignment_from_the_dealers_left_and_from_the_dealer():
    deck = _deck(["6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC", "6D", "7D", "8D", "9H"])
    st = R.new_deal(resolve("podkidnoy", 3, DK), deck, dealer=1)   # 18 cards dealt: the 19th is turned
    tc = C(deck[18])
    assert st.seat_trumps == [((tc & 3) + 1) % 4, ((tc & 3) + 2) % 4, tc & 3]
    st2 = R.new_deal(resolve("podkidnoy", 3, {**DK, "own_trumps_assignment": "from_dealer"}), deck, dealer=1)
    assert st2.seat_trumps == [((tc & 3) + 2) % 4, tc & 3, ((tc & 3) + 1) % 4]
    for d in deals("podkidnoy", 3, DK, 20):
        dl = int(d.ws[L.O_DEALER])
        base = int(d.ws[L.O_TRUMP_CARD]) & 3
        assert [int(d.ws[L.O_SEAT_TRUMPS + (dl + 1 + k) % 3]) for k in range(3)] == [base, (base + 1) % 4,
                                                                                       (base + 2) % 4]


@pytest.mark.rules("VAR-DK1", "RUL-34", "RUL-7")
def test_DK1_first_attacker_holds_the_lowest_card_of_his_own_trump():
    # seat 0 (trump D by from_dealers_left with dealer 1 and a turned diamond) holds 7D; seat 1 (trump H)
    # holds 6H: 6H is lower, so seat 1 leads although 6H is no trump for seat 0
    order = []
    h0 = ["7D", "KC", "QC", "JC", "10C", "9C"]
    h1 = ["6H", "KS", "QS", "JS", "10S", "9S"]
    for a, b in zip(h0, h1):
        order += [a, b]
    deck = _deck(order + ["8D"])
    st = R.new_deal(resolve("podkidnoy", 2, DK), deck, dealer=1)
    assert st.seat_trumps == [1, 2] and st.attacker == 1
    st = R.new_deal(resolve("podkidnoy", 2), deck, dealer=1)   # plain: diamonds, so seat 0's 7D
    assert st.attacker == 0


# ---- VAR-SM1 / RUL-35: the changing trump ------------------------------------------------------------
SM = {"changing_trump": True}


@pytest.mark.rules("VAR-SM1", "RUL-35")
def test_SM1_the_hidden_card_lies_under_the_face_up_trump():
    deck = _deck([])
    st = R.new_deal(resolve("podkidnoy", 2, SM), deck, dealer=1)
    assert card_name(st.trump_card) == deck[12] and st.trump_suit == C(deck[12]) & 3
    assert [card_name(c) for c in st.talon] == deck[14:] + [deck[12], deck[13]]
    assert st.to_position()["card_under_trump"] is True
    for d in deals("podkidnoy", 2, SM, 10):
        assert d.ws[L.O_TRUMP_UNDER] == 1 and d.ws[L.O_TALON] == 24
        assert int(d.ws[L.S_TALON + 22]) == d.ws[L.O_TRUMP_CARD] == d.deck[12]
        assert int(d.ws[L.S_TALON + 23]) == d.deck[13]


@pytest.mark.rules("VAR-SM1", "RUL-35")
def test_SM1_the_trump_changes_when_the_face_up_card_is_drawn():
    # talon: 10C (top), AS (face up), 7D (hidden). The bout is beaten off; seat 0 draws 10C and AS,
    # which turns 7D: diamonds are trumps from now on
    pos = P({0: "8C 9C 10D JD", 1: "6C JC QC KC AC 6D"}, ["7H/9H"], talon="10C AS 7D",
            card_under_trump=True, trump_card="AS")
    v = verdict("podkidnoy", SM, pos, A("pass", 0))
    assert v.legal
    st = R.load_position("podkidnoy", SM, pos)
    R.apply(st, A("pass", 0))
    assert st.trump_suit == 1 and card_name(st.trump_card) == "7D" and st.talon == [C("7D")]
    assert not st.card_under_trump
    # the core: whenever the card under the trump is turned, the trump suit is its suit
    import random
    rnd = random.Random(2)
    seen = 0
    for d in deals("podkidnoy", 2, SM, 30):
        while not d.over:
            d.apply(rnd.choice(sorted(d.legal_options())))
            ws = d.ws
            if ws[L.O_TRUMP_UNDER] == 0 and ws[L.O_TRUMP_IN_TALON] == 1:
                tend = int(ws[L.S_TEND])
                assert ws[L.O_TRUMP_CARD] == ws[L.S_TALON + tend - 1] and ws[L.O_TRUMP_SUIT] == ws[L.O_TRUMP_CARD] & 3
                seen += 1
        assert d.rec[L.F_ERROR] == 0 and d.rec[L.F_INVARIANT] == 0
    assert seen


@pytest.mark.rules("VAR-SM1", "RUL-35", "RUL-9")
def test_SM1_exchange_swaps_the_face_up_card_not_the_hidden_one():
    t = {**SM, "trump_six_exchange": True}
    pos = P({0: "6S 8C", 1: "9H 6C"}, [], talon="10C AS 7D", card_under_trump=True, trump_card="AS")
    st = R.load_position("podkidnoy", t, pos)
    v = R.check(st, A("exchange_trump_six", 0))
    assert v.legal, v
    R.apply(st, A("exchange_trump_six", 0))
    assert [card_name(c) for c in st.talon] == ["10C", "6S", "7D"] and C("AS") in st.hands[0]
    with pytest.raises(RulesError):
        resolve("podkidnoy", 2, {**SM, "own_trumps": True})
