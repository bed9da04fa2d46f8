"""Settled arguments: each question of results/ as code, so `durak settle NAME` regenerates its folder.

A question runs its experiments (compare, run, tournament), writes README.md (the question in a
player's words, the rules and strategies, the command, the verdict with numbers and intervals,
a plot) and small machine-readable outputs (aggregates only, never per-game records).
`scale` shrinks every experiment (the tests use a tiny scale; the committed folders scale 1).
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pandas as pd

from sim.experiments import batch
from sim.core import dispatch
from sim.core import rules as R
from sim.experiments.compare import DECIDED, default_panel, plot_comparison, run_panel
from sim.experiments.plain import (Case, across_skill, answer_word, games_in_100, how_sure, identical, rule_verdict,
                                  size_word, unfinished_note)
from sim.experiments.experiment import Experiment
from sim.experiments.report import finish, md_table, pct
from sim.experiments.tournament import Tournament

RESULTS = Path(__file__).resolve().parents[2] / "results"
TIMING_PREFIX = "Generation time:"  # the only line of a question folder that differs between reruns


def field_strategy() -> str:
    """The strongest strategy available plays the 'field' in rule questions."""
    return "expert" if "expert" in dispatch.discover() else "greedy"


@dataclass
class Ctx:
    scale: float
    seed: int
    threads: int | None
    folder: Path
    lines: list
    data: dict
    panel: list = None  # issue 13 §2: every rule question is answered once per panel strategy

    def __post_init__(self):
        self.panel = list(self.panel or default_panel())

    def n(self, games: int) -> int:
        return max(2000, int(games * self.scale))

    def compare(self, family, players, a, b, games, label=None, where=None) -> list[Case]:
        """The two rule sets played by each panel strategy in every seat (compare's panel code), on the
        same deals; one table and plot per strategy. Returns one Case per panel strategy."""
        ra, rb = R.resolve(family, players, a), R.resolve(family, players, b)
        la = ", ".join(f"{k}={R.format_value(v)}" for k, v in a.items()) or "A"
        lb = ", ".join(f"{k}={R.format_value(v)}" for k, v in b.items()) or "B"
        results = run_panel(ra, rb, la, lb, self.panel, self.seed, self.n(games), threads=self.threads)
        key = label or f"{family}-{players}p"
        cases = []
        for name, c in results.items():
            t = c.table()
            self.data[f"compare-{key}-{name}"] = t.reset_index()
            plot_comparison(c, self.folder / f"compare-{key}-{name}.png")
            cases.append(Case(where or f"{family}, {players} players", name, t, c))
        return cases

    def experiment(self, family, players, strategies, games, toggles=None, rotate=True):
        rules = R.resolve(family, players, toggles or {})
        exp = Experiment(rules, batch.make_lineup(rules, strategies), seed=self.seed, games=self.n(games),
                         threads=self.threads, rotate=rotate).run()
        return exp


@dataclass
class Question:
    name: str
    title: str
    ask: str  # the question in a player's words
    run: Callable[[Ctx], str]  # fills ctx.lines / ctx.data / plots, returns the plain answer
    panel: bool = True  # False: a tournament between strategies, where the panel of line-ups does not apply


HEADLINE_ALWAYS = ("draw", "unfinished")  # issue 13 §4: in every headline table


def _cmp_section(ctx: Ctx, heading: str, cases: list[Case], metrics: list[str], key: str) -> None:
    """One setting (family, players) as played by each panel strategy: the mechanical verdict per strategy,
    then one table with the headline metrics, their decided-deal versions, draws and unfinished deals."""
    c0 = cases[0].comparison
    ctx.lines += [f"### {heading}", "", f"- A: {c0.a.rules.describe()}", f"- B: {c0.b.rules.describe()}",
                  f"- panel: {', '.join(c.strategy for c in cases)} (each plays every seat); "
                  f"{cases[0].games():,} paired games on the same deals per line-up", ""]
    for c in cases:
        ctx.lines += [f"*Played by {c.strategy}:* {c.comparison.verdict(metrics[0])}", ""]
    rows = []
    for m in metrics:
        rows += [m] + ([m + DECIDED] if m + DECIDED in cases[0].table.index else [])
    rows += [m for m in HEADLINE_ALWAYS if m not in rows]
    ctx.lines += ["| metric | line-up | A | B | difference [95% interval] | p (Holm) |", "|---|---|---|---|---|---|"]
    for m in rows:
        for c in cases:
            if m not in c.table.index:
                continue
            r = c.table.loc[m]
            sc = 1 if m in ("bouts", "fool_cards") else 100
            unit = "" if sc == 1 else " pts"
            ctx.lines.append(f"| {r['description']} | {c.strategy} | {sc * r['a']:.2f} | {sc * r['b']:.2f} | "
                             f"{sc * r['diff']:+.2f}{unit} [{sc * r['lo']:+.2f}, {sc * r['hi']:+.2f}] | "
                             f"{r['p_holm']:.2g} |")
    ctx.lines.append("")
    ctx.lines += [f"![{heading}, {c.strategy}](compare-{key}-{c.strategy}.png)" for c in cases] + [""]


# ---- the ten questions ---------------------------------------------------------------------------

def q_trump_six(ctx: Ctx) -> str:
    cases = []
    for fam in ("prostoy_5", "podkidnoy"):
        cs = ctx.compare(fam, 2, {"trump_six_exchange": True}, {"trump_six_exchange": False}, 1_000_000)
        _cmp_section(ctx, f"{fam}, 2 players", cs, ["six_holder_fool", "first_attacker_fool", "bouts"], f"{fam}-2p")
        cases += cs
    return rule_verdict(cases, "six_holder_fool", "the player dealt the trump six (the one who may swap it)",
                        "the exchange allowed") + " (The holder is the seat dealt the trump six.)"


_SHARED: dict = {}  # first-attacker and draws read the same runs: played once per (scale, seed, panel)


def _first_attacker_rows(ctx: Ctx, games: int) -> pd.DataFrame:
    if "first_attacker_rows" in ctx.data:
        return ctx.data["first_attacker_rows"]
    key = ("first_attacker_rows", ctx.scale, ctx.seed, tuple(ctx.panel), games)
    if key in _SHARED:
        ctx.data["first_attacker_rows"] = _SHARED[key].copy()
        return ctx.data["first_attacker_rows"]
    rows = []
    for strat in ctx.panel:
        for fam in R.FAMILIES:
            for n in range(2, 7):
                exp = ctx.experiment(fam, n, [strat], games, rotate=False)
                tot = exp.totals()
                fin = tot["finished"]
                teams = exp.rules.teams
                fair = (1 - tot["draw_rate"]) / (len(teams) if teams else n)  # fool share of any one seat
                rows.append({"strategy": strat, "family": fam, "players": n, "games": fin,
                             "unfinished": tot["unfinished"],
                             "unfinished_share": tot["unfinished"] / max(fin + tot["unfinished"], 1),
                             "first_attacker_fool": tot["first_attacker_fool_rate"],
                             "lo": tot["first_attacker_fool_lo"], "hi": tot["first_attacker_fool_hi"],
                             "fair_share": fair, "advantage_points": 100 * (fair - tot["first_attacker_fool_rate"]),
                             "draw_rate": tot["draw_rate"], "draw_lo": tot["draw_lo"], "draw_hi": tot["draw_hi"],
                             "mean_bouts": tot["mean_bouts"]})
    df = pd.DataFrame(rows)
    ctx.data["first_attacker_rows"] = df
    _SHARED[key] = df.copy()
    return df


def _family_plot(df, col, lo, hi, ylabel, path, ref=None):
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 3.6))
    for i, (fam, g) in enumerate(df.groupby("family", sort=False)):
        x = g["players"].to_numpy() + (i - 1.5) * 0.06
        y = 100 * g[col].to_numpy()
        ax.errorbar(x, y, yerr=[y - 100 * g[lo].to_numpy(), 100 * g[hi].to_numpy() - y], fmt="o-", capsize=3,
                    label=fam)
        if ref is not None:
            ax.plot(g["players"], 100 * g[ref], ls=":", color=ax.lines[-1].get_color(), lw=1)
    ax.set_xlabel("players")
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=8)
    finish(fig, path)


def _unfinished_col(df):
    return [f"{u:,} ({100 * sh:.2f}%)" for u, sh in zip(df["unfinished"], df["unfinished_share"])]


def q_first_attacker(ctx: Ctx) -> str:
    df = _first_attacker_rows(ctx, 200_000)
    for strat, g in df.groupby("strategy", sort=False):
        view = pd.DataFrame({"family": g["family"], "players": g["players"], "games": g["games"].map("{:,}".format),
                             "first attacker is the fool": [pct(p, lo, hi) for p, lo, hi in
                                                            zip(g["first_attacker_fool"], g["lo"], g["hi"])],
                             "fair share": (100 * g["fair_share"]).map("{:.2f}%".format),
                             "advantage (points)": g["advantage_points"].map("{:+.2f}".format),
                             "unfinished": _unfinished_col(g)}).set_index("family")
        ctx.lines += [f"### Every seat plays `{strat}`", "", md_table(view), "",
                      f"![first attacker, {strat}](first_attacker-{strat}.png)", ""]
        _family_plot(g, "first_attacker_fool", "lo", "hi", f"first attacker is the fool (%), {strat}",
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


def q_draws(ctx: Ctx) -> str:
    df = _first_attacker_rows(ctx, 200_000)
    for strat, g in df.groupby("strategy", sort=False):
        view = pd.DataFrame({"family": g["family"], "players": g["players"],
                             "draws": [pct(p, lo, hi) for p, lo, hi in zip(g["draw_rate"], g["draw_lo"], g["draw_hi"])],
                             "mean length (bouts)": g["mean_bouts"].map("{:.1f}".format),
                             "unfinished": _unfinished_col(g)}).set_index("family")
        ctx.lines += [f"### Every seat plays `{strat}`", "", md_table(view), "",
                      f"![draws, {strat}](draws-{strat}.png)", ""]
        _family_plot(g, "draw_rate", "draw_lo", "draw_hi", f"draws (%), {strat}", ctx.folder / f"draws-{strat}.png")
    ctx.data["draws"] = df
    parts = []
    for strat, g in df.groupby("strategy", sort=False):
        two = g[g["players"] == 2].set_index("family")["draw_rate"]
        six = g[g["players"] == 6].set_index("family")["draw_rate"]
        fewer = sum(six[f] < two[f] for f in two.index)
        parts.append(f"with {strat} play, two players draw " + ", ".join(
            f"{_one_in(v)} in {f}" for f, v in two.items()) + f"; with six players draws are rarer in {fewer} of "
            f"{len(two)} families")
    lo, hi = df["draw_rate"].min(), df["draw_rate"].max()
    u = df.loc[df["unfinished_share"].idxmax()]
    word = ("Rarely" if hi < 0.05 else "Rarely in some games, often in others" if lo < 0.02 else "Often")
    return (f"{word}: from {_one_in(lo)} to {_one_in(hi)} depending on the game, the number of players "
            f"and how well they play. " + ". ".join(p[0].upper() + p[1:] for p in parts) + ". "
            f"How sure: each rate is within a fraction of a point (95% intervals in the tables). Unfinished deals "
            f"(not counted as draws, left out of the rates): at most {100 * u['unfinished_share']:.2f}% "
            f"({u['family']}, {u['players']} players, {u['strategy']}).")


def _one_in(rate: float) -> str:
    """A rate (0..1) in a player's words: 'about 1 game in 50', 'about 11 games in 100'."""
    p = 100 * rate
    if p < 0.05:
        return "almost never"
    if p < 10:
        return games_in_100(p)
    return f"about {p:.0f} games in 100"


def _tournament_unfinished(ts: list) -> str:
    """Issue 13 §4: tournaments count finished games only; say how many were not."""
    worst, where = 0.0, ""
    for t in ts:
        for _, r in t.head_to_head().iterrows():
            share = max(0.0, 1 - r["games"] / t.games)
            if share > worst:
                worst, where = share, f"{t.rules.family}, {r['strategy']} vs {r['opponent']}"
    return (f"Unfinished games (stopped after 1,000 bouts, left out of the scores): at most {100 * worst:.2f}%"
            + (f" ({where})" if worst > 0 else "") + ".")


SET_HABITS = ["singles-first", "sets-first", "sets-late", "sets-when-loaded"]
# (habit in a player's words, strategy with the habit, the same player without it): one knob per step
SET_STEPS = [("leading the largest set from the first bout", "sets-first", "singles-first"),
             ("dumping sets once the talon is down to 3 cards", "sets-late", "singles-first"),
             ("also leading sets once the hand holds 7 cards or more (002's loaded-hand trigger)", "sets-when-loaded",
              "sets-late"),
             ("seed 002's whole rule (both triggers) against singles always", "sets-when-loaded", "singles-first")]


# the same four habits on two bases: greedy's play (the four strategy files) and expert's play (expert with its
# lead knobs set; expert's defence, trump saving, counting and endgame unchanged)
SET_BASES = {"greedy": {h: h for h in SET_HABITS},
             "expert": {"singles-first": "expert:dump_talon=-1,dump_hand=99",
                        "sets-first": "expert:dump_talon=36,dump_hand=99",
                        "sets-late": "expert:dump_talon=3,dump_hand=99",
                        "sets-when-loaded": "expert:dump_talon=3,dump_hand=7"}}


def q_singles_triples(ctx: Ctx) -> str:
    """Issue 13 §6: four lead habits that differ from a common base only in the lead, compared one knob at a
    time, on a plain base (greedy's play) and a strong one (expert's play)."""
    found, ts, best = {}, [], {}
    for base, specs in SET_BASES.items():
        label = {v: k for k, v in specs.items()}
        for fam in ("prostoy_5", "prostoy_6"):
            t = Tournament(R.resolve(fam, 2), list(specs.values()), games=ctx.n(300_000), seed=ctx.seed,
                           threads=ctx.threads).run()
            ts.append(t)
            h = t.head_to_head()
            h = h.assign(strategy=h["strategy"].map(label), opponent=h["opponent"].map(label))
            key = fam if base == "greedy" else f"{fam}-{base}"
            ctx.data[f"tournament-{key}"] = h
            t.heatmap(ctx.folder / f"heatmap-{key}.png")
            m = t.matrix().rename(index=label, columns=label)
            avg = m.mean(axis=1)  # NaN diagonal skipped
            best[(base, fam)] = (f"`{avg.idxmax()}`", float(avg.max()))
            rows = []
            for habit, with_, without in SET_STEPS:
                sub = h[((h["strategy"] == with_) & (h["opponent"] == without)) |
                        ((h["strategy"] == without) & (h["opponent"] == with_))].iloc[0]
                flip = sub["strategy"] != with_
                sc, lo, hi = ((1 - sub["score"], 1 - sub["score_hi"], 1 - sub["score_lo"]) if flip else
                              (sub["score"], sub["score_lo"], sub["score_hi"]))
                found.setdefault(base, {}).setdefault(habit, {})[fam] = (sc, lo, hi, int(sub["games"]))
                rows.append(f"| {habit} | `{specs[with_]}` vs `{specs[without]}` | {100 * m.loc[with_, without]:.1f} "
                            f"[{100 * lo:.1f}, {100 * hi:.1f}] | {int(sub['games']):,} | "
                            f"{max(0, t.games - int(sub['games'])):,} |")
            ctx.lines += [f"### {fam}, 2 players, {base}'s play", "",
                          "| habit switched on | players | games won out of 100 by the habit [95%] | finished games "
                          "| unfinished |", "|---|---|---|---|---|", *rows, "",
                          "All pairs:", "", t.markdown().split("\n", 2)[2], f"![{fam} {base}](heatmap-{key}.png)", ""]
    ctx.lines += ["On greedy's base the four strategies `singles-first`, `sets-first`, `sets-late` and "
                  "`sets-when-loaded` share everything but the lead (greedy's cover and exchange) and the same three "
                  "knobs (`sets_from_start`, `sets_when_talon_at_most`, `sets_when_hand_at_least`, see `durak "
                  "strategies`). On expert's base the same habits are expert's lead knobs (`dump_talon`, "
                  "`dump_hand`; in simple durak they only change the lead), with the rest of expert unchanged. Each "
                  "pair differs in one knob, except the last line (two). A win counts 1, a draw 1/2, finished games "
                  "only; 50 means the habit makes no difference. The earlier version of this page compared "
                  "`singles-early` with `dump-triples-late`, which differ in two knobs at once and both lead singles "
                  "first; that comparison said which switching point is better, not whether singles beat sets.", ""]

    def say(sc, lo, hi):
        if lo <= 0.5 <= hi:
            return "no detectable edge"
        d = 100 * (sc - 0.5)
        return f"{'wins' if d > 0 else 'loses'} {games_in_100(2 * d)} more than it " \
               f"{'loses' if d > 0 else 'wins'} ({100 * sc:.1f} of 100)"

    def verdict_for(base):
        f = found[base]
        first, late = f[SET_STEPS[0][0]], f[SET_STEPS[1][0]]
        if all(v[1] > 0.5 for v in first.values()):
            return "sets from the first bout beat singles"
        if all(v[2] < 0.5 for v in first.values()):
            return "singles first" + (", then sets late" if all(v[1] > 0.5 for v in late.values()) else "")
        return "it depends on the game"

    heads = {base: verdict_for(base) for base in found}
    if len(set(heads.values())) == 1:
        head = (f"{heads['greedy'][0].upper()}{heads['greedy'][1:]}, for plain and strong players alike")
    else:
        head = ("It depends on how well you play: " + "; ".join(f"with {b}'s play {v}" for b, v in heads.items()))
    blocks = []
    for base, per_habit in found.items():
        parts = [f"{habit}: " + "; ".join(f"{fam} {say(*v[:3])}" for fam, v in per.items())
                 for habit, per in per_habit.items()]
        parts.append("best of the four: " + ", ".join(
            f"{fam} {best[(base, fam)][0]} ({100 * best[(base, fam)][1]:.1f} of 100 against the other three)"
            for fam in ("prostoy_5", "prostoy_6")))
        blocks.append(f"With {base}'s play — " + "; ".join(parts) + ".")
    n = min(v[3] for per_habit in found.values() for per in per_habit.values() for v in per.values())
    return (f"{head}. One habit at a time against the same player without it (2 players, simple durak). "
            + " ".join(blocks) + f" How sure: 95% intervals from {n:,}+ games per pair (draws count half). "
            + _tournament_unfinished(ts))


def q_partial_defence(ctx: Ctx) -> str:
    cases = []
    for n in (2, 3):
        cs = ctx.compare("prostoy_5", n, {"partial_defence": True}, {"partial_defence": False}, 500_000)
        _cmp_section(ctx, f"prostoy_5, {n} players", cs, ["bouts", "fool_cards", "first_attacker_fool"],
                     f"prostoy_5-{n}p")
        cases += cs

    def change(c, m, more, fewer, what):
        r = c.row(m)
        if not r["significant"]:
            return f"no detectable change in {what}"
        return f"{abs(r['diff']):.2f} {more if r['diff'] > 0 else fewer}"

    parts = []
    for c in cases:
        if identical(c):
            parts.append(f"{c.where}, {c.strategy} play: identical games ({c.strategy} never covers part of an "
                         f"attack and takes the rest, so the rule never comes into play)")
            continue
        parts.append(f"{c.where}, {c.strategy} play: " +
                     change(c, "bouts", "bouts longer", "bouts shorter", "game length") + "; the fool is left with " +
                     change(c, "fool_cards", "cards more", "cards fewer", "the fool's leftover cards")
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


def _skill_counts(cases: list[Case], metric: str) -> str:
    by = {}
    for c in cases:
        by.setdefault(c.where, set()).add(0 if not c.real(metric) else (1 if c.row(metric)["diff"] > 0 else -1))
    split = [w for w, v in by.items() if len(v) > 1]
    return ("The direction of the change in game length holds for every line-up of the panel." if not split else
            "How the game length changes depends on how well people play (" + "; ".join(split) + ").")


def q_first_bout_limit(ctx: Ctx) -> str:
    lim, scope = [], []
    for n in (2, 4):
        cs = ctx.compare("podkidnoy", n, {"first_bout_max_attack": 5}, {"first_bout_max_attack": "none"}, 500_000,
                         label=f"limit-{n}p", where=f"{n} players")
        _cmp_section(ctx, f"Limit of 5 or no limit, podkidnoy, {n} players", cs,
                     ["first_defender_fool", "first_attacker_fool", "bouts"], f"limit-{n}p")
        lim += cs
        cs = ctx.compare("podkidnoy", n, {"first_bout_limit_scope": "first_bout"},
                         {"first_bout_limit_scope": "until_first_discard"}, 500_000, label=f"scope-{n}p",
                         where=f"{n} players")
        _cmp_section(ctx, f"Scope: first bout or until the first discard, podkidnoy, {n} players", cs,
                     ["first_defender_fool", "first_attacker_fool", "bouts"], f"scope-{n}p")
        scope += cs
    return ("The limit: " + rule_verdict(lim, "first_defender_fool", "the first defender",
                                        "the five-card first-bout limit (against no limit)") +
            " The scope: " + rule_verdict(scope, "first_defender_fool", "the first defender",
                                          "the limit held for the first bout only (against: until the first "
                                          "discard)"))


def q_vdogonku(ctx: Ctx) -> str:
    cases = []
    for n in (2, 3, 4):
        cs = ctx.compare("podkidnoy", n, {"throw_in_after_take": True}, {"throw_in_after_take": False}, 500_000)
        _cmp_section(ctx, f"podkidnoy, {n} players", cs, ["first_defender_fool", "first_attacker_fool", "bouts"],
                     f"podkidnoy-{n}p")
        cases += cs
    return rule_verdict(cases, "first_defender_fool", "the first defender", "throw-ins after 'I take' allowed")


def q_six_beats_ace(ctx: Ctx) -> str:
    """Issue 13: the honest question is what the rule does to decided deals and to the draw rate, separately,
    and how the line-ups react to it; not 'how much is the trump ace worth'."""
    cases = []
    for fam in ("podkidnoy", "prostoy_5"):
        cs = ctx.compare(fam, 2, {"trump_six_beats_trump_ace": True}, {"trump_six_beats_trump_ace": False},
                         1_000_000)
        _cmp_section(ctx, f"{fam}, 2 players", cs, ["ace_holder_fool", "six_holder_fool", "bouts"], f"{fam}-2p")
        cases += cs
    m = "ace_holder_fool" + DECIDED
    word = {"Yes": "Yes, a little", "No": "No", "Sometimes": "Only for some line-ups",
            "It depends": "It depends on how people play"}[
        answer_word(cases, m)]
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
            "to the rule (expert changes its leads once the ace can be beaten: in the trace behind issue 13, 86% of the "
            "prostoy_5 games that change first differ at a lead, 14% at a six covering the ace), so the change among "
            f"decided deals is a fact about the line-up as much as the rule ({react} points). "
            + how_sure(cases, m) + " "
            + unfinished_note(cases, biggest))


def q_transfer_first_bout(ctx: Ctx) -> str:
    cases = []
    for n in (2, 3, 4):
        cs = ctx.compare("perevodnoy", n, {"transfer_in_first_bout": True}, {"transfer_in_first_bout": False},
                         500_000)
        _cmp_section(ctx, f"perevodnoy, {n} players", cs, ["first_defender_fool", "first_attacker_fool"],
                     f"perevodnoy-{n}p")
        cases += cs
    return rule_verdict(cases, "first_defender_fool", "the first defender", "a transfer allowed in the first bout")


def q_skill(ctx: Ctx) -> str:
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
            ". How sure: within about a point (95% intervals in the tables). " + _tournament_unfinished(ts))


# ---- §6 variants: one question per group (issue 9) -------------------------------------------------

def _rate_verdict(cases: list[Case], metric: str, what: str, rule: str) -> str:
    """A plain paragraph for a rate that is not a fool rate (draws): A against B per case, with intervals."""
    word = answer_word(cases, metric)
    real = [c for c in cases if c.real(metric)]
    biggest = max((abs(c.points(metric)) for c in real), default=0.0)
    if word == "No":
        head = f"No — {rule} makes no detectable difference to {what}."
    elif word in ("Yes", "Sometimes"):
        more = real[0].points(metric) > 0
        head = (f"{'Yes' if word == 'Yes' else 'Only in some settings'} — a {size_word(biggest)} effect: with "
                f"{rule}, {what} is {'higher' if more else 'lower'}" + ("." if word == "Yes" else
                                                                      "; elsewhere no detectable change."))
    else:
        head = f"It depends — with {rule}, {what} is higher in some settings and lower in others."
    parts = [f"{c.where}, {c.strategy} play: {100 * float(c.row(metric)['a']):.2f}% against "
             f"{100 * float(c.row(metric)['b']):.2f}% ({c.points(metric):+.2f} points, 95% interval "
             f"[{100 * float(c.row(metric)['lo']):+.2f}, {100 * float(c.row(metric)['hi']):+.2f}])" for c in cases]
    return (f"{head} {'; '.join(parts)}. {across_skill(cases, metric)} {how_sure(cases, metric)} "
            f"{unfinished_note(cases, biggest if real else None)}")


def _length_verdict(cases: list[Case], rule: str) -> str:
    """A plain paragraph for game length in bouts."""
    parts = []
    for c in cases:
        r = c.row("bouts")
        a, b = float(r["a"]), float(r["b"])
        ratio = a / b if b else float("nan")
        parts.append(f"{c.where}, {c.strategy} play: {a:.1f} bouts against {b:.1f} ({ratio:.2f} times; difference "
                     f"{float(r['diff']):+.2f} [{float(r['lo']):+.2f}, {float(r['hi']):+.2f}])")
    longer = [c for c in cases if c.real("bouts") and float(c.row("bouts")["diff"]) > 0]
    shorter = [c for c in cases if c.real("bouts") and float(c.row("bouts")["diff"]) < 0]
    head = ("Longer" if longer and not shorter else "Shorter" if shorter and not longer else
            "It depends" if longer and shorter else "About the same")
    return (f"{head}: with {rule} a deal lasts " + "; ".join(parts) + f". {how_sure(cases, 'bouts')} "
            f"{unfinished_note(cases, None)}")


def q_no_trump_draws(ctx: Ctx) -> str:
    cases = []
    for fam, n in (("podkidnoy", 2), ("prostoy_5", 2), ("podkidnoy", 4)):
        cs = ctx.compare(fam, n, {"no_trump": True}, {}, 300_000)
        _cmp_section(ctx, f"{fam}, {n} players", cs, ["draw", "first_attacker_fool", "bouts"], f"{fam}-{n}p")
        cases += cs
    text = _rate_verdict(cases, "draw", "the draw rate", "no trump suit (VAR-NT1, Бескозырный)")
    if all(float(c.row("draw")["a"]) == 0 for c in cases):
        text = ("No — the opposite: without trumps a game is never drawn. Why: a card is then beaten only by a "
                "higher card of its own suit, so every beaten pair sends two cards of one suit to the discard; a "
                "draw would end with all 36 cards there, but each suit has nine cards, an odd number. " + text)
    return text


def q_tryoshka_first_attacker(ctx: Ctx) -> str:
    cases = []
    for fam, n in (("podkidnoy", 2), ("podkidnoy", 3), ("perevodnoy", 2)):
        cs = ctx.compare(fam, n, {"lead_rule": "tryoshka"}, {}, 300_000)
        _cmp_section(ctx, f"{fam}, {n} players", cs, ["first_attacker_fool", "first_defender_fool", "bouts"],
                     f"{fam}-{n}p")
        cases += cs
    return rule_verdict(cases, "first_attacker_fool", "the first attacker", "tryoshka leads (VAR-TR1, Трёшка)")


def q_pustoy_length(ctx: Ctx) -> str:
    cases = []
    for fam, n in (("podkidnoy", 2), ("podkidnoy", 4), ("prostoy_5", 2)):
        cs = ctx.compare(fam, n, {"draw_rule": "pustoy"}, {}, 300_000)
        _cmp_section(ctx, f"{fam}, {n} players", cs, ["bouts", "draw", "first_attacker_fool"], f"{fam}-{n}p")
        cases += cs
    return _length_verdict(cases, "pustoy drawing (VAR-PU1, Пустой: draw only when your hand is empty)")


def q_ochkovy_fool(ctx: Ctx) -> str:
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


QUESTIONS = {q.name: q for q in [
    Question("trump-six-exchange", "Does the trump-six exchange favour the player who makes it?",
             "\"Swapping the trump six for the face-up trump is a free gift to whoever holds the six\" — is it? "
             "In prostoy_5 (where seed 000 allows it) and in podkidnoy with the house toggle.", q_trump_six),
    Question("first-attacker", "How large is the first-attacker advantage?",
             "\"Whoever leads first has the edge\" — by how much, in each family, with 2 to 6 players?",
             q_first_attacker),
    Question("singles-vs-triples", "Singles or sets: which lead habit wins in simple durak?",
             "Lead one card at a time, lead triples and fives from the start, dump sets once the talon is low, or "
             "follow seed 002 (singles early, sets once the hand is loaded or the talon is low)? Each habit is "
             "switched on one at a time against the same player without it, in prostoy_5 and prostoy_6.",
             q_singles_triples, panel=False),
    Question("partial-defence", "Partial defence (seed 000) or take-all (seed 002)?",
             "Does covering only some attack cards make games shorter, leave the fool with fewer cards, and "
             "change how often the game is drawn?", q_partial_defence),
    Question("first-bout-limit", "Does the first-bout limit of 5 matter, and does its scope?",
             "\"In the first bout only five cards may be thrown\" (001) — does it change anything, and does it "
             "matter whether it holds for the first bout only or until the first discard (004)?", q_first_bout_limit),
    Question("vdogonku", "Throwing in after 'I take' (вдогонку): who does it hurt?",
             "Some tables let the others keep throwing in after the defender says 'I take', some do not. "
             "Who suffers from it?", q_vdogonku),
    Question("six-beats-ace", "Trump six beats trump ace: what does the house rule change?",
             "With the house rule that the trump six beats the trump ace, is the player dealt the trump ace the "
             "fool more often, and do more games end in a draw? (Answered for decided deals and for draws "
             "separately, per line-up: the strategies react to the rule, so this is not a price of the ace.)",
             q_six_beats_ace),
    Question("transfer-first-bout", "Transfer in the first bout: allowed or not?",
             "Perevodnoy tables disagree whether the first bout may be transferred (004 says no). Does it matter?",
             q_transfer_first_bout),
    Question("draws", "How often does a game end in a draw?",
             "\"Draws almost never happen\" — how often, per family and number of players?", q_draws),
    Question("skill", "How much of durak is skill?",
             "Is durak mostly luck? How often does the best strategy beat random play and the plain greedy "
             "baseline, per family?", q_skill, panel=False),
    Question("no-trump-draws", "Is a game without trumps more often a draw?",
             "Бескозырный (004): with no trump suit every card can be beaten only in its own suit. Do more games "
             "end with everybody out at once, and are deals longer?", q_no_trump_draws),
    Question("tryoshka-first-attacker", "Does tryoshka favour the first attacker?",
             "Трёшка (004): every bout opens with three cards at once. Does that help or hurt the player who "
             "attacks first?", q_tryoshka_first_attacker),
    Question("pustoy-length", "How long is a game of pustoy?",
             "Пустой (004): you draw only when your hand is empty. How much longer (or shorter) is a deal?",
             q_pustoy_length),
    Question("ochkovy-fool", "In points durak, does the fool still win on points?",
             "Очковый (004): the winner is whoever beats the most of his opponents' cards. How often does the "
             "player left holding cards — the fool of the ordinary game — win the points?", q_ochkovy_fool),
]}


def settle(name: str, scale: float = 1.0, seed: int = 2026, threads: int | None = None,
           root: Path = RESULTS, panel: list[str] | None = None) -> Path:
    if name not in QUESTIONS:
        raise KeyError(f"unknown question {name!r}; choose one of: {', '.join(QUESTIONS)}")
    q = QUESTIONS[name]
    folder = Path(root) / name
    folder.mkdir(parents=True, exist_ok=True)
    for old in [*folder.glob("*.csv"), *folder.glob("*.png")]:  # files of an earlier layout would linger
        old.unlink()
    ctx = Ctx(scale, seed, threads, folder, [], {}, panel)
    t0 = time.time()
    verdict = q.run(ctx)
    default = ctx.panel == default_panel() or not q.panel
    cmd = f"durak settle {name}" + ("" if scale == 1 else f" --scale {scale:g}") + \
        ("" if seed == 2026 else f" --seed {seed}") + ("" if default else "".join(f" --panel {p}" for p in ctx.panel))
    scale_note = ("" if scale == 1 else
                  f" Run at --scale {scale:g}: every experiment plays {scale:g} of the games of a full run (at least "
                  f"2,000), so intervals are about {1 / scale ** 0.5:.0f} times wider than a full run's.")
    # Rerunning with the same seed rewrites every file byte for byte, except the one timing line below
    # (no commit hash, date or duration anywhere else).
    lines = [f"# {q.title}", "", f"**The question.** {q.ask}", "", f"**The answer.** {verdict}", "",
             f"**Reproduce.** `{cmd}` (seed {seed}" + (f"; panel: {', '.join(ctx.panel)}, each playing every seat"
                                                        if q.panel else "; a tournament: no panel") + "). "
             "Intervals are 95%; comparisons play both rule sets on the same deals and give Holm-adjusted p-values. "
             "Sizes are given as games out of 100: a change of 1.25 points is about 1 game in 80." + scale_note, "",
             "## Numbers", ""] + ctx.lines
    lines += ["## Files", "", "- `summary.json`: the answer and the run's settings",
              "- `*.csv`: the tables behind this page (aggregates only; one per panel strategy)",
              "- `*.png`: the plots above", "",
              f"{TIMING_PREFIX} {time.time() - t0:.0f} s on the machine that wrote it.", ""]
    (folder / "README.md").write_text("\n".join(lines))
    for key, df in ctx.data.items():
        if isinstance(df, pd.DataFrame) and not key.endswith("_rows"):
            df.to_csv(folder / f"{key}.csv", index=False)
    (folder / "summary.json").write_text(json.dumps(
        {"question": q.title, "verdict": verdict, "command": cmd, "seed": seed, "scale": scale,
         "panel": ctx.panel if q.panel else None}, indent=1))
    return folder


def write_index(root: Path = RESULTS) -> Path:
    root = Path(root)
    lines = ["# Settled arguments", "",
             "Each folder answers one question players argue about, with the command that reproduces it. "
             "Regenerate any of them with `durak settle NAME --write-results` (all: `durak settle all "
             "--write-results`; without it the folders go to a run folder under results/runs/).", "",
             "Each answer below is the plain paragraph that opens the question's page: yes / no / only in some "
             "settings / it depends, how big in games out of 100, how sure, whether it holds for weak (greedy) and "
             "strong (expert) play, and how many deals were left unfinished. The numbers follow on each page.", ""]
    for name, q in QUESTIONS.items():
        s = root / name / "summary.json"
        if s.exists():
            summary = json.loads(s.read_text())
            verdict = summary["verdict"]
            if summary.get("scale", 1) != 1:
                verdict += f" *(Run at --scale {summary['scale']:g}.)*"
        else:
            verdict = "(not run yet)"
        lines += [f"## [{q.title}]({name}/README.md)", "", verdict, ""]
    also = [("round_robin_2p.md", "a 2-player round robin of the strategy library (podkidnoy, prostoy_5, perevodnoy; "
             "200,000 games per pair; `results/round_robin_2p.py`)"),
            ("strength/README.md", "how strong the search player is, against budget"),
            ("strength/habits.md", "what each of expert's habits is worth (leave one out, paired) and where search "
             "disagrees with it"),
            ("strength/unfinished.md", "unfinished deals of every library strategy, family and player count"),
            ("seed_knobs/README.md", "the seed advice no strategy followed, measured knob by knob"),
            ("scoring/README.md", "score-win rates of the two scoring variants (pogonny, ochkovy)")]
    found = [f"- [{text[0].upper() + text[1:]}]({path})" for path, text in also if (root / path).exists()]
    if found:
        lines += ["Also:", ""] + found
    root.mkdir(parents=True, exist_ok=True)
    (root / "README.md").write_text("\n".join(lines) + "\n")
    return root / "README.md"
