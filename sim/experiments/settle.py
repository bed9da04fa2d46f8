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
from sim.experiments.compare import Arm, Comparison, plot_comparison
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

    def n(self, games: int) -> int:
        return max(2000, int(games * self.scale))

    def compare(self, family, players, a, b, games, strategies=None, metric=None, label=None):
        strategies = strategies or [field_strategy()]
        ra, rb = R.resolve(family, players, a), R.resolve(family, players, b)
        la = ", ".join(f"{k}={R.format_value(v)}" for k, v in a.items()) or "A"
        lb = ", ".join(f"{k}={R.format_value(v)}" for k, v in b.items()) or "B"
        c = Comparison(Arm(la, ra, batch.make_lineup(ra, strategies)), Arm(lb, rb, batch.make_lineup(rb, strategies)),
                       seed=self.seed, games=self.n(games), threads=self.threads).run()
        key = label or f"{family}-{players}p"
        t = c.table()
        self.data[f"compare-{key}"] = t.reset_index()
        plot_comparison(c, self.folder / f"compare-{key}.png")
        return c, t

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
    run: Callable[[Ctx], str]  # fills ctx.lines / ctx.data / plots, returns the one-line verdict


def _cmp_section(ctx: Ctx, heading: str, c: Comparison, metrics: list[str]) -> None:
    t = c.table()
    ctx.lines += [f"### {heading}", "", f"- A: {c.a.rules.describe()}", f"- B: {c.b.rules.describe()}",
                  f"- strategies: {', '.join(s.label for s in c.a.seats)}; "
                  f"{int(t['games'].max()):,} paired games on the same deals", "", c.verdict(metrics[0]), "",
                  "| metric | A | B | difference [95% interval] | p (Holm) |", "|---|---|---|---|---|"]
    for m in metrics:
        if m not in t.index:
            continue
        r = t.loc[m]
        sc = 1 if m in ("bouts", "fool_cards") else 100
        unit = "" if sc == 1 else " pts"
        ctx.lines.append(f"| {r['description']} | {sc * r['a']:.2f} | {sc * r['b']:.2f} | {sc * r['diff']:+.2f}"
                         f"{unit} [{sc * r['lo']:+.2f}, {sc * r['hi']:+.2f}] | {r['p_holm']:.2g} |")
    ctx.lines.append("")


# ---- the ten questions ---------------------------------------------------------------------------

def q_trump_six(ctx: Ctx) -> str:
    out = []
    for fam, toggles_a, toggles_b in (("prostoy_5", {"trump_six_exchange": True}, {"trump_six_exchange": False}),
                                      ("podkidnoy", {"trump_six_exchange": True}, {"trump_six_exchange": False})):
        c, t = ctx.compare(fam, 2, toggles_a, toggles_b, 1_000_000)
        _cmp_section(ctx, f"{fam}, 2 players", c, ["six_holder_fool", "first_attacker_fool", "draw", "bouts"])
        ctx.lines.append(f"![{fam}](compare-{fam}-2p.png)\n")
        r = t.loc["six_holder_fool"]
        out.append(f"{fam}: the exchange changes the six-holder's fool rate by {100 * r['diff']:+.2f} points "
                   f"[{100 * r['lo']:+.2f}, {100 * r['hi']:+.2f}]" + ("" if r["significant"] else " (not significant)"))
    return "; ".join(out) + "."


def _first_attacker_rows(ctx: Ctx, games: int) -> pd.DataFrame:
    if "first_attacker_rows" in ctx.data:
        return ctx.data["first_attacker_rows"]
    rows = []
    for fam in R.FAMILIES:
        for n in range(2, 7):
            exp = ctx.experiment(fam, n, [field_strategy()], games, rotate=False)
            tot = exp.totals()
            fin = tot["finished"]
            teams = exp.rules.teams
            fair = (1 - tot["draw_rate"]) / (len(teams) if teams else n)  # fool share of any one seat
            rows.append({"family": fam, "players": n, "games": fin, "unfinished": tot["unfinished"],
                         "first_attacker_fool": tot["first_attacker_fool_rate"],
                         "lo": tot["first_attacker_fool_lo"], "hi": tot["first_attacker_fool_hi"],
                         "fair_share": fair, "advantage_points": 100 * (fair - tot["first_attacker_fool_rate"]),
                         "draw_rate": tot["draw_rate"], "draw_lo": tot["draw_lo"], "draw_hi": tot["draw_hi"],
                         "mean_bouts": tot["mean_bouts"]})
    df = pd.DataFrame(rows)
    ctx.data["first_attacker_rows"] = df
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


def q_first_attacker(ctx: Ctx) -> str:
    df = _first_attacker_rows(ctx, 200_000)
    view = pd.DataFrame({"family": df["family"], "players": df["players"], "games": df["games"].map("{:,}".format),
                         "first attacker is the fool": [pct(p, lo, hi) for p, lo, hi in zip(df["first_attacker_fool"],
                                                                                                 df["lo"], df["hi"])],
                         "fair share": (100 * df["fair_share"]).map("{:.2f}%".format),
                         "advantage (points)": df["advantage_points"].map("{:+.2f}".format),
                         "unfinished": df["unfinished"].map("{:,}".format)}).set_index("family")
    ctx.lines += [f"Every seat plays `{field_strategy()}`, with each family's default rules (so prostoy_6 with 4 "
                  "or 6 players is played in pairs, 002). Fair share = (1 - draw rate) / players (/ teams in a "
                  "team game). A positive advantage means the first attacker is the fool less often than his "
                  "fair share. Deals still running after 1,000 bouts (RUL-22: the fixed strategies cycle, mostly `expert` "
                  "with 3+ players, for which it was not tuned) are counted as unfinished and left out of the rates.",
                  "", md_table(view), "", "![first attacker](first_attacker.png)", ""]
    _family_plot(df, "first_attacker_fool", "lo", "hi", "first attacker is the fool (%)",
                 ctx.folder / "first_attacker.png", ref="fair_share")
    ctx.data["first_attacker"] = df
    best = df.loc[df["advantage_points"].abs().idxmax()]
    two = df[df["players"] == 2].set_index("family")["advantage_points"]
    return (f"Largest effect: {best['family']} with {best['players']} players, {best['advantage_points']:+.1f} "
            f"points against the first attacker's fair share; with 2 players: "
            + ", ".join(f"{f} {v:+.1f}" for f, v in two.items()) + " points.")


def q_draws(ctx: Ctx) -> str:
    df = _first_attacker_rows(ctx, 200_000)
    view = pd.DataFrame({"family": df["family"], "players": df["players"],
                         "draws": [pct(p, lo, hi) for p, lo, hi in zip(df["draw_rate"], df["draw_lo"], df["draw_hi"])],
                         "mean length (bouts)": df["mean_bouts"].map("{:.1f}".format),
                         "unfinished": df["unfinished"].map("{:,}".format)}).set_index("family")
    ctx.lines += [f"Every seat plays `{field_strategy()}`.", "", md_table(view), "", "![draws](draws.png)", ""]
    _family_plot(df, "draw_rate", "draw_lo", "draw_hi", "draws (%)", ctx.folder / "draws.png")
    ctx.data["draws"] = df
    two = df[df["players"] == 2].set_index("family")["draw_rate"]
    six = df[df["players"] == 6].set_index("family")["draw_rate"]
    fewer = [f for f in two.index if six[f] < two[f]]
    trend = (f"with 6 players draws are rarer than with 2 in {len(fewer)} of {len(two)} families"
             + (f" ({', '.join(fewer)})" if 0 < len(fewer) < len(two) else ""))
    return ("Two-player draw rates: " + ", ".join(f"{f} {100 * v:.1f}%" for f, v in two.items())
            + "; six-player: " + ", ".join(f"{f} {100 * v:.1f}%" for f, v in six.items()) + f"; {trend}.")


def q_singles_triples(ctx: Ctx) -> str:
    out = []
    for fam in ("prostoy_5", "prostoy_6"):
        t = Tournament(R.resolve(fam, 2), ["singles-early", "dump-triples-late", field_strategy()],
                       games=ctx.n(300_000), seed=ctx.seed, threads=ctx.threads).run()
        h = t.head_to_head()
        ctx.data[f"tournament-{fam}"] = h
        t.heatmap(ctx.folder / f"heatmap-{fam}.png")
        ctx.lines += [f"### {fam}, 2 players", "", t.markdown().split("\n", 2)[2], f"![{fam}](heatmap-{fam}.png)", ""]
        row = h[(h["strategy"] == "singles-early") & (h["opponent"] == "dump-triples-late")].iloc[0]
        sig = not (row["score_lo"] <= 0.5 <= row["score_hi"])
        out.append(f"{fam}: singles-early scores {100 * row['score']:.1f}% [{100 * row['score_lo']:.1f}, "
                   f"{100 * row['score_hi']:.1f}] against dump-triples-late" + ("" if sig else " (no detectable edge)"))
    return "; ".join(out) + "."


def q_partial_defence(ctx: Ctx) -> str:
    out = []
    for n in (2, 3):
        c, t = ctx.compare("prostoy_5", n, {"partial_defence": True}, {"partial_defence": False}, 500_000)
        _cmp_section(ctx, f"prostoy_5, {n} players", c, ["bouts", "fool_cards", "draw", "first_attacker_fool"])
        ctx.lines.append(f"![{n}p](compare-prostoy_5-{n}p.png)\n")
        b, f, d = t.loc["bouts"], t.loc["fool_cards"], t.loc["draw"]
        out.append(f"{n} players: partial defence changes game length by {b['diff']:+.2f} bouts, the fool's leftover "
                   f"cards by {f['diff']:+.2f}, the draw rate by {100 * d['diff']:+.2f} points")
    return "; ".join(out) + "."


def q_first_bout_limit(ctx: Ctx) -> str:
    out = []
    for n in (2, 4):
        c, t = ctx.compare("podkidnoy", n, {"first_bout_max_attack": 5}, {"first_bout_max_attack": "none"}, 500_000,
                           label=f"limit-{n}p")
        _cmp_section(ctx, f"Limit of 5 or no limit, podkidnoy, {n} players", c,
                     ["first_defender_fool", "first_attacker_fool", "draw", "bouts"])
        r = t.loc["first_defender_fool"]
        out.append(f"{n}p limit vs none: first defender {100 * r['diff']:+.2f} pts"
                   + ("" if r["significant"] else " (n.s.)"))
        c, t = ctx.compare("podkidnoy", n, {"first_bout_limit_scope": "first_bout"},
                           {"first_bout_limit_scope": "until_first_discard"}, 500_000, label=f"scope-{n}p")
        _cmp_section(ctx, f"Scope: first bout or until the first discard, podkidnoy, {n} players", c,
                     ["first_defender_fool", "first_attacker_fool", "draw", "bouts"])
        r = t.loc["first_defender_fool"]
        out.append(f"{n}p scope: first defender {100 * r['diff']:+.2f} pts" + ("" if r["significant"] else " (n.s.)"))
    return "; ".join(out) + "."


def q_vdogonku(ctx: Ctx) -> str:
    out = []
    for n in (2, 3, 4):
        c, t = ctx.compare("podkidnoy", n, {"throw_in_after_take": True}, {"throw_in_after_take": False}, 500_000)
        _cmp_section(ctx, f"podkidnoy, {n} players", c,
                     ["first_defender_fool", "first_attacker_fool", "bouts", "draw"])
        r = t.loc["first_defender_fool"]
        out.append(f"{n}p: first defender {100 * r['diff']:+.2f} pts" + ("" if r["significant"] else " (n.s.)"))
    return "Allowing throw-ins after 'I take' changes the first defender's fool rate: " + "; ".join(out) + "."


def q_six_beats_ace(ctx: Ctx) -> str:
    out = []
    for fam in ("podkidnoy", "prostoy_5"):
        c, t = ctx.compare(fam, 2, {"trump_six_beats_trump_ace": True}, {"trump_six_beats_trump_ace": False},
                           1_000_000)
        _cmp_section(ctx, f"{fam}, 2 players", c, ["ace_holder_fool", "six_holder_fool", "draw"])
        a, s = t.loc["ace_holder_fool"], t.loc["six_holder_fool"]
        fair = (1 - t.loc["draw", "b"]) / 2
        out.append(f"{fam}: the trump-ace holder is the fool {100 * a['b']:.1f}% of the time without the rule "
                   f"({100 * (fair - a['b']):+.1f} pts better than a fair {100 * fair:.1f}%) and {100 * a['a']:.1f}% "
                   f"with it ({100 * a['diff']:+.2f} [{100 * a['lo']:+.2f}, {100 * a['hi']:+.2f}]); the six-holder "
                   f"{100 * s['diff']:+.2f} pts")
    return "; ".join(out) + "."


def q_transfer_first_bout(ctx: Ctx) -> str:
    out = []
    for n in (2, 3, 4):
        c, t = ctx.compare("perevodnoy", n, {"transfer_in_first_bout": True}, {"transfer_in_first_bout": False},
                           500_000)
        _cmp_section(ctx, f"perevodnoy, {n} players", c, ["first_defender_fool", "first_attacker_fool", "draw"])
        r = t.loc["first_defender_fool"]
        out.append(f"{n}p: first defender {100 * r['diff']:+.2f} pts" + ("" if r["significant"] else " (n.s.)"))
    return "Allowing a transfer in the first bout: " + "; ".join(out) + "."


def q_skill(ctx: Ctx) -> str:
    out = []
    for fam in R.FAMILIES:
        t = Tournament(R.resolve(fam, 2), ["expert", "greedy", "random"], games=ctx.n(200_000), seed=ctx.seed,
                       threads=ctx.threads).run()
        h = t.head_to_head()
        ctx.data[f"tournament-{fam}"] = h
        t.heatmap(ctx.folder / f"heatmap-{fam}.png")
        ctx.lines += [f"### {fam}, 2 players", "", t.markdown().split("\n", 2)[2], f"![{fam}](heatmap-{fam}.png)", ""]
        m = t.matrix()
        out.append(f"{fam}: expert scores {100 * m.loc['expert', 'random']:.1f}% against random and "
                   f"{100 * m.loc['expert', 'greedy']:.1f}% against greedy")
    return "; ".join(out) + "."


QUESTIONS = {q.name: q for q in [
    Question("trump-six-exchange", "Does the trump-six exchange favour the player who makes it?",
             "\"Swapping the trump six for the face-up trump is a free gift to whoever holds the six\" — is it? "
             "In prostoy_5 (where seed 000 allows it) and in podkidnoy with the house toggle.", q_trump_six),
    Question("first-attacker", "How large is the first-attacker advantage?",
             "\"Whoever leads first has the edge\" — by how much, in each family, with 2 to 6 players?",
             q_first_attacker),
    Question("singles-vs-triples", "Singles early or triples late?",
             "In simple durak, should you lead singles while the talon is big (seed 002's advice) or dump triples "
             "and fives late?", q_singles_triples),
    Question("partial-defence", "Partial defence (seed 000) or take-all (seed 002)?",
             "Does covering only some attack cards make games shorter, leave the fool with fewer cards, and "
             "change how often the game is drawn?", q_partial_defence),
    Question("first-bout-limit", "Does the first-bout limit of 5 matter, and does its scope?",
             "\"In the first bout only five cards may be thrown\" (001) — does it change anything, and does it "
             "matter whether it holds for the first bout only or until the first discard (004)?", q_first_bout_limit),
    Question("vdogonku", "Throwing in after 'I take' (вдогонку): who does it hurt?",
             "Some tables let the others keep throwing in after the defender says 'I take', some do not. "
             "Who suffers from it?", q_vdogonku),
    Question("six-beats-ace", "Trump six beats trump ace: how much is the trump ace worth?",
             "With the house rule that the trump six beats the trump ace, is the trump ace still a great card?",
             q_six_beats_ace),
    Question("transfer-first-bout", "Transfer in the first bout: allowed or not?",
             "Perevodnoy tables disagree whether the first bout may be transferred (004 says no). Does it matter?",
             q_transfer_first_bout),
    Question("draws", "How often does a game end in a draw?",
             "\"Draws almost never happen\" — how often, per family and number of players?", q_draws),
    Question("skill", "How much of durak is skill?",
             "Is durak mostly luck? How often does the best strategy beat random play and the plain greedy "
             "baseline, per family?", q_skill),
]}


def settle(name: str, scale: float = 1.0, seed: int = 2026, threads: int | None = None,
           root: Path = RESULTS) -> Path:
    if name not in QUESTIONS:
        raise KeyError(f"unknown question {name!r}; choose one of: {', '.join(QUESTIONS)}")
    q = QUESTIONS[name]
    folder = Path(root) / name
    folder.mkdir(parents=True, exist_ok=True)
    ctx = Ctx(scale, seed, threads, folder, [], {})
    t0 = time.time()
    verdict = q.run(ctx)
    cmd = f"durak settle {name}" + ("" if scale == 1 else f" --scale {scale:g}") + \
        ("" if seed == 2026 else f" --seed {seed}")
    # Rerunning with the same seed rewrites every file byte for byte, except the one timing line below
    # (no commit hash, date or duration anywhere else).
    lines = [f"# {q.title}", "", f"**The question.** {q.ask}", "", f"**Verdict.** {verdict}", "",
             f"**Reproduce.** `{cmd}` (seed {seed}). Intervals are 95%; "
             "comparisons play both rule sets on the same deals and give Holm-adjusted p-values.", "",
             "## Numbers", ""] + ctx.lines
    lines += ["## Files", "", "- `summary.json`: the verdict and the run's settings",
              "- `*.csv`: the tables behind this page (aggregates only)", "- `*.png`: the plots above", "",
              f"{TIMING_PREFIX} {time.time() - t0:.0f} s on the machine that wrote it.", ""]
    (folder / "README.md").write_text("\n".join(lines))
    for key, df in ctx.data.items():
        if isinstance(df, pd.DataFrame) and not key.endswith("_rows"):
            df.to_csv(folder / f"{key}.csv", index=False)
    (folder / "summary.json").write_text(json.dumps(
        {"question": q.title, "verdict": verdict, "command": cmd, "seed": seed, "scale": scale,
         "field_strategy": field_strategy()},
        indent=1))
    return folder


def write_index(root: Path = RESULTS) -> Path:
    root = Path(root)
    lines = ["# Settled arguments", "",
             "Each folder answers one question players argue about, with the command that reproduces it. "
             "Regenerate any of them with `durak settle NAME --write-results` (all: `durak settle all "
             "--write-results`; without it the folders go to a run folder under results/runs/).", "",
             "| question | verdict |", "|---|---|"]
    for name, q in QUESTIONS.items():
        s = root / name / "summary.json"
        verdict = json.loads(s.read_text())["verdict"] if s.exists() else "(not run yet)"
        lines.append(f"| [{q.title}]({name}/README.md) | {verdict} |")
    if (root / "round_robin_2p.md").exists():
        lines += ["", "Also: [a 2-player round robin of the strategy library](round_robin_2p.md) "
                  "(podkidnoy, prostoy_5, perevodnoy; 200,000 games per pair; `results/round_robin_2p.py`)."]
    root.mkdir(parents=True, exist_ok=True)
    (root / "README.md").write_text("\n".join(lines) + "\n")
    return root / "README.md"
