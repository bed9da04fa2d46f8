"""How often a deal is drawn, per family and number of players (the first-attacker runs, read again)."""
import pandas as pd

from sim.experiments.plain import one_in
from sim.experiments.report import md_table, pct
from sim.experiments.settle import family_plot, unfinished_col

TITLE = "How often does a game end in a draw?"
QUESTION = "\"Draws almost never happen\" — how often, per family and number of players?"
ORDER = 9


def run(ctx):
    df = ctx.survey(200_000)
    for strat, g in df.groupby("strategy", sort=False):
        view = pd.DataFrame({"family": g["family"], "players": g["players"],
                             "draws": [pct(p, lo, hi) for p, lo, hi in zip(g["draw_rate"], g["draw_lo"], g["draw_hi"])],
                             "mean length (bouts)": g["mean_bouts"].map("{:.1f}".format),
                             "unfinished": unfinished_col(g)}).set_index("family")
        ctx.lines += [f"### Every seat plays `{strat}`", "", md_table(view), "",
                      f"![draws, {strat}](draws-{strat}.png)", ""]
        family_plot(g, "draw_rate", "draw_lo", "draw_hi", f"draws (%), {strat}", ctx.folder / f"draws-{strat}.png")
    ctx.data["draws"] = df
    parts = []
    for strat, g in df.groupby("strategy", sort=False):
        two = g[g["players"] == 2].set_index("family")["draw_rate"]
        six = g[g["players"] == 6].set_index("family")["draw_rate"]
        fewer = sum(six[f] < two[f] for f in two.index)
        parts.append(f"with {strat} play, two players draw " + ", ".join(
            f"{one_in(v)} in {f}" for f, v in two.items()) + f"; with six players draws are rarer in {fewer} of "
            f"{len(two)} families")
    lo, hi = df["draw_rate"].min(), df["draw_rate"].max()
    u = df.loc[df["unfinished_share"].idxmax()]
    word = ("Rarely" if hi < 0.05 else "Rarely in some games, often in others" if lo < 0.02 else "Often")
    return (f"{word}: from {one_in(lo)} to {one_in(hi)} depending on the game, the number of players "
            f"and how well they play. " + ". ".join(p[0].upper() + p[1:] for p in parts) + ". "
            f"How sure: each rate is within a fraction of a point (95% intervals in the tables). Unfinished deals "
            f"(not counted as draws, left out of the rates): at most {100 * u['unfinished_share']:.2f}% "
            f"({u['family']}, {u['players']} players, {u['strategy']}).")
