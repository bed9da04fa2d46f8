"""The toggle registry and input validation (docs/rules.md; sim/RULINGS.md RUL-3, RUL-4)."""
import pytest

from sim.core import rules as R


@pytest.mark.parametrize("family,toggle,expected", [
    ("prostoy_5", "hand_size", 5), ("prostoy_6", "hand_size", 6), ("podkidnoy", "hand_size", 6),
    ("prostoy_5", "partial_defence", True), ("prostoy_6", "partial_defence", False),
    ("prostoy_5", "prostoy_attacker_draw_timing", "immediately"),
    ("prostoy_6", "prostoy_attacker_draw_timing", "after_bout"),
    ("prostoy_5", "first_attacker_first_deal", "left_of_dealer"),
    ("podkidnoy", "first_attacker_first_deal", "lowest_trump"),
    ("perevodnoy", "first_attacker_first_deal", "lowest_trump"),
    ("prostoy_5", "trump_six_exchange", True), ("podkidnoy", "trump_six_exchange", False),
    ("podkidnoy", "initial_lead", "same_rank_multiple"), ("podkidnoy", "first_bout_max_attack", 5),
    ("podkidnoy", "others_throw_in_timing", "after_first_cover"), ("perevodnoy", "transfer_in_first_bout", False),
    ("prostoy_6", "teams", "pairs_if_even"), ("podkidnoy", "teams", "none"),
    ("prostoy_6", "prostoy_two_pair_lead_size", 6), ("prostoy_5", "prostoy_two_pair_lead_size", 5),
    ("prostoy_6", "trump_only_if_cannot_follow", True), ("prostoy_5", "trump_only_if_cannot_follow", False),
    ("podkidnoy", "trump_only_if_cannot_follow", False), ("podkidnoy", "trump_six_beats_trump_ace", False),
])
def test_preset_defaults_follow_their_source(family, toggle, expected):
    assert R.resolve(family, 2).toggles[toggle] == expected


def test_every_registry_toggle_of_rules_md_is_known():
    names = {"hand_size", "prostoy_attack_sets", "prostoy_two_pair_lead_size", "partial_defence",
             "prostoy_attacker_draw_timing", "trump_only_if_cannot_follow", "first_attacker_first_deal",
             "no_trump_in_hands_fallback", "first_attacker_later_deals", "next_dealer", "initial_lead",
             "others_throw_in_timing", "throw_in_after_take", "max_attack_cards", "first_bout_max_attack",
             "first_bout_limit_scope", "throw_in_neighbours_only_if_players_gt", "trump_six_beats_trump_ace",
             "trump_six_exchange", "trump_six_exchange_timing", "teams", "transfer_in_first_bout", "proezdnoy",
             "proezdnoy_limit", "pokaznoy", "pogony_instant_win", "pogony_scoring", "draw_possible", "no_trump",
             "spades_only_by_spades", "variant", "pustoy_refill_to"}
    assert names <= set(R.TOGGLE_BY_NAME)


@pytest.mark.rules("RUL-3")
@pytest.mark.parametrize("family,n,toggles,message", [
    ("podkidnoy", 2, {"no_such_rule": "1"}, "unknown toggle 'no_such_rule'"),
    ("podkidnoy", 2, {"initial_lead": "triple"}, "value 'triple' is not allowed"),
    ("bridge", 2, {}, "unknown rules preset 'bridge'"),
    ("podkidnoy", 7, {}, "2 to 6 players, not 7"),
    ("podkidnoy", 1, {}, "2 to 6 players, not 1"),
    ("prostoy_6", 6, {"hand_size": "6", "teams": "2v2"}, "2v2 needs exactly 4 players"),
    ("prostoy_5", 4, {"teams": "2v2"}, "does not apply to prostoy_5"),
    ("podkidnoy", 2, {"partial_defence": "true"}, "does not apply to podkidnoy"),
    ("podkidnoy", 2, {"transfer_in_first_bout": "true"}, "does not apply to podkidnoy"),
    ("podkidnoy", 2, {"variant": "bolshoy", "korolevsky": "true"}, "two_packs is not combined"),
    ("podkidnoy", 2, {"draw_possible": "false"}, "not allowed"),
])
def test_bad_rules_get_a_clear_error(family, n, toggles, message):
    with pytest.raises(R.RulesError, match=message.replace("(", r"\(").replace(")", r"\)")):
        R.resolve(family, n, toggles)


def test_six_players_at_six_cards_is_allowed():  # RUL-2: the whole pack is dealt
    assert R.resolve("podkidnoy", 6).num_players == 6


@pytest.mark.rules("RUL-4", "TEAM-1")
@pytest.mark.parametrize("teams,n,expected", [
    ("2v2", 4, [[0, 2], [1, 3]]), ("3v3", 6, [[0, 2, 4], [1, 3, 5]]),
    ("pairs_if_even", 4, [[0, 2], [1, 3]]), ("pairs_if_even", 6, [[0, 3], [1, 4], [2, 5]]),
    ("pairs_if_even", 3, None), ("pairs_if_even", 2, None), ("none", 4, None),
])
def test_team_seating_RUL_4(teams, n, expected):
    assert R.resolve("podkidnoy" if teams != "pairs_if_even" else "prostoy_6", n, {"teams": teams}).teams == expected


def test_toggle_values_parse_from_text_and_json():
    assert R.resolve("podkidnoy", 2, {"trump_six_exchange": "TRUE"}).toggles["trump_six_exchange"] is True
    assert R.resolve("podkidnoy", 2, {"trump_six_exchange": True}).toggles["trump_six_exchange"] is True
    assert R.resolve("podkidnoy", 2, {"first_bout_max_attack": "none"}).toggles["first_bout_max_attack"] == "none"
    assert R.resolve("prostoy_6", 2, {"prostoy_two_pair_lead_size": 6}).toggles["prostoy_two_pair_lead_size"] == 6
    assert R.resolve("perevodnoy", 2, {"transfer_first_bout": "true"}).toggles["transfer_in_first_bout"] is True
