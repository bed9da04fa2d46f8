"""Threads against a local Dask cluster on this machine: games/s of the same run, and the per-task overhead.

    DURAK_CACHE_DIR=... python -m research.bench_backends [GAMES] [REPEATS] [CHUNKS]   (REPEATS 0: task cost only)

Runs `durak run --games GAMES --json` alternately with --threads 2 and with --backend dask --threads 2
(a LocalCluster of 2 worker processes of 1 thread) at several chunk sizes (CHUNKS: 16384,65536,4096), REPEATS times interleaved (the
machine may be shared: compare the pairs, not single numbers), then times near-empty tasks (1 series each)
through both backends to give the cost of one task. games/s is the run's own "seconds" field: engine
compile/load and cluster start are left out on both sides.
"""
import json
import os
import subprocess
import sys
import time

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 2_000_000
REPEATS = int(sys.argv[2]) if len(sys.argv) > 2 else 2
CHUNKS = [int(c) for c in (sys.argv[3] if len(sys.argv) > 3 else "16384,65536,4096").split(",")]
DURAK = os.path.join(os.path.dirname(sys.executable), "durak")


def run(*extra):
    cmd = [DURAK, "run", "--games", str(GAMES), "--seed", "1", "--no-save", "--json", "--quiet", "--threads", "2",
           *extra]
    t = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    wall = time.perf_counter() - t
    d = json.loads(out)
    return d["games"] / d["seconds"], wall, {k: v for k, v in d.items() if k not in ("seconds",)}


def task_overhead(n=400):
    import logging

    import distributed

    from sim.core.rules import resolve
    from sim.experiments import backends, batch
    from sim.experiments import tasks as T
    rules = resolve("podkidnoy", 2)
    lu = T.lineup(rules, batch.make_lineup(rules, ["greedy"]))
    tasks = [T.Chunk(lu, 1, i, 1) for i in range(n)]
    T.runner_for(lu).play_raw(0, 0, 1)
    out = {}
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=logging.ERROR) as lc, distributed.Client(lc) as client:
        backend = backends.DaskBackend(client=client)
        backend.warm(T.warm, [lu])
        for name, pool in (("threads", backends.ThreadBackend(2).pool()), ("dask", backend.pool())):
            for ahead in (4, 32):  # 4: what the runners keep in flight on 2 workers; 32: latency hidden
                list(backends.stream(pool, T.play_chunk, tasks[:20], ahead))
                t = time.perf_counter()
                list(backends.stream(pool, T.play_chunk, tasks, ahead))
                out[name, ahead] = (time.perf_counter() - t) / n  # wall seconds per task, 2 workers
            pool.close()
    return out


if __name__ == "__main__":
    if REPEATS == 0:
        ov = task_overhead()
        for ahead in (4, 32):
            print(f"wall time per 1-series task on 2 workers, {ahead} in flight: threads "
                  f"{1e3 * ov['threads', ahead]:.2f} ms, dask {1e3 * ov['dask', ahead]:.2f} ms")
        sys.exit()
    ref = None
    rows = []
    for rep in range(REPEATS):
        for label, extra in [("threads", ())] + [(f"dask chunk {c}", ("--backend", "dask", "--chunk", str(c)))
                                                 for c in CHUNKS]:
            rate, wall, d = run(*extra)
            ref = ref or d
            same = d == ref
            rows.append((rep, label, rate, wall, same))
            print(f"round {rep + 1}  {label:<18} {rate:>10,.0f} games/s  (wall {wall:5.1f} s)  "
                  f"JSON same as first threads run: {same}", flush=True)
    for label in dict.fromkeys(r[1] for r in rows):
        if label != "threads":
            ratios = [r[2] / t[2] for r, t in zip([r for r in rows if r[1] == label],
                                                     [r for r in rows if r[1] == "threads"])]
            print(f"{label}: cluster/threads per round: {', '.join(f'{x:.2f}' for x in ratios)}")
    ov = task_overhead()
    for ahead in (4, 32):
        print(f"wall time per 1-series task on 2 workers, {ahead} in flight: threads "
              f"{1e3 * ov['threads', ahead]:.2f} ms, dask {1e3 * ov['dask', ahead]:.2f} ms")
