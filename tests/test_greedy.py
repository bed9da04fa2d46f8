"""`greedy` is exact: every decision in its games is the one its definition prescribes.

The expectation is computed here, in plain Python from the referee's state, independently of
the compiled strategy (issue "The game core", item 6): lead the lowest-ranked non-trump (the
lowest trump if only trumps), cover with the lowest higher card of the suit else the lowest
trump, take when nothing beats, throw in the lowest legal non-trump (a trump only once the
talon is empty), never transfer, always exchange the trump six; ties by suit order C<D<H<S.
"""
import pytest

from sim import referee
from sim.core.cards import card_name, parse_card

RANK = lambda c: c >> 2  # noqa: E731
SUIT = lambda c: c & 3  # noqa: E731


SIX, ACE = 0, 8


def cheapest_cover(st, attack, hand):
    """The lowest higher card of the suit, else the lowest trump. With trump_six_beats_trump_ace (HR-1) the
    trump six is the one card that beats the trump ace. trump_only_if_cannot_follow (RUL-10) never changes
    greedy's choice: it trumps only when no higher card of the suit is in `hand`."""
    same = [c for c in hand if SUIT(c) == SUIT(attack) and RANK(c) > RANK(attack)]
    if same:
        return min(same)
    if st.toggles.get("trump_six_beats_trump_ace") and attack == ACE * 4 + st.trump_suit:
        six = SIX * 4 + st.trump_suit
        return six if six in hand else None
    if SUIT(attack) != st.trump_suit:
        trumps = [c for c in hand if SUIT(c) == st.trump_suit]
        if trumps:
            return min(trumps)
    return None


def expected_lead(st, hand):
    plain = [c for c in hand if SUIT(c) != st.trump_suit]
    return min(plain) if plain else min(hand)


def exchange_allowed(st, seat):
    if not st.toggles.get("trump_six_exchange") or st.trump_card_location != "talon_bottom":
        return False
    need = 2 if st.toggles["trump_six_exchange_timing"] == "while_face_down_cards_left" else 1
    six = st.trump_suit  # rank 0 of the trump suit
    return len(st.talon) >= need and six in st.hands[seat] and st.trump_card != six


def check_greedy_action(st, a):
    p = a["player"]
    hand = list(st.hands[p])
    kind = a["type"]
    assert kind not in ("transfer", "transfer_by_showing"), "greedy never transfers"
    if kind == "attack":
        for s in range(st.n):
            assert not exchange_allowed(st, s), f"greedy seat {s} should have exchanged the trump six first"
        assert [parse_card(x) for x in a["cards"]] == [expected_lead(st, hand)]
    elif kind in ("cover", "take"):
        target = next(row[0] for row in st.table if row[1] is None)
        exp = cheapest_cover(st, target, hand)
        if kind == "take":
            assert exp is None, f"greedy took {card_name(target)} though {card_name(exp)} beats it"
        else:
            assert parse_card(a["attack"]) == target and parse_card(a["cover"]) == exp
    elif kind in ("throw_in", "pass"):
        ranks = {RANK(c) for row in st.table for c in row if c is not None}
        legal = [c for c in hand if RANK(c) in ranks]
        plain = [c for c in legal if SUIT(c) != st.trump_suit]
        exp = min(plain) if plain else (min(legal) if legal and not st.talon else None)
        got = parse_card(a["cards"][0]) if kind == "throw_in" else None
        assert got == exp, f"greedy threw {got} expected {exp}"
    elif kind == "defend":
        left = list(hand)
        covers = []
        for row in st.table:
            c = cheapest_cover(st, row[0], left)
            if c is None:
                if not st.toggles["partial_defence"]:
                    covers = []
                    break
                continue
            covers.append((row[0], c))
            left.remove(c)
        assert [(parse_card(x["attack"]), parse_card(x["cover"])) for x in a["covers"]] == covers
        covered = {att for att, _ in covers}
        expected_take = sorted(row[0] for row in st.table if row[0] not in covered)
        assert sorted(parse_card(x) for x in (a.get("take") or [])) == expected_take, "wrong cards taken"


def _covers_of(a):
    if a["type"] == "cover":
        return [(a["attack"], a["cover"])]
    if a["type"] == "defend":
        return [(x["attack"], x["cover"]) for x in a["covers"]]
    return []


@pytest.mark.rules("HR-1", "RUL-10", "PR6-D1", "PR6-D2", "PR5-D3")
@pytest.mark.parametrize("family,n,toggles", [
    ("podkidnoy", 2, {}), ("podkidnoy", 4, {"trump_six_exchange": "true"}), ("podkidnoy", 3, {"initial_lead": "single"}),
    ("perevodnoy", 3, {}), ("prostoy_5", 2, {}), ("prostoy_5", 3, {"trump_six_exchange_timing": "while_trump_card_in_talon"}),
    ("prostoy_6", 4, {}), ("prostoy_6", 2, {"partial_defence": "true"}),
    ("prostoy_6", 3, {"trump_only_if_cannot_follow": "false"}),
    ("podkidnoy", 2, {"trump_six_beats_trump_ace": "true", "trump_only_if_cannot_follow": "true"}),
    ("prostoy_5", 2, {"trump_six_beats_trump_ace": "true", "trump_only_if_cannot_follow": "true"}),
])
def test_greedy_plays_exactly_its_definition(runner_for, family, n, toggles):
    r = runner_for(family, n, toggles, strategies=("greedy",))
    checked = six_on_ace = 0
    for g in range(150):
        tr = r.trace(seed=21, series=g)[0]
        st = referee.new_deal(r.rules, tr["deck"], tr["dealer"])
        for a in tr["actions"]:
            if a["type"] != "exchange_trump_six":
                check_greedy_action(st, a)
                checked += 1
                six_on_ace += sum(1 for x in _covers_of(a) if parse_card(x[0]) == ACE * 4 + st.trump_suit
                                  and parse_card(x[1]) == SIX * 4 + st.trump_suit)
            referee.apply(st, a)
        assert st.result is not None
    assert checked > 150 * 10
    if r.rules.toggles.get("trump_six_beats_trump_ace"):
        assert six_on_ace > 0, "no trump six covered the trump ace: the house rule went untested"
