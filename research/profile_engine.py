"""Where a compiled engine spends its time, function by function: `perf` with numba's functions named.

    python -m research.profile_engine --rules perevodnoy --players 2 --strategy expert --games 400000
    python -m research.profile_engine --strategy greedy --engine lean --games 5000000 --top 15

perf finds no symbols for code numba compiled at run time. This compiles the engine afresh (into a temporary cache:
code loaded from numba's cache keeps no module to name its functions), writes /tmp/perf-<pid>.map from the address
of every compiled function (each taken to run to the next one's start), records the deals with `perf record`
attached to this process only, and prints perf's table by function. Needs Linux `perf`. Inlined functions count
in their caller: the lean and general engines keep the kernels apart, the specialised one inlines most of them
into `play`. The compile takes one to seven minutes, by line-up.
"""
from __future__ import annotations

import argparse
import gc
import os
import shutil
import subprocess
import sys
import tempfile
import time


def perf_map(path: str) -> int:
    """Write a perf map of every function numba has compiled in this process; returns how many."""
    from numba.core.codegen import CPUCodeLibrary
    addrs = {}
    for lib in [o for o in gc.get_objects() if isinstance(o, CPUCodeLibrary)]:
        mod = getattr(lib, "_final_module", None)
        if mod is None:
            continue
        for f in mod.functions:
            if f.is_declaration:
                continue
            try:
                a = lib.get_pointer_to_function(f.name)
            except Exception:  # a function the engine never finalised
                continue
            if a:
                addrs[a] = f.name
    items = sorted(addrs.items())
    with open(path, "w") as fh:
        for (a, name), (b, _) in zip(items, items[1:] + [(items[-1][0] + 4096, "")]):
            fh.write(f"{a:x} {min(b - a, 1 << 20):x} {name}\n")
    return len(items)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rules", default="podkidnoy")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--strategy", action="append", help="per seat, or once for every seat (default: greedy)")
    ap.add_argument("--engine", default="general", choices=("general", "lean", "specialised"))
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--top", type=int, default=25, help="functions shown")
    a = ap.parse_args(argv)
    if shutil.which("perf") is None:
        print("error: this needs Linux perf (the `perf` command was not found)", file=sys.stderr)
        return 2
    cache = tempfile.mkdtemp(prefix="durak_profile_")
    os.environ["DURAK_CACHE_DIR"] = cache
    os.environ["NUMBA_CACHE_DIR"] = os.path.join(cache, "numba")
    from sim.core.rules import resolve
    from sim.experiments.batch import Runner, make_lineup
    rules = resolve(a.rules, a.players)
    specs = a.strategy or ["greedy"]
    runner = Runner(rules, make_lineup(rules, specs * a.players if len(specs) == 1 else specs), specialised=a.engine)
    print(f"compiling the {a.engine} engine afresh in {cache} ...", flush=True)
    runner.play_raw(1, 0, 20)
    n = perf_map(f"/tmp/perf-{os.getpid()}.map")
    data = os.path.join(cache, "perf.data")
    rec = subprocess.Popen(["perf", "record", "-F", "2000", "-p", str(os.getpid()), "-o", data],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.0)  # perf attached
    t0 = time.perf_counter()
    chunk = 100_000
    for s in range(0, a.games, chunk):  # in chunks, as durak run plays: one chunk's rows, reused
        runner.play_raw(1, s, min(chunk, a.games - s), reuse=True)
    dt = time.perf_counter() - t0
    rec.send_signal(2)
    rec.wait()
    print(f"{a.games:,} games in {dt:.2f} s ({a.games / dt:,.0f} games/s, under perf); {n} functions named\n")
    out = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "symbol", "--stdio"],
                         capture_output=True, text=True).stdout
    rows = [x for x in out.splitlines() if "%" in x and not x.startswith("#")][:a.top]
    for x in rows:
        share, _, name = x.strip().partition(" ")
        print(f"{share:>8}  {_short(name.strip())}")
    shutil.rmtree(cache, ignore_errors=True)
    os.remove(f"/tmp/perf-{os.getpid()}.map")
    return 0


def _short(symbol: str) -> str:
    """`[.] _ZN10strategies6expert5coverB5v...` -> `strategies.expert.cover` (numba's mangled names, shortened)."""
    s = symbol.removeprefix("[.] ").removeprefix("[k] ").split()[0]
    if not s.startswith("_ZN"):
        return s
    s, parts = s[3:], []
    while s and s[0].isdigit():
        k = 0
        while s[k].isdigit():
            k += 1
        size = int(s[:k])
        parts.append(s[k:k + size])
        s = s[k + size:]
    return ".".join(parts)


if __name__ == "__main__":
    raise SystemExit(main())
