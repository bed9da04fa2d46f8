"""Paired comparisons: two rule sets or two line-ups played on the same deals.

Both arms play the same series indices, hence the same shuffled packs and dealers (common
random numbers); each arm's strategies also draw from the same per-game stream. For every
metric the per-game difference is accumulated, so the interval of the difference uses the
paired variance. The independent-samples interval is computed too, to say how much pairing
narrowed it. p-values are Holm-adjusted over all metrics reported.
"""
from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from sim.core import dispatch
from sim.core.rules import Rules
from sim.experiments import backends, batch, tasks
from sim.experiments.batch import ExperimentError, Runner, Seat
from sim.experiments.experiment import git_commit
from sim.experiments.provenance import provenance
from sim.experiments.plain import COUNTS, UNITS, by_deals
from sim.experiments.paired import DECIDED, HOLDER_NOTE, PairedSums, metric_names, p_two_sided, rotate
from sim.experiments.report import finish
from sim.experiments.stats import Z95

Z80 = 0.8416212335729143  # power 80% for the minimum detectable effect


@dataclass
class Arm:
    label: str
    rules: Rules
    seats: list[Seat]


@dataclass
class Comparison:
    a: Arm
    b: Arm
    seed: int
    games: int
    rotate: bool = True
    chunk: int = 1 << 14
    threads: int | None = None
    out: Path | None = None
    seed_b: int | None = None  # None: arm B plays the same deals (paired); else independent deals
    paths: tuple = ()  # folders of user strategies
    engine: str | None = None  # auto, general, lean or specialised (batch.engine_choice), for both arms alike
    names: list = field(init=False)
    sums: PairedSums = field(init=False)
    seconds: float = field(init=False, default=0.0)

    def __post_init__(self):
        if self.a.rules.num_players != self.b.rules.num_players:
            raise ExperimentError("a paired comparison needs the same number of players in both arms")
        if len(self.a.seats) != len(self.b.seats):
            raise ExperimentError("both arms need a strategy for every seat")
        if self.games < 1:
            raise ExperimentError("--games must be at least 1")
        self.names = metric_names(self.a.seats, self.a.rules.num_players)
        self.sums = PairedSums(len(self.names))

    def run(self, progress=None) -> "Comparison":
        t0 = time.perf_counter()
        n = self.a.rules.num_players
        # role k (the k-th strategy of a line-up) sits at seat (k + r) % n in rotation r, in both arms
        uniform = len({x.label for x in self.a.seats}) == 1 and len({x.label for x in self.b.seats}) == 1
        shifts = list(range(n)) if self.rotate and not uniform else [0]
        both = [x.name for x in self.a.seats + self.b.seats]  # one general engine serves both arms
        # an engine with the rules compiled in is one per rule set: each arm plays on its own (batch.engine_choice)
        # unless one of them is to play on the general one, which then serves both arms with one compile
        kinds = [batch.engine_choice(arm.rules, arm.seats, self.games, self.paths, both, self.engine)[0]
                 for arm in (self.a, self.b)]
        if "general" in kinds:
            kinds = ["general", "general"]
        for arm, kind in zip((self.a, self.b), kinds):  # compile or load first
            if arm is self.a or kind != "general":
                Runner(arm.rules, arm.seats, self.paths, also=both, specialised=kind).play_raw(self.seed, 0, 1)
        pairs = [(tasks.lineup(self.a.rules, rotate(self.a.seats, r), self.paths, both, kinds[0]),
                  tasks.lineup(self.b.rules, rotate(self.b.seats, r), self.paths, both, kinds[1]))
                 for r in shifts]
        per_rot = -(-self.games // len(pairs))
        seed_b = self.seed if self.seed_b is None else self.seed_b
        # chunks run as tasks on the active backend (threads here, or a Dask cluster: backends.use); each
        # sends back its paired sums, which are whole numbers, so the total is exact in any order
        chunks = (tasks.PairedChunk(pairs[i][0], pairs[i][1], shifts[i], self.seed, seed_b, s0,
                                    min(self.chunk, per_rot - s0))
                  for s0 in range(0, per_rot, self.chunk) for i in range(len(pairs)))
        pool = backends.pool(self.threads)
        pool.warm(tasks.warm, [lu for p in pairs for lu in p])
        done = 0
        try:
            for out in backends.stream(pool, tasks.play_paired, chunks):
                done += out.pop("games")
                for f, v in out.items():
                    setattr(self.sums, f, getattr(self.sums, f) + v)
                if progress:
                    progress(done, per_rot * len(pairs))
        finally:
            pool.close()
        self.seconds = time.perf_counter() - t0
        return self

    def table(self) -> pd.DataFrame:
        s = self.sums
        rows = []
        for i, (key, desc) in enumerate(self.names):
            n = s.n[i]
            if n < 2:
                continue
            ma, mb = s.sa[i] / n, s.sb[i] / n
            d = ma - mb
            var_d = max((s.saa[i] + s.sbb[i] - 2 * s.sab[i]) / n - d * d, 0.0) * n / (n - 1)
            va = max(s.saa[i] / n - ma * ma, 0.0) * n / (n - 1)
            vb = max(s.sbb[i] / n - mb * mb, 0.0) * n / (n - 1)
            se = math.sqrt(var_d / n)
            se_ind = math.sqrt((va + vb) / n)
            z = d / se if se > 0 else (0.0 if d == 0 else math.inf)
            rows.append({"metric": key, "description": desc, "games": int(n), "a": ma, "b": mb, "diff": d,
                         "lo": d - Z95 * se, "hi": d + Z95 * se, "p": 1.0 if se == 0 and d == 0 else p_two_sided(z),
                         "mde": (Z95 + Z80) * se, "paired_se": se, "independent_se": se_ind,
                         "narrowing": 1 - se / se_ind if se_ind > 0 else 0.0})
        df = pd.DataFrame(rows).set_index("metric")
        # Holm-Bonferroni over the metrics reported
        order = np.argsort(df["p"].to_numpy())
        m = len(df)
        adj = np.empty(m)
        run = 0.0
        for rank, idx in enumerate(order):
            run = max(run, min(1.0, (m - rank) * df["p"].iloc[idx]))
            adj[idx] = run
        df["p_holm"] = adj
        df["significant"] = df["p_holm"] < 0.05
        return df

    def verdict(self, metric: str | None = None) -> str:
        """One paragraph in plain words about the headline metric, then the other findings."""
        df = self.table()
        if metric is None:
            metric = default_metric(self)
        if metric not in df.index:
            raise ExperimentError(f"unknown or empty metric {metric!r}; choose one of: {', '.join(df.index)}")
        row = df.loc[metric]
        unit = UNITS.get(metric, "points")
        scale = 1 if metric in COUNTS else 100
        d, hw, mde = scale * row["diff"], scale * (row["hi"] - row["lo"]) / 2, scale * row["mde"]
        what = row["description"]
        a, b = self.a.label, self.b.label
        if (df["diff"] == 0).all() and (df["paired_se"] == 0).all():
            return (f"{a} and {b} played identical games in all {int(row['games']):,} deals: with these "
                    f"strategies the rule never came into play, so this experiment cannot say whether it "
                    f"matters; try strategies that reach the situation.")
        if row["significant"]:
            direction = "higher" if d > 0 else "lower"
            text = (f"With {a}, the {what} is {abs(d):.2f} ± {hw:.2f} {unit} {direction} than with {b} "
                    f"({scale * row['a']:.2f} vs {scale * row['b']:.2f}{'' if unit != 'points' else '%'}, "
                    f"unadjusted 95% interval of the difference [{scale * row['lo']:.2f}, {scale * row['hi']:.2f}], "
                    f"Holm-adjusted p = {row['p_holm']:.2g} over {len(df)} metrics, {int(row['games']):,} paired "
                    f"games); the effect is real at this sample size.")
        else:
            text = (f"No detectable difference in the {what} between {a} and {b}: "
                    f"{scale * row['a']:.2f} vs {scale * row['b']:.2f}{'' if unit != 'points' else '%'}, difference "
                    f"{d:+.2f} ± {hw:.2f} {unit} (unadjusted 95% interval; Holm-adjusted p = {row['p_holm']:.2g} "
                    f"over {len(df)} metrics); with "
                    f"{int(row['games']):,} paired games the experiment could have detected about "
                    f"{mde:.2f} {unit} (80% power).")
        text += self._decomposition(df, metric, d)
        others = [k for k in df.index[df["significant"]] if k != metric and not k.endswith(DECIDED)
                  and k not in ("draw", "unfinished")]
        if others:
            text += " Other real differences: " + "; ".join(
                f"{df.loc[k, 'description']} {('%+.2f' % ((1 if k in COUNTS else 100) * df.loc[k, 'diff']))}"
                f" {UNITS.get(k, 'points')}" for k in others) + "."
        nar = row["narrowing"]
        if nar > 0.005:
            text += f" Playing both arms on the same deals made this interval {100 * nar:.0f}% narrower than " \
                    f"independent samples would."
        return text

    def _decomposition(self, df: pd.DataFrame, metric: str, d: float) -> str:
        """For a fool rate, the change among decided deals, the change in draws and the change
        in unfinished deals, each on its own; holder metrics say which holder; unfinished deals weighed."""
        text = ""
        if metric in ("six_holder_fool", "ace_holder_fool") or metric.startswith(("six_holder", "ace_holder")):
            text += f" (Here {HOLDER_NOTE}.)"
        dec = metric + DECIDED
        if dec in df.index:
            r = df.loc[dec]
            excludes = r["lo"] > 0 or r["hi"] < 0
            text += (f" Among deals decided in both arms (draws left out) the change is {100 * r['diff']:+.2f} points "
                     f"[{100 * r['lo']:+.2f}, {100 * r['hi']:+.2f}] (unadjusted 95% interval)" +
                     (f" — a real difference (Holm-adjusted p = {r['p_holm']:.2g})." if r["significant"] else
                      f" — not distinguishable from none once adjusted for the {len(df)} metrics compared "
                      f"(Holm-adjusted p = {r['p_holm']:.2g}" +
                      ("; the unadjusted interval alone just excludes zero)." if excludes else ")."))
                     )
        if "draw" in df.index:
            r = df.loc["draw"]
            text += (f" Draws: {100 * r['a']:.2f}% vs {100 * r['b']:.2f}% ({100 * r['diff']:+.2f} points"
                     f"{', real' if r['significant'] else ''}); a draw counts as not the fool, so a change in draws "
                     f"moves every fool rate.")
        if "unfinished" in df.index:
            r = df.loc["unfinished"]
            ua, ub = 100 * r["a"], 100 * r["b"]
            text += (f" Unfinished deals (left out of every rate): {ua:.2f}% vs {ub:.2f}% "
                     f"({100 * r['diff']:+.2f} points).")
            if metric not in COUNTS and max(ua, ub) > abs(d):
                text += (f" The unfinished share ({max(ua, ub):.2f}%) is larger than the effect reported "
                         f"({abs(d):.2f} points): had those deals been played out, the answer could differ.")
        return text

    def markdown(self, metric: str | None = None) -> str:
        df = self.table()
        lines = [f"# Comparison: {self.a.label} vs {self.b.label}", "",
                 f"- A: {self.a.rules.describe()}; strategies {', '.join(s.label for s in self.a.seats)}",
                 f"- B: {self.b.rules.describe()}; strategies {', '.join(s.label for s in self.b.seats)}",
                 f"- {int(df['games'].max()):,} paired games on the same deals (seed {self.seed})", "",
                 "## Verdict", "", self.verdict(metric), "", "## All metrics", "",
                 "| metric | A | B | difference [95% interval, unadjusted] | p (Holm-adjusted) | detectable | "
                 "paired narrower by |", "|---|---|---|---|---|---|---|"]
        for k, r in df.iterrows():
            sc = 1 if k in COUNTS else 100
            lines.append(f"| {r['description']} | {sc * r['a']:.3f} | {sc * r['b']:.3f} | "
                         f"{sc * r['diff']:+.3f} [{sc * r['lo']:+.3f}, {sc * r['hi']:+.3f}] | {r['p_holm']:.3g} | "
                         f"{sc * r['mde']:.3f} | {100 * r['narrowing']:.0f}% |")
        lines += ["", "Rates in percent, length in bouts, leftover cards in cards. 'detectable' is the difference this sample would find "
                  "with 80% power at the 5% level. " + interval_note(len(df))]
        return "\n".join(lines) + "\n"

    def write_outputs(self, metric: str | None = None) -> list[Path]:
        out = self.out
        out.mkdir(parents=True, exist_ok=True)
        df = self.table()
        df.reset_index().to_parquet(out / "comparison.parquet", index=False)
        (out / "report.md").write_text(self.markdown(metric))
        meta = {"format": "durak-sim comparison 1", "commit": git_commit(), "seed": self.seed, "games": self.games,
                "rotate": self.rotate, "chunk": self.chunk, "seconds": round(self.seconds, 3),
                "arms": [{"label": arm.label, "family": arm.rules.family, "players": arm.rules.num_players,
                          "toggles": arm.rules.toggles, "strategies": [s.label for s in arm.seats]}
                         for arm in (self.a, self.b)],
                "verdict": self.verdict(metric),
                "provenance": provenance([(arm.rules, tuple(s.label for s in rotate(arm.seats, r)), self.paths)
                                          for arm in (self.a, self.b) for r in range(len(arm.seats))])}
        (out / "metadata.json").write_text(json.dumps(meta, indent=1, default=str))
        plot_comparison(self, out / "comparison.png")
        return [out / "comparison.parquet", out / "report.md", out / "metadata.json", out / "comparison.png"]


# A toggle's subject: the player (or the quantity) the rule is about, the headline of every comparison of it --
# `durak compare` and the settled questions (questions/*.py METRICS[0]) alike; tests/test_settle.py holds them
# to the same row. Listed in order: the first toggle of a comparison found here names its headline.
SUBJECTS = {
    "trump_six_exchange": "six_holder_fool",          # the holder of the trump six, who may exchange it
    "trump_six_exchange_timing": "six_holder_fool",
    "trump_six_beats_trump_ace": "ace_holder_fool",   # the holder of the trump ace, whose ace can now be beaten
    "throw_in_after_take": "first_defender_fool",     # the taker: cards thrown in after 'I take'
    "others_throw_in_timing": "first_defender_fool",
    "transfer_in_first_bout": "first_defender_fool",  # the first defender, who may transfer
    "proezdnoy": "first_defender_fool",
    "proezdnoy_limit": "first_defender_fool",
    "pokaznoy": "first_defender_fool",
    "first_bout_max_attack": "first_defender_fool",   # the first bout's defender, whose load is limited
    "first_bout_limit_scope": "first_defender_fool",
    "partial_defence": "bouts",                       # the length of the game
    "draw_rule": "bouts",
    "no_trump": "draw",                               # draws: no trump, more equal hands
    "draw_possible": "draw",
}


def default_metric(c: Comparison) -> str:
    """The headline of a comparison: a changed line-up's first differing role, else the subject of the first
    changed toggle (SUBJECTS), else the first attacker's fool rate."""
    ta, tb = c.a.rules.toggles, c.b.rules.toggles
    changed = {k for k in set(ta) | set(tb) if ta.get(k) != tb.get(k)}
    if [s.label for s in c.a.seats] != [s.label for s in c.b.seats]:
        k = next(i for i, (x, y) in enumerate(zip(c.a.seats, c.b.seats)) if x != y)
        return f"fool_role{k}"
    return next((m for k, m in SUBJECTS.items() if k in changed), "first_attacker_fool")


def interval_note(m: int) -> str:
    """What the intervals and the verdicts rest on, said once per page."""
    return (f"Intervals are 95% for each metric on its own (not adjusted); 'real' and 'not distinguishable' are "
            f"decided by Holm-adjusted p-values over the {m} metrics compared, so an interval that just excludes "
            f"zero can still be 'not distinguishable'.")


def plot_comparison(c: Comparison, path: Path | None = None):
    import matplotlib.pyplot as plt
    df = c.table().drop(index=list(COUNTS), errors="ignore")
    fig, ax = plt.subplots(figsize=(7, 0.45 * len(df) + 1.5))
    y = np.arange(len(df))
    d = 100 * df["diff"].to_numpy()
    err = 100 * (df["hi"] - df["lo"]).to_numpy() / 2
    ax.errorbar(d, y, xerr=err, fmt="o", capsize=3)
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_yticks(y, df["description"], fontsize=8)
    ax.set_xlabel(f"difference A - B (points), 95% intervals\nA: {c.a.label}   B: {c.b.label}", fontsize=8)
    return finish(fig, path)


PANEL = ("greedy", "expert", "learned")  # weakest first
# the share of a question's deals a panel strategy plays: learned plays two-player podkidnoy at a thirtieth of
# expert's speed (results/strength/README.md), so it plays a twentieth of the deals, its intervals some 4.5 times
# wider: enough to say whether strong play keeps expert's answer, not to measure small effects on its own
SHARE = {"learned": 0.05}


def default_panel() -> list[str]:
    """The line-ups a rule question is answered for by default, weakest first: greedy, expert and the learned
    player (strong play, on SHARE of the deals). The search player joins with `--panel search`: at its default
    budget it plays some 10 games a second on a core, so a settled question's hundreds of thousands of games would
    take days on one machine (run it on a cluster, `--backend dask`, or at a small `--scale`)."""
    have = set(dispatch.discover())
    return [s for s in PANEL if s in have]


def panel_games(name: str, games: int) -> int:
    """The deals panel strategy `name` plays where the others play `games`: its SHARE of them, but never fewer
    than 2,000 (nor more than `games`)."""
    share = SHARE.get(name, 1.0)
    return games if share >= 1 else min(games, max(2000, int(games * share)))


def run_panel(ra: Rules, rb: Rules, label_a: str, label_b: str, names: list[str], seed: int, games: int,
              rotate: bool = True, threads: int | None = None, paths: tuple = (), progress=None) -> dict:
    """The same two rule sets played by each panel strategy in every seat, on the same deals (the first
    `panel_games(name, games)` of them). Returns strategy -> Comparison (run). Used by `durak compare --panel`
    and `durak settle`. progress(comparison) is called before each run (e.g. to attach a progress bar)."""
    results = {}
    for name in names:
        c = Comparison(Arm(label_a, ra, batch.make_lineup(ra, [name], paths)),
                       Arm(label_b, rb, batch.make_lineup(rb, [name], paths)), seed=seed,
                       games=panel_games(name, games),
                       rotate=rotate, threads=threads, paths=tuple(paths))
        if progress:
            progress(c)
        else:
            c.run()
        results[name] = c
    return results


def panel_verdict(results: dict, metric: str) -> str:
    """One sentence: does the answer hold across the panel, or depend on how well people play?
    results: strategy -> Comparison (each arm played by that strategy in every seat)."""
    signs = {}
    for name, c in results.items():
        row = c.table().loc[metric]
        signs[name] = (0 if not row["significant"] else (1 if row["diff"] > 0 else -1), 100 * row["diff"])
    parts = ", ".join(f"{n} {d:+.2f}" + ("" if s else " (no detectable change)") for n, (s, d) in signs.items())
    kinds = {s for s, _ in signs.values()}
    if kinds == {0}:
        head = "The answer holds across the panel: no line-up shows a detectable change"
    elif len(kinds) == 1:
        head = "The answer holds across the panel: every line-up moves the same way"
    elif 0 in kinds and len(kinds) == 2:
        head = "The answer depends on how well people play: the change shows only for some line-ups"
    else:
        head = "The answer depends on how people play: the line-ups move in opposite directions"
    unit = "points" if metric not in COUNTS else UNITS[metric]
    games = {name: c.games for name, c in results.items() if getattr(c, "games", None)}
    deals = "" if len(set(games.values())) < 2 else (
        f" Paired deals: {by_deals(games)} (fewer for the slower players, so their intervals are wider).")
    return f"{head} ({parts} {unit}).{deals}"
