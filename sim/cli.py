"""The `durak` command line: run experiments, rule on positions, benchmark the core."""
from __future__ import annotations

import functools
import json
import math
import os
import resource
import sys
import time
from pathlib import Path

import click

from sim.core import rules as R
from sim.experiments import backends

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def _backend_options(command):
    """--backend and --scheduler for a click command; the command body runs with that backend active."""
    @click.option("--backend", type=click.Choice(["threads", "dask"]), default=None,
                  help="Where games run: threads in this process (default), or a Dask cluster (a local one of "
                       f"--threads processes unless --scheduler; needs {backends.DASK_INSTALL}). Results do not depend "
                       "on it.")
    @click.option("--scheduler", default=None, metavar="ADDRESS",
                  help="Address of a running Dask scheduler, e.g. tcp://10.0.0.5:8786 (implies --backend dask; "
                       "default with --backend dask: $DURAK_SCHEDULER, else a local cluster).")
    @functools.wraps(command)
    def wrapper(*args, backend, scheduler, **kw):
        if backend is None:
            backend = "dask" if scheduler else "threads"
        try:
            b = backends.make_backend(backend, scheduler, kw.get("threads") or None)
        except backends.BackendError as e:
            raise click.ClickException(str(e)) from None
        try:
            with backends.use(b):
                return command(*args, **kw)
        except backends.BackendError as e:
            raise click.ClickException(str(e)) from None
        finally:
            b.close()
    return wrapper


class Fail(click.ClickException):
    """A clear one-line error instead of a traceback."""


# ---- option types: every value is checked at the edge, the message names option, value and what is allowed
SEED_MAX = 2**63 - 1   # seeds and indices are 64-bit integers in the compiled core
GAMES_MAX = 10**12     # more games than any machine plays; beyond this a typo is likelier than a plan


class Whole(click.ParamType):
    """A whole number in [lo, hi] (hi None: no upper bound); `what` says what is allowed."""
    name = "integer"

    def __init__(self, lo: int, hi: int | None = None, what: str | None = None):
        self.lo, self.hi = lo, hi
        self.what = what or (f"a whole number from {lo:,} to {hi:,}" if hi is not None else
                             f"a whole number of at least {lo:,}")

    def convert(self, value, param, ctx):
        if isinstance(value, bool):
            self.fail(f"{value!r}: expected {self.what}", param, ctx)
        if isinstance(value, int):
            v = value
        else:
            text = str(value).strip().replace("_", "").replace(",", "")
            try:
                v = int(text)
            except ValueError:
                v = _exact_float_int(text)  # 1e6 is a whole number too
                if v is None:
                    self.fail(f"{value!r} is not {self.what}", param, ctx)
        if v < self.lo or (self.hi is not None and v > self.hi):
            self.fail(f"{value} is out of range: expected {self.what}", param, ctx)
        return v


def _exact_float_int(text: str) -> int | None:
    try:
        f = float(text)
    except ValueError:
        return None
    return int(f) if math.isfinite(f) and f.is_integer() else None


class Real(click.ParamType):
    """A finite real number with lo < x <= hi (or lo < x < hi with hi_open)."""
    name = "number"

    def __init__(self, lo: float, hi: float, what: str, hi_open: bool = False):
        self.lo, self.hi, self.what, self.hi_open = lo, hi, what, hi_open

    def convert(self, value, param, ctx):
        try:
            v = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number; expected {self.what}", param, ctx)
        if not math.isfinite(v) or v <= self.lo or v > self.hi or (self.hi_open and v == self.hi):
            self.fail(f"{value} is out of range: expected {self.what}", param, ctx)
        return v


SEED = Whole(0, SEED_MAX, "a whole number from 0 to 2^63-1")
GAMES = Whole(1, GAMES_MAX, "a whole number of games from 1 to 10^12")
PLAYERS = Whole(2, 6, "2 to 6 players")
THREADS = Whole(0, 1024, "0 (all cores) or a number of threads from 1 to 1024")
REPLAY_DEALS_MAX = 50  # one trace buffer holds every action of the series told
THREADS_HELP = "Threads; 0 (the default) means all cores. Results do not depend on it."


def _writable_folder(ctx, param, value):
    """--out: refuse at once a folder that cannot be created or written (nothing is created here)."""
    if value is None:
        return None
    p = Path(value).expanduser()
    if p.exists() and not p.is_dir():
        raise click.BadParameter(f"{value} exists and is not a folder", ctx, param)
    probe = p
    while not probe.exists():
        probe = probe.parent
    if not probe.is_dir() or not os.access(probe, os.W_OK | os.X_OK) or _read_only_fs(probe):
        raise click.BadParameter(f"cannot write a folder at {value} ({probe} is not writable)", ctx, param)
    return p


def _read_only_fs(p: Path) -> bool:
    """Virtual or read-only file systems (/proc, /sys) pass os.access as root but refuse new files."""
    try:
        st = os.statvfs(p)
    except OSError:
        return True
    return bool(st.f_flag & os.ST_RDONLY) or str(p.resolve()).split("/")[1:2] in (["proc"], ["sys"])


def _message(e: BaseException) -> str:
    """An exception as one line of plain words: no class names, no reprs of keys."""
    if isinstance(e, OSError):
        what = e.filename or ""
        return f"{what}: {e.strerror or e}".strip(": ") if what else (e.strerror or str(e))
    if isinstance(e, KeyError) and e.args:
        return f"missing {e.args[0]!r}"
    text = " ".join(str(e).split()) or "an unexpected problem"
    return text


def _loaded_errors() -> tuple:
    """The project's error types of the modules this command loaded: a command that never imported the referee
    cannot raise its errors, so the error path imports nothing (importing it would cost every command)."""
    where = (("sim.core.dispatch", "StrategyError"), ("sim.referee.game", "RefereeError"))
    return tuple(getattr(sys.modules[m], name) for m, name in where if m in sys.modules)


class DurakGroup(click.Group):
    """The one error path of every command: expected problems become a one-line `Error: ...`."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort, KeyboardInterrupt, SystemExit):
            raise
        except BrokenPipeError:  # `durak ... | head`: the reader has gone, nothing to say
            sys.stderr.close()
            raise SystemExit(0) from None
        except (R.RulesError, ValueError, OSError, RuntimeError, *_loaded_errors()) as e:
            if os.environ.get("DURAK_DEBUG"):
                raise
            raise Fail(_message(e)) from None
        except Exception as e:  # a bug: still no traceback for the user, but say how to get one
            if os.environ.get("DURAK_DEBUG"):
                raise
            raise Fail(f"unexpected problem: {_message(e)} (set DURAK_DEBUG=1 to see where)") from None


def _rules(preset, players, toggles) -> R.Rules:
    try:
        return R.resolve(preset, players, R.parse_toggle_args(toggles))
    except R.RulesError as e:
        raise Fail(str(e)) from None


@click.group(cls=DurakGroup, context_settings=CONTEXT)
@click.version_option(package_name="durak-sim")
def main():
    """durak-sim: settle Durak arguments by playing millions of games."""
    from sim.experiments.batch import arm_watchdog
    arm_watchdog()
    # The command line only writes plot files: pick the file backend here, never in library code (a notebook
    # keeps Jupyter's inline backend). Respect a backend the user chose with MPLBACKEND. Through the environment,
    # which matplotlib reads when it is imported: a command that draws nothing does not import it.
    if not os.environ.get("MPLBACKEND"):
        if "matplotlib" in sys.modules:
            sys.modules["matplotlib"].use("Agg")
        else:
            os.environ["MPLBACKEND"] = "Agg"


def _progress(enabled: bool, engine: str | None = None):
    """A rich progress bar with games/s and ETA on stderr (a no-op when not wanted); `engine` says which
    engine plays and why."""
    if not enabled:
        return None, None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    prog = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TextColumn("{task.fields[rate]}"), TimeRemainingColumn(), console=Console(stderr=True),
                    transient=True)
    task = prog.add_task(f"games ({engine})" if engine else "games", total=None,
                         rate="compiling or loading the engine")
    first: list = []

    def update(done, total):
        # games/s counts from the moment the engine is ready (start) or else from the first finished
        # chunk, so compiling or loading the engine is left out, as in the final report
        now = time.perf_counter()
        if not first:
            first[:] = [now, done]
            rate = "measuring games/s"
        else:
            rate = f"{(done - first[1]) / max(now - first[0], 1e-9):,.0f} games/s"
        prog.update(task, completed=done, total=total, rate=rate)

    def start(done):
        first[:] = [time.perf_counter(), done]
        prog.update(task, rate="measuring games/s")
    update.start = start
    return prog, update


def _compile_notice(text):
    """A spinner with the elapsed time while the engine compiles, then one line saying how long it took."""
    import contextlib

    from rich.console import Console

    @contextlib.contextmanager
    def shown():
        console = Console(stderr=True)
        if not console.is_terminal:  # keep piped output (--json) clean
            yield
            return
        t0 = time.perf_counter()
        with console.status(text + " ..."):
            yield
        console.print(f"compiled in {time.perf_counter() - t0:.0f} s", highlight=False)
    return shown()


def _with_progress(job, wanted: bool):
    """job.run(progress=...) with a progress bar when wanted and stderr is a terminal."""
    if hasattr(job, "compile_notice") and job.compile_notice is None:
        job.compile_notice = _compile_notice
    engine = job.engine_choice()[1] if hasattr(job, "engine_choice") and wanted and sys.stderr.isatty() else None
    prog, update = _progress(wanted and sys.stderr.isatty(), engine)
    if prog is None:
        return job.run()
    if hasattr(job, "on_ready") and job.on_ready is None:
        job.on_ready = update.start
    with prog:
        return job.run(progress=update)


def _default_out(rules) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    return Path.cwd() / "results" / "runs" / f"{stamp}-{rules.family}-{rules.num_players}p"


@main.command()
@_backend_options
@click.option("--rules", "preset", default="podkidnoy", show_default=True,
              help=f"Rules preset: {', '.join(R.FAMILIES)}.")
@click.option("--toggle", "toggles", multiple=True, metavar="NAME=VALUE",
              help="House rule toggle (repeatable); `durak rules` lists them.")
@click.option("--players", type=PLAYERS, default=2, show_default=True, help="Number of players, 2 to 6.")
@click.option("--strategy", "strategies", multiple=True, metavar="NAME[:k=v,...]",
              help="Strategy for all seats (once) or per seat (once per seat). Default: greedy.")
@click.option("--strategy-path", "paths", multiple=True, type=click.Path(file_okay=False),
              help="A folder of your own strategy files.")
@click.option("--games", type=GAMES, default=None, help="Number of games [default: 100,000 unless --precision].")
@click.option("--precision", type=Real(0, 0.5, "a half-width above 0 and below 0.5, e.g. 0.002", hi_open=True),
              default=None,
              help="Play until every reported rate's 95% half-width is below this (e.g. 0.002).")
@click.option("--max-games", type=GAMES, default=10_000_000, show_default=True, help="Cap for --precision.")
@click.option("--seed", type=SEED, default=1, show_default=True,
              help="Master seed: the same seed gives the same games.")
@click.option("--threads", type=THREADS, default=0, help=THREADS_HELP)
@click.option("--rotate/--no-rotate", default=True, show_default=True,
              help="Replay every deal with the strategies rotated through the seats.")
@click.option("--deals-per-series", type=Whole(1, 1000), default=1, show_default=True,
              help="Deals per series: later deals use the later-deal dealer and first-attacker rules.")
@click.option("--chunk", type=Whole(1, 1 << 24), default=1 << 14, show_default=True, help="Series per saved chunk.")
@click.option("--out", type=click.Path(path_type=Path), callback=_writable_folder, default=None,
              help="Result folder [default: results/runs/<time>-<rules>].")
@click.option("--no-save", is_flag=True, help="Do not write a result folder.")
@click.option("--records", is_flag=True, help="Also write every game's record as Parquet.")
@click.option("--plots", is_flag=True,
              help="Also draw rates.png and lengths.png into the result folder (matplotlib: about a second).")
@click.option("--resume", type=click.Path(file_okay=False, exists=True, path_type=Path), default=None,
              help="Continue an interrupted run in this folder (other options are taken from it).")
@click.option("--repair", is_flag=True,
              help="With --resume: replay any damaged or foreign chunk file instead of refusing.")
@click.option("--json", "as_json", is_flag=True, help="Print a machine-readable summary.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--verify", type=click.IntRange(min=0), default=0, show_default=True, metavar="N",
              help="Also replay every N-th game through the independent reference referee while running "
                   "(slow per verified game; 0: off).")
@click.option("--engine", type=click.Choice(["auto", "general", "lean", "specialised"]), default=None,
              help="auto (default, or DURAK_ENGINE): specialised (the rules compiled in, the fastest) when it is "
                   "cached or the run is long enough to pay for compiling it; else lean (the rules compiled in, "
                   "a third of the compile) or the general engine (every rule set), whichever is cached, lean on "
                   "a cold cache. The games are the same.")
def run(preset, toggles, players, strategies, paths, games, precision, max_games, seed, threads, rotate,
        deals_per_series, chunk, out, no_save, records, plots, resume, repair, as_json, quiet, verify, engine):
    """Play games and report win (escaped), draw and fool rates per strategy and seat."""
    from sim import api  # (its pandas modules load on first use: --json needs none, the report imports it)
    from sim.core.dispatch import StrategyError
    from sim.experiments import batch
    if plots and no_save:
        raise click.BadParameter("--plots draws into the result folder, which --no-save leaves out",
                                 param_hint="'--plots'")
    try:
        if resume is not None:
            exp = api.resume(resume, threads=threads or None, repair=repair)
            if exp.repaired:
                click.echo(f"repair: replaying {len(exp.repaired)} bad chunk file(s): {', '.join(exp.repaired)}",
                           err=True)
        else:
            if repair:
                raise click.BadParameter("--repair goes with --resume DIR", param_hint="'--repair'")
            if games is not None and precision is not None:
                raise click.BadParameter("give --games or --precision, not both", param_hint="'--precision'")
            rules = _rules(preset, players, toggles)
            if games is None and precision is None:
                games = 100_000
            exp = api.experiment(rules, strategies=strategies, seed=seed, games=games, precision=precision,
                                 max_games=max_games, rotate=rotate, chunk=chunk,
                                 deals_per_series=deals_per_series, paths=paths, records=records,
                                 threads=threads or None, verify=verify, engine=engine,
                                 out=None if no_save else (out or _default_out(rules)))
        try:
            _with_progress(exp, not quiet and not as_json)
        except KeyboardInterrupt:
            where = f"; continue with: durak run --resume {exp.out}" if exp.out else ""
            raise Fail(f"interrupted after {exp.games_played:,} games{where}") from None
    except (batch.LineupError, StrategyError, batch.IllegalMoveError, api.ExperimentError) as e:
        raise Fail(str(e)) from None
    if exp.out is not None:
        from sim.experiments import report
        report.write_outputs(exp, plots=plots)
    if as_json:
        d = exp.summary()
        d["out"] = str(exp.out) if exp.out else None
        click.echo(json.dumps(d, indent=1, default=str))
    else:
        from sim.experiments import report
        click.echo(report.text(exp))
        if exp.out is not None:
            click.echo(f"\nresults, metadata{' and plots' if plots else ''}: {exp.out}")
            if not plots:
                click.echo(f"plots: durak run --resume {exp.out} --plots")


def _arm_rules(preset, players, common, extra):
    t = R.parse_toggle_args(common)
    t.update(R.parse_toggle_args(extra))
    return R.resolve(preset, players, t)


@main.command()
@_backend_options
@click.option("--rules", "preset", default="podkidnoy", show_default=True, help="Rules preset of both arms.")
@click.option("--players", type=PLAYERS, default=2, show_default=True)
@click.option("--toggle", "toggles", multiple=True, metavar="NAME=VALUE", help="Toggle for both arms.")
@click.option("--a", "a_toggles", multiple=True, metavar="NAME=VALUE", help="Toggle of arm A only (repeatable).")
@click.option("--b", "b_toggles", multiple=True, metavar="NAME=VALUE", help="Toggle of arm B only (repeatable).")
@click.option("--a-rules", default=None, help="Preset of arm A (default: --rules).")
@click.option("--b-rules", default=None, help="Preset of arm B (default: --rules).")
@click.option("--strategy", "strategies", multiple=True, help="Line-up of both arms (once, or once per seat).")
@click.option("--a-strategy", "a_strategies", multiple=True, help="Line-up of arm A (default: --strategy).")
@click.option("--b-strategy", "b_strategies", multiple=True, help="Line-up of arm B (default: --strategy).")
@click.option("--strategy-path", "paths", multiple=True, type=click.Path(file_okay=False))
@click.option("--games", type=GAMES, default=200_000, show_default=True,
              help="Paired games (each played in both arms).")
@click.option("--seed", type=SEED, default=1, show_default=True)
@click.option("--threads", type=THREADS, default=0, help=THREADS_HELP)
@click.option("--rotate/--no-rotate", default=True, show_default=True)
@click.option("--metric", default=None, help="Headline metric of the verdict (default: chosen from the question).")
@click.option("--panel", "panel", multiple=True, metavar="STRATEGY|default",
              help="Answer the question once per strategy (each playing every seat) and say whether the answer "
                   "holds across them; 'default' = greedy, expert, learned (learned on a twentieth of the deals; "
                   "add --panel search for the search player: slow).")
@click.option("--out", type=click.Path(path_type=Path), callback=_writable_folder, default=None)
@click.option("--no-save", is_flag=True)
@click.option("--json", "as_json", is_flag=True)
def compare(preset, players, toggles, a_toggles, b_toggles, a_rules, b_rules, strategies, a_strategies,
            b_strategies, paths, games, seed, threads, rotate, metric, panel, out, no_save, as_json):
    """Two rule sets or two line-ups on the same deals: each difference with its 95% interval,
    p-value and a verdict in plain words.

    Example: durak compare --rules prostoy_5 --a trump_six_exchange=true --b trump_six_exchange=false
    """
    from sim import api
    from sim.core.dispatch import StrategyError
    from sim.experiments import batch
    if panel:
        if strategies or a_strategies or b_strategies:
            raise click.BadParameter("--panel plays each panel strategy in every seat; drop --strategy",
                                     param_hint="'--panel'")
        return _compare_panel(preset, players, toggles, a_toggles, b_toggles, a_rules, b_rules, paths, games, seed,
                              threads, rotate, metric, panel, out, no_save, as_json)
    try:
        label_a = " ".join(a_toggles) or (a_rules or "") or " ".join(a_strategies) or "A"
        label_b = " ".join(b_toggles) or (b_rules or "") or " ".join(b_strategies) or "B"
        c = api.comparison(preset, players, R.parse_toggle_args(a_toggles), R.parse_toggle_args(b_toggles),
                           strategies, a_strategies, b_strategies, R.parse_toggle_args(toggles), games=games,
                           seed=seed, labels=(label_a, label_b), paths=paths, a_family=a_rules, b_family=b_rules,
                           rotate=rotate, threads=threads or None)
        if c.a.rules == c.b.rules and [s.label for s in c.a.seats] == [s.label for s in c.b.seats]:
            click.echo("note: the two arms are identical; expect no difference", err=True)
        known = [k for k, _ in c.names]
        if metric is not None and metric not in known:  # say so before playing, not after
            raise click.BadParameter(f"{metric!r} is not a metric of this comparison; choose one of: "
                                     f"{', '.join(known)}", param_hint="'--metric'")
        _with_progress(c, not as_json)
        verdict = c.verdict(metric)
    except (R.RulesError, batch.LineupError, StrategyError, batch.IllegalMoveError, api.ExperimentError) as e:
        raise Fail(str(e)) from None
    if not no_save:
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
        c.out = out or Path.cwd() / "results" / "runs" / f"{stamp}-compare-{c.a.rules.family}"
        c.write_outputs(metric)
    if as_json:
        d = {"verdict": verdict, "out": str(c.out) if c.out else None,
             "metrics": c.table().reset_index().to_dict(orient="records")}
        click.echo(json.dumps(d, indent=1, default=str))
    else:
        click.echo(c.markdown(metric))
        if c.out:
            click.echo(f"results, metadata and plot: {c.out}")


def _compare_panel(preset, players, toggles, a_toggles, b_toggles, a_rules, b_rules, paths, games, seed, threads,
                   rotate, metric, panel, out, no_save, as_json):
    """The same question for each strategy of the panel, then whether the answer holds across it."""
    from sim import api
    from sim.core.dispatch import StrategyError
    from sim.experiments import batch
    try:
        label_a = " ".join(a_toggles) or (a_rules or "") or "A"
        label_b = " ".join(b_toggles) or (b_rules or "") or "B"
        results = api.panel(preset, players, R.parse_toggle_args(a_toggles), R.parse_toggle_args(b_toggles),
                            panel, R.parse_toggle_args(toggles), games=games, seed=seed, labels=(label_a, label_b),
                            paths=paths, a_family=a_rules, b_family=b_rules, rotate=rotate,
                            threads=threads or None, progress=lambda c: _with_progress(c, not as_json))
        first = next(iter(results.values()))
        metric = metric or api.default_metric(first)
        summary = api.panel_verdict(results, metric)
    except (R.RulesError, batch.LineupError, StrategyError, batch.IllegalMoveError, api.ExperimentError,
            KeyError) as e:
        raise Fail(str(e)) from None
    if not no_save:
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
        root = out or Path.cwd() / "results" / "runs" / f"{stamp}-compare-{first.a.rules.family}"
        for name, c in results.items():
            c.out = root / name
            c.write_outputs(metric)
        root.mkdir(parents=True, exist_ok=True)
        (root / "panel.md").write_text(f"# Across the panel\n\n{summary}\n")
    if as_json:
        click.echo(json.dumps({"panel": summary, "verdicts": {n: c.verdict(metric) for n, c in results.items()},
                               "out": None if no_save else str(root)}, indent=1, default=str))
        return
    for name, c in results.items():
        click.echo(f"## Played by {name} in every seat\n\n{c.verdict(metric)}\n")
    click.echo(f"## Across the panel\n\n{summary}")
    if not no_save:
        click.echo(f"\nresults, metadata and plots (one folder per panel strategy, panel.md): {root}")


@main.command()
@_backend_options
@click.option("--rules", "preset", default="podkidnoy", show_default=True)
@click.option("--players", type=PLAYERS, default=2, show_default=True)
@click.option("--toggle", "toggles", multiple=True, metavar="NAME=VALUE")
@click.option("--strategy", "strategies", multiple=True, required=True, help="Each entrant (at least two).")
@click.option("--strategy-path", "paths", multiple=True, type=click.Path(file_okay=False))
@click.option("--games", type=GAMES, default=20_000, show_default=True, help="Games per pair.")
@click.option("--seed", type=SEED, default=1, show_default=True)
@click.option("--threads", type=THREADS, default=0, help=THREADS_HELP)
@click.option("--out", type=click.Path(path_type=Path), callback=_writable_folder, default=None)
@click.option("--no-save", is_flag=True)
@click.option("--json", "as_json", is_flag=True)
def tournament(preset, players, toggles, strategies, paths, games, seed, threads, out, no_save, as_json):
    """Round robin: head-to-head matrix and a Bradley-Terry ranking with 95% intervals."""
    if len(strategies) < 2:
        raise click.BadParameter(f"a round robin needs at least two entrants, got {len(strategies)}",
                                 param_hint="'--strategy'")
    from sim import api
    from sim.core.dispatch import StrategyError
    from sim.experiments import batch
    rules = _rules(preset, players, toggles)
    try:
        t = api.tournament(rules.family, strategies, players, rules.toggles, games=games, seed=seed, play=False,
                           threads=threads or None, paths=paths)
        _with_progress(t, not as_json)
    except (batch.LineupError, StrategyError, batch.IllegalMoveError, ValueError) as e:
        raise Fail(str(e)) from None
    md = t.markdown()
    if not no_save:
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
        folder = t.write_outputs(out or Path.cwd() / "results" / "runs" / f"{stamp}-tournament-{rules.family}")
    if as_json:
        click.echo(json.dumps({"ranking": t.ranking().reset_index().to_dict(orient="records"),
                               "pairs": t.head_to_head().to_dict(orient="records"),
                               "out": None if no_save else str(folder)}, indent=1, default=str))
    else:
        click.echo(md)
        if not no_save:
            click.echo(f"report, pairs, metadata and heatmap: {folder}")


@main.command()
@click.option("--rules", "preset", default="podkidnoy", show_default=True,
              help=f"Rules preset of the run: {', '.join(R.FAMILIES)}.")
@click.option("--players", type=PLAYERS, default=2, show_default=True, help="Number of players of the run, 2 to 6.")
@click.option("--toggle", "toggles", multiple=True, metavar="NAME=VALUE",
              help="House rule toggle of the run (repeatable); `durak rules` lists them.")
@click.option("--strategy", "strategies", multiple=True, metavar="NAME[:k=v,...]",
              help="The run's line-up: once for all seats or once per seat, as in `durak run`. Default: greedy.")
@click.option("--strategy-path", "paths", multiple=True, type=click.Path(file_okay=False),
              help="A folder of your own strategy files, as in `durak run`.")
@click.option("--seed", type=SEED, default=1, show_default=True, help="The run's master seed.")
@click.option("--game", type=Whole(0, SEED_MAX, "a game index from 0 to 2^63-1"), default=0, show_default=True,
              help="Game (series) index within the run.")
@click.option("--rotation", type=Whole(0, 5, "a rotation from 0 to players-1"), default=0, show_default=True,
              help="Seat rotation of the line-up, as in `run` (0 to players-1).")
@click.option("--deals", type=Whole(1, REPLAY_DEALS_MAX), default=1, show_default=True,
              help=f"Deals of the series to tell (1 to {REPLAY_DEALS_MAX}).")
@click.option("--at-error", "at_error", is_flag=True,
              help="After an illegal move: show the position where it happened, as the referee sees it, and the "
                   "strategy's answer with the referee's ruling (every seat rotation is searched). With --json: "
                   "the position and answer as a `durak judge` file.")
@click.option("--json", "as_json", is_flag=True, help="Print the full trace instead.")
def replay(preset, players, toggles, strategies, paths, seed, game, rotation, deals, at_error, as_json):
    """Tell one game move by move: who attacks with what, what covers what, who takes, draws, goes out.

    Give the same --rules, --players, --toggle, --strategy and --strategy-path as the run, and its --seed.
    """
    from sim import api
    from sim.core.dispatch import StrategyError
    from sim.experiments import batch
    rules = _rules(preset, players, toggles)
    if rotation >= players:
        raise click.BadParameter(f"{rotation} is out of range: with {players} players the rotation is 0 to "
                                 f"{players - 1}", param_hint="'--rotation'")
    if at_error:
        _replay_at_error(rules, strategies, paths, seed, game, rotation, deals, as_json)
        return
    try:
        traces, labels = api.traces(rules.family, players, rules.toggles, strategies, seed, game, rotation, deals,
                                    paths)
    except (batch.LineupError, StrategyError, batch.IllegalMoveError) as e:
        raise Fail(str(e)) from None
    except RuntimeError as e:  # the trace buffer is full
        raise Fail(f"--deals {deals}: {e}; tell fewer deals") from None
    if as_json:
        click.echo(json.dumps(traces if deals > 1 else traces[0], indent=1, default=str))
        return
    for tr in traces:
        click.echo("\n".join(api.tell(tr, labels)))


def _replay_at_error(rules, strategies, paths, seed, game, rotation, deals, as_json):
    from sim import api
    from sim.core.dispatch import StrategyError
    try:
        found = api.first_error(rules.family, rules.num_players, rules.toggles, strategies, seed, game, rotation,
                                deals, paths)
    except (api.LineupError, StrategyError) as e:
        raise Fail(str(e)) from None
    if found is None:
        raise Fail(f"no illegal move in game {game} of seed {seed} ({deals} deal(s), every seat rotation) "
                   "with these rules and strategies")
    if as_json:
        click.echo(json.dumps(found["document"], indent=1))
        return
    if found["rotation"]:
        click.echo(f"(seat rotation {found['rotation']} of the line-up)")
    click.echo("\n".join(found["lines"]))


@main.command()
@_backend_options
@click.argument("name", required=False)
@click.option("--check", "check_only", is_flag=True,
              help="Play nothing: name every settled answer (in results/, or --out DIR) whose inputs changed since "
                   "it was made (its question, a preset, or the play of a line-up it used); exit 1 if any did.")
@click.option("--scale", type=Real(0, 1, "a fraction above 0 and at most 1, e.g. 0.01"), default=1.0,
              show_default=True, help="Shrink every experiment (e.g. 0.01 for a quick look).")
@click.option("--seed", type=SEED, default=2026, show_default=True)
@click.option("--threads", type=THREADS, default=0, help=THREADS_HELP)
@click.option("--out", type=click.Path(path_type=Path), callback=_writable_folder, default=None,
              help="Write the question folders here [default: results/runs/<time>-settle].")
@click.option("--write-results", is_flag=True,
              help="Write into the repository's tracked results/NAME and its index results/README.md.")
@click.option("--panel", "panel", multiple=True, metavar="STRATEGY|default",
              help="Strategies each rule question is answered for, each playing every seat (repeatable; "
                   "default: greedy, expert, learned (on a twentieth of the deals); add --panel search for the "
                   "search player, slow at scale 1).")
@click.option("--question-path", "paths", multiple=True, type=click.Path(file_okay=False),
              help="A folder of your own question files, besides the library's questions/ (repeatable; "
                   "README.md, \"Your own question\").")
@click.option("--strategy-path", "strategy_paths", multiple=True, type=click.Path(file_okay=False, exists=True),
              help="A folder of your own strategy files the --panel may name.")
def settle(name, check_only, scale, seed, threads, out, write_results, panel, paths, strategy_paths):
    """Regenerate a settled argument (or `all` of them) into a run folder, or into results/NAME with
    --write-results; with --check, say which settled answers are stale."""
    from sim import api
    found = api.questions(paths)
    if check_only:
        _settle_check(api, name, out, paths)
        return
    if name is None:
        raise click.BadParameter("give the NAME of a question (or all); durak settle --check checks them",
                                 param_hint="'NAME'")
    names = list(found) if name == "all" else [name]
    for n in names:
        if n not in found:
            raise click.BadParameter(f"unknown question {n!r}; choose one of: all, {', '.join(found)}",
                                     param_hint="'NAME'")
    if out is not None and write_results:
        raise click.BadParameter("give --out DIR or --write-results, not both", param_hint="'--out'")
    from sim.core import dispatch
    names_panel = [x for p in panel for x in (api.default_panel() if p == "default" else [p])] or None
    for p in names_panel or []:
        if p not in dispatch.discover(strategy_paths):
            raise click.BadParameter(f"unknown strategy {p!r}; choose from: "
                                     f"{', '.join(dispatch.discover(strategy_paths))}", param_hint="'--panel'")
    if write_results:
        root = api.tracked_results()
    else:
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
        root = out or Path.cwd() / "results" / "runs" / f"{stamp}-settle"
    for n in names:
        t0 = time.time()
        folder = api.settle(n, scale=scale, seed=seed, threads=threads or None, root=root, panel=names_panel,
                            paths=paths, strategy_paths=strategy_paths)
        verdict = json.loads((folder / "summary.json").read_text())["verdict"]
        click.echo(f"{n}: {verdict}\n  -> {folder} ({time.time() - t0:.0f} s)")
    api.write_index(root, paths)


def _settle_check(api, name, out, paths):
    """durak settle --check [NAME|all] [--out ROOT]: one line per settled answer; exit 1 if any is stale."""
    root = out or api.tracked_results()
    names = None if name in (None, "all") else [name]
    if names and names[0] not in api.questions(paths):
        raise click.BadParameter(f"unknown question {name!r}", param_hint="'NAME'")
    rows = api.check(root, names, paths)
    if not rows:
        raise Fail(f"no settled answers in {root} (no question folder with a summary.json)")
    stale = [r for r in rows if r[1]]
    for q, reasons, notes in rows:
        click.echo(f"{q}: " + ("STALE: " + "; ".join(reasons) if reasons else "current")
                   + (f" (note: {'; '.join(notes)})" if notes else ""))
    if stale:
        click.echo(f"{len(stale)} of {len(rows)} settled answers in {root} are stale; regenerate them with: "
                   f"durak settle NAME --write-results ({', '.join(q for q, _, _ in stale)})", err=True)
        raise SystemExit(1)
    click.echo(f"all {len(rows)} settled answers in {root} are current")


@main.command()
@click.argument("file", type=click.File("r"), required=False)
@click.option("--examples", "shipped", is_flag=True,
              help="Judge the worked examples shipped with durak-sim (docs/examples/positions.json) instead of FILE.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def judge(file, shipped, as_json):
    """Rule on a position: is the action in FILE legal, and what happens then?

    FILE holds `family`, `toggles`, `position` and `action` in the format of docs/positions.md
    (worked examples: docs/examples/positions.json, or --examples wherever durak-sim is installed; a file
    with an `examples` list is judged example by example).
    """
    import sim
    from sim import api, referee
    from sim.referee import schema
    if (file is None) == (not shipped):
        raise click.BadParameter("give a FILE or --examples (the shipped worked examples), one of them",
                                 param_hint="'FILE'")
    if shipped:
        file = click.open_file(str(sim.doc_path("examples", "positions.json")))
    try:
        doc = json.load(file)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise Fail(f"{file.name} is not valid JSON: {e}") from None
    if not isinstance(doc, dict):
        raise Fail(f"{file.name} at $: expected a JSON object with family, toggles, position and action "
                   f"(or an examples list), got {type(doc).__name__ if doc is not None else 'null'}")
    if "examples" in doc:
        problem = schema.problem(doc, schema.EXAMPLES)
        if problem:
            raise Fail(f"{file.name} at {problem}")
        docs, where = doc["examples"], [("examples", i) for i in range(len(doc["examples"]))]
    else:
        docs, where = [doc], [()]
    results = []
    for d, prefix in zip(docs, where):
        name = d.get("id") if isinstance(d, dict) and d.get("id") else file.name
        problem = schema.problem(d, schema.DOCUMENT, prefix)
        if problem:
            raise Fail(f"cannot judge {name}: {problem}")
        try:
            results.append(api.judge(d))
        except (R.RulesError, referee.RefereeError, KeyError, ValueError, TypeError, IndexError) as e:
            raise Fail(f"cannot judge {name}: {_message(e)}") from None
    if as_json:
        click.echo(json.dumps(results[0] if len(results) == 1 else results, indent=1, default=str))
    else:
        for d, r in zip(docs, results):
            if len(docs) > 1:
                click.echo(f"== {d.get('id', '?')}: {d.get('question', '')}")
            click.echo(referee.format_judgement(r))


@main.command("rules")
@click.option("--explain", "explain", metavar="ID", default=None,
              help="Print the rule or ruling with this id (e.g. POD-L3, PR5-A3, RUL-22; `all` lists every id).")
@click.option("--json", "as_json", is_flag=True)
def rules_cmd(explain, as_json):
    """List the presets and every toggle with its values and each preset's default.

    With --explain ID, print what a rule id seen in a report, an error or a test means
    (the texts are docs/rules.md and sim/RULINGS.md).
    """
    if explain is not None:
        from sim.core import rule_ids
        if explain.lower() == "all":
            rows = list(rule_ids.table().values())
        else:
            try:
                rows = [rule_ids.explain(explain)]
            except KeyError as e:
                raise Fail(e.args[0]) from None
        if as_json:
            click.echo(json.dumps(rows[0] if len(rows) == 1 and explain.lower() != "all" else rows, indent=1))
        elif explain.lower() == "all":
            for r in rows:
                click.echo(f"{r['id']:<8} {r['text'][:88]}{'...' if len(r['text']) > 88 else ''}")
        else:
            r = rows[0]
            click.echo(f"{r['id']} ({r['section']}; {r['source']})")
            click.echo(_wrap(r["text"]))
            toggles = [t["toggle"] for t in R.toggle_table() if t["rule"] == r["id"]]
            if toggles:
                click.echo(f"toggles: {', '.join(toggles)} (see `durak rules`)")
        return
    table = R.toggle_table()
    variants = R.variant_table()
    if as_json:
        click.echo(json.dumps({"presets": R.FAMILY_DOC, "toggles": table, "variants": variants}, indent=1))
        return
    for f, doc in R.FAMILY_DOC.items():
        click.echo(f"{f:<12} {doc}")
    click.echo("")
    for t in table:
        if t["toggle"] == "variant":
            continue
        click.echo(f"{t['toggle']}  ({t['rule']})\n    {t['doc']}\n    values: {' | '.join(t['values'])}")
        if t["played"] != t["values"]:
            click.echo(f"    played today: {' | '.join(t['played'])}")
        click.echo("    defaults: " + ", ".join(f"{f}={v}" for f, v in t["defaults"].items()))
    click.echo("\n§6 variants of seed 004 (--toggle variant=NAME, several joined by '+'; each sets the toggles shown):")
    for v in variants:
        sets = ", ".join(f"{k}={x}" for k, x in v["sets"].items())
        what = f"sets {sets}" if sets else v["note"]
        if sets and v["note"]:
            what += f"; {v['note']}"
        click.echo(f"  {v['variant']:<18} {v['ids']:<8} {v['status']:<19} {v['russian']}: {what}")


def _wrap(text: str, width: int = 100) -> str:
    import textwrap
    return "\n".join(textwrap.wrap(text, width, initial_indent="  ", subsequent_indent="  "))


@main.command("strategies")
@click.option("--strategy-path", "paths", multiple=True, type=click.Path(file_okay=False),
              help="Also list the strategy files of this folder.")
@click.option("--json", "as_json", is_flag=True, help="Print a machine-readable list.")
def strategies_cmd(paths, as_json):
    """List every strategy: its one-line description, the families it plays and its parameters."""
    from sim.core import dispatch
    try:
        infos = [dispatch.info(n, paths) for n in sorted(dispatch.discover(paths))]
    except dispatch.StrategyError as e:
        raise Fail(str(e)) from None
    per_family = {i.name: _family_defaults(i) for i in infos}
    if as_json:
        click.echo(json.dumps([{"name": i.name, "description": i.description, "families": list(i.families),
                                "params": {k: {"default": v[0], "low": v[1], "high": v[2], "doc": v[3],
                                               **({"family_defaults": {f: d[k] for f, d in per_family[i.name].items()
                                                                       if k in d}} if per_family[i.name] else {})}
                                           for k, v in i.params.items()},
                                "variants": dispatch.supported_variants(i),
                                "path": str(i.path)} for i in infos], indent=1))
        return
    for i in infos:
        click.echo(f"{i.name}  ({', '.join(i.families) or 'all families'})\n    {i.description}")
        click.echo(f"    §6 variants: {_variants_line(i)}")
        fams = per_family[i.name]
        for k, (d, lo, hi, doc) in i.params.items():
            if any(k in x for x in fams.values()):
                vals = ", ".join(f"{f} {x[k]:g}" for f, x in fams.items() if k in x)
                click.echo(f"    {k}  default by family: {vals}  [{lo:g}, {hi:g}]")
                click.echo(f"        {doc}")
            else:
                click.echo(f"    {k}={d:g}  [{lo:g}, {hi:g}]  {doc}")
    click.echo("\nDefaults are the same in every family unless listed by family. "
               "Use: durak run --strategy NAME[:param=value,...] (once for all seats or once per seat).")


def _variants_line(info) -> str:
    """Which played §6 variants a strategy declares it plays (`durak strategies`)."""
    from sim.core import dispatch
    names = dispatch.supported_variants(info)
    if not names:
        return "the plain rules only (it declares no VARIANTS)"
    if "all" in info.variants:
        return f"every played variant of its families ({len(names)}: {', '.join(names)})"
    return ", ".join(names)


def _family_defaults(info) -> dict:
    """A strategy's defaults that depend on the family played (its optional FAMILY_DEFAULTS: family -> {param:
    value}), e.g. expert's tuned values; {} when every default is the same in every family."""
    from sim.core import dispatch
    try:
        fams = getattr(dispatch.load_module(info.path), "FAMILY_DEFAULTS", None) or {}
    except Exception:  # noqa: BLE001  (info() loaded it already)
        return {}
    return {f: {k: float(v) for k, v in d.items() if k in info.params} for f, d in fams.items()}


BENCH_CASES = (
    ("podkidnoy", 2, "greedy"),
    ("podkidnoy", 4, "greedy"),
    ("prostoy_5", 2, "greedy"),
    ("perevodnoy", 3, "greedy"),
    ("podkidnoy", 2, "random"),
)


@main.command()
@click.option("--games", type=GAMES, default=1_000_000, show_default=True, help="Games per measurement.")
@click.option("--threads", type=THREADS, default=0, help="Threads for the all-cores line; 0 (default): all cores.")
@click.option("--search-games", type=Whole(0, GAMES_MAX), default=200, show_default=True,
              help="Games of the search player (search, at its default budget) against expert; 0 to skip.")
@click.option("--json", "as_json", is_flag=True)
def bench(games, threads, search_games, as_json):
    """Games per second of the compiled core (compile time reported apart) and peak memory."""
    from concurrent.futures import ThreadPoolExecutor

    from sim.experiments import batch, tasks
    threads = threads or os.cpu_count() or 1
    rows = []
    if not as_json:
        click.echo("core: the compiled kernel alone (deals, play, records), after a warm-up, best of three; "
                   "end-to-end: `durak run`'s path with aggregation, on all cores")
    for fam, n, strat in BENCH_CASES:
        rules = R.resolve(fam, n)
        for kind in ("general", "lean", "specialised"):  # every rule set; these rules compiled in; and inlined
            t0 = time.perf_counter()
            runner = batch.Runner(rules, batch.make_lineup(rules, [strat]), specialised=kind)
            runner.warm()
            compile_s = time.perf_counter() - t0
            row = {"case": f"{fam} {n}p {strat}", "engine": kind, "games": games,
                   "compile_or_load_s": round(compile_s, 2)}
            chunk = batch.DEFAULT_CHUNK
            n_chunks = -(-games // chunk)
            for th in sorted({1, threads}):
                with ThreadPoolExecutor(max_workers=th) as ex:  # warm-up, untimed: the first figure is as steady
                    list(ex.map(lambda k: runner.play_raw(1, k * chunk, chunk), range(min(th, n_chunks))))
                best = math.inf
                for _ in range(3):  # best of three: a shared machine's timings are noisy
                    t0 = time.perf_counter()
                    with ThreadPoolExecutor(max_workers=th) as ex:  # the runner's chunks, without aggregation
                        list(ex.map(lambda k: runner.play_raw(12345, k * chunk, chunk), range(n_chunks)))
                    best = min(best, time.perf_counter() - t0)
                row[f"core_{th}t_games_per_s"] = round(n_chunks * chunk / best)
            res = tasks.run(rules, [strat], games=games, seed=12345, threads=threads, engine=kind)
            row["end_to_end_games_per_s"] = round(res.tally.games / res.seconds)
            rows.append(row)
            if not as_json:
                cores = "  ".join(f"{row[f'core_{th}t_games_per_s']:>10,}/s on {th} thread{'s' if th > 1 else ''}"
                                  for th in sorted({1, threads}))
                click.echo(f"{row['case']:<24} {kind:<11} core {cores}   end-to-end "
                           f"{row['end_to_end_games_per_s']:>9,}/s   compile/load {row['compile_or_load_s']} s")
    plug = _bench_plugin(games)
    if plug and not as_json:
        click.echo(f"plug-in strategy from a user folder (greedy's code as {plug['strategy']}): "
                   f"{plug['games_per_s']:,.0f} games/s on 1 thread = {plug['ratio']:.2f} x greedy's "
                   f"{plug['greedy_games_per_s']:,.0f}")
    search = _bench_search(search_games, threads) if search_games else None
    if search and not as_json:
        click.echo(f"search player: search (samples={search['samples']:g}, candidates={search['candidates']:g}, "
                   f"playout={search['playout']:g}) vs expert, 2-player podkidnoy, {search['games']:,} games, seats "
                   f"swapped: {search['games_per_s']:,.1f} games/s on {threads} threads; fool rate search "
                   f"{search['search_fool']} vs expert {search['expert_fool']}")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if as_json:
        click.echo(json.dumps({"cases": rows, "plugin": plug, "search": search, "peak_rss_mb": round(peak_mb, 1)},
                              indent=1))
    else:
        click.echo(f"peak memory (RSS): {peak_mb:.0f} MB")


def _bench_plugin(games: int) -> dict | None:
    """The cost of being a plug-in: greedy's own code loaded from a user folder (as `user-greedy`)
    against the built-in greedy, same games, 1 thread, interleaved best of five."""
    import tempfile

    from sim.experiments import batch
    src = (Path(__file__).resolve().parent.parent / "strategies" / "greedy.py").read_text()
    rules = R.resolve("podkidnoy", 2)
    n = max(batch.DEFAULT_CHUNK, min(games, 4 * batch.DEFAULT_CHUNK))
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "user_greedy.py").write_text(src.replace('NAME = "greedy"', 'NAME = "user-greedy"'))
        runners = {name: batch.Runner(rules, batch.make_lineup(rules, [name], paths), paths)
                   for name, paths in (("greedy", ()), ("user-greedy", (folder,)))}
        speed = {name: 0.0 for name in runners}
        for r in runners.values():
            r.play_raw(0, 0, 10)
        for _ in range(5):  # best of five, interleaved: this machine's timings are noisy
            for name, r in runners.items():
                t0 = time.perf_counter()
                r.play_raw(1, 0, n)
                speed[name] = max(speed[name], n / (time.perf_counter() - t0))
    return {"strategy": "user-greedy", "games_per_s": round(speed["user-greedy"]),
            "greedy_games_per_s": round(speed["greedy"]), "ratio": speed["user-greedy"] / speed["greedy"]}


def _bench_search(games: int, threads: int) -> dict:
    """Strength and speed of the search player (strategies/search.py) at its default budget."""
    from sim.experiments import batch, tasks
    from sim.experiments.report import pct
    from sim.experiments.stats import wilson
    rules = R.resolve("podkidnoy", 2)
    seats = batch.make_lineup(rules, ["search", "expert"])
    batch.Runner(rules, seats).play_raw(0, 0, 2)  # compile or load first
    t0 = time.perf_counter()
    half = max(games // 2, 1)
    chunk = max(1, -(-half // (4 * threads)))  # small chunks: a few hundred slow games still fill every thread
    a = tasks.run(rules, ["search", "expert"], games=half, seed=77, threads=threads, chunk=chunk).tally
    b = tasks.run(rules, ["expert", "search"], games=half, seed=77, threads=threads, chunk=chunk).tally
    dt = time.perf_counter() - t0
    n = a.finished + b.finished
    fr, fe = int(a.fool[0] + b.fool[1]), int(a.fool[1] + b.fool[0])
    params = dict(seats[0].params)
    return {"games": n, "seconds": round(dt, 2), "games_per_s": n / dt, "samples": params["samples"],
            "candidates": params["candidates"], "playout": params["playout"],
            "search_fool": pct(fr / n, *map(float, wilson(fr, n))),
            "expert_fool": pct(fe / n, *map(float, wilson(fe, n))), "draws": n - fr - fe}


# ---- durak hint, durak play ----------------------------------------------------------------------
@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path), required=False)
@click.option("--examples", "shipped", is_flag=True,
              help="The worked examples shipped with durak-sim (docs/examples/positions.json) instead of FILE.")
@click.option("--budget", default="normal", show_default=True,
              help="Sampled deals per action: fast (200), normal (1000), deep (4000), or a number.")
@click.option("--playout", type=click.Choice(["expert", "greedy"]), default="expert", show_default=True,
              help="Policy that plays every seat to the end of each sampled deal.")
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--id", "only", default=None, help="With a file of several examples: only this id.")
@click.option("--open", "open_hands", is_flag=True,
              help="Use the other hands the file lists as known (open cards); by default the player to act sees "
                   "only its own hand, and the others are sampled.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object (a list for several positions).")
def hint(file, shipped, budget, playout, seed, only, open_hands, as_json):
    """Every legal action at a position with the fool probability of the player to act.

    FILE is a position in the judge's format (docs/positions.md; an `examples` list is answered
    position by position). The player to act is the seat asking: other hands may be given as
    `hand_sizes` only (then list the `discard`). A start of a deal:
    {"family": ..., "start_of_deal": true, "num_players": 2, "seat": 0, "hand": [...], "trump_card": "7H"}.
    """
    from sim import api
    import sim
    from sim.experiments import hint as H
    if (file is None) == (not shipped):
        raise click.BadParameter("give a FILE or --examples (the shipped worked examples), one of them",
                                 param_hint="'FILE'")
    file = sim.doc_path("examples", "positions.json") if shipped else file
    try:
        samples = H.BUDGETS[budget] if budget in H.BUDGETS else int(budget)
    except ValueError:
        raise Fail(f"--budget must be fast, normal, deep or a number, not {budget!r}") from None
    try:
        docs = H.read_requests(file, only)
    except H.HintError as e:
        raise Fail(str(e)) from None
    out = []
    for d in docs:
        try:
            res = api.hint(d, samples=samples, playout=playout, seed=seed, open_hands=open_hands)
        except (ValueError, KeyError, R.RulesError) as e:
            if len(docs) == 1:
                raise Fail(f"{d.get('id', file)}: {e}") from None
            res = {"id": d.get("id"), "error": str(e)}
        res["id"] = d.get("id")
        out.append(res)
        if not as_json:
            head = f"[{d['id']}] " if d.get("id") else ""
            click.echo(head + (res["error"] if "error" in res else H.format_text(res)))
            click.echo("")
    if as_json:
        click.echo(json.dumps(out[0] if len(out) == 1 else out, indent=1))

@main.command()
@click.option("--rules", "preset", default="podkidnoy", show_default=True, help="Rules preset.")
@click.option("--players", type=PLAYERS, default=2, show_default=True, help="Number of players, 2 to 6.")
@click.option("--toggle", "toggles", multiple=True, metavar="NAME=VALUE", help="House rule (repeatable).")
@click.option("--seat", type=Whole(0, 5, "a seat from 0 to players-1"), default=0, show_default=True,
              help="Your seat (0..players-1).")
@click.option("--strategy", "strategies", multiple=True, metavar="NAME[:k=v,...]",
              help="The other seats' strategy: once for all, or once per other seat in seat order [default: expert].")
@click.option("--seed", type=SEED, default=1, show_default=True, help="The same seed deals the same cards.")
@click.option("--games", type=Whole(1, 1000), default=1, show_default=True,
              help="Deals to play (seeds seed, seed+1, ...).")
@click.option("--hint-budget", type=Whole(1, 100_000), default=300, show_default=True,
              help="Sampled deals per move for '?'.")
@click.option("--ascii", "ascii_only", is_flag=True, help="Suits as letters C D H S instead of symbols.")
def play(preset, players, toggles, seat, strategies, seed, games, hint_budget, ascii_only):
    """Play deals in the terminal against library strategies: moves are numbered, '?' asks for a hint."""
    from sim import api
    rules = _rules(preset, players, toggles)
    if not 0 <= seat < players:
        raise Fail(f"--seat {seat} is out of range: with {players} players your seat is 0 to {players - 1}")
    try:
        api.play(rules.family, players, rules.toggles, seat, list(strategies) or ["expert"], seed, games, ascii_only,
                 hint_samples=hint_budget)
    except (ValueError, api.LineupError) as e:
        raise Fail(str(e)) from None
# ---- end of hint and play -------------------------------------------------------------------------


@main.group()
def learn():
    """Regenerate the learned player: label self-play decisions with search's values, then fit its network.

    Needs the training extra (pip install -e '.[train]'); playing `learned` never does."""


@learn.command("data")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder for the Parquet files (one per cell; cells already there are kept).")
@click.option("--seed", type=SEED, default=1000, show_default=True, help="Cell k uses seed + k.")
@click.option("--scale", type=Real(0, 1000, "a factor above 0, e.g. 0.1"), default=1.0,
              show_default=True, help="Deals per cell, times the default plan's.")
@click.option("--samples", type=Whole(1, 4096), default=64, show_default=True,
              help="Sampled deals per labelled decision (search's budget).")
@click.option("--share", type=Real(0, 1, "a share above 0 and at most 1"), default=0.3,
              show_default=True, help="Share of the decisions labelled.")
@click.option("--player", type=click.Choice(["expert", "learned"]), default="expert", show_default=True,
              help="Who plays the deals between labelled decisions (learned: a DAgger round).")
@click.option("--plan", type=click.Choice(["r1", "r2"]), default="r2", show_default=True,
              help="Cells and deals: the plans the shipped networks used (r1 with seed 1000, r2 with seed 2000).")
@click.option("--threads", type=Whole(1, 256), default=2, show_default=True)
def learn_data(out, seed, scale, samples, share, player, plan, threads):
    """Label decisions of every family at 2, 3, 4 (and 2v2) and 6 players with search's option values."""
    from sim.learn import data as D
    D.generate(out, seed, plan=D.PLANS[plan], scale=scale, samples=samples, share=share, player=player, threads=threads,
               log=lambda s: click.echo(s, err=True))


@learn.command("train")
@click.argument("data", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--hidden", type=Whole(1, 256), default=64, show_default=True, help="Hidden units.")
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--write/--no-write", default=False, show_default=True,
              help="Write strategies/_learned_model.py (else only report the held-out regret).")
def learn_train(data, hidden, seed, write):
    """Fit the network to Parquet files or folders of them; report held-out regret against expert's answer."""
    from sim.learn import train as T
    files = [f for d in data for f in (sorted(d.glob("*.parquet")) if d.is_dir() else [d])]
    if not files:
        raise Fail("no .parquet files in " + ", ".join(map(str, data)))
    try:
        report = T.run(files, hidden=hidden, seed=seed, write=write, log=lambda s: click.echo(s, err=True))
    except ImportError as e:
        raise Fail(f"{e.name or e} is missing: install the training extra, pip install -e '.[train]'") from None
    click.echo(json.dumps(report, indent=1))


SCALE_HELP = "tiny, small (a complete site in minutes), medium, full (the committed atlas), or a fraction of full."


@main.command()
@_backend_options
@click.option("--out", type=click.Path(path_type=Path), callback=_writable_folder, default=Path("results/atlas"),
              show_default=True, help="Folder of the atlas: its cells (resumed when there) and the site.")
@click.option("--scale", default="small", show_default=True, help=SCALE_HELP)
@click.option("--seed", type=SEED, default=1, show_default=True, help="Master seed; each cell's seed derives from it.")
@click.option("--panel", "panel", multiple=True, metavar="STRATEGY",
              help="Skill levels, weakest first (repeatable; default: greedy, expert).")
@click.option("--players", "players", multiple=True, type=PLAYERS, help="Player counts (repeatable; default 2, 3, 4, 6).")
@click.option("--rules", "families", multiple=True, help="Families (repeatable; default: all four).")
@click.option("--only", "only", multiple=True, metavar="TOGGLE|VARIANT",
              help="Only these toggles or variants (repeatable; default: every one).")
@click.option("--threads", type=THREADS, default=0, help=THREADS_HELP)
@click.option("--estimate", "estimate_only", is_flag=True, help="Say what it would cost, play nothing.")
@click.option("--site-only", is_flag=True, help="Rebuild the pages from the cells in --out, play nothing.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def atlas(out, scale, seed, panel, players, families, only, threads, estimate_only, site_only, quiet):
    """Every house rule and variant against its family's default, at each player count and skill level, on
    the same deals; then a static site in --out (open index.html from disk).

    Example: durak atlas --scale small --out /tmp/atlas
    """
    from sim import api
    try:
        if site_only:
            click.echo(f"site: {api.atlas_site(out)}")
            return
        a = api.atlas(out, scale=scale, seed=seed, panel=panel, players=players,
                      families=families, rules=only, threads=threads or None)
        est = a.estimate()
    except (R.RulesError, api.ExperimentError) as e:
        raise Fail(str(e)) from None
    rates = "; ".join(f"{lv} " + ", ".join(f"{v:,.0f}" for (l2, _), v in est["games_per_s"].items() if l2 == lv)
                      for lv in dict.fromkeys(k[0] for k in est["games_per_s"]))
    click.echo(f"atlas: {est['cells']:,} cell{'s' if est['cells'] != 1 else ''} ({est['to_play']:,} to play), plan {a.plan.name}: looks at "
               f"{', '.join(f'{x:,}' for x in est['looks'])} deals per cell; measured games/s at "
               f"{', '.join(str(p) for p in a.players)} players: {rates}; "
               f"cost {est['seconds_at_least'] / 60:.1f} to {est['seconds_at_most'] / 60:.1f} min of play "
               f"(cells stop early when settled)", err=True)
    if estimate_only:
        return
    t0 = time.perf_counter()
    if quiet or not sys.stderr.isatty():
        a.run()
    else:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
        prog = Progress(TextColumn("[bold]cells"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.fields[rate]}"),
                        TimeRemainingColumn(), console=Console(stderr=True), transient=True)
        task = prog.add_task("cells", total=est["cells"], rate="")

        def update(done, total, deals):
            rate = deals / max(time.perf_counter() - t0, 1e-9)
            prog.update(task, completed=done, total=total, rate=f"{rate:,.0f} games/s" if deals else "")
        with prog:
            a.run(progress=update)
    played = time.perf_counter() - t0
    index = api.atlas_site(out)
    click.echo(f"played in {played:.0f} s, site in {time.perf_counter() - t0 - played:.0f} s: {index}")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
