"""The first-attacker advantage per family and number of players."""
import pandas as pd

from sim.experiments.plain import games_in_100
from sim.experiments.report import md_table, pct
from sim.experiments.settle import family_plot, unfinished_col

TITLE = "How large is the first-attacker advantage?"
QUESTION = "\"Whoever leads first has the edge\" — by how much, in each family, with 2 to 6 players?"
ORDER = 2


def run(ctx):
    df = ctx.survey(200_000)
    for strat, g in df.groupby("strategy", sort=False):
        view = pd.DataFrame({"family": g["family"], "players": g["players"], "games": g["games"].map("{:,}".format),
                             "first attacker is the fool": [pct(p, lo, hi) for p, lo, hi in
                                                            zip(g["first_attacker_fool"], g["lo"], g["hi"])],
                             "fair share": (100 * g["fair_share"]).map("{:.2f}%".format),
                             "advantage (points)": g["advantage_points"].map("{:+.2f}".format),
                             "unfinished": unfinished_col(g)}).set_index("family")
        ctx.lines += [f"### Every seat plays `{strat}`", "", md_table(view), "",
                      f"![first attacker, {strat}](first_attacker-{strat}.png)", ""]
        family_plot(g, "first_attacker_fool", "lo", "hi", f"first attacker is the fool (%), {strat}",
                    ctx.folder / f"first_attacker-{strat}.png", ref="fair_share")
    ctx.lines += ["Each family's default rules (so prostoy_6 with 4 or 6 players is played in pairs, 002). Fair "
                  "share = (1 - draw rate) / players (/ teams in a team game). A positive advantage means the first "
                  "attacker is the fool less often than his fair share. Deals still running after 1,000 bouts "
                  "(RUL-22: fixed strategies can cycle) are counted as unfinished and left out of the rates.", ""]
    ctx.data["first_attacker"] = df
    real = (df["fair_share"] < df["lo"]) | (df["fair_share"] > df["hi"])
    df = df.assign(real=real)
    adv = df[df["real"] & (df["advantage_points"] > 0)]
    dis = df[df["real"] & (df["advantage_points"] < 0)]
    best = df.loc[df["advantage_points"].abs().idxmax()]
    head = ("Usually yes, but not everywhere" if len(adv) >= 0.75 * len(df) and len(dis) else
            "Usually yes" if len(adv) >= 0.75 * len(df) else
            "It depends on the game and the table" if len(dis) and len(adv) else
            "Yes" if len(adv) else "No" if not len(dis) else "No — leading first is a handicap")
    text = (f"{head}: in {len(adv)} of {len(df)} settings (family x players x line-up) the first attacker is the "
            f"fool less often than his fair share, in {len(dis)} more often, in the rest no detectable difference. "
            f"The biggest gap: {best['family']} with {best['players']} players ({best['strategy']} play), "
            f"{games_in_100(best['advantage_points'])} {'less' if best['advantage_points'] > 0 else 'more'} often "
            f"than fair. With 2 players: ")
    two = df[df["players"] == 2]
    text += "; ".join(f"{s}: " + ", ".join(
        f"{r['family']} {r['advantage_points']:+.1f}" + ("" if r["real"] else " (n.s.)") for _, r in g.iterrows())
        for s, g in two.groupby("strategy", sort=False)) + " games in 100 better than fair."
    signs = df.assign(sign=[0 if not r else (1 if a > 0 else -1) for r, a in zip(df["real"], df["advantage_points"])])
    piv = signs.pivot_table(index=["family", "players"], columns="strategy", values="sign")
    if piv.shape[1] > 1:
        agree = int((piv.nunique(axis=1) == 1).sum())
        text += (f" Across skill: the panel ({', '.join(ctx.panel)}) agrees on the direction in {agree} of "
                 f"{len(piv)} settings; elsewhere the answer depends on how well people play.")
    u = df.loc[df["unfinished_share"].idxmax()]
    text += (f" How sure: 95% intervals from {int(df['games'].min()):,}+ deals per setting. Unfinished deals: at most "
             f"{100 * u['unfinished_share']:.2f}% ({u['family']}, {u['players']} players, {u['strategy']}).")
    over = df[100 * df["unfinished_share"] > df["advantage_points"].abs()]
    if len(over):
        text += (f" In {len(over)} setting{'s' if len(over) > 1 else ''} (" + ", ".join(
            f"{r['family']} {r['players']}p {r['strategy']}" for _, r in over.iterrows()) +
            ") the unfinished share is larger than the edge measured, so there the answer could differ had those "
            "deals been played out.")
    return text
