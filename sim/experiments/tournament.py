"""Round robin among strategies: head-to-head matrix and a Bradley-Terry ranking with intervals.

Every pair plays `games` games with the two strategies on alternate seats, rotated through the
seats on the same deals. A game scores 1 for the side whose opponents hold the fool, 0 for the
fool's side and 1/2 for a draw. Bradley-Terry strengths are fitted to the pairwise scores
(Hunter's MM algorithm) and shown as Elo-like ratings; their 95% intervals come from a
parametric bootstrap of the pairwise results.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd

from sim.experiments import batch
from sim.experiments.experiment import Experiment
from sim.core.rules import Rules
from sim.experiments.report import finish
from sim.experiments.stats import wilson


@dataclass
class Tournament:
    rules: Rules
    strategies: list[str]
    games: int = 20_000
    seed: int = 1
    threads: int | None = None
    paths: tuple = ()
    pairs: dict = field(default_factory=dict)  # (i, j) -> (wins_i, wins_j, draws, games)
    seconds: float = 0.0

    def provenance(self) -> dict:
        """The commit, every entrant's code digest and the rules (sim.experiments.provenance), for metadata.json."""
        from sim.experiments.provenance import provenance
        labels = tuple(batch.parse_strategy(x, self.paths).label for x in self.strategies)
        return provenance([(self.rules, labels, tuple(str(p) for p in self.paths))])

    def run(self, progress=None) -> "Tournament":
        n = self.rules.num_players
        if len(set(self.strategies)) < 2:
            raise batch.LineupError("a tournament needs at least two different strategies")
        done = 0
        total = self.games * len(self.strategies) * (len(self.strategies) - 1) // 2
        for i, j in combinations(range(len(self.strategies)), 2):
            specs = [self.strategies[i] if s % 2 == 0 else self.strategies[j] for s in range(n)]
            seats = batch.make_lineup(self.rules, specs, self.paths)
            names = tuple(batch.parse_strategy(x, self.paths).name for x in self.strategies)
            exp = Experiment(self.rules, seats, seed=self.seed, games=self.games, threads=self.threads,
                             paths=self.paths, also=names).run()
            self.seconds += exp.seconds
            wi = wj = dr = g = 0
            for lu, t in zip(exp.lineups, exp.tallies):
                side_i = [s for s in range(n) if lu[s] == seats[0]]
                side_j = [s for s in range(n) if lu[s] != seats[0]]
                fool_i = sum(int(t.fool[s]) for s in side_i)  # one fool per game (no teams here)
                fool_j = sum(int(t.fool[s]) for s in side_j)
                wi += fool_j
                wj += fool_i
                dr += t.finished - fool_i - fool_j
                g += t.finished
            self.pairs[(i, j)] = (wi, wj, dr, g)
            done += self.games
            if progress:
                progress(done, total)
        return self

    def matrix(self) -> pd.DataFrame:
        """Score rate of the row strategy against the column strategy."""
        k = len(self.strategies)
        m = np.full((k, k), np.nan)
        for (i, j), (wi, wj, dr, g) in self.pairs.items():
            m[i, j] = (wi + dr / 2) / g
            m[j, i] = (wj + dr / 2) / g
        return pd.DataFrame(m, index=self.strategies, columns=self.strategies)

    def head_to_head(self) -> pd.DataFrame:
        rows = []
        for (i, j), (wi, wj, dr, g) in self.pairs.items():
            lo, hi = wilson(wi + dr / 2, g)
            rows.append({"strategy": self.strategies[i], "opponent": self.strategies[j], "games": g,
                         "wins": wi, "losses": wj, "draws": dr, "score": (wi + dr / 2) / g,
                         "score_lo": float(lo), "score_hi": float(hi)})
        return pd.DataFrame(rows)

    def ranking(self, bootstrap: int = 200) -> pd.DataFrame:
        k = len(self.strategies)
        w = np.zeros((k, k))
        for (i, j), (wi, wj, dr, g) in self.pairs.items():
            w[i, j] = wi + dr / 2
            w[j, i] = wj + dr / 2
        rating = _elo(bradley_terry(w))
        rng = np.random.default_rng(self.seed)
        boots = []
        for _ in range(bootstrap):
            wb = np.zeros((k, k))
            for (i, j), (wi, wj, dr, g) in self.pairs.items():
                p = (wi + dr / 2) / g
                x = rng.binomial(g, p)
                wb[i, j], wb[j, i] = x, g - x
            boots.append(_elo(bradley_terry(wb)))
        boots = np.array(boots)
        lo, hi = np.percentile(boots, [2.5, 97.5], axis=0)
        df = pd.DataFrame({"rating": rating, "rating_lo": lo, "rating_hi": hi}, index=self.strategies)
        df.index.name = "strategy"
        return df.sort_values("rating", ascending=False)

    def markdown(self) -> str:
        rk = self.ranking()
        lines = [f"# Tournament: {self.rules.describe()}", "",
                 f"- {self.games:,} games per pair, strategies on alternate seats, rotated, same deals "
                 f"(seed {self.seed})", "- score: 1 when the opponents hold the fool, 1/2 for a draw", "",
                 "## Ranking (Bradley-Terry, Elo scale, 95% bootstrap intervals)", "",
                 "| strategy | rating | 95% interval |", "|---|---|---|"]
        for s, r in rk.iterrows():
            lines.append(f"| {s} | {r['rating']:.0f} | [{r['rating_lo']:.0f}, {r['rating_hi']:.0f}] |")
        lines += ["", "## Head to head (score of the row against the column)", ""]
        m = self.matrix()
        lines.append("| | " + " | ".join(m.columns) + " |")
        lines.append("|---" * (len(m.columns) + 1) + "|")
        for s, row in m.iterrows():
            lines.append(f"| {s} | " + " | ".join("" if np.isnan(v) else f"{100 * v:.1f}%" for v in row) + " |")
        lines += ["", "## Pairs", "", "| strategy | opponent | games | wins | losses | draws | score [95%] |",
                  "|---|---|---|---|---|---|---|"]
        for _, r in self.head_to_head().iterrows():
            lines.append(f"| {r['strategy']} | {r['opponent']} | {r['games']:,} | {r['wins']:,} | {r['losses']:,} | "
                         f"{r['draws']:,} | {100 * r['score']:.2f}% [{100 * r['score_lo']:.2f}, "
                         f"{100 * r['score_hi']:.2f}] |")
        return "\n".join(lines) + "\n"

    def write_outputs(self, folder) -> Path:
        """report.md, pairs.parquet, heatmap.png and metadata.json in `folder` (made if missing)."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "report.md").write_text(self.markdown())
        self.head_to_head().to_parquet(folder / "pairs.parquet", index=False)
        self.heatmap(folder / "heatmap.png")
        (folder / "metadata.json").write_text(json.dumps(
            {"family": self.rules.family, "players": self.rules.num_players, "toggles": self.rules.toggles,
             "strategies": list(self.strategies), "games_per_pair": self.games, "seed": self.seed}, indent=1,
            default=str))
        return folder

    def heatmap(self, path=None):
        import matplotlib.pyplot as plt
        m = self.matrix()
        fig, ax = plt.subplots(figsize=(1.1 * len(m) + 2.5, 1.0 * len(m) + 1.8))
        im = ax.imshow(100 * m.to_numpy(), cmap="RdBu", vmin=0, vmax=100)
        ax.set_xticks(range(len(m)), m.columns, rotation=30, ha="right")
        ax.set_yticks(range(len(m)), m.index)
        for i in range(len(m)):
            for j in range(len(m)):
                v = m.iat[i, j]
                if not np.isnan(v):
                    ax.text(j, i, f"{100 * v:.0f}", ha="center", va="center", fontsize=8)
        fig.colorbar(im, ax=ax, label="score of row vs column (%)")
        ax.set_title(self.rules.describe(), fontsize=9)
        return finish(fig, path)


def bradley_terry(w: np.ndarray, iters: int = 2000, tol: float = 1e-10) -> np.ndarray:
    """Strengths p (geometric mean 1) from a matrix of (fractional) wins w[i, j] of i over j."""
    k = len(w)
    n = w + w.T
    p = np.ones(k)
    wins = w.sum(axis=1) + 1e-9
    for _ in range(iters):
        denom = np.array([sum(n[i, j] / (p[i] + p[j]) for j in range(k) if j != i and n[i, j] > 0)
                          for i in range(k)])
        new = wins / np.maximum(denom, 1e-300)
        new /= np.exp(np.mean(np.log(new)))
        if np.max(np.abs(new - p)) < tol:
            p = new
            break
        p = new
    return p


def _elo(p: np.ndarray) -> np.ndarray:
    return 400 * np.log10(p)
