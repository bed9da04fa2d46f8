"""Partial defence (seed 000) against take-all (seed 002)."""
from sim.experiments.plain import identical, unfinished_note

TITLE = "Partial defence (seed 000) or take-all (seed 002)?"
QUESTION = ("Does covering only some attack cards make games shorter, leave the fool with fewer cards, and "
            "change how often the game is drawn?")
ORDER = 4
SETTINGS = [("prostoy_5", 2), ("prostoy_5", 3)]
A, B = {"partial_defence": True}, {"partial_defence": False}
GAMES = 500_000
METRICS = ["bouts", "fool_cards", "first_attacker_fool"]


def _change(c, m, more, fewer, what):
    r = c.row(m)
    if not r["significant"]:
        return f"no detectable change in {what}"
    return f"{abs(r['diff']):.2f} {more if r['diff'] > 0 else fewer}"


def _skill_counts(cases, metric):
    by = {}
    for c in cases:
        by.setdefault(c.where, set()).add(0 if not c.real(metric) else (1 if c.row(metric)["diff"] > 0 else -1))
    split = [w for w, v in by.items() if len(v) > 1]
    return ("The direction of the change in game length holds for every line-up of the panel." if not split else
            "How the game length changes depends on how well people play (" + "; ".join(split) + ").")


def answer(ctx, cases):
    parts = []
    for c in cases:
        if identical(c):
            parts.append(f"{c.where}, {c.strategy} play: identical games ({c.strategy} never covers part of an "
                         f"attack and takes the rest, so the rule never comes into play)")
            continue
        parts.append(f"{c.where}, {c.strategy} play: " +
                     _change(c, "bouts", "bouts longer", "bouts shorter", "game length") + "; the fool is left with " +
                     _change(c, "fool_cards", "cards more", "cards fewer", "the fool's leftover cards")
                     .replace("the fool is left with no detectable", "no detectable") +
                     f"; draws {c.points('draw'):+.2f} games in 100" + ("" if c.real("draw") else " (n.s.)"))
    parts = [x.replace("the fool is left with no detectable change", "no detectable change") for x in parts]
    moved = [c for c in cases if c.real("bouts") or c.real("fool_cards")]
    still = sorted({c.strategy for c in cases} - {c.strategy for c in moved})
    if not moved:
        head = "No detectable effect"
    elif still:
        head = (f"Only for some players — with {', '.join(sorted({c.strategy for c in moved}))} play partial defence "
                f"changes the game; with {', '.join(still)} play it changes nothing detectable")
    else:
        head = "Yes — partial defence changes the game for every line-up of the panel"
    text = (f"{head}. " + "; ".join(parts) + ". Partial defence lets the defender cover some cards and take the "
            "rest, so he picks up fewer cards when he gives up. " + _skill_counts(cases, "bouts"))
    drawn = max((abs(c.points("draw")) for c in cases if c.real("draw")), default=None)  # the one rate reported
    return text + " " + unfinished_note(cases, drawn)
