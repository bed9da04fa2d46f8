"""Backends: the same seed gives bit-identical results on threads and on a Dask cluster (1 or 2 workers, any
chunk size, with a worker killed mid-run, resumed); strategy sources travel with the tasks; clear errors.

The cluster tests use a LocalCluster of 2 small worker processes (greedy only: the engine is compiled here
first, the workers load it from the cache) and take well under a minute together."""
import json
import os
import signal
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.core import rules as R
from sim.core.records import to_records
from sim.experiments import backends, batch, tasks
from sim.experiments import experiment as X
from sim.experiments.compare import Arm, Comparison
from sim.experiments.paired import PairedSums, metric_matrix

GAMES = 24_000


def _summary(exp):
    d = exp.summary()
    d.pop("seconds"), d.pop("status")
    return d


def _experiment(**kw):
    args = dict(strategies=["greedy"], games=GAMES, seed=5, chunk=2000)
    args.update(kw)
    return X.experiment("podkidnoy", 2, **args)


@pytest.fixture(scope="module")
def threads_result():
    return _summary(_experiment().run())  # also compiles or loads the engine here, before any worker needs it


@pytest.fixture(scope="module")
def cluster(threads_result):
    distributed = pytest.importorskip("distributed")
    import logging
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  silence_logs=logging.ERROR) as lc, distributed.Client(lc) as client:
        yield client


def test_a_cluster_of_2_workers_gives_the_threads_result_bit_for_bit_at_any_chunk_size(cluster, threads_result):
    backend = backends.DaskBackend(client=cluster)
    with backends.use(backend):
        for chunk in (2000, 700, 24_000):
            exp = _experiment(chunk=chunk).run()
            assert _summary(exp) == threads_result, chunk
    assert backends.active().name == "threads"  # the block ended: back to threads


def test_the_tasks_give_what_the_core_gives_in_one_call(threads_result):
    """Independent of the task path: one call of the core over all series gives the same tallies."""
    exp = _experiment()
    runner = batch.Runner(exp.rules, exp.lineups[0])
    direct = batch.Tally(2)
    direct.add(to_records(runner.play_raw(5, 0, GAMES)))
    assert threads_result["seats"] == [{"seat": s, "strategy": "greedy", "escaped": int(direct.escaped[s]),
                                        "drew": int(direct.drew[s]), "fool": int(direct.fool[s]),
                                        "cards_taken": int(direct.taken[s])} for s in range(2)]
    assert threads_result["draws"] == direct.draws and threads_result["games"] == direct.games


@pytest.mark.slow  # each worker process compiles its own traced engine
def test_referee_verification_runs_on_the_workers(cluster):
    t = _experiment(games=6000, verify=1500).run()
    with backends.use(backends.DaskBackend(client=cluster)):
        d = _experiment(games=6000, verify=1500).run()
    assert t.verified == d.verified == 4 and _summary(t) == _summary(d)


def test_a_cluster_of_1_worker_gives_the_same_result(threads_result):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0") as lc, \
            distributed.Client(lc) as client, backends.use(backends.DaskBackend(client=client)):
        assert _summary(_experiment(chunk=3000).run()) == threads_result


def test_batch_run_and_a_comparison_on_the_cluster_equal_threads(cluster):
    rules = R.resolve("podkidnoy", 2)
    a = tasks.run(rules, ["greedy"], games=9000, seed=3, threads=2, chunk=1000).tally
    b = tasks.run(rules, ["greedy"], games=9000, seed=3, chunk=4000, executor=cluster).tally  # a Client as executor
    for f in a._SCALAR_FIELDS + a._ARRAY_FIELDS:
        assert np.array_equal(getattr(a, f), getattr(b, f)), f

    def comparison():
        ra = R.resolve("prostoy_5", 2, {"trump_six_exchange": True})
        rb = R.resolve("prostoy_5", 2, {"trump_six_exchange": False})
        return Comparison(Arm("A", ra, batch.make_lineup(ra, ["greedy"])), Arm("B", rb, batch.make_lineup(rb, ["greedy"])),
                          seed=4, games=6000, chunk=1500, threads=2)
    t = comparison().run()
    # independent of the task path: both arms over all 6000 series in one call of the core each
    mats = [metric_matrix(to_records(batch.Runner(arm.rules, arm.seats).play_raw(4, 0, 6000)), 2, 0)
            for arm in (t.a, t.b)]
    direct = PairedSums(mats[0].shape[1])
    direct.add(*mats)
    with backends.use(backends.DaskBackend(client=cluster)):
        d = comparison().run()
    for f in ("n", "sa", "sb", "saa", "sbb", "sab"):
        assert np.array_equal(getattr(t.sums, f), getattr(d.sums, f)), f
        assert np.array_equal(getattr(t.sums, f), getattr(direct, f)), f
    assert t.table().equals(d.table())


def test_cli_run_with_a_scheduler_address_prints_the_threads_json(cluster):
    args = ["run", "--games", "6000", "--seed", "9", "--chunk", "1000", "--no-save", "--json", "--quiet"]
    res_t = CliRunner().invoke(main, args + ["--threads", "2"])
    res_d = CliRunner().invoke(main, args + ["--scheduler", cluster.scheduler_info()["address"]])
    assert res_t.exit_code == 0 and res_d.exit_code == 0, res_d.output
    dt, dd = json.loads(res_t.output), json.loads(res_d.output)
    dt.pop("seconds"), dd.pop("seconds")
    assert dd == dt


def test_a_run_interrupted_on_threads_resumes_on_the_cluster(cluster, threads_result, tmp_path):
    exp = _experiment(out=tmp_path / "run")

    def stop_after_3(done, total, n=[0]):
        n[0] += 1
        if n[0] >= 3:
            raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        exp.run(progress=stop_after_3)
    with backends.use(backends.DaskBackend(client=cluster)):
        resumed = X.resume(tmp_path / "run").run()
    assert _summary(resumed) == threads_result
    assert len(list((tmp_path / "run" / "chunks").glob("*.npz"))) == GAMES // 2000  # the cluster's chunks saved


def test_strategy_sources_travel_with_the_task(tmp_path, monkeypatch):
    """A worker without the user's folder writes the shipped sources into its cache, once per content hash;
    a worker that has the folder with the same content uses it as it is."""
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "cautious.py").write_text("NAME = 'cautious'\n")
    (folder / "_helpers.py").write_text("X = 1\n")
    f = tasks.pack_folder(folder)
    assert tasks._local_folder(f) == str(folder)
    monkeypatch.setenv("DURAK_CACHE_DIR", str(tmp_path / "worker-cache"))
    elsewhere = tasks.StrategyFolder("mine", "/nonexistent/mine", f.digest, f.files)
    local = tasks._local_folder(elsewhere)
    assert local == str(tmp_path / "worker-cache" / "shipped" / f.digest)
    assert sorted(p.name for p in (tmp_path / "worker-cache" / "shipped" / f.digest).iterdir()) == \
        ["_helpers.py", "cautious.py"]
    assert tasks._local_folder(elsewhere) == local  # written once
    (folder / "cautious.py").write_text("NAME = 'cautious'  # edited\n")  # new content, new hash
    assert tasks.pack_folder(folder).digest != f.digest
    assert tasks._local_folder(f) == local  # the folder here changed: the shipped sources are used


def test_backend_errors_are_one_line(monkeypatch):
    res = CliRunner().invoke(main, ["run", "--games", "10", "--no-save", "--backend", "threads",
                                    "--scheduler", "tcp://127.0.0.1:1"])
    assert res.exit_code != 0 and "--scheduler needs --backend dask" in res.output and "Traceback" not in res.output
    pytest.importorskip("distributed")
    monkeypatch.setenv("DURAK_SCHEDULER", "tcp://127.0.0.1:1")  # nobody listens there
    monkeypatch.setenv("DURAK_SCHEDULER_TIMEOUT", "0.5")
    res = CliRunner().invoke(main, ["run", "--games", "10", "--no-save", "--backend", "dask"])
    assert res.exit_code == 1 and res.output.startswith("Error: cannot reach the Dask scheduler at tcp://127.0.0.1:1")
    assert len(res.output.strip().splitlines()) == 1
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if Dask were not installed
    for cmd in (["run", "--games", "10", "--no-save"], ["compare", "--games", "10", "--no-save"],
                ["tournament", "--strategy", "greedy", "--strategy", "random", "--no-save"],
                ["settle", "draws", "--scale", "0.001"]):
        res = CliRunner().invoke(main, cmd + ["--backend", "dask"])
        assert res.exit_code == 1, cmd
        assert res.output.strip().splitlines() == [
            "Error: --backend dask needs Dask's distributed scheduler: pip install -e '.[dask]' "
            "(or pip install 'dask[distributed]')"], cmd


def test_a_worker_killed_mid_run_loses_only_its_chunks(cluster, threads_result):
    """SIGKILL one worker process while chunks are in flight: Dask recomputes them elsewhere (the nanny restarts
    the worker) and the result is the same bit for bit."""
    before = cluster.run(os.getpid)
    victim = sorted(before.values())[0]
    killed = []

    def progress(done, total):
        if not killed:
            os.kill(victim, signal.SIGKILL)  # chunks of this worker are in flight: 4 are submitted ahead
            killed.append(done)
    with backends.use(backends.DaskBackend(client=cluster)):
        exp = _experiment(chunk=1000).run(progress=progress)
    assert killed and _summary(exp) == threads_result
    assert victim not in cluster.run(os.getpid).values()
