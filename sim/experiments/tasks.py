"""What a worker runs: chunks of games as small picklable tasks, and the plain batch run on top of them.

Every runner (`run`, `Experiment.run`, `Comparison.run`, and through them the tournament and settle) ships
its work as tasks (rules, line-up, the sources of user strategy folders keyed by a hash of their content,
seed and series range) to one top-level function (`play_chunk`, `play_paired`). A worker builds or loads
the compiled engine from its own cache, keeps one Runner per line-up per process, and sends back only a
tally (a few arrays), so memory on the client stays flat.

A task depends on nothing but its own fields (every series draws its randomness from the seed and its
index), so a task lost with a killed worker is simply recomputed, and the merged result is the same bit
for bit whatever the backend, the number of workers or the chunk size.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from sim.core import dispatch
from sim.core.records import to_records
from sim.core.rules import Rules
from sim.experiments import backends
from sim.experiments.batch import DEFAULT_CHUNK, ExperimentError, Runner, Tally, engine_choice, make_lineup
from sim.experiments.paired import PairedSums, metric_matrix


# ---- what a worker needs: line-ups and the strategy sources behind them ----------------------------------------
@dataclass(frozen=True)
class StrategyFolder:
    """A user --strategy-path folder as it travels with a task: its *.py files and their content hash."""
    given: str  # as the user wrote it (shown in messages)
    absolute: str  # where it is on the client machine
    digest: str
    files: tuple  # ((file name, bytes), ...)


def _read_folder(path: Path) -> tuple:
    return tuple((f.name, f.read_bytes()) for f in sorted(path.glob("*.py")))


def _digest(files: tuple) -> str:
    h = hashlib.sha256()
    for name, data in files:
        h.update(name.encode() + b"\0" + len(data).to_bytes(8, "little") + data)
    return h.hexdigest()[:20]


def pack_folder(path) -> StrategyFolder:
    p = Path(path)
    files = _read_folder(p)
    return StrategyFolder(str(path), str(p.resolve()), _digest(files), files)


@dataclass(frozen=True)
class Lineup:
    """Rules and seats of one engine, as a task carries them (every field plain and picklable)."""
    rules: Rules
    seats: tuple  # batch.Seat
    also: tuple = ()
    folders: tuple = ()  # StrategyFolder, in --strategy-path order
    specialised: bool | str = False  # the engine: general, lean or specialised (batch.engine_choice)

    def key(self) -> tuple:
        return (self.rules.family, self.rules.num_players, tuple(sorted(self.rules.toggles.items())), self.seats,
                tuple(self.also), tuple(f.digest for f in self.folders), self.specialised)


def lineup(rules: Rules, seats, paths=(), also=(), specialised: bool | str = False) -> Lineup:
    return Lineup(rules, tuple(seats), tuple(also), tuple(pack_folder(p) for p in paths), specialised)


def _local_folder(f: StrategyFolder) -> str:
    """A folder on this machine with exactly the shipped sources: the user's own folder when it is here with the
    same content (the client's process, a shared file system: the client's compile cache serves), else a folder
    per content hash in this machine's cache (DURAK_CACHE_DIR), written once."""
    for cand in (f.given, f.absolute):
        p = Path(cand)
        if p.is_dir() and Path(cand).resolve() == Path(f.absolute) and _digest(_read_folder(p)) == f.digest:
            return cand
    dest = dispatch.cache_dir() / "shipped" / f.digest
    if not dest.is_dir():
        tmp = dest.with_name(f"{f.digest}.tmp{os.getpid()}-{threading.get_ident()}")
        tmp.mkdir(parents=True, exist_ok=True)
        for name, data in f.files:
            (tmp / name).write_bytes(data)
        try:
            tmp.replace(dest)
        except OSError:  # another process wrote it first: the content is the same
            shutil.rmtree(tmp, ignore_errors=True)
    return str(dest)


_RUNNERS: dict = {}
_RUNNERS_LOCK = threading.Lock()


def runner_for(lu: Lineup):
    """This process's Runner for a line-up (built, i.e. the engine compiled or loaded, once per process)."""
    key = lu.key()
    r = _RUNNERS.get(key)
    if r is None:
        with _RUNNERS_LOCK:
            r = _RUNNERS.get(key)
            if r is None:
                local = tuple(_local_folder(f) for f in lu.folders)
                r = Runner(lu.rules, list(lu.seats), local, also=lu.also, specialised=lu.specialised)
                r._shown_paths = {lo: f.given for lo, f in zip(local, lu.folders) if lo != f.given}
                if len(_RUNNERS) > 256:
                    _RUNNERS.clear()
                _RUNNERS[key] = r
    return r


@contextlib.contextmanager
def _user_paths(runner):
    """Error messages name the user's folders, not the worker's copies of them."""
    try:
        yield
    except Exception as e:
        shown = getattr(runner, "_shown_paths", None)
        if shown and e.args and isinstance(e.args[0], str):
            msg = e.args[0]
            for local, given in shown.items():
                msg = msg.replace(local, given)
            try:
                new = type(e)(msg)
            except Exception:  # noqa: BLE001  (an exception type that wants other arguments: keep it)
                raise e from None
            raise new from None
        raise


# ---- tasks ------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Chunk:
    """Series [series0, series0 + n_series) of one line-up."""
    lineup: Lineup
    seed: int
    series0: int
    n_series: int
    deals: int = 1
    records: bool = False  # also send back every game's record (Experiment(records=True))
    verify: int = 0  # replay every verify-th series through the reference referee


def play_chunk(task: Chunk) -> dict:
    """Run one chunk (on any worker): {"tally": Tally arrays, "records": records or None, "verified": int}."""
    runner = runner_for(task.lineup)
    with _user_paths(runner):
        raw = runner.play_raw(task.seed, task.series0, task.n_series, task.deals, reuse=True)
        t = Tally(task.lineup.rules.num_players)
        t.add_raw(raw)  # in compiled code: the record array is built only when it is sent back
        recs = to_records(raw) if task.records else None
        verified = _verify(runner, task) if task.verify else 0
    return {"tally": t.to_arrays(), "records": recs if task.records else None, "verified": verified}


def _verify(runner, task: Chunk) -> int:
    """Every verify-th series of the chunk through the reference referee ."""
    from sim import referee  # only with --verify: a plain run does not load the referee
    s0, n, every, seed, deals = task.series0, task.n_series, task.verify, task.seed, task.deals
    done = 0
    for series in range(-(-s0 // every) * every, s0 + n, every):
        for tr in runner.trace(seed, series, deals):
            try:
                referee.replay(tr)
            except referee.ReplayError as e:
                raise ExperimentError(f"the core and the reference referee disagree in series {series} of seed "
                                      f"{seed}: {e}. Replay it with: {runner.replay_command(seed, series, deals)}"
                                      ) from None
        done += 1
    return done


@dataclass(frozen=True)
class PairedChunk:
    """The same series played by both arms of a comparison (rotation `shift` of both line-ups)."""
    a: Lineup
    b: Lineup
    shift: int
    seed_a: int
    seed_b: int
    series0: int
    n_series: int


def play_paired(task: PairedChunk) -> dict:
    """Run one chunk of a comparison: the paired sums of its per-game metrics (exact: every metric is a whole
    number, so sums in any order or grouping are the same bit for bit)."""
    n = task.a.rules.num_players
    mats = []
    for lu, seed in ((task.a, task.seed_a), (task.b, task.seed_b)):
        runner = runner_for(lu)
        with _user_paths(runner):
            recs = to_records(runner.play_raw(seed, task.series0, task.n_series))
        teams = lu.rules.team_ids() if lu.rules.teams else None
        mats.append(metric_matrix(recs, n, task.shift, teams))
    s = PairedSums(mats[0].shape[1])
    s.add(mats[0], mats[1])
    out = {f: getattr(s, f) for f in ("n", "sa", "sb", "saa", "sbb", "sab")}
    out["games"] = task.n_series
    return out


def warm(lineups) -> int:
    """Build (compile or load) the engines of these line-ups in this worker process."""
    for lu in lineups:
        runner_for(lu).play_raw(0, 0, 1)
    return os.getpid()


# ---- the plain batch run ----------------------------------------------------------------------------------------
@dataclass
class RunResult:
    rules: Rules
    seats: list
    seed: int
    games: int
    deals_per_series: int
    tally: Tally
    seconds: float
    threads: int
    extra: dict = field(default_factory=dict)




def run(rules: Rules, strategies=("greedy",), games: int = 10000, seed: int = 0, threads: int | None = None,
        chunk: int = DEFAULT_CHUNK, deals_per_series: int = 1, paths=(), progress=None, executor=None,
        engine: str | None = None) -> RunResult:
    """Play `games` deals and return the tally. `progress(done_games)` is called after every chunk.

    Chunks run as tasks (play_chunk) on the active backend (threads unless inside backends.use(...)),
    or on `executor`: anything with submit(fn, arg), e.g. a distributed.Client. `engine`: see
    batch.engine_choice (the result is the same on either engine)."""
    seats = make_lineup(rules, strategies, paths)
    specialised, why = engine_choice(rules, seats, games, paths, engine=engine)
    # compile or load here: a strategy that does not compile fails with its message
    Runner(rules, seats, paths, specialised=specialised)
    n_series = -(-games // deals_per_series)
    lu = lineup(rules, seats, paths, specialised=specialised)
    chunks = (Chunk(lu, seed, s0, min(chunk, n_series - s0), deals_per_series)
             for s0 in range(0, n_series, chunk))
    tally = Tally(rules.num_players)
    pool = backends.pool(threads) if executor is None else backends.wrap(executor, threads)
    t0 = time.perf_counter()
    try:
        # at most 2 chunks per thread in flight: memory stays flat however many games
        for out in backends.stream(pool, play_chunk, chunks):
            tally.merge(Tally.from_arrays(out["tally"]))
            if progress:
                progress(tally.games)
    finally:
        pool.close()
    return RunResult(rules, seats, seed, games, deals_per_series, tally, time.perf_counter() - t0, pool.threads,
                     {"engine": why})
