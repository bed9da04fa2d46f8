"""Where tasks run: threads in this process (the default) or a Dask cluster.

A backend hands out a Pool: submit(fn, task) -> future, and `width`, how many tasks to keep in flight.
It knows nothing of games: the tasks (sim.experiments.tasks) are plain picklable values and top-level
functions, so the same work runs on threads or on any number of Dask workers with the same result.

    from sim.experiments import backends
    with backends.use(backends.DaskBackend("tcp://scheduler:8786")):
        exp.run()
"""
from __future__ import annotations

import contextlib
import os
from concurrent.futures import ThreadPoolExecutor

DASK_INSTALL = "pip install -e '.[dask]'"
DASK_DEPTH = 4  # tasks in flight per worker thread, relative to threads (measured: README, On a cluster)


class BackendError(ValueError):
    """Bad --backend / --scheduler input, Dask missing, or a cluster that cannot be reached."""


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


def env_seconds(name: str, default: float) -> float:
    """A duration in seconds from the environment (at least 0.1; the default when unset or not a number)."""
    try:
        return max(0.1, float(os.environ.get(name, default)))
    except ValueError:
        return default


def connect_seconds() -> float:
    """How long to try reaching a scheduler (DURAK_SCHEDULER_TIMEOUT, seconds; default 20)."""
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

    def warm(self, fn, arg):
        """Run fn(arg) once on every worker now (tasks.warm: compile or load the engines, so games/s leaves it
        out; workers joining later load theirs with their first task)."""
        client = self.client
        # one task pinned to each worker (not client.run: a compile would block the worker's event loop)
        futs = [client.submit(fn, arg, workers=[w], allow_other_workers=True, pure=False)
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

    def warm(self, fn, arg):
        """Threads share this process's engines: nothing to do ahead."""

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

    def warm(self, fn, arg):
        if self.backend is not None:
            self.backend.warm(fn, arg)

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
