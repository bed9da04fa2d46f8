"""Unfinished deals (RUL-22: still going after 1,000 bouts) for every library strategy, every family, 2-6 players.

Reproduce with one command (writes results/strength/unfinished.md and unfinished.json):

    DURAK_CACHE_DIR=/tmp/dc nice -n 10 python -m research.strength.unfinished           # 20,000 games a cell
    python -m research.strength.unfinished --games 2000 --slow-games 40                # a quick look

Line-ups per strategy S, family and player count: S in every seat ("alone"), S in one seat with
greedy in the others and S in one seat with expert in the others ("vs greedy", "vs expert"; S rotated
through the seats, games / n per seat). `search` and `rollout` are slow: they play --slow-games per cell
(alone and against expert only). A cell's interval is the 95% Wilson upper bound of the unfinished rate.
"""
import argparse
import json
import sys
import time
from pathlib import Path

from research import RESULTS
from sim.core import dispatch
from sim.core import rules as R
from sim.experiments import tasks
from sim.experiments.stats import wilson

HERE = RESULTS / "strength"  # the pages this writes
FAMILIES = ("prostoy_5", "prostoy_6", "podkidnoy", "perevodnoy")
SLOW = ("search", "rollout")


def upper(k, n):
    """The 95% Wilson upper bound of k unfinished in n (1.0 for n == 0)."""
    return float(wilson(k, n)[1])


def cell(fam, n, s, opp, games, seed, threads):
    rules = R.resolve(fam, n)
    if opp is None:
        t = tasks.run(rules, [s] * n, games=games, seed=seed, threads=threads).tally
        return t.games, t.unfinished
    g = u = 0
    for k in range(n):
        lu = [opp] * n
        lu[k] = s
        t = tasks.run(rules, lu, games=max(1, games // n), seed=seed + k, threads=threads).tally
        g += t.games
        u += t.unfinished
    return g, u


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--slow-games", type=int, default=60)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--strategies", default="", help="comma-separated subset (default: the whole library)")
    ap.add_argument("--players", default="2,3,4,5,6")
    ap.add_argument("--out", default=str(HERE / "unfinished"))
    a = ap.parse_args()
    names = sorted(dispatch.discover())
    if a.strategies:
        names = [x for x in a.strategies.split(",") if x]
    fast = [x for x in names if x not in SLOW]
    # one engine for every fast line-up (compiled once)
    orig = dispatch.engine_for
    dispatch.engine_for = lambda ns, paths=(): orig(sorted(set(ns) | set(fast)) if not (set(ns) & set(SLOW))
                                                     else list(ns), paths)
    rows = []
    t0 = time.time()
    for s in names:
        slow = s in SLOW
        fams = dispatch.info(s).families or FAMILIES
        for fam in FAMILIES:
            if fam not in fams:
                continue
            for n in [int(x) for x in a.players.split(",")]:
                for opp in ((None, "expert") if slow else (None, "greedy", "expert")):
                    if opp == s:
                        continue
                    g, u = cell(fam, n, s, opp, a.slow_games if slow else a.games, a.seed, a.threads)
                    r = {"strategy": s, "family": fam, "players": n, "with": opp or "alone", "games": g,
                         "unfinished": u, "rate": u / g, "upper95": upper(u, g)}
                    rows.append(r)
                    if u:
                        print(f"{s:18} {fam:10} {n} {opp or 'alone':7} {u}/{g} = {100 * u / g:.3f}%", flush=True)
    out = {"rows": rows, "args": vars(a), "seconds": time.time() - t0}
    Path(a.out + ".json").write_text(json.dumps(out, indent=0))
    render(out, Path(a.out + ".md"))


def render(out, path):
    rows = out["rows"]
    a = out["args"]
    bad = [r for r in rows if r["rate"] > 0.0001]
    md = ["# Unfinished deals per strategy, family and player count", "",
          f"Reproduce: `python -m research.strength.unfinished --games {a['games']} --slow-games {a['slow_games']}` "
          f"({out['seconds'] / 60:.0f} min on 2 shared cores). Unfinished = still going after 1,000 bouts (RUL-22); "
          "target <= 0.01% in every cell.", "",
          f"**{len(rows)} cells, {sum(r['games'] for r in rows):,} deals, {sum(r['unfinished'] for r in rows):,} "
          f"unfinished; cells above 0.01%: {len(bad)}.**", "",
          f"Each cell: {a['games']:,} deals (alone; against greedy or expert: S rotated through the seats, "
          f"games / n each); `search` and `rollout` (slow) {a['slow_games']} deals a cell, alone and against "
          "expert: too few to bound their rate at 0.01%, but their playouts are expert's. The mechanism: "
          "the public `O_QUIET` (bouts in a row without a discard or a draw) makes every `strategies/_lib.py` "
          "strategy and greedy vary their play once it reaches 12 (`strategies/_lib.py` docstring). Before: "
          "`unfinished_before.md` (280 of 580 cells above 0.01%, 23,104 unfinished deals).", ""]
    strats = sorted({r["strategy"] for r in rows})
    for s in strats:
        md += [f"## {s}", "", "| family | with | 2 | 3 | 4 | 5 | 6 |", "|---|---|---|---|---|---|---|"]
        for fam in FAMILIES:
            for w in ("alone", "greedy", "expert"):
                cs = {r["players"]: r for r in rows if r["strategy"] == s and r["family"] == fam and r["with"] == w}
                if not cs:
                    continue
                cells = []
                for n in range(2, 7):
                    r = cs.get(n)
                    if r is None:
                        cells.append("")
                    else:
                        t = f"{r['unfinished']}/{r['games']}"
                        cells.append(f"**{t}**" if r["rate"] > 0.0001 else t)
                md.append(f"| {fam} | {w} | " + " | ".join(cells) + " |")
        md.append("")
    path.write_text("\n".join(md) + "\n")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--render":
        o = json.loads(Path(sys.argv[2]).read_text())
        render(o, Path(sys.argv[2]).with_suffix(".md"))
    else:
        main()
