"""Trace replay: every action of the compiled core is checked by the independent referee.

For each family at least 10,000 deals are replayed across player counts and toggle sets,
mostly with `random` strategies (they reach the odd corners) and some with `greedy` seats.
The referee checks every action is legal, that 36 cards are accounted for after every
action, that the deal ends, and that its result (fool, outcome, places, bouts) is the core's.
"""
import pytest

from sim import referee

T = "true"
CONFIGS = {
    "prostoy_5": [
        (2, {}), (3, {}), (4, {}), (5, {}), (6, {}),
        (2, {"partial_defence": "false", "trump_six_exchange_timing": "while_trump_card_in_talon"}),
        (3, {"prostoy_attack_sets": "single_or_pair", "trump_only_if_cannot_follow": T}),
        (4, {"hand_size": 6, "prostoy_attacker_draw_timing": "after_bout", "trump_six_beats_trump_ace": T}),
        (2, {"prostoy_two_pair_lead_size": 6, "hand_size": 6}),
        (6, {"hand_size": 6}),
    ],
    "prostoy_6": [
        (2, {}), (3, {}), (4, {}), (5, {}), (6, {}),
        (4, {"teams": "none"}), (6, {"teams": "3v3"}), (4, {"partial_defence": T}),
        (3, {"prostoy_two_pair_lead_size": 6, "trump_six_exchange": "false"}),
        (2, {"first_attacker_first_deal": "lowest_trump", "no_trump_in_hands_fallback": "lowest_card"}),
    ],
    "podkidnoy": [
        (2, {}), (3, {}), (4, {}), (5, {}), (6, {}),
        (4, {"teams": "2v2"}), (6, {"teams": "3v3"}),
        (3, {"initial_lead": "single", "others_throw_in_timing": "after_attacker"}),
        (4, {"others_throw_in_timing": "any_time", "throw_in_after_take": "false"}),
        (5, {"throw_in_neighbours_only_if_players_gt": 4, "first_bout_limit_scope": "until_first_discard"}),
        (2, {"trump_six_exchange": T, "trump_six_beats_trump_ace": T, "pogony_instant_win": T}),
        (3, {"trump_only_if_cannot_follow": T, "first_bout_max_attack": "none", "pogony_instant_win": T}),
        (6, {"throw_in_neighbours_only_if_players_gt": 3}),
    ],
    "perevodnoy": [
        (2, {}), (3, {}), (4, {}), (5, {}), (6, {}),
        (2, {"transfer_in_first_bout": T, "proezdnoy": T}),
        (3, {"proezdnoy": T, "proezdnoy_limit": "once_per_game_per_card"}),
        (4, {"pokaznoy": T, "transfer_in_first_bout": T}),
        (4, {"teams": "2v2", "proezdnoy": T, "pokaznoy": T}),
        (6, {"teams": "3v3", "others_throw_in_timing": "any_time"}),
        (3, {"trump_six_exchange": T, "trump_six_beats_trump_ace": T, "initial_lead": "single"}),
    ],
}
PER_FAMILY = 10_000
QUICK = 20  # the default tier replays the first twentieth of every configuration's deals, the slow tier the rest
CASES = [(fam, n, tg, i, -(-PER_FAMILY // len(cfgs))) for fam, cfgs in CONFIGS.items()
         for i, (n, tg) in enumerate(cfgs)]


def _lineup(n, i):
    """Mostly random; every third configuration seats greedy against random."""
    if i % 3 == 2:
        return tuple("greedy" if s % 2 == 0 else "random" for s in range(n))
    return ("random",)


def _replay(runner_for, family, n, toggles, i, series):
    r = runner_for(family, n, toggles, strategies=_lineup(n, i))
    for g in series:
        tr = r.trace(seed=1000 + i, series=g)[0]
        referee.replay(tr)  # raises ReplayError with the action index and the rule on any disagreement


@pytest.mark.rules("RUL-15", "RUL-16", "RUL-17", "RUL-19", "POD-L2", "PER-1")
@pytest.mark.parametrize("family,n,toggles,i,games", CASES,
                         ids=[f"{c[0]}-{c[1]}p-{c[3]}" for c in CASES])
def test_core_traces_replay_through_the_referee(runner_for, family, n, toggles, i, games):
    _replay(runner_for, family, n, toggles, i, range(games // QUICK))


@pytest.mark.slow
@pytest.mark.parametrize("family,n,toggles,i,games", CASES,
                         ids=[f"{c[0]}-{c[1]}p-{c[3]}" for c in CASES])
def test_core_traces_replay_through_the_referee_full(runner_for, family, n, toggles, i, games):
    _replay(runner_for, family, n, toggles, i, range(games // QUICK, games))


@pytest.mark.rules("RUL-7", "RUL-8", "POD-S2", "PR5-S2", "PR6-S2")
@pytest.mark.parametrize("family,n,toggles", [
    ("podkidnoy", 3, {"first_attacker_later_deals": "pod_duraka"}),
    ("podkidnoy", 4, {"first_attacker_later_deals": "iz_pod_duraka", "teams": "2v2"}),
    ("prostoy_5", 3, {}), ("prostoy_6", 6, {}),
    ("perevodnoy", 3, {"first_attacker_later_deals": "left_of_dealer"}),
])
def test_series_pass_dealer_and_first_attacker_on(runner_for, family, n, toggles):
    """RUL-7/8: later deals of a series; the referee's next dealer is the core's next dealer."""
    r = runner_for(family, n, toggles, strategies=("random",))
    for g in range(40):
        traces = r.trace(seed=77, series=g, deals=4)
        assert [t["deal"] for t in traces] == [0, 1, 2, 3]
        for a, b in zip(traces, traces[1:]):
            res = referee.replay(a)
            assert res["next_dealer"] == b["dealer"]
        referee.replay(traces[-1])
