"""Throwing in after 'I take' (вдогонку)."""
from sim.experiments.plain import rule_verdict

TITLE = "Throwing in after 'I take' (вдогонку): who does it hurt?"
QUESTION = ("Some tables let the others keep throwing in after the defender says 'I take', some do not. "
            "Who suffers from it?")
ORDER = 6
SETTINGS = [("podkidnoy", 2), ("podkidnoy", 3), ("podkidnoy", 4)]
A, B = {"throw_in_after_take": True}, {"throw_in_after_take": False}
GAMES = 500_000
METRICS = ["first_defender_fool", "first_attacker_fool", "bouts"]


def answer(ctx, cases):
    return rule_verdict(cases, "first_defender_fool", "the first defender", "throw-ins after 'I take' allowed")
