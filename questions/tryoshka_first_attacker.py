"""Tryoshka leads (VAR-TR1) and the first attacker."""
from sim.experiments.plain import rule_verdict

TITLE = "Does tryoshka favour the first attacker?"
QUESTION = ("Трёшка (004): every bout opens with three cards at once. Does that help or hurt the player who "
            "attacks first?")
ORDER = 12
SETTINGS = [("podkidnoy", 2), ("podkidnoy", 3), ("perevodnoy", 2)]
A, B = {"lead_rule": "tryoshka"}, {}
GAMES = 300_000
METRICS = ["first_attacker_fool", "first_defender_fool", "bouts"]


def answer(ctx, cases):
    return rule_verdict(cases, "first_attacker_fool", "the first attacker", "tryoshka leads (VAR-TR1, Трёшка)")
