"""How strong and how fast the learned player is: head to head against expert (seats rotated, 95% intervals) and
games/s with one strategy in every seat on one thread, every family at 2, 3, 4 and 6 players.

    python -m sim.learn.evaluate --games 20000 --seed 41 --out results/strength/learned

writes learned.json and learned.md there (the tables of results/strength/README.md).
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from sim.core import rules as R
from sim.experiments import batch, strength

CELLS = tuple((f, n) for n in (2, 3, 4, 6) for f in R.FAMILIES)
ALSO = ("expert", "greedy", "learned")


def speed(family: str, n: int, spec: str, games: int, seed: int = 1) -> float:
    """Games/s of `spec` in every seat on one engine thread (compiling and a 50-deal warm-up left out)."""
    rules = R.resolve(family, n)
    r = batch.Runner(rules, batch.make_lineup(rules, [spec] * n), also=ALSO)
    r.play_raw(seed, 0, 50)
    t = time.perf_counter()
    r.play_raw(seed, 0, games)
    return games / (time.perf_counter() - t)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20000, help="deals per head-to-head cell (2 players; half at 3-6)")
    ap.add_argument("--speed-games", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", type=Path, default=Path("results/strength/learned"))
    ap.add_argument("--cells", default="", help="e.g. podkidnoy:2,perevodnoy:2 (default: all)")
    a = ap.parse_args(argv)
    cells = [(c.split(":")[0], int(c.split(":")[1])) for c in a.cells.split(",")] if a.cells else CELLS
    rows = []
    for fam, n in cells:
        g = a.games if n == 2 else a.games // 2
        h = strength.head_to_head(fam, n, "learned", "expert", g, seed=a.seed, threads=a.threads)
        row = {"family": fam, "players": n, "games": h["games"], "seed": a.seed, "diff": h["diff_points"],
               "lo": h["diff_lo"], "hi": h["diff_hi"], "learned_fool": h["tested_fool"],
               "expert_fool": h["opponent_fool_per_seat"], "draws": h["draws"], "unfinished": h["unfinished"]}
        if n in (2, 4):
            row["learned_games_s"] = speed(fam, n, "learned", a.speed_games)
            row["expert_games_s"] = speed(fam, n, "expert", a.speed_games)
        rows.append(row)
        print(json.dumps(row), flush=True)
    a.out.mkdir(parents=True, exist_ok=True)
    (a.out / "learned.json").write_text(json.dumps(rows, indent=1) + "\n")
    lines = ["| family | players | learned vs expert, points [95%] | deals | games/s learned / expert (1 thread) |",
             "|---|---|---|---|---|"]
    for r in rows:
        sp = (f"{r['learned_games_s']:,.0f} / {r['expert_games_s']:,.0f} "
              f"({r['learned_games_s'] / r['expert_games_s']:.2f}x)") if "learned_games_s" in r else ""
        lines.append(f"| {r['family']} | {r['players']} | {r['diff']:+.1f} [{r['lo']:+.1f}, {r['hi']:+.1f}] | "
                     f"{r['games']:,} | {sp} |")
    (a.out / "learned.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
