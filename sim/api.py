"""The Python API: every experiment the CLI runs, as functions returning objects, DataFrames and figures.

The `durak` commands parse their options and call these functions, so a notebook gets exactly what the
command line gets. Functions named for a noun (`experiment`, `comparison`) return the plan unplayed, so a
caller can attach progress before `.run()`; the verbs (`run`, `compare`, `tournament`) play it.

    from sim import api
    exp = api.run("prostoy_5", players=2, strategies=["greedy", "random"], games=100_000)
    exp.strategy_table(); api.plot_rates(exp)   # rates as fractions 0-1; api.percent_view(table) shows percent
    c = api.compare("prostoy_5", a={"trump_six_exchange": True}, b={"trump_six_exchange": False})
    print(c.verdict()); c.table()
    t = api.tournament("podkidnoy", ["greedy", "random"], games=20_000); t.ranking(); t.heatmap()
    a = api.atlas("results/atlas", scale="small"); a.estimate(); a.run(); api.atlas_site(a.out)
    print("\\n".join(api.replay("podkidnoy", players=3, seed=1, game=0)))
"""
from __future__ import annotations

from sim.core import engine as E
from sim.core import rules as R
from sim.experiments import batch
from sim.experiments.batch import ExperimentError, IllegalMoveError, LineupError
from sim.experiments.experiment import Experiment, percent_view, resume
from sim.experiments.experiment import experiment as _experiment
from sim.experiments.paired import rotate

# The rest loads on first use (PEP 562's module __getattr__): its modules import pandas, matplotlib and jinja2,
# which `durak run` does not need to play and print --json (pandas alone was a third of a short run's time).
_LATER = {"Atlas": "atlas", "Arm": "compare", "Comparison": "compare", "default_metric": "compare",
          "default_panel": "compare", "panel_verdict": "compare", "plot_comparison": "compare", "markdown": "report",
          "plot_lengths": "report", "plot_rates": "report", "text": "report", "questions": "settle",
          "write_index": "settle", "Tournament": "tournament"}


def __getattr__(name: str):
    where = _LATER.get(name)
    if where == "atlas":
        from sim.experiments import atlas as module
    elif where == "compare":
        from sim.experiments import compare as module
    elif where == "report":
        from sim.experiments import report as module
    elif where == "settle":
        from sim.experiments import settle as module
    elif where == "tournament":
        from sim.experiments import tournament as module
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(module, name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))


__all__ = ["Arm", "Atlas", "Comparison", "Experiment", "ExperimentError", "IllegalMoveError", "LineupError",
           "Tournament", "arms", "atlas", "atlas_site", "check", "compare", "comparison", "default_metric",
           "default_panel", "experiment", "first_error", "hint", "judge", "markdown", "panel", "panel_verdict", "percent_view", "play",
           "plot_comparison", "plot_lengths", "plot_rates", "questions", "replay", "resume", "rules_table", "run",
           "settle", "tell", "text", "tournament", "traces", "tracked_results", "write_index"]


def _labels(labels, a, b, a_family, b_family) -> tuple[str, str]:
    """The arms' labels: as given, else each arm's toggles (name=value), else its preset, else A / B."""
    if labels:
        return tuple(labels)
    said = [", ".join(f"{k}={R.format_value(v)}" for k, v in (t or {}).items()) for t in (a, b)]
    return said[0] or a_family or "A", said[1] or b_family or "B"


def experiment(family: str | R.Rules = "podkidnoy", players: int = 2, toggles: dict | None = None,
               strategies=("greedy",), games: int | None = 100_000, seed: int = 1, **kw) -> Experiment:
    """An experiment planned, not yet played (seat rotation on by default): `.run()` plays it. `family`
    is a preset name (with `players` and `toggles`) or rules already resolved."""
    return _experiment(family, players, toggles, strategies, games=games, seed=seed, **kw)


def run(family: str = "podkidnoy", players: int = 2, toggles: dict | None = None, strategies=("greedy",),
        games: int | None = 100_000, seed: int = 1, **kw) -> Experiment:
    """Play an experiment and return it: tables via its methods."""
    return experiment(family, players, toggles, strategies, games=games, seed=seed, **kw).run()


def arms(family: str = "podkidnoy", players: int = 2, a: dict | None = None, b: dict | None = None,
         toggles: dict | None = None, a_family: str | None = None, b_family: str | None = None) -> tuple:
    """The two rule sets of a comparison: toggle dicts a, b on top of `toggles`, each arm's own preset or
    `family`."""
    ra = R.resolve(a_family or family, players, {**(toggles or {}), **(a or {})})
    rb = R.resolve(b_family or family, players, {**(toggles or {}), **(b or {})})
    return ra, rb


def comparison(family: str = "podkidnoy", players: int = 2, a: dict | None = None, b: dict | None = None,
               strategies=("greedy",), a_strategies=None, b_strategies=None, toggles: dict | None = None,
               games: int = 200_000, seed: int = 1, labels=None, paths=(), a_family: str | None = None,
               b_family: str | None = None, **kw) -> Comparison:
    """Two rule sets or two line-ups on the same deals, planned, not yet played: `.run()` plays it."""
    from sim.experiments.compare import Arm, Comparison
    ra, rb = arms(family, players, a, b, toggles, a_family, b_family)
    la, lb = _labels(labels, a, b, a_family, b_family)
    arm_a = Arm(la, ra, batch.make_lineup(ra, a_strategies or strategies, paths))
    arm_b = Arm(lb, rb, batch.make_lineup(rb, b_strategies or strategies, paths))
    return Comparison(arm_a, arm_b, seed=seed, games=games, paths=tuple(paths), **kw)


def compare(*args, **kw) -> Comparison:
    """`comparison(...)` played: its verdict, table and plot via its methods."""
    return comparison(*args, **kw).run()


def panel(family: str = "podkidnoy", players: int = 2, a: dict | None = None, b: dict | None = None,
          strategies=("default",), toggles: dict | None = None, games: int = 200_000, seed: int = 1,
          labels=None, paths=(), a_family: str | None = None, b_family: str | None = None, progress=None,
          **kw) -> dict:
    """The same question once per panel strategy, each playing every seat ('default' = greedy, expert, learned,
    learned on compare.SHARE of the games): strategy -> played Comparison. `panel_verdict(result, metric)` says
    whether the answer holds across it."""
    from sim.experiments import compare as _compare
    names = [x for s in strategies for x in (_compare.default_panel() if s == "default" else [s])]
    ra, rb = arms(family, players, a, b, toggles, a_family, b_family)
    la, lb = _labels(labels, a, b, a_family, b_family)
    return _compare.run_panel(ra, rb, la, lb, names, seed, games, paths=tuple(paths), progress=progress, **kw)


def tournament(family: str, strategies, players: int = 2, toggles: dict | None = None, games: int = 20_000,
               seed: int = 1, play: bool = True, paths=(), **kw) -> Tournament:
    """A round robin (played unless play=False): ranking, matrix and heatmap via its methods."""
    from sim.experiments.tournament import Tournament
    for s in strategies:
        batch.parse_strategy(s, paths)  # an unknown name is named before any game is played
    t = Tournament(R.resolve(family, players, toggles or {}), list(strategies), games=games, seed=seed,
                   paths=tuple(paths), **kw)
    return t.run() if play else t


def traces(family: str = "podkidnoy", players: int = 2, toggles: dict | None = None, strategies=("greedy",),
           seed: int = 1, game: int = 0, rotation: int = 0, deals: int = 1, paths=()) -> tuple[list, list]:
    """The referee-format traces of one series of a run (its seed, game and seat rotation), and the seat
    labels in the order played."""
    rules = R.resolve(family, players, toggles or {})
    lineup = rotate(batch.make_lineup(rules, strategies, paths), rotation)
    return batch.Runner(rules, lineup, paths).trace(seed, game, deals), [s.label for s in lineup]


def tell(trace: dict, labels) -> list[str]:
    """A trace told move by move (lines of text), ending with the result, or with why there is none."""
    from sim.referee.narrate import narrate  # the referee loads only for the commands that use it
    lines = narrate(trace, list(labels))
    if not any(line.startswith("game over") for line in lines):
        if lines and lines[-1].startswith("bout "):  # the bout that was never played
            lines.pop()
        lines.append(f"deal unfinished: no result after {trace['result']['bouts']:,} bouts; it is stopped and "
                     "recorded as unfinished (RUL-22)")
    return lines


def replay(family: str = "podkidnoy", players: int = 2, toggles: dict | None = None, strategies=("greedy",),
           seed: int = 1, game: int = 0, rotation: int = 0, paths=()) -> list[str]:
    """One game told move by move (lines of text)."""
    found, labels = traces(family, players, toggles, strategies, seed, game, rotation, 1, paths)
    return tell(found[0], labels)


def first_error(family: str = "podkidnoy", players: int = 2, toggles: dict | None = None, strategies=("greedy",),
                seed: int = 1, game: int = 0, rotation: int = 0, deals: int = 1, paths=()) -> dict | None:
    """Where a series' first illegal move happened, trying the given seat rotation first and then the
    others: {"lines": the position, the move and the seat in words, "document": the position in the judge's
    format, "rotation": r}; None when every rotation plays legally."""
    from sim.referee import at_error as AE
    rules = R.resolve(family, players, toggles or {})
    seats = batch.make_lineup(rules, strategies, paths)
    for r in [rotation] + [r for r in range(players) if r != rotation]:
        lineup = rotate(seats, r)
        found, raw = AE.traced_with_error(batch.Runner(rules, lineup, paths), seed, game, deals)
        bad = [d for d in range(len(found)) if raw[d, E.F_ERROR]]
        if bad:
            where = AE.at_error(found[bad[0]], raw[bad[0]], [s.label for s in lineup])
            return {"lines": AE.describe(where), "document": AE.judge_document(where), "rotation": r}
    return None


def settle(name: str, scale: float = 1.0, seed: int = 2026, threads: int | None = None, root=None,
           panel: list[str] | None = None, paths=(), **kw):
    """Regenerate a settled question into `root` (default: the repository's tracked results/, with its
    index): the folder it wrote."""
    from sim.experiments import settle as _settle
    return _settle.settle(name, scale=scale, seed=seed, threads=threads, root=tracked_results() if root is None
                          else root, panel=panel, paths=paths, **kw)


def check(root=None, names=None, paths=()) -> list:
    """(question, reasons it is stale, notes) for the settled answers in `root` (default: the tracked ones)."""
    from sim.experiments import settle as _settle
    return _settle.check(tracked_results() if root is None else root, names, paths)


def tracked_results():
    """The repository's results/ folder, which `settle --write-results` writes."""
    from sim.experiments import settle as _settle
    return _settle.RESULTS


def judge(document: dict) -> dict:
    """The referee's ruling on a position and action in the judge's format (docs/positions.md):
    legal or not, why, and the position after it. `referee.format_judgement(result)` says it in words."""
    from sim import referee
    return referee.judge(document)


def hint(document: dict, samples: int = 1000, playout: str = "expert", seed: int = 0, **kw) -> dict:
    """Every legal action at a position (the judge's format, other hands possibly hidden) with the fool
    probability of the player to act over `samples` sampled deals, best first."""
    from sim.experiments import hint as _hint
    return _hint.hint(document, samples=samples, playout=1 if playout == "expert" else 0, seed=seed, **kw)


def play(family: str = "podkidnoy", players: int = 2, toggles: dict | None = None, seat: int = 0,
         strategies=("expert",), seed: int = 1, games: int = 1, ascii_only: bool = False,
         hint_samples: int = 300) -> None:
    """Play deals in the terminal against library strategies (moves are numbered, '?' asks for a hint)."""
    from sim.experiments import play as _play
    _play.run(R.resolve(family, players, toggles or {}), seat, list(strategies), seed, games, ascii_only,
              hint_samples=hint_samples)


def rules_table() -> pd.DataFrame:
    """Every toggle with its values and each preset's default."""
    import pandas as pd
    rows = []
    for t in R.toggle_table():
        row = {"toggle": t["toggle"], "values": " | ".join(t["values"]), "rule": t["rule"]}
        for f in R.FAMILIES:
            row[f] = t["defaults"].get(f, "")
        rows.append(row)
    return pd.DataFrame(rows).set_index("toggle")


def atlas(out, scale="small", seed: int = 1, panel=(), players=(), families=(), rules=(),
          threads: int | None = None) -> Atlas:
    """The rule atlas planned, not yet played: every toggle value and played variant against its family's
    default, per player count and panel level (default: greedy, expert), in the folder `out`. `.estimate()`
    says what it costs, `.run()` plays the cells not yet in the folder (so a stopped atlas resumes), `.table()`
    reads them; `atlas_site(out)` builds the pages."""
    from sim.experiments import atlas as _atlas
    return _atlas.Atlas(out, scale=scale, seed=seed, panel=tuple(panel), players=tuple(players) or _atlas.PLAYERS,
                        families=tuple(families) or R.FAMILIES, rules=tuple(rules), threads=threads)


def atlas_site(folder, out=None):
    """Build the static site of an atlas folder (index, a page per rule, my table); returns the index path."""
    from sim.experiments import atlas_site as _atlas_site
    return _atlas_site.build(folder, out)
