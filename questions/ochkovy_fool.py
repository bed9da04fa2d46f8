"""Points durak (Очковый, VAR-OC1): does the fool of the ordinary game win the points?"""
import pandas as pd

from sim.core import rules as R
from sim.experiments.report import md_table, pct

TITLE = "In points durak, does the fool still win on points?"
QUESTION = ("Очковый (004): the winner is whoever beats the most of his opponents' cards. How often does the "
            "player left holding cards — the fool of the ordinary game — win the points?")
ORDER = 14
ATLAS = ["scoring"]  # its page in results/atlas


def run(ctx):
    rows = []
    for strat in ctx.panel:
        for fam in R.FAMILIES:
            for n in (2, 4):
                exp = ctx.experiment(fam, n, [strat], 100_000, toggles={"variant": "ochkovy"})
                s, tot = exp.score_totals(), exp.totals()
                rows.append({"strategy": strat, "family": fam, "players": n, "games": s["finished"],
                             "fool won the points": pct(s["fool_won_score_rate"], s["fool_won_score_lo"],
                                                        s["fool_won_score_hi"]),
                             "rate": s["fool_won_score_rate"],
                             "points shared": pct(s["shared_rate"], s["shared_lo"], s["shared_hi"]),
                             "unfinished": f"{100 * tot['unfinished'] / max(tot['games'], 1):.2f}%"})
    df = pd.DataFrame(rows)
    ctx.data["ochkovy-fool"] = df.drop(columns="rate")
    for strat, g in df.groupby("strategy", sort=False):
        ctx.lines += [f"### Every seat plays `{strat}`", "",
                      md_table(g.drop(columns=["strategy", "rate"]).set_index("family")), ""]
    lo, hi = df["rate"].min(), df["rate"].max()
    worst = df.loc[df["rate"].idxmax()]
    return (f"Often: the player left holding cards — the fool of the ordinary game — beat the most cards and won "
            f"the points in {100 * lo:.0f} to {100 * hi:.0f} of every 100 games that had a fool, depending on the "
            f"game, the number of players and how well they play (most: {worst['family']}, {worst['players']} "
            f"players, {worst['strategy']} play). Beating many cards and getting rid of them are different goals, so "
            f"in points durak (Очковый, VAR-OC1) being the fool is no sign of losing. How sure: each rate is within "
            f"about a point (95% intervals in the tables); unfinished deals are counted in the tables and left out "
            f"of the rates.")
