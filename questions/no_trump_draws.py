"""No trump suit (VAR-NT1) and the draw rate."""
from sim.experiments.plain import rate_verdict

TITLE = "Is a game without trumps more often a draw?"
QUESTION = ("Бескозырный (004): with no trump suit every card can be beaten only in its own suit. Do more games "
            "end with everybody out at once, and are deals longer?")
ORDER = 11
SETTINGS = [("podkidnoy", 2), ("prostoy_5", 2), ("podkidnoy", 4)]
A, B = {"no_trump": True}, {}
GAMES = 300_000
METRICS = ["draw", "first_attacker_fool", "bouts"]


def answer(ctx, cases):
    text = rate_verdict(cases, "draw", "the draw rate", "no trump suit (VAR-NT1, Бескозырный)")
    if all(float(c.row("draw")["a"]) == 0 for c in cases):
        text = ("No — the opposite: without trumps a game is never drawn. Why: a card is then beaten only by a "
                "higher card of its own suit, so every beaten pair sends two cards of one suit to the discard; a "
                "draw would end with all 36 cards there, but each suit has nine cards, an odd number. " + text)
    return text
