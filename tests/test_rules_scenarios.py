"""Hand-written rule scenarios for the reference referee (sim/referee/game.py).

Each scenario is a small position + an action + the expected verdict (legal flag and deciding rule id),
and where it matters the resulting state. Test ids start with the rule ids they exercise
(RULES.md §1-§5 and RULINGS.md RUL-n). Whole-deal tests at the end use new_deal + scripted actions.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Callable

import pytest

from sim import referee as R
from sim.core.cards import card_name, parse_card
from sim.core.rules import RulesError, resolve

RANK_ORDER = ("A", "K", "Q", "J", "10", "9", "8", "7", "6")


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------
def P(hands: dict, table=(), attacker=0, defender=1, talon=10, trump="S", first_bout=False, out=(),
      dealer=None, teams="absent", **extra) -> dict:
    """A position: hands {seat: "7C 8D"}, table ["7H/9H", "7D"], talon = count or "8C 9C AS"
    (top first; the last card is the face-up trump card). The discard count is filled in by the
    referee so that the cards add up to 36."""
    n = extra.pop("n", len(hands))
    hand_lists = {str(s): (hands.get(s, "") or "").split() for s in range(n)}
    rows = []
    for cell in table:
        a, _, c = cell.partition("/")
        rows.append({"attack": a, "cover": c or None})
    used = {c for h in hand_lists.values() for c in h} | {r["attack"] for r in rows} | \
           {r["cover"] for r in rows if r["cover"]}
    if isinstance(talon, str):
        order = talon.split()
        trump_card, size, loc = order[-1], len(order), "talon_bottom"
    else:
        order, size = None, talon
        used_all = used
        trump_card = next((r + trump for r in RANK_ORDER if r + trump not in used_all), "A" + trump)
        loc = "talon_bottom" if talon else "already_drawn"
    pos = {"num_players": n, "seats_clockwise": list(range(n)), "trump_suit": trump, "trump_card": trump_card,
           "trump_card_location": loc, "talon_size": size, "talon_order_top_to_bottom": order,
           "hands": hand_lists, "attacker": attacker, "defender": defender, "table": rows,
           "first_bout": first_bout, "dealer": dealer, "out_players": list(out)}
    if teams != "absent":
        pos["teams"] = teams
    pos.update(extra)
    return pos


def hand(st, seat) -> list[str]:
    return sorted(card_name(c) for c in st.hands[seat] if c is not None)


def cards(text: str) -> list[str]:
    return text.split()


def A(kind, player, **kw) -> dict:
    return {"type": kind, "player": player, **kw}


def SEQ(*steps) -> dict:
    return {"sequence": list(steps)}


def table_of(st) -> list[str]:
    return [card_name(a) + ("/" + card_name(c) if c is not None else "") for a, c in st.table]


@dataclass
class Sc:
    id: str
    family: str
    position: dict
    action: dict
    legal: bool
    rule: str | None
    toggles: dict = field(default_factory=dict)
    after: Callable | None = None   # after(state, events) -> assertions on the resulting state
    tags: tuple = ()                 # further rule ids the scenario exercises (what `after` checks)


SCENARIOS: list[Sc] = []


def sc(id, family, position, action, legal, rule, toggles=None, after=None, tags=""):
    SCENARIOS.append(Sc(id, family, position, action, legal, rule, dict(toggles or {}), after, tuple(tags.split())))


def result_is(fool=None, losing_team=None, outcome=None, places=None, bouts="any", next_dealer="any"):
    def check(st, ev):
        assert st.result is not None, "the deal should be over"
        assert st.result["fool"] == fool
        assert st.result["losing_team"] == losing_team
        if outcome is not None:
            assert st.result["outcome"] == outcome
        if places is not None:
            assert st.result["places"] == places
        if bouts != "any":
            assert st.result["bouts"] == bouts
        if next_dealer != "any":
            assert st.result["next_dealer"] == next_dealer
        assert st.attacker is None and st.defender is None
    return check


def roles_are(attacker, defender, table_empty=True):
    def check(st, ev):
        assert st.result is None
        assert (st.attacker, st.defender) == (attacker, defender)
        if table_empty:
            assert st.table == []
    return check


def all_of(*checks):
    def check(st, ev):
        for c in checks:
            c(st, ev)
    return check


# =============================================================================================
# §1 common core: C-1..C-6, C-2 beating (POD-D1/D2/D3, HR-1, RUL-10)
# =============================================================================================
H2 = {0: "7C 8D QC KD AD 10C", 1: "9H 6C 8C JD QD 10D"}
sc("C-2-higher-card-of-same-suit-covers-legal", "podkidnoy", P(H2, ["7H"]),
   A("cover", 1, attack="7H", cover="9H"), True, "C-2",
   after=lambda st, ev: (table_of(st) == ["7H/9H"] and st.attacker == 0) or pytest.fail(table_of(st)))
sc("POD-D1-C-2-off-suit-non-trump-does-not-beat-illegal", "podkidnoy", P({0: "7C", 1: "KD 6C"}, ["7H"]),
   A("cover", 1, attack="7H", cover="KD"), False, "POD-D1")
sc("POD-D1-8H-does-not-beat-10H-illegal", "podkidnoy", P({0: "7C", 1: "8H 6C"}, ["10H"]),
   A("cover", 1, attack="10H", cover="8H"), False, "POD-D1")
sc("POD-D1-any-trump-six-beats-non-trump-ace-legal", "podkidnoy", P({0: "7C", 1: "6S 6C"}, ["AH"]),
   A("cover", 1, attack="AH", cover="6S"), True, "POD-D3")
sc("POD-D2-lower-trump-does-not-beat-trump-illegal", "podkidnoy", P({0: "7C", 1: "7S 6C"}, ["9S"]),
   A("cover", 1, attack="9S", cover="7S"), False, "POD-D2")
sc("POD-D2-higher-trump-beats-trump-legal", "podkidnoy", P({0: "7C", 1: "JS 6C"}, ["9S"]),
   A("cover", 1, attack="9S", cover="JS"), True, "C-2")
sc("HR-1-trump-six-beats-trump-ace-with-toggle-legal", "podkidnoy", P({0: "7C", 1: "6S 6C"}, ["AS"]),
   A("cover", 1, attack="AS", cover="6S"), True, "HR-1", toggles={"trump_six_beats_trump_ace": True})
sc("HR-1-POD-D2-trump-six-vs-trump-ace-without-toggle-illegal", "podkidnoy", P({0: "7C", 1: "6S 6C"}, ["AS"]),
   A("cover", 1, attack="AS", cover="6S"), False, "POD-D2")
sc("HR-1-trump-six-beats-only-the-ace-not-the-king-illegal", "podkidnoy", P({0: "7C", 1: "6S 6C"}, ["KS"]),
   A("cover", 1, attack="KS", cover="6S"), False, "POD-D2", toggles={"trump_six_beats_trump_ace": True})
sc("POD-D3-trump-although-able-to-follow-legal", "podkidnoy", P({0: "7C", 1: "9H 6S"}, ["7H"]),
   A("cover", 1, attack="7H", cover="6S"), True, "POD-D3")
sc("PR6-D1-RUL-10-trump-only-if-cannot-follow-illegal", "podkidnoy", P({0: "7C", 1: "9H 6S"}, ["7H"]),
   A("cover", 1, attack="7H", cover="6S"), False, "PR6-D1", toggles={"trump_only_if_cannot_follow": True})
sc("PR6-D1-RUL-10-trump-allowed-when-no-higher-card-of-suit", "podkidnoy", P({0: "7C", 1: "8H 6S"}, ["9H"]),
   A("cover", 1, attack="9H", cover="6S"), True, "POD-D3", toggles={"trump_only_if_cannot_follow": True})
sc("C-5-placed-cover-stays-cannot-cover-again-illegal", "podkidnoy", P({0: "7D", 1: "JH 6C"}, ["7H/9H", "7C"]),
   A("cover", 1, attack="7H", cover="JH"), False, "C-5")


def _c6_after(st, ev):
    pos = st.to_position()
    assert "discard" not in pos and "discard_cards" not in pos   # face down: only a count is shown
    assert pos["discard_count"] == P_C6_DISCARD + 2
    assert all(c is None for c in st.discard[:P_C6_DISCARD])


_c6_pos = P({0: "8D AD KD QD JD", 1: "9H 6C 8C JC QC KC"}, ["7H"])
P_C6_DISCARD = 36 - 11 - 1 - 10
sc("C-6-POD-R1-beaten-table-goes-face-down-to-discard", "podkidnoy", _c6_pos,
   A("cover", 1, attack="7H", cover="9H"), True, "C-2",
   after=all_of(_c6_after, roles_are(1, 0)), tags="C-6 POD-R1")


def _c3_after(st, ev):
    assert hand(st, 0) == sorted(cards("7C 8D 9D JD QD KD"))   # attacker refills first (POD-R2)
    assert "AS" in hand(st, 1) and len(st.hands[1]) == 5        # the defender gets the face-up trump last
    assert st.talon == [] and st.to_position()["trump_card_location"] == "already_drawn"


sc("C-3-POD-R3-face-up-trump-card-is-drawn-last", "podkidnoy",
   P({0: "7C 8D 9D JD QD", 1: "6C 8C 10C JC"}, ["7H/9H"], talon="KD AS"),
   A("pass", 0), True, "POD-T3", after=_c3_after, tags="C-3 POD-R3")
sc("C-4-POD-E4-successful-defender-left-with-cards-is-the-fool", "podkidnoy",
   P({0: "7H", 1: "9H 6C 8D"}, [], talon=0, dealer=0),
   SEQ(A("attack", 0, cards=["7H"]), A("cover", 1, attack="7H", cover="9H")), True, "C-2",
   after=result_is(fool=1, outcome=["escaped", "fool"], places=[2 - 1, 2], next_dealer=1), tags="C-4 POD-E4")

# =============================================================================================
# §2 prostoy_5 (seed 000)
# =============================================================================================
F5 = "prostoy_5"
D5 = "KC 8H 6C 10H JS"
sc("PR5-A2-one-card-attack-any-card-legal", F5, P({0: "7C 8D QH 9S AH", 1: D5}, talon=16),
   A("attack", 0, cards=["AH"]), True, "PR5-A2",
   after=lambda st, ev: (len(st.hands[0]) == 5 and table_of(st) == ["AH"]) or pytest.fail(st.hands[0]))
sc("PR5-A3-three-of-a-kind-legal", F5, P({0: "7C 7D 7H 9S AH", 1: D5}),
   A("attack", 0, cards=["7C", "7D", "7H"]), True, "PR5-A3")
sc("PR5-A3-three-cards-without-a-pair-illegal", F5, P({0: "7C 9S AH 8D QH", 1: D5}),
   A("attack", 0, cards=["7C", "9S", "AH"]), False, "PR5-A3")
sc("PR5-A4-full-house-three-plus-two-legal", F5, P({0: "7C 7D 7H 9S 9H", 1: D5}),
   A("attack", 0, cards=["7C", "7D", "7H", "9S", "9H"]), True, "PR5-A4")
sc("PR5-A4-three-plus-one-plus-one-illegal", F5, P({0: "7C 7D 7H 9S AH", 1: D5}),
   A("attack", 0, cards=["7C", "7D", "7H", "9S", "AH"]), False, "PR5-A4")
sc("PR5-A4-four-of-a-kind-plus-one-legal", F5, P({0: "7C 7D 7H 7S AH", 1: D5}),
   A("attack", 0, cards=["7C", "7D", "7H", "7S", "AH"]), True, "PR5-A4")
sc("PR5-A4-two-pairs-plus-one-legal", F5, P({0: "7C 7D 9S 9H AH", 1: D5}),
   A("attack", 0, cards=["7C", "7D", "9S", "9H", "AH"]), True, "PR5-A4")
sc("PR5-A5-two-card-attack-illegal", F5, P({0: "7C 7D 9S 9H AH", 1: D5}),
   A("attack", 0, cards=["7C", "7D"]), False, "PR5-A5")
sc("PR5-A5-four-card-attack-illegal", F5, P({0: "7C 7D 9S 9H AH", 1: D5}),
   A("attack", 0, cards=["7C", "7D", "9S", "9H"]), False, "PR5-A5")
sc("PR5-A1-six-card-attack-is-no-legal-set-illegal", F5, P({0: "7C 7D 9S 9H AH AC", 1: D5 + " 6D"}),
   A("attack", 0, cards=["7C", "7D", "9S", "9H", "AH", "AC"]), False, "PR5-A1")
sc("PR5-A6-five-card-attack-on-four-card-defender-illegal", F5, P({0: "7C 7D 9S 9H AH", 1: "KC 8H 6C 10H"}),
   A("attack", 0, cards=["7C", "7D", "9S", "9H", "AH"]), False, "PR5-A6")
sc("PR5-A6-three-card-attack-on-two-card-defender-illegal", F5, P({0: "7C 7D 9S 9H AH", 1: "KC 8H"}),
   A("attack", 0, cards=["7C", "7D", "AH"]), False, "PR5-A6")
sc("PR5-A6-three-card-attack-on-four-card-defender-legal", F5, P({0: "7C 7D 9S 9H AH", 1: "KC 8H 6C 10H"}),
   A("attack", 0, cards=["7C", "7D", "AH"]), True, "PR5-A3")
sc("PR5-A7-attacker-adds-nothing-once-laid-illegal", F5, P({0: "7H AS 10D", 1: "KC 8D 6C"}, ["7C", "7D", "QH"]),
   A("throw_in", 0, cards=["7H"]), False, "PR5-A7")
sc("PR5-E4-no-warsaw-throw-in-phase-third-player-illegal", F5,
   P({0: "AS 10D", 1: "KC 8D 6C", 2: "7S 9D"}, ["7C"]),
   A("throw_in", 2, cards=["7S"]), False, "PR5-A7")

P512 = P({0: "AS 10D", 1: "KC 8D 6C"}, ["7C", "7D", "QH"], talon=0, trump="S")


def _p512_after(st, ev):
    assert st.discard_count() == P512_DISCARD + 4
    discarded = [c for e in ev if e["event"] == "discard" for c in e["cards"]]
    assert sorted(discarded) == sorted(["7C", "KC", "7D", "8D"])
    assert hand(st, 1) == ["6C", "QH"] and hand(st, 0) == ["10D", "AS"]


P512_DISCARD = 36 - 5 - 3
sc("PR5-D4-PR5-D3-PR5-T2-worked-example-000-06", F5, P512,
   A("defend", 1, covers=[{"attack": "7C", "cover": "KC"}, {"attack": "7D", "cover": "8D"}], take=["QH"]),
   True, "PR5-D1", after=all_of(_p512_after, roles_are(0, 1)), tags="PR5-D4 PR5-D3 PR5-T2")
sc("PR5-D1-take-list-must-be-exactly-the-uncovered-cards-illegal", F5, P512,
   A("defend", 1, covers=[{"attack": "7C", "cover": "KC"}], take=["QH"]), False, "PR5-D1")
sc("PR5-D1-may-cover-none-and-take-all-legal", F5, P512,
   A("defend", 1, covers=[], take=["7C", "7D", "QH"]), True, "PR5-D1",
   after=lambda st, ev: (len(st.hands[1]) == 6 and st.discard_count() == P512_DISCARD) or pytest.fail())
sc("PR5-D2-trumping-while-able-to-follow-is-free-choice", F5, P({0: "AD", 1: "9C 6S 8D"}, ["7C"], talon=0),
   A("defend", 1, covers=[{"attack": "7C", "cover": "6S"}]), True, "PR5-T1")
sc("PR5-D2-trump-only-by-higher-trump-illegal", F5, P({0: "AD", 1: "7S 8D"}, ["9S"], talon=0),
   A("defend", 1, covers=[{"attack": "9S", "cover": "7S"}]), False, "PR5-D2")
sc("PR5-T1-PR5-S4-beaten-off-defender-attacks-next-skipping-out-seat", F5,
   P({0: "8C 9C", 1: "AD", 2: "9H KC", 3: ""}, ["7H"], attacker=1, defender=2, talon=0, out=[3]),
   A("defend", 2, covers=[{"attack": "7H", "cover": "9H"}]), True, "PR5-T1", after=roles_are(2, 0), tags="PR5-S4")
sc("PR5-T2-defender-who-took-is-skipped-with-three-players", F5,
   P({0: "AS 10D", 1: "KC 8D 6C", 2: "9H 9D"}, ["7C", "7D", "QH"], talon=0),
   A("defend", 1, covers=[{"attack": "7C", "cover": "KC"}, {"attack": "7D", "cover": "8D"}], take=["QH"]),
   True, "PR5-D1", after=roles_are(2, 0), tags="PR5-T2")


def _r1_after(st, ev):
    assert hand(st, 0) == sorted(cards("9S AH 8C 9C QS"))    # drew at once, before any defence
    assert st.talon == [] and table_of(st) == ["7C", "7D", "QH"]
    assert [e["event"] for e in ev] == ["attack", "draw"]


sc("PR5-R1-RUL-13-attacker-refills-immediately-after-attacking", F5,
   P({0: "7C 7D QH 9S AH", 1: D5}, talon="8C 9C QS"),
   A("attack", 0, cards=["7C", "7D", "QH"]), True, "PR5-A3", after=_r1_after, tags="PR5-R1 RUL-13")


def _r3_after(st, ev):
    assert "8C" in hand(st, 0) and "JS" in hand(st, 1)
    assert st.talon == [] and not st.trump_under_talon()
    assert (st.attacker, st.defender) == (1, 0)


sc("PR5-R3-face-up-trump-drawn-last-by-the-defender", F5,
   P({0: "7C 8D QH 9S AH", 1: "KC 8H 6C 10H QS"}, talon="8C JS"),
   SEQ(A("attack", 0, cards=["7C"]), A("defend", 1, covers=[{"attack": "7C", "cover": "KC"}])),
   True, "PR5-T1", after=_r3_after, tags="PR5-R3")
sc("PR5-R2-defender-refills-after-responding-and-keeps-extras", F5,
   P({0: "AS 10D 9D JD QD", 1: "KC 8D 6C 6H"}, ["7C", "7D", "QH"], talon=5),
   A("defend", 1, covers=[], take=["7C", "7D", "QH"]), True, "PR5-D1",
   after=lambda st, ev: (len(st.hands[1]) == 7 and len(st.talon) == 5) or pytest.fail(len(st.hands[1])), tags="PR5-R2")
sc("PR5-R2-defender-refills-to-five-after-beating-off", F5,
   P({0: "AS 10D 9D JD QD", 1: "KC 8D 6C"}, ["7C"], talon=5),
   A("defend", 1, covers=[{"attack": "7C", "cover": "KC"}]), True, "PR5-T1",
   after=lambda st, ev: (len(st.hands[1]) == 5 and len(st.talon) == 2) or pytest.fail(len(st.hands[1])), tags="PR5-R2")


def _x1_after(st, ev):
    assert "AS" in hand(st, 1) and "6S" not in hand(st, 1)
    assert card_name(st.trump_card) == "6S" and card_name(st.talon[-1]) == "6S"


sc("PR5-X1-trump-six-exchanged-for-face-up-trump", F5, P({0: "7C 8D QH 9S AH", 1: "KC 8H 6C 10H 6S"}, talon=10),
   A("exchange_trump_six", 1), True, "PR5-X1", after=_x1_after)
sc("PR5-X1-player-without-trump-six-cannot-exchange", F5, P({0: "7C 8D QH 9S AH", 1: "KC 8H 6C 10H 6S"}, talon=10),
   A("exchange_trump_six", 0), False, "PR5-X1")
sc("PR5-X1-RUL-9-until-talon-exhausted-only-trump-card-left-legal", F5,
   P({0: "7C 8D QH 9S AH", 1: "KC 8H 6C 10H 6S"}, talon=1),
   A("exchange_trump_six", 1), True, "PR5-X1", after=_x1_after, tags="RUL-9")
sc("RUL-9-while-face-down-cards-left-only-trump-card-left-illegal", F5,
   P({0: "7C 8D QH 9S AH", 1: "KC 8H 6C 10H 6S"}, talon=1),
   A("exchange_trump_six", 1), False, "RUL-9", toggles={"trump_six_exchange_timing": "while_face_down_cards_left"})
sc("RUL-9-while-trump-card-in-talon-last-card-exchange-legal", F5,
   P({0: "7C 8D QH 9S AH", 1: "KC 8H 6C 10H 6S"}, talon=1),
   A("exchange_trump_six", 1), True, "PR5-X1", toggles={"trump_six_exchange_timing": "while_trump_card_in_talon"})


def _e1_after(st, ev):
    assert st.is_out[0] and st.to_position()["out_players"] == [0]
    assert (st.attacker, st.defender) == (1, 2)


sc("PR5-E1-empty-hand-and-empty-talon-goes-out-and-is-skipped", F5,
   P({0: "7C", 1: "KC 8D", 2: "9H"}, talon=0),
   SEQ(A("attack", 0, cards=["7C"]), A("defend", 1, covers=[{"attack": "7C", "cover": "KC"}])),
   True, "PR5-T1", after=_e1_after, tags="PR5-E1")
sc("PR5-E2-successful-defender-went-out-next-active-attacks", F5,
   P({0: "8H", 1: "KC", 2: "9H 10D"}, ["7C"], talon=0),
   A("defend", 1, covers=[{"attack": "7C", "cover": "KC"}]), True, "PR5-T1",
   after=all_of(roles_are(2, 0), lambda st, ev: st.is_out[1] or pytest.fail()), tags="PR5-E2")
sc("PR5-E3-last-two-cover-everything-both-empty-is-a-draw", F5,
   P({0: "", 1: "KC"}, ["7C"], talon=0, dealer=1),
   A("defend", 1, covers=[{"attack": "7C", "cover": "KC"}]), True, "PR5-T1",
   after=result_is(outcome=["drew", "drew"], places=[1, 1]), tags="PR5-E3")
sc("PR5-S2-RUL-8-after-a-draw-the-same-dealer-deals", F5,
   P({0: "", 1: "KC"}, ["7C"], talon=0, dealer=1),
   A("defend", 1, covers=[{"attack": "7C", "cover": "KC"}]), True, "PR5-T1",
   after=result_is(outcome=["drew", "drew"], next_dealer=1), tags="PR5-S2 RUL-8")
sc("PR5-S1-RUL-8-the-fool-deals-next", F5,
   P({0: "", 1: "8D"}, ["7C"], talon=0, dealer=0),
   A("defend", 1, covers=[], take=["7C"]), True, "PR5-D1",
   after=result_is(fool=1, outcome=["escaped", "fool"], places=[1, 2], next_dealer=1), tags="PR5-S1 RUL-8")

# =============================================================================================
# §3 prostoy_6 (seed 002)
# =============================================================================================
F6 = "prostoy_6"
D6 = "QC JC 6D 8S 10D QD"
sc("PR6-A1-one-card-lead-legal", F6, P({0: "9C 9H KD KH AH 10C", 1: D6}, talon=24),
   A("attack", 0, cards=["10C"]), True, "PR6-A1",
   after=lambda st, ev: (len(st.hands[0]) == 5) or pytest.fail("after_bout: no immediate draw"))
sc("PR6-A1-two-card-lead-illegal", F6, P({0: "9C 9H KD KH AH 10C", 1: D6}, talon=24),
   A("attack", 0, cards=["9C", "9H"]), False, "PR6-A2")
sc("PR6-A2-pair-plus-third-card-legal", F6, P({0: "9C 9H KD KH AH 10C", 1: D6}, talon=24),
   A("attack", 0, cards=["9C", "9H", "AH"]), True, "PR6-A2")
sc("PR6-A3-two-pairs-plus-one-five-card-lead-with-toggle-5-legal", F6, P({0: "9C 9H KD KH AH 10C", 1: D6}, talon=24),
   A("attack", 0, cards=["9C", "9H", "KD", "KH", "AH"]), True, "PR6-A3", toggles={"prostoy_two_pair_lead_size": 5})
sc("PR6-A3-two-pairs-plus-two-six-card-lead-by-default-legal", F6, P({0: "9C 9H KD KH AH 10C", 1: D6}, talon=24),
   A("attack", 0, cards=["9C", "9H", "KD", "KH", "AH", "10C"]), True, "PR6-A3")
sc("PR6-A3-five-card-lead-by-default-illegal", F6, P({0: "9C 9H KD KH AH 10C", 1: D6}, talon=24),
   A("attack", 0, cards=["9C", "9H", "KD", "KH", "AH"]), False, "PR6-A3")
sc("PR6-A3-five-card-lead-in-prostoy-5-by-default-legal", "prostoy_5",
   P({0: "9C 9H KD KH AH", 1: "6C 7C 8C JC QC"}, talon=24),
   A("attack", 0, cards=["9C", "9H", "KD", "KH", "AH"]), True, "PR5-A4")
sc("PR6-A4-lead-larger-than-defender-hand-illegal", F6, P({0: "9C 9H KD KH AH 10C", 1: "QC JC 6D 8S"}, talon=24),
   A("attack", 0, cards=["9C", "9H", "KD", "KH", "AH"]), False, "PR6-A4", toggles={"prostoy_two_pair_lead_size": 5})


def _d2_after(st, ev):
    assert hand(st, 1) == sorted(cards("7C KC 7D QH 6D 8S 10D QD JC"))   # covers come back too
    assert st.discard_count() == D2_DISCARD
    assert (st.attacker, st.defender) == (0, 1)                          # taker skipped (2 players)


D2_POS = P({0: "AS 10S", 1: "KC JC 6D 8S 10D QD"}, ["7C", "7D", "QH"], talon=0)
D2_DISCARD = 36 - 2 - 6 - 3
sc("PR6-D2-RUL-12-one-card-stands-defender-takes-all-including-his-covers", F6, D2_POS,
   A("defend", 1, covers=[{"attack": "7C", "cover": "KC"}], take=["7D", "QH"]), True, "PR6-D2", after=_d2_after, tags="RUL-12")
sc("PR6-D2-all-covered-goes-to-discard", F6, P({0: "AS 10S", 1: "KC JC 8D 8S KH QD"}, ["7C", "7D", "QH"], talon=0),
   A("defend", 1, covers=[{"attack": "7C", "cover": "KC"}, {"attack": "7D", "cover": "8D"},
                          {"attack": "QH", "cover": "KH"}]), True, "PR6-D2",
   after=lambda st, ev: (st.discard_count() == 36 - 2 - 6 - 3 + 6 and st.attacker == 1) or pytest.fail())
sc("PR6-D3-no-cards-thrown-in-during-the-defence-illegal", F6, P({0: "7H AS", 1: "KC 8D 6C"}, ["7C"], talon=0),
   A("throw_in", 0, cards=["7H"]), False, "PR6-D3")
sc("PR6-D1-one-shot-defence-trump-while-holding-higher-suit-card-illegal-by-default", F6,
   P({0: "AD", 1: "9H 6S 8D"}, ["7H"], talon=0),
   A("defend", 1, covers=[{"attack": "7H", "cover": "6S"}]), False, "PR6-D1")
sc("PR6-D1-toggle-off-trump-while-holding-higher-suit-card-legal", F6,
   P({0: "AD", 1: "9H 6S 8D"}, ["7H"], talon=0),
   A("defend", 1, covers=[{"attack": "7H", "cover": "6S"}]), True, "PR6-D2",
   toggles={"trump_only_if_cannot_follow": False})
sc("RUL-10-one-shot-defence-trump-allowed-when-suit-card-is-used-elsewhere", F6,
   P({0: "AD", 1: "9C 6S 8D JD"}, ["7C", "7D", "8C"], talon=0),
   A("defend", 1, covers=[{"attack": "7C", "cover": "6S"}, {"attack": "8C", "cover": "9C"},
                          {"attack": "7D", "cover": "8D"}]), True, "PR6-D2",
   toggles={"trump_only_if_cannot_follow": True})


def _pr6_r1_after(st, ev):
    draws = [(e["player"], e["cards"]) for e in ev if e["event"] == "draw"]
    assert draws == [(0, ["8C"]), (1, ["9C"])]          # attacker first, then the defender
    assert len(st.hands[2]) == 4                         # RUL-13: only those two draw


sc("PR6-R1-RUL-13-refill-attacker-first-then-defender-only-those-two", F6,
   P({0: "AD KD QD JD 10D", 1: "9H 6C 8D 7D 6D 8H", 2: "AC KC QC JC"}, ["7H"], talon="8C 9C 10C JS"),
   A("defend", 1, covers=[{"attack": "7H", "cover": "9H"}]), True, "PR6-D2", after=_pr6_r1_after, tags="PR6-R1 RUL-13")
sc("PR6-E1-empty-player-leaves-last-with-cards-is-fool", F6,
   P({0: "", 1: "KC 8D", 2: ""}, ["7C"], talon=0, out=[2], bout_number=7, out_bouts={"2": 5}, dealer=0),
   A("defend", 1, covers=[{"attack": "7C", "cover": "KC"}]), True, "PR6-D2",
   after=result_is(fool=1, outcome=["escaped", "fool", "escaped"], places=[2, 3, 1], bouts=7, next_dealer=1), tags="PR6-E1")


def _pr6_t1_after(st, ev):
    assert st.teams == [[0, 2], [1, 3]]
    result_is(fool=None, losing_team=1, outcome=["escaped", "fool", "escaped", "fool"])(st, ev)


sc("PR6-T1-TEAM-3-RUL-4-even-count-plays-in-pairs-team-with-cards-loses", F6,
   P({0: "", 1: "", 2: "", 3: "KC 8D"}, ["7C"], attacker=0, defender=3, talon=0, out=[1, 2]),
   A("defend", 3, covers=[{"attack": "7C", "cover": "KC"}]), True, "PR6-D2", after=_pr6_t1_after, tags="PR6-T1 TEAM-3 RUL-4")
sc("PR6-X1-trump-six-exchange-in-prostoy-6", F6, P({0: "9C 9H KD KH AH 10C", 1: "QC JC 6D 6S 10D QD"}, talon=20),
   A("exchange_trump_six", 1), True, "PR6-X1",
   after=lambda st, ev: ("AS" in hand(st, 1) and card_name(st.trump_card) == "6S") or pytest.fail())
sc("PR6-S2-RUL-8-fool-deals-next", F6, P({0: "", 1: "8D"}, ["7C"], talon=0, dealer=0),
   A("defend", 1, covers=[], take=["7C"]), True, "PR6-D2", after=result_is(fool=1, next_dealer=1), tags="PR6-S2 RUL-8")
sc("RUL-11-single-or-pair-pair-lead-legal", F6, P({0: "9C 9H KD KH AH 10C", 1: D6}, talon=24),
   A("attack", 0, cards=["9C", "9H"]), True, "RUL-11", toggles={"prostoy_attack_sets": "single_or_pair"})
sc("RUL-11-single-or-pair-three-card-lead-illegal", F6, P({0: "9C 9H KD KH AH 10C", 1: D6}, talon=24),
   A("attack", 0, cards=["9C", "9H", "AH"]), False, "RUL-11", toggles={"prostoy_attack_sets": "single_or_pair"})
sc("RUL-12-cover-action-in-simple-durak-illegal", F5, P({0: "AS 10D", 1: "KC 8D 6C"}, ["7C"], talon=0),
   A("cover", 1, attack="7C", cover="KC"), False, "RUL-12")

# =============================================================================================
# §4 podkidnoy
# =============================================================================================
PK = "podkidnoy"
H6 = {0: "7C 7D 8C AD KD QH", 1: "9H 6C 8H JD QD 10D"}
sc("POD-A1-lead-several-cards-of-one-rank-legal", PK, P(H6), A("attack", 0, cards=["7C", "7D"]), True, "POD-A1")
sc("POD-A1-lead-of-mixed-ranks-illegal", PK, P(H6), A("attack", 0, cards=["7C", "8C"]), False, "POD-A1")
sc("POD-A1-RUL-14-initial-lead-single-two-cards-illegal", PK, P(H6), A("attack", 0, cards=["7C", "7D"]), False,
   "POD-A1", toggles={"initial_lead": "single"})
sc("RUL-6-only-the-attacker-leads-illegal", PK, P(H6), A("attack", 1, cards=["9H"]), False, "RUL-6")
sc("RUL-14-no-throw-in-before-the-lead-illegal", PK, P(H6), A("throw_in", 0, cards=["7C"]), False, "RUL-14")

H3 = {0: "7C 8D AD KD QD JD", 1: "10H 6C 8H JC QC 10D", 2: "7S 9C AC KC 10C 6D"}
sc("POD-T1-others-before-the-first-cover-illegal", PK, P(H3, ["7H"]), A("throw_in", 2, cards=["7S"]), False, "POD-T1")
sc("POD-T1-others-after-the-first-cover-legal", PK, P(H3, ["7H/9H"]), A("throw_in", 2, cards=["9C"]), True, "POD-T2")
sc("POD-T1-defender-cannot-throw-in-illegal", PK, P(H3, ["7H/9H"]), A("throw_in", 1, cards=["8H"]), False, "POD-T1")
sc("RUL-16-attacker-may-throw-in-before-any-cover-legal", PK, P(H3, ["7H"]), A("throw_in", 0, cards=["7C"]),
   True, "POD-T2")
sc("RUL-16-after-attacker-others-wait-until-attacker-finishes-illegal", PK, P(H3, ["7H/9H"]),
   A("throw_in", 2, cards=["9C"]), False, "POD-T1", toggles={"others_throw_in_timing": "after_attacker"})
sc("RUL-16-after-attacker-others-throw-in-once-attacker-passed-legal", PK, P(H3, ["7H/9H"]),
   SEQ(A("pass", 0), A("throw_in", 2, cards=["9C"])), True, "POD-T2",
   toggles={"others_throw_in_timing": "after_attacker"})
sc("RUL-16-any-time-others-throw-in-before-a-cover-legal", PK, P(H3, ["7H"]), A("throw_in", 2, cards=["7S"]),
   True, "POD-T2", toggles={"others_throw_in_timing": "any_time"})
sc("POD-T2-rank-not-on-the-table-illegal", PK, P(H3, ["7H/9H"]), A("throw_in", 0, cards=["8D"]), False, "POD-T2")
sc("POD-T2-rank-of-a-cover-card-may-be-thrown-in-legal", PK, P({0: "9D 8D", 1: "6C 8H"}, ["7H/9H"]),
   A("throw_in", 0, cards=["9D"]), True, "POD-T2")
sc("POD-T3-POD-R1-throwing-in-is-a-right-pass-ends-bout-beaten", PK, P({0: "7C 8D", 1: "6C 8H"}, ["7H/9H"], talon=0),
   A("pass", 0), True, "POD-T3",
   after=all_of(roles_are(1, 0), lambda st, ev: any(e["event"] == "discard" for e in ev) or pytest.fail()), tags="POD-R1")


def _t4_after(st, ev):
    assert hand(st, 1) == sorted(cards("7H 7C 6C 8H 9D"))  # picks up the lead and the card thrown after
    assert (st.attacker, st.defender) == (0, 1)          # POD-R5 with two players: the attacker again


sc("POD-T4-throw-in-after-take-vdogonku-legal", PK, P({0: "7C 8D", 1: "6C 8H 9D"}, ["7H"], talon=0),
   SEQ(A("take", 1), A("throw_in", 0, cards=["7C"])), True, "POD-T4", after=_t4_after)
sc("POD-T4-RUL-17-toggle-off-defender-picks-up-at-once", PK, P({0: "7C 8D", 1: "6C 8H 9D"}, ["7H"], talon=0),
   A("take", 1), True, "POD-D4", toggles={"throw_in_after_take": False},
   after=lambda st, ev: (hand(st, 1) == sorted(cards("7H 6C 8H 9D")) and st.table == []) or pytest.fail(), tags="POD-T4 RUL-17")
sc("POD-T4-toggle-off-no-throw-in-after-take-illegal", PK, P({0: "7C 8D", 1: "6C 8H 9D"}, ["7H"], talon=0),
   SEQ(A("take", 1), A("throw_in", 0, cards=["7C"])), False, "RUL-14", toggles={"throw_in_after_take": False})

SIX_ROWS = ["7H/9H", "7C/9C", "7D/9D", "8H/10H", "8C/10C", "8D/10D"]
sc("POD-L1-seventh-attack-card-illegal", PK, P({0: "7S", 1: "JC QC"}, SIX_ROWS, talon=0),
   A("throw_in", 0, cards=["7S"]), False, "POD-L1")
sc("POD-L2-vdogonku-only-as-many-as-defender-held-two-more-legal", PK,
   P({0: "7C 7D 7S", 1: "8C 9C 10C"}, ["7H"], talon=0, take_declared=True),
   A("throw_in", 0, cards=["7C", "7D"]), True, "POD-T4",
   after=lambda st, ev: (len(st.hands[1]) == 6 and st.table == []) or pytest.fail(), tags="POD-L2")
sc("POD-L2-vdogonku-third-extra-card-illegal", PK,
   P({0: "7C 7D 7S", 1: "8C 9C 10C"}, ["7H"], talon=0, take_declared=True),
   A("throw_in", 0, cards=["7C", "7D", "7S"]), False, "POD-L2")
sc("POD-L2-lead-larger-than-defender-hand-illegal", PK, P({0: "7C 7D 7S AD", 1: "8C 9C"}, talon=0),
   A("attack", 0, cards=["7C", "7D", "7S"]), False, "POD-L2")
sc("RUL-15-POD-L2-limit-is-hand-at-start-covers-count", PK,
   P({0: "7C 9D", 1: "JC"}, ["7H/9H", "8H/10H"], talon=0),
   A("throw_in", 0, cards=["7C", "9D"]), False, "POD-L2")
sc("RUL-15-POD-L2-one-more-within-hand-at-start-legal", PK,
   P({0: "7C 9D", 1: "JC"}, ["7H/9H", "8H/10H"], talon=0),
   A("throw_in", 0, cards=["7C"]), True, "POD-T2")

FIVE_ROWS = ["8C/9C", "8H/10H", "9S/JS", "10C/QC", "9H/KH"]
sc("POD-L3-first-bout-sixth-attack-card-illegal", PK, P({0: "AS 7H QS", 1: "6C", 2: "JC 6S 7S AC"}, FIVE_ROWS,
                                                       talon=18, first_bout=True),
   A("throw_in", 2, cards=["JC"]), False, "POD-L3")
sc("POD-L3-first-bout-scope-sixth-card-in-second-bout-legal", PK,
   P({0: "AS 7H QS", 1: "6C", 2: "JC 6S 7S AC"}, FIVE_ROWS, talon=18, first_bout=False),
   A("throw_in", 2, cards=["JC"]), True, "POD-T2")
sc("POD-L3-RUL-15-until-first-discard-sixth-card-in-second-bout-illegal", PK,
   P({0: "AS 7H QS", 1: "6C", 2: "JC 6S 7S AC"}, FIVE_ROWS, talon=18, first_bout=False, first_discard_done=False),
   A("throw_in", 2, cards=["JC"]), False, "POD-L3", toggles={"first_bout_limit_scope": "until_first_discard"})
sc("POD-L3-until-first-discard-legal-once-a-bout-was-beaten-off", PK,
   P({0: "AS 7H QS", 1: "6C", 2: "JC 6S 7S AC"}, FIVE_ROWS, talon=18, first_bout=False, first_discard_done=True),
   A("throw_in", 2, cards=["JC"]), True, "POD-T2", toggles={"first_bout_limit_scope": "until_first_discard"})
sc("POD-L3-first-bout-limit-none-toggle-legal", PK,
   P({0: "AS 7H QS", 1: "6C", 2: "JC 6S 7S AC"}, FIVE_ROWS, talon=18, first_bout=True),
   A("throw_in", 2, cards=["JC"]), True, "POD-T2", toggles={"first_bout_max_attack": "none"})
sc("POD-D4-take-when-everything-is-covered-illegal", PK, P(H3, ["7H/9H"]), A("take", 1), False, "POD-D4")
sc("POD-D4-defender-does-not-pass-illegal", PK, P(H3, ["7H"]), A("pass", 1), False, "POD-D4")
sc("POD-D5-I-take-is-irrevocable-no-cover-after-illegal", PK, P(H3, ["7H"], take_declared=True),
   A("cover", 1, attack="7H", cover="10H"), False, "POD-D5")


def _r2_after(st, ev):
    draws = [(e["player"], e["cards"]) for e in ev if e["event"] == "draw"]
    assert draws == [(1, ["8C", "9C"]), (0, ["10C"]), (2, ["JC"])]
    assert [card_name(c) for c in st.talon] == ["QS"]
    assert (st.attacker, st.defender) == (2, 0)


sc("POD-R2-RUL-18-refill-attacker-then-clockwise-defender-last", PK,
   P({0: "AC AD KC KD QD", 1: "7C 8D JD 10D", 2: "6C 6D 8H JH QH"}, ["7H/9H"], attacker=1, defender=2,
     talon="8C 9C 10C JC QS"),
   A("pass", 1), True, "POD-T3", after=_r2_after, tags="POD-R2 RUL-18")


def _r4_after(st, ev):
    assert hand(st, 1) == sorted(cards("7H 9H 9C 6C 8H"))
    assert (st.attacker, st.defender) == (0, 1)


sc("POD-R4-POD-R5-take-picks-up-covered-and-uncovered-two-players-attacker-again", PK,
   P({0: "AD", 1: "6C 8H"}, ["7H/9H", "9C"], talon=0), A("take", 1), True, "POD-D4", after=_r4_after, tags="POD-R4 POD-R5")
sc("POD-R5-RUL-6-taker-is-skipped-with-three-players", PK,
   P({0: "AD", 1: "6C 8H", 2: "KC"}, ["7H"], talon=0), A("take", 1), True, "POD-D4", after=roles_are(2, 0), tags="POD-R5 RUL-6")
sc("POD-E1-POD-E2-defender-goes-out-by-beating-off-next-active-attacks", PK,
   P({0: "8D", 1: "9H", 2: "AC"}, ["7H"], talon=0),
   A("cover", 1, attack="7H", cover="9H"), True, "C-2",
   after=all_of(roles_are(2, 0), lambda st, ev: (st.is_out[1] and not st.is_out[0]) or pytest.fail()), tags="POD-E1 POD-E2")
sc("POD-E3-everybody-out-at-once-is-a-draw", PK, P({0: "", 1: "9H"}, ["7H"], talon=0),
   A("cover", 1, attack="7H", cover="9H"), True, "C-2",
   after=result_is(outcome=["drew", "drew"], places=[1, 1]), tags="POD-E3")


def _not_out_after(st, ev):
    assert not st.is_out[0] and hand(st, 0) == ["8C", "AS"] and st.result is None


sc("RUL-20-players-go-out-only-after-the-refill", PK, P({0: "", 1: "9H 6C 6D 10D JD QD"}, ["7H"], talon="8C AS"),
   A("cover", 1, attack="7H", cover="9H"), True, "C-2", after=_not_out_after, tags="RUL-20")
sc("RUL-20-no-action-after-the-deal-is-over-illegal", PK, P({0: "7H", 1: "9H 6C 8D"}, talon=0),
   SEQ(A("attack", 0, cards=["7H"]), A("cover", 1, attack="7H", cover="9H"), A("attack", 1, cards=["6C"])),
   False, "RUL-20")
sc("RUL-21-places-count-players-out-in-earlier-bouts", PK,
   P({0: "", 1: "9H", 2: ""}, ["7H"], talon=0, out=[2], bout_number=9, out_bouts={"2": 3}),
   A("cover", 1, attack="7H", cover="9H"), True, "C-2",
   after=result_is(outcome=["drew", "drew", "escaped"], places=[2, 2, 1], bouts=9), tags="RUL-21")

# ---- teams ------------------------------------------------------------------------------------
T22 = [[0, 2], [1, 3]]
sc("TEAM-1-RUL-5-defender-is-next-opponent-skipping-partner-and-out-seat", PK,
   P({0: "AC", 1: "", 2: "8D", 3: "6C 6D"}, ["7H"], attacker=2, defender=3, talon=0, out=[1], teams=T22),
   A("take", 3), True, "POD-D4", after=roles_are(0, 3), tags="TEAM-1 RUL-5")
sc("TEAM-2-partner-does-not-throw-in-against-partner-illegal", PK,
   P({0: "8D", 1: "6C 6D 8H", 2: "KC", 3: "9C"}, ["7H/9H"], teams=T22),
   A("throw_in", 3, cards=["9C"]), False, "TEAM-2")
sc("TEAM-2-attackers-partner-may-throw-in-legal", PK,
   P({0: "8D", 1: "6C 6D 8H", 2: "9C", 3: "KC"}, ["7H/9H"], teams=T22),
   A("throw_in", 2, cards=["9C"]), True, "POD-T2")
sc("TEAM-3-RUL-21-RUL-8-team-still-holding-cards-loses", PK,
   P({0: "", 1: "8D", 2: "", 3: "9H 6C"}, ["7H"], attacker=2, defender=3, talon=0, out=[0], teams=T22,
     bout_number=12, out_bouts={"0": 10}, dealer=2),
   A("cover", 3, attack="7H", cover="9H"), True, "C-2",
   after=result_is(fool=None, losing_team=1, outcome=["escaped", "fool", "escaped", "fool"], places=[1, 4, 2, 4],
                   bouts=12, next_dealer=3), tags="TEAM-3 RUL-21 RUL-8")
sc("TEAM-4-defender-out-by-beating-off-his-partner-attacks", PK,
   P({0: "AC", 1: "9H", 2: "KC", 3: "QD"}, ["7H"], talon=0, teams=T22),
   A("cover", 1, attack="7H", cover="9H"), True, "C-2", after=roles_are(3, 0), tags="TEAM-4")
sc("TEAM-4-without-teams-next-player-clockwise-attacks", PK,
   P({0: "AC", 1: "9H", 2: "KC", 3: "QD"}, ["7H"], talon=0),
   A("cover", 1, attack="7H", cover="9H"), True, "C-2", after=roles_are(2, 3), tags="TEAM-4")
sc("RUL-4-TEAM-2-pairs-if-even-six-players-partner-opposite-cannot-throw-in", PK,
   P({0: "8D", 1: "6C 6D 8H", 2: "KC", 3: "QC", 4: "9C", 5: "AC"}, ["7H/9H"],
     teams=[[0, 3], [1, 4], [2, 5]]),
   A("throw_in", 4, cards=["9C"]), False, "TEAM-2")

# ---- house rules -------------------------------------------------------------------------------
sc("HR-2-pogony-two-sixes-with-two-players-left-wins", PK, P({0: "6C 6D", 1: "9H JC QC"}, ["7H"], talon=0),
   A("cover", 1, attack="7H", cover="9H"), True, "C-2", toggles={"pogony_instant_win": True},
   after=result_is(fool=1, outcome=["escaped", "fool"], places=[1, 2]), tags="HR-2")
sc("HR-2-pogony-toggle-off-play-goes-on", PK, P({0: "6C 6D", 1: "9H JC QC"}, ["7H"], talon=0),
   A("cover", 1, attack="7H", cover="9H"), True, "C-2", after=roles_are(1, 0), tags="HR-2")
sc("HR-2-pogony-needs-exactly-two-sixes", PK, P({0: "6C 8D", 1: "9H JC QC"}, ["7H"], talon=0),
   A("cover", 1, attack="7H", cover="9H"), True, "C-2", toggles={"pogony_instant_win": True},
   after=roles_are(1, 0), tags="HR-2")
H5 = {0: "8D", 1: "6C 6D 8H", 2: "KC", 3: "9C", 4: "9D"}
sc("HR-3-neighbours-only-non-neighbour-throw-in-illegal", PK, P(H5, ["7H/9H"]), A("throw_in", 3, cards=["9C"]),
   False, "HR-3", toggles={"throw_in_neighbours_only_if_players_gt": 4})
sc("HR-3-neighbours-only-right-neighbour-throw-in-legal", PK, P({**H5, 2: "9S"}, ["7H/9H"]),
   A("throw_in", 2, cards=["9S"]), True, "POD-T2", toggles={"throw_in_neighbours_only_if_players_gt": 4})
sc("HR-3-neighbours-rule-off-anyone-may-throw-in", PK, P(H5, ["7H/9H"]), A("throw_in", 3, cards=["9C"]),
   True, "POD-T2")
sc("HR-4-trump-six-exchange-off-by-default-in-podkidnoy", PK, P({0: "7C", 1: "6S 8D"}, talon=10),
   A("exchange_trump_six", 1), False, "HR-4")
sc("HR-4-trump-six-exchange-with-toggle-in-podkidnoy", PK, P({0: "7C", 1: "6S 8D"}, talon=10),
   A("exchange_trump_six", 1), True, "HR-4", toggles={"trump_six_exchange": True})

# ---- RUL-17 passes -------------------------------------------------------------------------------
sc("RUL-17-pass-without-a-legal-throw-in-illegal", PK, P({0: "8D AD", 1: "6C 8H"}, ["7H"]), A("pass", 0),
   False, "RUL-17")
sc("RUL-17-passed-player-may-not-throw-in-before-the-table-changes", PK,
   P({0: "7C 8D", 1: "6C 8H", 2: "9C KD"}, ["7H/9H"]),
   SEQ(A("pass", 0), A("throw_in", 0, cards=["7C"])), False, "RUL-17")
sc("RUL-17-a-cover-clears-the-passes", PK, P({0: "7C 8D", 1: "6C 9D 8H", 2: "KD"}, ["7H/9H", "7D"]),
   SEQ(A("pass", 0), A("cover", 1, attack="7D", cover="9D"), A("throw_in", 0, cards=["7C"])), True, "POD-T2")
sc("RUL-17-bout-goes-on-while-a-thrower-has-not-passed", PK, P({0: "7C 8D", 1: "6C 8H", 2: "9C KD"}, ["7H/9H"]),
   A("pass", 0), True, "POD-T3",
   after=lambda st, ev: (table_of(st) == ["7H/9H"] and st.passed == {0}) or pytest.fail(), tags="RUL-17")

# ---- malformed actions (RUL-1) ------------------------------------------------------------------
sc("RUL-1-bad-card-text-illegal", PK, P(H3, ["7H/9H"]), A("throw_in", 0, cards=["1S"]), False, "RUL-1")
sc("RUL-1-unknown-action-type-illegal", PK, P(H3, ["7H/9H"]), {"type": "fold", "player": 0}, False, "RUL-1")
sc("RUL-1-card-not-in-hand-illegal", PK, P(H3, ["7H"]), A("cover", 1, attack="7H", cover="KH"), False, "RUL-1")
sc("RUL-1-player-not-a-seat-illegal", PK, P(H3, ["7H/9H"]), A("pass", 7), False, "RUL-1")
sc("RUL-12-defend-action-outside-simple-durak-illegal", PK, P(H3, ["7H"]),
   A("defend", 1, covers=[{"attack": "7H", "cover": "9H"}]), False, "RUL-12")

# =============================================================================================
# §5 perevodnoy
# =============================================================================================
PV = "perevodnoy"
HV = {0: "9D AS KC 6H 10C", 1: "7S 8D QH JC AD 6C", 2: "7C 8S 9H KH"}
sc("PER-1-transfer-with-same-rank-legal", PV, P(HV, ["7H"], talon=4),
   A("transfer", 1, card="7S"), True, "PER-1",
   after=lambda st, ev: ((st.attacker, st.defender) == (1, 2) and table_of(st) == ["7H", "7S"]) or pytest.fail())
sc("PER-1-transfer-with-other-rank-illegal", PV, P(HV, ["7H"], talon=4), A("transfer", 1, card="8D"), False, "PER-1")
sc("PER-1-no-transfer-in-podkidnoy-illegal", PK, P(HV, ["7H"], talon=4), A("transfer", 1, card="7S"), False, "PER-1")
sc("PER-2-no-transfer-in-the-first-bout-illegal", PV, P(HV, ["7H"], talon=4, first_bout=True),
   A("transfer", 1, card="7S"), False, "PER-2")
sc("PER-2-transfer-in-first-bout-with-toggle-legal", PV, P(HV, ["7H"], talon=4, first_bout=True),
   A("transfer", 1, card="7S"), True, "PER-1", toggles={"transfer_in_first_bout": True})
sc("PER-3-next-player-with-too-few-cards-illegal", PV,
   P({0: "9D AS", 1: "7S 8D QH", 2: "8S 9H"}, ["7H", "7D"], talon=4),
   A("transfer", 1, card="7S"), False, "PER-3")
sc("PER-4-transfer-after-a-cover-illegal", PV, P({0: "9D AS", 1: "7S 8D QH", 2: "8S 10H KH AH"}, ["7H/9H", "7D"], talon=4),
   A("transfer", 1, card="7S"), False, "PER-4")
sc("PER-5-transfer-back-to-the-original-attacker-legal", PV,
   P({0: "7C AC KD", 1: "7S 8D 9D JD"}, ["7H"], talon=4),
   SEQ(A("transfer", 1, card="7S"), A("transfer", 0, card="7C")), True, "PER-5",
   after=lambda st, ev: ((st.attacker, st.defender, st.bout_opener) == (0, 1, 0) and len(st.table) == 3)
   or pytest.fail())


def _per6_after(st, ev):
    draws = [(e["player"], e["cards"]) for e in ev if e["event"] == "draw"]
    assert draws == [(0, cards("8C 9C 10C JC")), (1, ["QC"]), (2, cards("KH AH 8H AS"))]
    assert (st.attacker, st.defender) == (2, 0)


sc("PER-6-RUL-18-new-defender-beats-off-refill-opener-first-defender-last", PV,
   P({0: "AC KC", 1: "7S 8D JD QD KD AD", 2: "9H 10S 6C 6D"}, ["7H"],
     talon="8C 9C 10C JC QC KH AH 8H AS"),
   SEQ(A("transfer", 1, card="7S"), A("cover", 2, attack="7H", cover="9H"),
       A("cover", 2, attack="7S", cover="10S")), True, "C-2", after=_per6_after, tags="PER-6 RUL-18")
sc("PER-T1-RUL-5-team-transfer-skips-partner-to-next-opponent", PV,
   P({0: "AC KD", 1: "7S 8D", 2: "", 3: "KC QC"}, ["7H"], talon=0, out=[2], teams=T22),
   A("transfer", 1, card="7S"), True, "PER-1",
   after=lambda st, ev: ((st.attacker, st.defender) == (1, 0)) or pytest.fail((st.attacker, st.defender)), tags="PER-T1 RUL-5")
sc("PER-P1-proezdnoy-show-trump-keeps-card-legal", PV, P(HV, ["7H"], talon=4),
   A("transfer_by_showing", 1, card="7S"), True, "PER-P1", toggles={"proezdnoy": True},
   after=lambda st, ev: ("7S" in hand(st, 1) and table_of(st) == ["7H"] and (st.attacker, st.defender) == (1, 2))
   or pytest.fail())
sc("PER-P1-proezdnoy-non-trump-cannot-be-shown-illegal", PV, P({**HV, 1: "7D 8D QH JC AD 6C"}, ["7H"], talon=4),
   A("transfer_by_showing", 1, card="7D"), False, "PER-P1", toggles={"proezdnoy": True})
sc("PER-P1-showing-without-the-house-rule-illegal", PV, P(HV, ["7H"], talon=4),
   A("transfer_by_showing", 1, card="7S"), False, "PER-P1")
SHOW2 = P({0: "7C AC KD QD", 1: "7S 8D 9D JD"}, ["7H"], talon=4)
sc("PER-P2-proezdnoy-once-per-bout-second-show-illegal", PV, SHOW2,
   SEQ(A("transfer_by_showing", 1, card="7S"), A("transfer", 0, card="7C"), A("transfer_by_showing", 1, card="7S")),
   False, "PER-P2", toggles={"proezdnoy": True})
sc("PER-P2-proezdnoy-second-time-must-lay-the-trump-legal", PV, SHOW2,
   SEQ(A("transfer_by_showing", 1, card="7S"), A("transfer", 0, card="7C"), A("transfer", 1, card="7S")),
   True, "PER-5", toggles={"proezdnoy": True},
   after=lambda st, ev: (table_of(st) == ["7H", "7C", "7S"] and st.defender == 0) or pytest.fail(), tags="PER-P2")
sc("PER-P2-once-per-game-per-card-shown-trump-cannot-be-shown-again", PV,
   P(HV, ["7H"], talon=4, shown_trumps_this_deal=["7S"]),
   A("transfer_by_showing", 1, card="7S"), False, "PER-P2",
   toggles={"proezdnoy": True, "proezdnoy_limit": "once_per_game_per_card"})
sc("VAR-PK1-pokaznoy-show-any-same-rank-card-legal", PV, P({**HV, 1: "7D 8D QH JC AD 6C"}, ["7H"], talon=4),
   A("transfer_by_showing", 1, card="7D"), True, "VAR-PK1", toggles={"pokaznoy": True})
sc("VAR-PK1-pokaznoy-same-card-twice-in-a-bout-illegal", PV,
   P({0: "7D AC KD", 1: "7C 8D 9D JD"}, ["7H"], talon=4),
   SEQ(A("transfer_by_showing", 1, card="7C"), A("transfer_by_showing", 0, card="7D"),
       A("transfer_by_showing", 1, card="7C")), False, "VAR-PK1", toggles={"pokaznoy": True})
sc("RUL-19-PER-3-show-needs-new-defender-to-hold-the-table", PV,
   P({0: "9D AS", 1: "7S 8D QH", 2: "8S"}, ["7H", "7D"], talon=4),
   A("transfer_by_showing", 1, card="7S"), False, "PER-3", toggles={"proezdnoy": True})


# ---------------------------------------------------------------------------------------------
# the scenario runner
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("s", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_scenario(s: Sc):
    st = R.load_position(s.family, s.toggles, s.position)
    before = st.to_position()
    v = R.check(st, s.action)
    assert st.to_position() == before, "check() must not change the state"
    assert v.legal is s.legal, v
    if s.rule is not None:
        assert v.rule == s.rule, v
    assert v.reason and v.reason.strip()
    if not s.legal:
        with pytest.raises(R.RefereeError):
            R.apply(st, s.action)
        assert st.to_position() == before, "an illegal apply must not change the state"
        return
    events = R.apply(st, s.action)
    assert isinstance(events, list) and events
    assert st.card_invariant_problem() is None
    if s.after is not None:
        s.after(st, events)
    # the resulting position reads back to the same position
    again = R.load_position(s.family, s.toggles, st.to_position())
    assert again.to_position() == st.to_position()


GARBAGE = ["fold", None, 7, {}, {"type": "attack"}, {"type": "attack", "player": 0, "cards": "7C"},
           {"type": "attack", "player": 0, "cards": []}, {"type": "attack", "player": 0, "cards": ["7C", "7C"]},
           {"type": "cover", "player": 1, "attack": None, "cover": 5.5}, {"type": "throw_in", "player": True},
           {"type": "defend", "player": 1, "covers": "7H"}, {"type": "pass", "player": "x"},
           {"sequence": []}, {"sequence": "pass"}, {"type": "transfer", "player": 1, "card": ["7S"]}]


@pytest.mark.parametrize("action", GARBAGE, ids=[f"RUL-1-garbage-{i}" for i in range(len(GARBAGE))])
def test_RUL_1_malformed_actions_are_illegal_verdicts_never_exceptions(action):
    for family in ("prostoy_5", "podkidnoy", "perevodnoy"):
        st = R.load_position(family, {}, P({0: "7C 8D 9D JD QD", 1: "9H 6C 8H JC QC"}, ["7H"]))
        v = R.check(st, action)
        wrong_family = isinstance(action, dict) and action.get("type") == "defend" and family != "prostoy_5"
        assert v.legal is False and v.rule == ("RUL-12" if wrong_family else "RUL-1") and v.reason
        with pytest.raises(R.RefereeError):
            R.apply(st, action)


def test_judge_sequence_reports_the_failing_step_and_formats():
    doc = {"family": "perevodnoy", "toggles": {"proezdnoy": True}, "position": SHOW2,
           "action": SEQ(A("transfer_by_showing", 1, card="7S"), A("transfer", 0, card="7C"),
                         A("transfer_by_showing", 1, card="7S"))}
    res = R.judge(doc)
    assert res["legal"] is False and res["rule"] == "PER-P2" and res["step"] == 2
    assert [s["legal"] for s in res["steps"]] == [True, True, False]
    assert R.format_judgement(res).startswith("ILLEGAL (PER-P2)")
    doc["action"]["sequence"][2] = A("transfer", 1, card="7S")
    res = R.judge(doc)
    assert res["legal"] and res["position"]["defender"] == 0 and res["events"]["next_attacker"] == 1
    text = R.format_judgement(res)
    assert "LEGAL (PER-5)" in text and "7H/- 7C/- 7S/-" in text


def test_unknown_draws_round_trip_without_inventing_cards():
    st = R.load_position("prostoy_5", {}, P({0: "7C 7D QH 9S AH", 1: D5}, talon=16))
    R.apply(st, A("attack", 0, cards=["7C", "7D", "QH"]))
    pos = st.to_position()
    assert pos["hands"]["0"] == ["9S", "AH"] and pos["hand_sizes"]["0"] == 5
    assert pos["talon_order_top_to_bottom"] is None and pos["talon_size"] == 13
    back = R.load_position("prostoy_5", {}, pos)
    assert back.to_position() == pos
    # the defender cannot name a card nobody knows, but the sizes still rule the limits
    assert len(back.hands[0]) == 5 and sum(c is None for c in back.hands[0]) == 3


def test_at_least_seventy_scenarios_with_unique_ids():
    ids = [s.id for s in SCENARIOS]
    assert len(ids) >= 70
    assert len(set(ids)) == len(ids)


# =============================================================================================
# deals: new_deal (RUL-2, RUL-7, PR5-S3, PR6-S1, POD-S1/S2), RUL-3, C-1
# =============================================================================================
def _deck(first: list[str]) -> list[str]:
    """A full pack starting with ``first`` and then every other card in a fixed order."""
    rest = [card_name(c) for c in range(36) if card_name(c) not in first]
    return list(first) + rest


def test_RUL_2_PR5_S3_deal_one_at_a_time_from_dealers_left_trump_next_card():
    deck = _deck([])
    st = R.new_deal(resolve("prostoy_5", 2), deck, dealer=1)
    assert [card_name(c) for c in st.hands[0]] == deck[0:10:2]
    assert [card_name(c) for c in st.hands[1]] == deck[1:10:2]
    assert card_name(st.trump_card) == deck[10] and st.trump_suit == parse_card(deck[10]) & 3
    assert [card_name(c) for c in st.talon] == deck[11:] + [deck[10]]   # C-3: the trump card lies last
    assert (st.attacker, st.defender) == (0, 1)                          # PR5-S3: dealer's left attacks
    assert st.first_bout and st.card_invariant_problem(require_known=True) is None


def test_PR6_S1_RUL_7_left_of_dealer_leads_in_prostoy_6():
    st = R.new_deal(resolve("prostoy_6", 3), _deck([]), dealer=2)
    assert (st.attacker, st.defender) == (0, 1)
    assert all(len(h) == 6 for h in st.hands) and len(st.talon) == 36 - 18


def test_RUL_2_six_players_six_cards_trump_shown_stays_with_dealer():
    deck = _deck([])
    st = R.new_deal(resolve("podkidnoy", 6), deck, dealer=3)
    assert st.talon == [] and all(len(h) == 6 for h in st.hands)
    assert card_name(st.trump_card) == deck[35] and parse_card(deck[35]) in st.hands[3]
    assert st.to_position()["trump_card_location"] == "already_drawn"
    # RUL-7: the dealer's shown trump counts for lowest_trump
    trump = st.trump_suit
    holders = {card_name(c): s for s in range(6) for c in st.hands[s] if c & 3 == trump}
    lowest = min(holders, key=parse_card)
    assert st.attacker == holders[lowest]
    # and the exchange is impossible with an empty talon (RUL-9)
    assert not R.check(st, {"type": "exchange_trump_six", "player": 0}).legal


def test_POD_S1_POD_S2_RUL_7_lowest_trump_attacks_first():
    # 3 players, dealer 0: seat 1 gets deck[0,3,..], seat 2 deck[1,4,..], seat 0 deck[2,5,..]; trump = deck[18]
    deck = _deck([])
    order = [c for c in deck if c not in ("7S", "6S", "AS")]
    order.insert(4, "7S")      # deck[4] -> seat 2
    order.insert(5, "6S")      # deck[5] -> seat 0: the lowest trump
    order.insert(18, "AS")     # the turned trump
    st = R.new_deal(resolve("podkidnoy", 3), order, dealer=0)
    assert card_name(st.trump_card) == "AS"
    assert parse_card("6S") in st.hands[0] and parse_card("7S") in st.hands[2]
    assert (st.attacker, st.defender) == (0, 1)
    assert len(st.talon) == 36 - 18 and st.first_bout


def _no_trump_deck():
    # 2 players: 12 cards without spades, then the turned card AS
    first = "6C 7C 6D 8C 9C 10C 7D 8D 9D 10D JD QD".split() + ["AS"]
    return _deck(first)


def test_RUL_7_POD_S2_no_trump_in_hands_falls_back_to_left_of_dealer():
    st = R.new_deal(resolve("podkidnoy", 2), _no_trump_deck(), dealer=0)
    assert st.attacker == 1


def test_RUL_7_no_trump_in_hands_lowest_card_fallback():
    # seat 1 (dealt first by dealer 0) holds 6C, the lowest card of the deal
    st = R.new_deal(resolve("podkidnoy", 2, {"no_trump_in_hands_fallback": "lowest_card"}), _no_trump_deck(), dealer=1)
    assert parse_card("6C") in st.hands[0] and st.attacker == 0


@pytest.mark.parametrize("how,expected", [("pod_duraka", 1), ("iz_pod_duraka", 3), ("left_of_dealer", 1)],
                         ids=["POD-S2-RUL-7-pod-duraka", "POD-S2-RUL-7-iz-pod-duraka", "RUL-7-later-left-of-dealer"])
def test_POD_S2_later_deals_first_attacker(how, expected):
    rules = resolve("podkidnoy", 4, {"first_attacker_later_deals": how})
    st = R.new_deal(rules, _deck([]), dealer=0, later_deal=True, previous_fool=2)
    assert st.attacker == expected
    draw = R.new_deal(rules, _deck([]), dealer=0, later_deal=True, previous_fool=None)
    if how != "left_of_dealer":
        assert draw.attacker == 1   # after a draw: left of dealer (RUL-7)


def test_RUL_3_seven_players_refused():
    with pytest.raises(RulesError):
        resolve("podkidnoy", 7)


def test_C_1_pack_is_36_distinct_cards():
    with pytest.raises(ValueError):
        R.new_deal(resolve("podkidnoy", 2), _deck([])[:35], dealer=0)
    with pytest.raises(ValueError):
        R.new_deal(resolve("podkidnoy", 2), _deck([])[:35] + ["6C"], dealer=0)
    bad = P({0: "7C", 1: "8C"}, talon=5)
    bad["discard_count"] = 3        # 2 + 5 + 3 = 10, not 36
    with pytest.raises(ValueError):
        R.load_position("podkidnoy", {}, bad)


# =============================================================================================
# whole deals: new_deal + a scripted action list, then replay
# =============================================================================================
# 2 players, dealer 1, podkidnoy with left_of_dealer and no first-bout limit: five bouts.
SCRIPT_DECK = ("6C 8S 6D 7D 6H 7H 8C 9C 8D 9D 8H 9H AS "       # deal (0 gets even, 1 odd) + trump AS
               "QS JD JH KC KD KH "                               # 0 draws after bout 1
               "10C 10D 10H QC QD QH "                            # 1 draws after bout 1
               "6S 9S 10S JC JS KS "                              # 1 draws after bout 2
               "7C 7S AC AD AH").split()                          # 0 draws after bout 2 (+ AS last)
SCRIPT_TOGGLES = {"first_attacker_first_deal": "left_of_dealer", "first_bout_max_attack": "none"}


def _script(final_take: bool) -> list[dict]:
    a = []
    # bout 1: 0 leads three sixes; 1 trumps one with 8S, which lets 0 throw in his three eights
    a += [A("attack", 0, cards=["6C", "6D", "6H"]), A("cover", 1, attack="6C", cover="8S"),
          A("throw_in", 0, cards=["8C", "8D", "8H"]), A("cover", 1, attack="6D", cover="7D"),
          A("cover", 1, attack="6H", cover="7H"), A("cover", 1, attack="8C", cover="9C"),
          A("cover", 1, attack="8D", cover="9D"), A("cover", 1, attack="8H", cover="9H")]
    # bout 2: the mirror image
    a += [A("attack", 1, cards=["10C", "10D", "10H"]), A("cover", 0, attack="10C", cover="QS"),
          A("throw_in", 1, cards=["QC", "QD", "QH"]), A("cover", 0, attack="10D", cover="JD"),
          A("cover", 0, attack="10H", cover="JH"), A("cover", 0, attack="QC", cover="KC"),
          A("cover", 0, attack="QD", cover="KD"), A("cover", 0, attack="QH", cover="KH")]
    # bout 3 (talon empty): 0 leads two sevens, 1 trumps both
    a += [A("attack", 0, cards=["7C", "7S"]), A("cover", 1, attack="7C", cover="9S"),
          A("cover", 1, attack="7S", cover="10S")]
    # bout 4: 1 leads JC, adds JS; 0 covers with AC and AS
    a += [A("attack", 1, cards=["JC"]), A("cover", 0, attack="JC", cover="AC"),
          A("throw_in", 1, cards=["JS"]), A("cover", 0, attack="JS", cover="AS")]
    # bout 5: 0 leads his last two aces
    a += [A("attack", 0, cards=["AD", "AH"]), A("cover", 1, attack="AD", cover="6S")]
    a += [A("take", 1)] if final_take else [A("cover", 1, attack="AH", cover="KS")]
    return a


def _trace(final_take: bool, result: dict | None = None) -> dict:
    rules = resolve("podkidnoy", 2, SCRIPT_TOGGLES)
    return {"family": "podkidnoy", "num_players": 2, "toggles": dict(rules.toggles), "seed": 0, "game_index": 0,
            "dealer": 1, "deck": SCRIPT_DECK, "actions": _script(final_take), "result": result}


def test_scripted_deal_draw_POD_E3_bout_by_bout():
    assert len(set(SCRIPT_DECK)) == 36
    st = R.new_deal(resolve("podkidnoy", 2, SCRIPT_TOGGLES), SCRIPT_DECK, dealer=1)
    assert (st.attacker, st.defender) == (0, 1)
    actions = _script(final_take=False)
    for i, a in enumerate(actions):
        R.apply(st, a)
        assert st.card_invariant_problem(require_known=True) is None
        if i == 7:      # end of bout 1: beaten off, both refilled, the defender attacks
            assert hand(st, 0) == sorted(cards("QS JD JH KC KD KH")) and st.discard_count() == 12
            assert (st.attacker, st.defender) == (1, 0) and not st.first_bout and len(st.talon) == 12
        if i == 15:     # end of bout 2: the attacker refilled first, the defender got the trump card last
            assert "AS" in hand(st, 0) and st.talon == [] and (st.attacker, st.defender) == (0, 1)
    assert st.result == {**st.result, "fool": None, "losing_team": None, "outcome": ["drew", "drew"],
                         "places": [1, 1], "bouts": 5}


def test_scripted_deal_replay_fool_and_draw():
    fool = R.replay(_trace(True, {"fool": 1, "losing_team": None, "outcome": ["escaped", "fool"],
                                  "places": [1, 2], "bouts": 5}))
    assert fool["fool"] == 1
    draw = R.replay(_trace(False, {"fool": None, "losing_team": None, "outcome": ["drew", "drew"],
                                   "places": [1, 1], "bouts": 5}))
    assert draw["outcome"] == ["drew", "drew"]


def test_replay_names_the_illegal_action_index():
    tr = _trace(False)
    tr["actions"][3] = A("cover", 1, attack="6D", cover="7H")   # 7H does not beat 6D
    with pytest.raises(R.ReplayError, match=r"action 3 .*POD-D1"):
        R.replay(tr)


def test_replay_detects_wrong_result_unfinished_deal_and_actions_after_the_end():
    with pytest.raises(R.ReplayError, match="fool"):
        R.replay(_trace(False, {"fool": 1, "losing_team": None, "outcome": ["escaped", "fool"],
                                "places": [1, 2], "bouts": 5}))
    tr = _trace(False)
    tr["actions"] = tr["actions"][:-1]
    with pytest.raises(R.ReplayError, match="not over"):
        R.replay(tr)
    tr = _trace(False)
    tr["actions"].append(A("pass", 0))
    with pytest.raises(R.ReplayError, match=r"action 26 .*RUL-20"):
        R.replay(tr)


# ---- generated whole deals: a simple deterministic player, then replay ----------------------------
def _candidates(st, rng):
    out = [A("exchange_trump_six", p) for p in range(st.n)]
    if not st.table:
        a = st.attacker
        h = list(st.hands[a])
        out += [A("attack", a, cards=[card_name(c)]) for c in h]
        for k in (2, 3, 5, 6):
            for _ in range(6):
                if len(h) >= k:
                    out.append(A("attack", a, cards=[card_name(c) for c in rng.sample(h, k)]))
        return out
    d = st.defender
    if st.prostoy:
        covers, used = [], set()
        for att in st.uncovered():
            for c in sorted(st.hands[d]):
                if c not in used and R.beats(st, att, c):
                    covers.append({"attack": card_name(att), "cover": card_name(c)})
                    used.add(c)
                    break
        return out + [A("defend", d, covers=covers), A("defend", d, covers=[])]
    for att in st.uncovered():
        out += [A("cover", d, attack=card_name(att), cover=card_name(c)) for c in st.hands[d]]
    out.append(A("take", d))
    for c in st.hands[d]:
        out += [A("transfer", d, card=card_name(c)), A("transfer_by_showing", d, card=card_name(c))]
    for p in range(st.n):
        if p != d:
            out += [A("throw_in", p, cards=[card_name(c)]) for c in st.hands[p]] + [A("pass", p)]
    return out


def _play(family, n, toggles, seed):
    rng = random.Random(seed)
    rules = resolve(family, n, toggles)
    deck = [card_name(c) for c in range(36)]
    rng.shuffle(deck)
    dealer = rng.randrange(n)
    st = R.new_deal(rules, deck, dealer)
    actions = []
    out_at = {}                                  # seat -> bout in which the test saw him go out
    while not st.over:
        legal = [a for a in _candidates(st, rng) if R.check(st, a).legal]
        assert legal, f"no legal action in a live deal: {st.to_position()}"
        moves = [a for a in legal if a["type"] != "exchange_trump_six"] or legal
        a = rng.choice(moves)
        bout = st.bout
        R.apply(st, a)
        actions.append(a)
        assert st.card_invariant_problem(require_known=True) is None
        assert len(actions) < 3000
        if st.over or st.bout != bout:           # a bout ended: who is now without cards, the talon gone
            for p in range(n):
                if p not in out_at and not st.hands[p] and not st.talon:
                    out_at[p] = bout
    result = {k: st.result[k] for k in R.RESULT_KEYS}
    return {"family": family, "num_players": n, "toggles": dict(rules.toggles), "dealer": dealer, "deck": deck,
            "actions": actions, "result": result, "out_at": out_at, "final_bout": bout,
            "holding": [p for p in range(n) if st.hands[p]], "teams": rules.teams,
            "final_hands": [list(h) for h in st.hands]}


def _expected_result(tr):
    """RUL-20/21, TEAM-3 and HR-2 recomputed here from who still held cards and when each seat went out."""
    n, out_at, final, holding = tr["num_players"], dict(tr["out_at"]), tr["final_bout"], tr["holding"]
    team = {s: k for k, m in enumerate(tr["teams"] or [[s] for s in range(n)]) for s in m}
    if len(holding) == 2 and tr["toggles"].get("pogony_instant_win"):   # HR-2: the two-sixes holder went out
        winner = next(p for p in holding if len(tr_hands(tr, p)) == 2)
        out_at[winner] = final
        holding = [p for p in holding if p != winner]
    losing = {team[p] for p in holding}
    assert len(losing) <= 1, "a deal ended with two teams still holding cards"
    lt = next(iter(losing)) if losing else None
    outcome, places = [], []
    for s in range(n):
        mine = out_at.get(s)
        if lt is not None and team[s] == lt:
            outcome.append("fool")
        elif lt is None and team[s] in {team[p] for p, b in out_at.items() if b == final}:
            outcome.append("drew")
        else:
            outcome.append("escaped")
        places.append(n if mine is None else 1 + sum(1 for b in out_at.values() if b < mine))
    fool = lt if (lt is not None and not tr["teams"]) else None
    return {"fool": fool, "losing_team": lt if tr["teams"] else None, "outcome": outcome, "places": places}


def tr_hands(tr, p):
    return tr["final_hands"][p]


GEN = [("prostoy_5", 2, {}), ("prostoy_5", 4, {}), ("prostoy_6", 3, {}), ("prostoy_6", 4, {}),
       ("podkidnoy", 2, {}), ("podkidnoy", 6, {"teams": "3v3"}),
       ("podkidnoy", 3, {"others_throw_in_timing": "after_attacker", "throw_in_after_take": False,
                         "pogony_instant_win": True}),
       ("perevodnoy", 3, {"proezdnoy": True, "pokaznoy": True}), ("perevodnoy", 4, {"teams": "2v2"})]


@pytest.mark.rules("RUL-20", "RUL-21", "TEAM-3", "HR-2", "C-4")
@pytest.mark.parametrize("family,n,toggles", GEN, ids=[f"RUL-20-RUL-21-whole-deal-{f}-{n}p-{i}"
                                                      for i, (f, n, _) in enumerate(GEN)])
def test_generated_deals_end_with_the_result_the_rules_give(family, n, toggles):
    for seed in range(4):
        tr = _play(family, n, toggles, seed)
        res = tr["result"]
        assert res["outcome"].count("fool") in ((0,) if res["fool"] is None and res["losing_team"] is None
                                                 else tuple(range(1, n + 1)))
        assert max(res["places"]) <= n
        if resolve(family, n, toggles).teams is None:     # RUL-21: with teams the first out may be a loser
            assert min(res["places"]) == 1
            assert (res["fool"] is None) == ("fool" not in res["outcome"])
            if res["fool"] is not None:
                assert res["places"][res["fool"]] == n
        want = _expected_result(tr)
        assert {k: res[k] for k in want} == want, (tr["out_at"], tr["holding"])


# Every rule id is exercised by some test: tests/test_rule_coverage.py reads the scenarios' verdict rules and
# tags and the @pytest.mark.rules markers.
