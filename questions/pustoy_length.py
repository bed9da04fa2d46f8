"""Pustoy drawing (VAR-PU1) and the length of a deal."""
from sim.experiments.plain import length_verdict

TITLE = "How long is a game of pustoy?"
QUESTION = "Пустой (004): you draw only when your hand is empty. How much longer (or shorter) is a deal?"
ORDER = 13
SETTINGS = [("podkidnoy", 2), ("podkidnoy", 4), ("prostoy_5", 2)]
A, B = {"draw_rule": "pustoy"}, {}
GAMES = 300_000
METRICS = ["bouts", "draw", "first_attacker_fool"]


def answer(ctx, cases):
    return length_verdict(cases, "pustoy drawing (VAR-PU1, Пустой: draw only when your hand is empty)")
