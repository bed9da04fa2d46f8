"""Busy fraction of the workers: threads vs a LocalCluster of 2 worker processes, same chunks (2,000,000 games).

Each task times itself; utilisation = sum of task wall times / (2 x wall). Run: DURAK_CACHE_DIR=... python -m
research.bench_utilisation. Separates pipeline overhead (idle workers) from a loaded machine slowing everything.
"""
import logging, time, os
import distributed
from sim.core.rules import resolve
from sim.experiments import backends, batch
from sim.experiments import tasks as T

def timed(task):
    t = time.perf_counter(); c = time.process_time()
    T.play_chunk(task)
    return time.perf_counter() - t, time.process_time() - c, os.getpid()

if __name__ == "__main__":
    rules = resolve("podkidnoy", 2)
    lu = T.lineup(rules, batch.make_lineup(rules, ["greedy"]))
    T.runner_for(lu).play_raw(0, 0, 1)
    for chunk in (16384, 32768):
        tasks = [T.Chunk(lu, 1, s, chunk) for s in range(0, 2_000_000, chunk)]
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                      silence_logs=logging.CRITICAL) as lc, distributed.Client(lc) as client:
            b = backends.DaskBackend(client=client); b.warm(T.warm, [lu]); pool = b.pool()
            t = time.perf_counter()
            res = list(backends.stream(pool, timed, tasks))
            wall = time.perf_counter() - t
        busy = sum(r[0] for r in res); cpu = sum(r[1] for r in res)
        print(f"dask chunk {chunk}: wall {wall:.2f} s, task wall sum {busy:.2f} s (utilisation {busy / (2 * wall):.0%}), "
              f"task cpu {cpu:.2f} s, {len(tasks) * chunk / wall:,.0f} games/s")
        tp = backends.ThreadBackend(2).pool()
        t = time.perf_counter()
        res = list(backends.stream(tp, timed, tasks))
        wall = time.perf_counter() - t
        tp.close()
        busy = sum(r[0] for r in res); cpu = sum(r[1] for r in res)
        print(f"threads chunk {chunk}: wall {wall:.2f} s, task wall sum {busy:.2f} s (utilisation {busy / (2 * wall):.0%}), "
              f"process cpu {cpu:.2f} s, {len(tasks) * chunk / wall:,.0f} games/s", flush=True)
