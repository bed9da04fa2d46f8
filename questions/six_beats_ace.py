"""The house rule 'trump six beats trump ace': decided deals and draws, read apart."""
from sim.experiments.compare import DECIDED
from sim.experiments.plain import answer_word, games_in_100, how_sure, identical, unfinished_note

TITLE = "Trump six beats trump ace: what does the house rule change?"
QUESTION = ("With the house rule that the trump six beats the trump ace, is the player dealt the trump ace the "
            "fool more often, and do more games end in a draw? (Answered for decided deals and for draws "
            "separately, per line-up: the strategies react to the rule, so this is not a price of the ace.)")
ORDER = 7
SETTINGS = [("podkidnoy", 2), ("prostoy_5", 2)]
A, B = {"trump_six_beats_trump_ace": True}, {"trump_six_beats_trump_ace": False}
GAMES = 1_000_000
METRICS = ["ace_holder_fool", "six_holder_fool", "bouts"]


def answer(ctx, cases):
    """What the rule does to decided deals and to the draw rate, separately, and how the line-ups react to
    it; not 'how much is the trump ace worth'."""
    m = "ace_holder_fool" + DECIDED
    word = {"Yes": "Yes, a little", "No": "No", "Sometimes": "Only for some line-ups",
            "It depends": "It depends on how people play"}[answer_word(cases, m)]
    parts = []
    for c in cases:
        dec, dr = c.row(m), c.row("draw")
        if identical(c):
            parts.append(f"{c.where}, {c.strategy} play: identical games in every deal played — the rule never "
                         f"changed a deal")
            continue
        parts.append(f"{c.where}, {c.strategy} play: among decided deals the player dealt the trump ace is the fool "
                     + (f"{games_in_100(100 * dec['diff'])} {'more' if dec['diff'] > 0 else 'less'} often"
                        if dec["significant"] else "no more or less often (no detectable change)")
                     + "; draws " + (f"{'rise' if dr['diff'] > 0 else 'fall'} by {games_in_100(100 * dr['diff'])}"
                                     if dr["significant"] else "unchanged"))
    biggest = max((abs(100 * c.row(m)["diff"]) for c in cases if c.real(m)), default=None)
    ctx.lines += ["The first table row per setting is the trump-ace holder's fool rate counting a draw as "
                  "'not the fool' (the old headline); the row 'among deals decided in both arms' leaves draws out. "
                  "A change in the draw rate alone lowers every seat's fool rate, so the two must be read apart. "
                  "When a line-up's games are identical in both arms, that strategy never reached the situation "
                  "(a trump six played on the trump ace); when they differ, the change comes from the strategy "
                  "reacting to the rule (for expert mostly its leads, which assume the ace can now be beaten) as well "
                  "as from sixes actually beating aces.", ""]
    react = ", ".join(f"{c.strategy} in {c.where.split(',')[0]} {100 * c.row(m)['diff']:+.2f}" for c in cases)
    return (f"{word}. What the rule does, read apart from draws: " + "; ".join(parts) + ". This answers what the "
            "rule does to a game played by these line-ups, not what the trump ace is worth: the strategies react "
            "to the rule (expert changes its leads once the ace can be beaten: in a trace of the games that differ, "
            "86% of the prostoy_5 games that change first differ at a lead, 14% at a six covering the ace), so the "
            f"change among decided deals is a fact about the line-up as much as the rule ({react} points). "
            + how_sure(cases, m) + " "
            + unfinished_note(cases, biggest))
