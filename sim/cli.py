"""The `durak` command line: run experiments, rule on positions, benchmark the core."""
from __future__ import annotations

import json
import os
import resource
import sys
import time

import click

from sim import rules as R

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


class Fail(click.ClickException):
    """A clear one-line error instead of a traceback."""


def _rules(preset, players, toggles) -> R.Rules:
    try:
        return R.resolve(preset, players, R.parse_toggle_args(toggles))
    except R.RulesError as e:
        raise Fail(str(e)) from None


@click.group(context_settings=CONTEXT)
@click.version_option(package_name="durak-sim")
def main():
    """durak-sim: settle Durak arguments by playing millions of games."""


@main.command()
@click.option("--rules", "preset", default="podkidnoy", show_default=True,
              help=f"Rules preset: {', '.join(R.FAMILIES)}.")
@click.option("--toggle", "toggles", multiple=True, metavar="NAME=VALUE",
              help="House rule toggle (repeatable); `durak rules` lists them.")
@click.option("--players", default=2, show_default=True, help="Number of players, 2 to 6.")
@click.option("--strategy", "strategies", multiple=True, metavar="NAME[:k=v,...]",
              help="Strategy for all seats (once) or per seat (once per seat). Default: greedy.")
@click.option("--strategy-path", "paths", multiple=True, type=click.Path(file_okay=False),
              help="A folder of your own strategy files.")
@click.option("--games", default=100_000, show_default=True, help="Number of games (deals).")
@click.option("--seed", default=1, show_default=True, help="Master seed: the same seed gives the same games.")
@click.option("--threads", default=0, help="Threads (default: all cores). Results do not depend on it.")
@click.option("--deals-per-series", default=1, show_default=True,
              help="Deals per series: later deals use the later-deal dealer and first-attacker rules.")
@click.option("--json", "as_json", is_flag=True, help="Print a machine-readable summary.")
def run(preset, toggles, players, strategies, paths, games, seed, threads, deals_per_series, as_json):
    """Play GAMES games and print win (escaped), draw and fool rates per seat."""
    from sim import batch, report
    from sim.dispatch import StrategyError
    rules = _rules(preset, players, toggles)
    if games < 1:
        raise Fail("--games must be at least 1")
    if deals_per_series < 1:
        raise Fail("--deals-per-series must be at least 1")
    try:
        res = batch.run(rules, strategies, games=games, seed=seed, threads=threads or None,
                        deals_per_series=deals_per_series, paths=paths)
    except (batch.LineupError, StrategyError, batch.IllegalMoveError) as e:
        raise Fail(str(e)) from None
    if as_json:
        click.echo(json.dumps(report.summary(res), indent=1, default=str))
    else:
        click.echo(report.text_report(res))


@main.command()
@click.argument("file", type=click.File("r"))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def judge(file, as_json):
    """Rule on a position: is the action in FILE legal, and what happens then?

    FILE holds `family`, `toggles`, `position` and `action` in the format of
    shared/examples/positions.json (a file with an `examples` list is judged example by example).
    """
    from sim import referee
    try:
        doc = json.load(file)
    except json.JSONDecodeError as e:
        raise Fail(f"{file.name} is not valid JSON: {e}") from None
    docs = doc["examples"] if isinstance(doc, dict) and "examples" in doc else [doc]
    results = []
    for d in docs:
        try:
            results.append(referee.judge(d))
        except (R.RulesError, referee.RefereeError, KeyError, ValueError, TypeError) as e:
            raise Fail(f"cannot judge {d.get('id', file.name) if isinstance(d, dict) else file.name}: {e}") from None
    if as_json:
        click.echo(json.dumps(results[0] if len(results) == 1 else results, indent=1, default=str))
    else:
        for d, r in zip(docs, results):
            if len(docs) > 1:
                click.echo(f"== {d.get('id', '?')}: {d.get('question', '')}")
            click.echo(referee.format_judgement(r))


@main.command("rules")
@click.option("--json", "as_json", is_flag=True)
def rules_cmd(as_json):
    """List the presets and every toggle with its values and each preset's default."""
    table = R.toggle_table()
    if as_json:
        click.echo(json.dumps({"presets": R.FAMILY_DOC, "toggles": table}, indent=1))
        return
    for f, doc in R.FAMILY_DOC.items():
        click.echo(f"{f:<12} {doc}")
    click.echo("")
    for t in table:
        click.echo(f"{t['toggle']}  ({t['rule']})\n    {t['doc']}\n    values: {' | '.join(t['values'])}")
        click.echo("    defaults: " + ", ".join(f"{f}={v}" for f, v in t["defaults"].items()))


BENCH_CASES = (
    ("podkidnoy", 2, "greedy"),
    ("podkidnoy", 4, "greedy"),
    ("prostoy_5", 2, "greedy"),
    ("perevodnoy", 3, "greedy"),
    ("podkidnoy", 2, "random"),
)


@main.command()
@click.option("--games", default=1_000_000, show_default=True, help="Games per measurement.")
@click.option("--threads", default=0, help="Threads for the all-cores line (default: all cores).")
@click.option("--json", "as_json", is_flag=True)
def bench(games, threads, as_json):
    """Games per second of the compiled core (compile time reported apart) and peak memory."""
    from sim import batch
    threads = threads or os.cpu_count() or 1
    rows = []
    for fam, n, strat in BENCH_CASES:
        rules = R.resolve(fam, n)
        t0 = time.perf_counter()
        runner = batch.Runner(rules, batch.make_lineup(rules, [strat]))
        runner.play_raw(0, 0, 10)
        compile_s = time.perf_counter() - t0
        for th in sorted({1, threads}):
            res = batch.run(rules, [strat], games=games, seed=12345, threads=th)
            rows.append({"case": f"{fam} {n}p {strat}", "threads": th, "games": res.tally.games,
                         "seconds": round(res.seconds, 3), "games_per_s": round(res.tally.games / res.seconds),
                         "per_core": round(res.tally.games / res.seconds / th), "compile_or_load_s": round(compile_s, 2)})
            if not as_json:
                r = rows[-1]
                click.echo(f"{r['case']:<26} threads={th}  {r['games_per_s']:>12,} games/s  "
                           f"({r['per_core']:,}/core)  compile/load {r['compile_or_load_s']} s")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if as_json:
        click.echo(json.dumps({"cases": rows, "peak_rss_mb": round(peak_mb, 1)}, indent=1))
    else:
        click.echo(f"peak memory (RSS): {peak_mb:.0f} MB")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
