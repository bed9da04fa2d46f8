"""How much of durak is skill: a tournament of expert, greedy and random per family."""
from sim.core import rules as R
from sim.experiments.plain import tournament_unfinished
from sim.experiments.tournament import Tournament

TITLE = "How much of durak is skill?"
QUESTION = ("Is durak mostly luck? How often does the best strategy beat random play and the plain greedy "
            "baseline, per family?")
ORDER = 10
PANEL = False  # the skill levels are the question


def run(ctx):
    out, lo_r, hi_r, lo_g, hi_g, ts = [], 1, 0, 1, 0, []
    for fam in R.FAMILIES:
        t = Tournament(R.resolve(fam, 2), ["expert", "greedy", "random"], games=ctx.n(200_000), seed=ctx.seed,
                       threads=ctx.threads).run()
        ts.append(t)
        h = t.head_to_head()
        ctx.data[f"tournament-{fam}"] = h
        t.heatmap(ctx.folder / f"heatmap-{fam}.png")
        ctx.lines += [f"### {fam}, 2 players", "", t.markdown().split("\n", 2)[2], f"![{fam}](heatmap-{fam}.png)", ""]
        ctx.lines += ["| pair | finished games | unfinished |", "|---|---|---|"] + [
            f"| {r['strategy']} vs {r['opponent']} | {int(r['games']):,} | {max(0, t.games - int(r['games'])):,} |"
            for _, r in h.iterrows()] + [""]
        m = t.matrix()
        r, g = m.loc["expert", "random"], m.loc["expert", "greedy"]
        lo_r, hi_r, lo_g, hi_g = min(lo_r, r), max(hi_r, r), min(lo_g, g), max(hi_g, g)
        out.append(f"{fam}: {100 * r:.0f} against random, {100 * g:.0f} against greedy")
    ctx.lines += ["Score: a win counts 1, a draw 1/2; finished games only. This is a tournament between "
                  "strategies, so the panel of line-ups does not apply: the skill levels are the question.", ""]
    return (f"Against a beginner, durak is almost all skill: the best strategy (expert) wins {100 * lo_r:.0f} to "
            f"{100 * hi_r:.0f} games out of 100 against random play. Against a sensible player (greedy: always the "
            f"cheapest card) it is much closer — {100 * lo_g:.0f} to {100 * hi_g:.0f} out of 100 — so the deal still "
            f"decides many games. Per family (expert's score out of 100, 2 players): " + "; ".join(out) +
            ". How sure: within about a point (95% intervals in the tables). " + tournament_unfinished(ts))
