"""The trump-six exchange: does it favour the player dealt the six?"""
from sim.experiments.plain import rule_verdict

TITLE = "Does the trump-six exchange favour the player who makes it?"
QUESTION = ("\"Swapping the trump six for the face-up trump is a free gift to whoever holds the six\" — is it? "
            "In prostoy_5 (where seed 000 allows it) and in podkidnoy with the house toggle.")
ORDER = 1
SETTINGS = [("prostoy_5", 2), ("podkidnoy", 2)]
A, B = {"trump_six_exchange": True}, {"trump_six_exchange": False}
GAMES = 1_000_000
METRICS = ["six_holder_fool", "first_attacker_fool", "bouts"]


def answer(ctx, cases):
    return rule_verdict(cases, "six_holder_fool", "the player dealt the trump six (the one who may swap it)",
                        "the exchange allowed") + " (The holder is the seat dealt the trump six.)"
