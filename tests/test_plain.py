"""Plain verdicts: sizes in games out of 100, yes/no/it depends, across skill, unfinished deals."""
import pandas as pd

from sim.experiments.plain import Case, games_in_100, rule_verdict, unfinished_note


def table(diff, significant, unfinished=0.0, draw=0.0, draw_sig=False):
    rows = [
        {"metric": "first_defender_fool", "games": 10_000, "a": 0.3 + diff, "b": 0.3, "diff": diff, "lo": diff - 0.001,
         "hi": diff + 0.001, "mde": 0.002, "significant": significant, "paired_se": 0.0005},
        {"metric": "draw", "games": 10_000, "a": 0.05 + draw, "b": 0.05, "diff": draw, "lo": draw, "hi": draw,
         "mde": 0.001, "significant": draw_sig, "paired_se": 0.0005},
        {"metric": "unfinished", "games": 10_000, "a": unfinished, "b": 0.0, "diff": unfinished, "lo": 0, "hi": 0,
         "mde": 0.001, "significant": False, "paired_se": 0.0005},
    ]
    return pd.DataFrame(rows).set_index("metric")


def test_sizes_read_as_games_out_of_100():
    assert games_in_100(-1.25) == "about 1 game in 80"
    assert games_in_100(0.5) == "about 1 game in 200"
    assert games_in_100(3.2) == "about 3 games in 100"
    assert games_in_100(0.01) == "less than 1 game in 2,000"


def test_the_answer_word_follows_the_panel():
    same = [Case("2 players", "greedy", table(-0.0125, True)), Case("2 players", "expert", table(-0.015, True))]
    text = rule_verdict(same, "first_defender_fool", "the first defender", "the rule")
    assert text.startswith("Yes — a small effect") and "less often" in text
    assert "greedy play: about 1 game in 80 less often" in text and "greedy and expert play alike" in text
    split = [Case("2 players", "greedy", table(0.0, False)), Case("2 players", "expert", table(-0.02, True))]
    text = rule_verdict(split, "first_defender_fool", "the first defender", "the rule")
    assert text.startswith("Only in some settings") and "depends on how well people play" in text
    assert "with greedy play no detectable change, with expert play less often (2 players)" in text
    opposite = [Case("2 players", "greedy", table(0.01, True)), Case("2 players", "expert", table(-0.02, True))]
    text = rule_verdict(opposite, "first_defender_fool", "the first defender", "the rule")
    assert text.startswith("It depends — with the rule, the first defender is the fool more often in some")
    none = [Case("2 players", "greedy", table(0.0, False)), Case("2 players", "expert", table(0.0, False))]
    assert rule_verdict(none, "first_defender_fool", "x", "the rule").startswith("No — the rule makes no detectable")


def test_unfinished_deals_are_named_and_flagged_when_they_outweigh_the_effect():
    cases = [Case("3 players", "expert", table(-0.005, True, unfinished=0.012))]
    text = rule_verdict(cases, "first_defender_fool", "the first defender", "the rule")
    assert "at most 1.20% (3 players, expert)" in text and "more than the effect reported (0.50 points)" in text
    assert "more than the effect" not in unfinished_note(cases, 2.0)


def test_a_change_in_draws_is_reported_as_such():
    cases = [Case("2 players", "expert", table(-0.01, True, draw=0.011, draw_sig=True))]
    text = rule_verdict(cases, "first_defender_fool", "the first defender", "the rule")
    assert "Part of this is draws" in text and "+1.10 points" in text


def test_the_change_among_decided_deals_is_given_apart():
    t = table(-0.01, True, draw=0.011, draw_sig=True)
    dec = t.loc["first_defender_fool"].copy()
    dec["diff"], dec["significant"] = -0.001, False
    t.loc["first_defender_fool_decided"] = dec
    text = rule_verdict([Case("2 players", "expert", t)], "first_defender_fool", "the first defender", "the rule")
    assert "Among deals decided in both arms (draws left out) the change is 2 players, expert: -0.10 points (n.s.)" \
        in text


def test_strong_play_says_whether_learned_keeps_experts_answer():
    """Per setting: the same sign agrees; no detectable change on learned's fewer deals with expert's estimate
    inside its interval cannot tell; the other way, or an interval that excludes expert's estimate, differs."""
    from sim.experiments.plain import strong_play

    def wide(diff, significant, half):
        t = table(diff, significant)
        t.loc["first_defender_fool", ["lo", "hi"]] = diff - half, diff + half
        return t

    def at(where, e, s):
        return ([Case(where, "greedy", table(0.0, False)), Case(where, "expert", e), Case(where, "learned", s)],
                "first_defender_fool")

    same = strong_play([at("2 players", table(-0.01, True), table(-0.02, True))])
    assert same == ("Strong play (the learned player, on at least 10,000 paired deals a setting) gives expert's "
                    "answer in every setting.", "agrees")
    text, word = strong_play([at("2 players", table(-0.01, True), wide(0.0, False, 0.02)),
                              at("3 players", table(0.0, False), table(0.0, False))])
    assert word == "cannot tell" and "cannot tell on its fewer deals in 2 players" in text
    assert "agrees in 3 players" in text and "expert -1.00 points" in text
    text, word = strong_play([at("2 players", table(-0.01, True), wide(0.0, False, 0.005))])
    assert word == "differs" and "changes expert's answer in 2 players" in text
    assert strong_play([at("2 players", table(-0.01, True), table(0.02, True))])[1] == "differs"
    named = strong_play([(*at("2 players", table(-0.01, True), table(-0.02, True)), "Limit of 5, podkidnoy, 2 players"),
                         (*at("2 players", table(0.0, False), table(0.02, True)), "Scope, podkidnoy, 2 players")])
    assert "changes expert's answer in Scope, podkidnoy, 2 players" in named[0]  # the heading names the setting
    assert "agrees in Limit of 5, podkidnoy, 2 players" in named[0]
    assert strong_play([([Case("2 players", "expert", table(-0.01, True))], "first_defender_fool")]) is None
    bouts = {"first_defender_fool": "bouts"}  # a length is given in bouts, not points
    text, word = strong_play([([Case("2 players", "expert", table(-1.0, True).rename(index=bouts)),
                                Case("2 players", "learned", table(2.0, True).rename(index=bouts))], "bouts")])
    assert word == "differs" and "(learned +2.00 [+2.00, +2.00] bouts, expert -1.00 bouts)" in text


def test_the_default_panel_gives_learned_its_share_of_the_deals():
    from sim.experiments.compare import default_panel, panel_games
    assert default_panel() == ["greedy", "expert", "learned"]
    assert panel_games("expert", 1_000_000) == 1_000_000 and panel_games("learned", 1_000_000) == 50_000
    assert panel_games("learned", 10_000) == 2000 and panel_games("learned", 1000) == 1000
