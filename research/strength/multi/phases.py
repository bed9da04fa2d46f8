"""Where search's edge over expert lies at 6 players: search in one seat among greedy players decides only while a
given number of players is still in (and only some decision kinds), expert with its own tables decides the rest;
each variant is paired deal by deal with expert alone on the same deals (seats rotated).

    python -m research.strength.multi.phases                # 2,000 deals a row, ~15 min on 2 cores; writes phases.md
    python -m research.strength.multi.phases --deals 300    # a quick look
"""
import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from research import RESULTS
from sim.experiments.strength import mean_interval

HERE = RESULTS / "strength" / "multi"  # the page this writes

KINDS = {"podkidnoy": ("attack", "cover", "throw_in"), "prostoy_5": ("attack", "cover"),
         "prostoy_6": ("attack", "cover")}
# (family, players still in while search decides, kinds; None: all of the family's)
ROWS = [(f, a, None) for f in KINDS for a in ((2, 6), (4, 6), (3, 3), (2, 2))]
ROWS += [("podkidnoy", (2, 3), (k,)) for k in KINDS["podkidnoy"]]


def _run(job):
    from research.strength.multi import log_search as LS
    fam, act, kinds, deals, seed = job
    t = time.time()
    *_, x = LS.play(fam, 6, deals, list(kinds), seed, act=act, xparams=np.full(16, -99.0))
    return x, time.time() - t


def _ci(x):
    return "**{:+.1f}** [{:+.1f}, {:+.1f}]".format(*mean_interval(x))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--out", default=str(HERE / "phases.md"))
    a = ap.parse_args()
    jobs = [(f, (9, 9), (), a.deals, a.seed) for f in KINDS]  # expert alone: search never decides
    jobs += [(f, act, kinds or KINDS[f], a.deals, a.seed) for f, act, kinds in ROWS]
    t0 = time.time()
    with ProcessPoolExecutor(a.procs) as ex:
        outs = list(ex.map(_run, jobs))
    base = {j[0]: o[0] for j, o in zip(jobs, outs) if j[1] == (9, 9)}
    lines = ["# Where search's edge lies at 6 players", "",
             f"One seat among five greedy players, seats rotated, {a.deals:,} deals a row (seed {a.seed}). Search "
             "(default budget) decides only while the players still in are as shown, and only the decision kinds "
             "shown; expert (its own tables, endgame solver included) decides the rest. Difference = greedy's fool "
             "rate per seat minus that seat's (points, 95% interval over deals); gain = the same deals with expert "
             "alone, paired. Reproduce: `python -m research.strength.multi.phases --deals "
             f"{a.deals} --seed {a.seed}` ({(time.time() - t0) / 60:.0f} min on this machine).", "",
             "| family | search decides with | kinds | difference vs greedy | gain over expert alone |",
             "|---|---|---|---|---|"]
    for f in KINDS:
        lines.append(f"| {f} | nobody (expert alone) | - | {_ci(base[f])} | - |")
    for j, (x, _) in zip(jobs, outs):
        f, act, kinds = j[0], j[1], j[2]
        if act == (9, 9):
            continue
        who = f"{act[0]}-{act[1]} players in" if act[0] != act[1] else f"{act[0]} players in"
        lines.append(f"| {f} | {who} | {', '.join(kinds)} | {_ci(x)} | {_ci(x - base[f])} |")
    Path(a.out).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
