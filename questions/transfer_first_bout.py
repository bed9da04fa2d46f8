"""Transferring (perevodnoy) in the first bout."""
from sim.experiments.plain import rule_verdict

TITLE = "Transfer in the first bout: allowed or not?"
QUESTION = "Perevodnoy tables disagree whether the first bout may be transferred (004 says no). Does it matter?"
ORDER = 8
SETTINGS = [("perevodnoy", 2), ("perevodnoy", 3), ("perevodnoy", 4)]
A, B = {"transfer_in_first_bout": True}, {"transfer_in_first_bout": False}
GAMES = 500_000
METRICS = ["first_defender_fool", "first_attacker_fool"]


def answer(ctx, cases):
    return rule_verdict(cases, "first_defender_fool", "the first defender", "a transfer allowed in the first bout")
