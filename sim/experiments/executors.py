"""Where chunks of games run: threads in this process (the default) or a Dask cluster.

Every runner (``batch.run``, ``Experiment.run``, ``Comparison.run``, and through them the tournament and
settle) ships its work as small picklable tasks — rules, line-up, the sources of user strategy folders
(keyed by a hash of their content), seed and series range — to one top-level function (``play_chunk``,
``play_paired``). A worker builds or loads the compiled engine from its own cache, keeps one Runner per
line-up per process, and sends back only a tally (a few arrays), so memory on the client stays flat.

A task depends on nothing but its own fields (every series draws its randomness from the seed and its
index), so a task lost with a killed worker is simply recomputed, and the merged result is the same bit
for bit whatever the backend, the number of workers or the chunk size.

    from sim.experiments import executors
    with executors.use(executors.DaskBackend("tcp://scheduler:8786")):
        exp.run()
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path


from sim.core.records import to_records
from sim.core.rules import Rules

DASK_INSTALL = "pip install -e '.[dask]'"
DASK_DEPTH = 4  # tasks in flight per worker thread, relative to threads (measured: README, On a cluster)


class BackendError(ValueError):
    """Bad --backend / --scheduler input, Dask missing, or a cluster that cannot be reached."""


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

    def key(self) -> tuple:
        return (self.rules.family, self.rules.num_players, tuple(sorted(self.rules.toggles.items())), self.seats,
                tuple(self.also), tuple(f.digest for f in self.folders))


def lineup(rules: Rules, seats, paths=(), also=()) -> Lineup:
    return Lineup(rules, tuple(seats), tuple(also), tuple(pack_folder(p) for p in paths))


def _local_folder(f: StrategyFolder) -> str:
    """A folder on this machine with exactly the shipped sources: the user's own folder when it is here with the
    same content (the client's process, a shared file system: the client's compile cache serves), else a folder
    per content hash in this machine's cache (DURAK_CACHE_DIR), written once."""
    for cand in (f.given, f.absolute):
        p = Path(cand)
        if p.is_dir() and Path(cand).resolve() == Path(f.absolute) and _digest(_read_folder(p)) == f.digest:
            return cand
    from sim.core import dispatch
    dest = dispatch.cache_dir() / "shipped" / f.digest
    if not dest.is_dir():
        tmp = dest.with_name(f"{f.digest}.tmp{os.getpid()}-{threading.get_ident()}")
        tmp.mkdir(parents=True, exist_ok=True)
        for name, data in f.files:
            (tmp / name).write_bytes(data)
        try:
            tmp.replace(dest)
        except OSError:  # another process wrote it first: the content is the same
            import shutil
            shutil.rmtree(tmp, ignore_errors=True)
    return str(dest)


_RUNNERS: dict = {}
_RUNNERS_LOCK = threading.Lock()


def runner_for(lu: Lineup):
    """This process's Runner for a line-up (built, i.e. the engine compiled or loaded, once per process)."""
    from sim.experiments.batch import Runner
    key = lu.key()
    r = _RUNNERS.get(key)
    if r is None:
        with _RUNNERS_LOCK:
            r = _RUNNERS.get(key)
            if r is None:
                local = tuple(_local_folder(f) for f in lu.folders)
                r = Runner(lu.rules, list(lu.seats), local, also=lu.also)
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
    from sim.experiments.batch import Tally
    runner = runner_for(task.lineup)
    with _user_paths(runner):
        recs = to_records(runner.play_raw(task.seed, task.series0, task.n_series, task.deals))
        t = Tally(task.lineup.rules.num_players)
        t.add(recs)
        verified = _verify(runner, task) if task.verify else 0
    return {"tally": t.to_arrays(), "records": recs if task.records else None, "verified": verified}


def _verify(runner, task: Chunk) -> int:
    """Every verify-th series of the chunk through the reference referee (as Experiment._verify)."""
    from sim import referee
    from sim.experiments.experiment import ExperimentError
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
    from sim.experiments.compare import PairedSums, metric_matrix
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


def _warm(lineups) -> int:
    """Build (compile or load) the engines of these line-ups in this worker process."""
    for lu in lineups:
        runner_for(lu).play_raw(0, 0, 1)
    return os.getpid()


# ---- backends ---------------------------------------------------------------------------------------------------
class ThreadBackend:
    """Threads in this process: the compiled core releases the GIL. Nothing to install."""
    name = "threads"

    def __init__(self, threads: int | None = None):
        self.threads = threads

    def pool(self, threads: int | None = None) -> "Pool":
        n = threads or self.threads or os.cpu_count() or 1
        return Pool(ThreadPoolExecutor(max_workers=n), n, own=True)

    def close(self):
        pass

    def describe(self) -> str:
        return "threads"


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise BackendError(f"--backend dask needs Dask's distributed scheduler: {DASK_INSTALL} "
                           "(or pip install 'dask[distributed]')") from None
    return distributed


def connect_seconds() -> float:
    """How long to try reaching a scheduler (DURAK_SCHEDULER_TIMEOUT, seconds; default 20)."""
    from sim.experiments.batch import env_seconds
    return env_seconds("DURAK_SCHEDULER_TIMEOUT", 20.0)


class DaskBackend:
    """A Dask cluster: an existing one (`address`, or a `client`), else a LocalCluster of `workers` processes
    (default: all cores) with one thread each, started on first use and closed by close()."""
    name = "dask"

    def __init__(self, address: str | None = None, workers: int | None = None, client=None):
        self.address = address
        self.workers = workers
        self._client = client
        self._own = client is None
        self._cluster = None
        _import_distributed()

    @property
    def client(self):
        if self._client is None:
            distributed = _import_distributed()
            try:
                if self.address:
                    self._client = distributed.Client(self.address, timeout=f"{connect_seconds():g}s")
                else:
                    import logging
                    self._cluster = distributed.LocalCluster(
                        n_workers=self.workers or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                        dashboard_address=":0", silence_logs=logging.CRITICAL)
                    self._client = distributed.Client(self._cluster)
            except (OSError, TimeoutError, ValueError) as e:
                where = f"the Dask scheduler at {self.address}" if self.address else "a local Dask cluster"
                raise BackendError(f"cannot reach {where}: {e}".splitlines()[0]) from None
        return self._client

    def pool(self, threads: int | None = None) -> "Pool":
        return DaskPool(self.client, self)

    def warm(self, lineups):
        """Compile or load the engines on every worker now, so games/s leaves it out (workers joining later
        load theirs with their first task)."""
        client = self.client
        lineups = list(lineups)
        # one task pinned to each worker (not client.run: a compile would block the worker's event loop)
        futs = [client.submit(_warm, lineups, workers=[w], allow_other_workers=True, pure=False)
                for w in client.scheduler_info()["workers"]]
        try:
            client.gather(futs)
        except ImportError as e:
            raise BackendError(f"a Dask worker cannot run durak-sim ({e}): install the same version of the package "
                               "on every worker (see the README, On a cluster)") from None

    def close(self):
        if self._own and self._client is not None:
            self._client.close()
            if self._cluster is not None:
                self._cluster.close()
            self._client = self._cluster = None

    def describe(self) -> str:
        return f"dask ({self.address or 'local cluster'})"


class Pool:
    """What the runners submit to: submit(fn, task) -> a future with .result(); width; close().

    `width` is how many tasks the runners keep in flight: 2 per thread here (one running, one waiting); on
    a cluster 2 * DASK_DEPTH per worker thread, so the round trip through the scheduler and the in-order
    merge never leave a worker idle (results are a few small arrays: memory stays flat)."""

    def __init__(self, executor, width: int, own: bool = False):
        self.executor = executor
        self.width = width
        self.threads = width  # threads that play at once
        self.own = own

    def submit(self, fn, task):
        return self.executor.submit(fn, task)

    def warm(self, lineups):
        pass

    def close(self):
        if self.own:
            self.executor.shutdown(wait=True, cancel_futures=True)


class DaskPool(Pool):
    def __init__(self, client, backend: DaskBackend | None = None):
        self.backend = backend
        threads = max(1, sum(client.nthreads().values()))
        super().__init__(client, DASK_DEPTH * threads)
        self.threads = threads
        self.futures: set = set()

    def submit(self, fn, task):
        # pure=False: every task is its own piece of work (the same chunk submitted twice runs twice)
        fut = self.executor.submit(fn, task, pure=False)
        self.futures.add(fut)
        fut.add_done_callback(self.futures.discard)
        return fut

    def warm(self, lineups):
        if self.backend is not None:
            self.backend.warm(lineups)

    def close(self):
        pending = [f for f in list(self.futures) if not f.done()]
        if pending:
            self.executor.cancel(pending)
        self.futures.clear()


_ACTIVE: list = [ThreadBackend()]


def active():
    """The backend runners use now (threads unless inside `use(...)`)."""
    return _ACTIVE[-1]


@contextlib.contextmanager
def use(backend):
    """Run every experiment, comparison and batch inside this block on `backend`."""
    _ACTIVE.append(backend)
    try:
        yield backend
    finally:
        _ACTIVE.remove(backend)


def pool(threads: int | None = None) -> Pool:
    return active().pool(threads)


def wrap(executor, threads: int | None = None) -> Pool:
    """Any object with submit(fn, arg) -> future (a ThreadPoolExecutor, a distributed.Client, ...)."""
    if hasattr(executor, "nthreads") and callable(executor.nthreads):  # a distributed.Client
        return DaskPool(executor)
    return Pool(executor, threads or os.cpu_count() or 1)


def make_backend(backend: str = "threads", scheduler: str | None = None, threads: int | None = None,
                 env: bool = True):
    """The backend of a command line: --backend threads|dask, --scheduler ADDRESS (or DURAK_SCHEDULER)."""
    backend = (backend or "threads").lower()
    if backend not in ("threads", "dask"):
        raise BackendError(f"--backend must be threads or dask, not {backend!r}")
    if scheduler and backend == "threads":
        raise BackendError("--scheduler needs --backend dask (threads run in this process)")
    if backend == "threads":
        return ThreadBackend(threads)
    address = scheduler or (os.environ.get("DURAK_SCHEDULER") if env else None) or None
    return DaskBackend(address=address, workers=threads)


# ---- the runners' side ------------------------------------------------------------------------------------------
class ChunkJobs:
    """Experiment.run's hook: its chunks as tasks on the active backend; results as (Tally, records)."""

    def __init__(self, exp, threads: int | None = None):
        self.exp = exp
        self.lineups = [lineup(exp.rules, lu, exp.paths, exp.also) for lu in exp.lineups]
        self.pool = pool(threads)
        self.pool.warm(self.lineups)
        self.width = self.pool.width

    def submit(self, c: int, r: int):
        e = self.exp
        task = Chunk(self.lineups[r], e.seed, c * e.chunk, e._series_in_round(c), e.deals_per_series,
                     e.records, e.verify)
        return _Result(self.pool.submit(play_chunk, task), e)

    def close(self):
        self.pool.close()


class _Result:
    """A future whose result() is (Tally, records or None), counting verified series into the experiment."""

    def __init__(self, fut, exp):
        self.fut = fut
        self.exp = exp

    def result(self):
        from sim.experiments.batch import Tally
        out = self.fut.result()
        self.fut = None  # let the cluster drop the result
        if out["verified"]:
            self.exp.verified += out["verified"]
        return Tally.from_arrays(out["tally"]), out["records"]


def stream(pool: Pool, fn, tasks, ahead: int | None = None):
    """Results of fn(task) in task order, with at most `ahead` tasks in flight (memory stays flat)."""
    ahead = ahead or 2 * pool.width
    it = iter(tasks)
    pending = []
    try:
        for t in it:
            pending.append(pool.submit(fn, t))
            if len(pending) >= ahead:
                break
        while pending:
            out = pending.pop(0).result()
            nxt = next(it, None)
            if nxt is not None:
                pending.append(pool.submit(fn, nxt))
            yield out
    finally:
        pending.clear()


# ---- the command line -------------------------------------------------------------------------------------------
def cli_options(command):
    """--backend and --scheduler for a click command; the command body runs with that backend active."""
    import click

    @click.option("--backend", type=click.Choice(["threads", "dask"]), default=None,
                  help="Where games run: threads in this process (default), or a Dask cluster (a local one of "
                       f"--threads processes unless --scheduler; needs {DASK_INSTALL}). Results do not depend "
                       "on it.")
    @click.option("--scheduler", default=None, metavar="ADDRESS",
                  help="Address of a running Dask scheduler, e.g. tcp://10.0.0.5:8786 (implies --backend dask; "
                       "default with --backend dask: $DURAK_SCHEDULER, else a local cluster).")
    @functools.wraps(command)
    def wrapper(*args, backend, scheduler, **kw):
        if backend is None:
            backend = "dask" if scheduler else "threads"
        try:
            b = make_backend(backend, scheduler, kw.get("threads") or None)
        except BackendError as e:
            raise click.ClickException(str(e)) from None
        try:
            with use(b):
                return command(*args, **kw)
        except BackendError as e:
            raise click.ClickException(str(e)) from None
        finally:
            b.close()
    return wrapper
