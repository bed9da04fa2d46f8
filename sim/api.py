"""The Python API for notebooks: the CLI's experiments as functions returning DataFrames and figures.

    from sim import api
    exp = api.run("prostoy_5", players=2, strategies=["greedy", "random"], games=100_000)
    exp.strategy_table(); api.plot_rates(exp)   # rates as fractions 0-1; api.percent_view(table) shows percent
    c = api.compare("prostoy_5", a={"trump_six_exchange": True}, b={"trump_six_exchange": False})
    print(c.verdict()); c.table()
    t = api.tournament("podkidnoy", ["greedy", "random"], games=20_000); t.ranking(); t.heatmap()
    print("\\n".join(api.replay("podkidnoy", players=3, seed=1, game=0)))
"""
from __future__ import annotations

import pandas as pd

from sim.experiments import batch
from sim.core import rules as R
from sim.experiments.compare import Arm, Comparison, plot_comparison  # noqa: F401  (re-exported)
from sim.experiments.experiment import Experiment, experiment, percent_view, resume  # noqa: F401  (re-exported)
from sim.referee.narrate import narrate
from sim.experiments.report import markdown, plot_lengths, plot_rates, text  # noqa: F401  (re-exported)
from sim.experiments.tournament import Tournament


def run(family: str = "podkidnoy", players: int = 2, toggles: dict | None = None, strategies=("greedy",),
        games: int | None = 100_000, seed: int = 1, **kw) -> Experiment:
    """Play an experiment (seat rotation on by default) and return it: tables via its methods."""
    return experiment(family, players, toggles, strategies, games=games, seed=seed, **kw).run()


def compare(family: str = "podkidnoy", players: int = 2, a: dict | None = None, b: dict | None = None,
            strategies=("greedy",), a_strategies=None, b_strategies=None, toggles: dict | None = None,
            games: int = 200_000, seed: int = 1, labels=None, paths=(), **kw) -> Comparison:
    """Two rule sets (toggle dicts a, b on top of `toggles`) or line-ups on the same deals."""
    ra = R.resolve(family, players, {**(toggles or {}), **(a or {})})
    rb = R.resolve(family, players, {**(toggles or {}), **(b or {})})
    la = labels[0] if labels else (", ".join(f"{k}={R.format_value(v)}" for k, v in (a or {}).items()) or "A")
    lb = labels[1] if labels else (", ".join(f"{k}={R.format_value(v)}" for k, v in (b or {}).items()) or "B")
    arm_a = Arm(la, ra, batch.make_lineup(ra, a_strategies or strategies, paths))
    arm_b = Arm(lb, rb, batch.make_lineup(rb, b_strategies or strategies, paths))
    return Comparison(arm_a, arm_b, seed=seed, games=games, paths=tuple(paths), **kw).run()


def tournament(family: str, strategies, players: int = 2, toggles: dict | None = None, games: int = 20_000,
               seed: int = 1, **kw) -> Tournament:
    return Tournament(R.resolve(family, players, toggles or {}), list(strategies), games=games, seed=seed,
                      **kw).run()


def replay(family: str = "podkidnoy", players: int = 2, toggles: dict | None = None, strategies=("greedy",),
           seed: int = 1, game: int = 0) -> list[str]:
    """One game told move by move (lines of text)."""
    rules = R.resolve(family, players, toggles or {})
    seats = batch.make_lineup(rules, strategies)
    trace = batch.Runner(rules, seats).trace(seed, game)[0]
    return narrate(trace, [s.label for s in seats])


def rules_table() -> pd.DataFrame:
    """Every toggle with its values and each preset's default."""
    rows = []
    for t in R.toggle_table():
        row = {"toggle": t["toggle"], "values": " | ".join(t["values"]), "rule": t["rule"]}
        for f in R.FAMILIES:
            row[f] = t["defaults"].get(f, "")
        rows.append(row)
    return pd.DataFrame(rows).set_index("toggle")
