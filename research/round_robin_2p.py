"""Round-robin of the strategy library, 2 players: podkidnoy, prostoy_5, perevodnoy.

Every pair of strategies that play the family meets for 200,000 deals: 100,000 with A in seat 0
and 100,000 with the seats reversed (same seed, so the same deals). Rates are per finished deal
with 95% Wilson intervals (sim.experiments.stats.wilson). One compiled engine serves every line-up
(dispatch.engine_for is asked for the full set of names each time).

    .venv/bin/python -m research.round_robin_2p > results/round_robin_2p.md
"""
import itertools
import sys
import time

from sim.core import dispatch
from sim.core import rules as R
from sim.experiments import tasks
from sim.experiments.stats import wilson

FAMILIES = ("podkidnoy", "prostoy_5", "perevodnoy")
GAMES_PER_ORDER = 100_000
SEED = 2024
THREADS = 2

# the search players (search, rollout: tens of games a second) are measured on their own in results/strength/
SLOW = ("search", "rollout")
ALL = sorted(n for n in dispatch.discover() if n not in SLOW)


def one_engine():
    """Every line-up asks for the full set of names: one compiled engine serves them all."""
    orig = dispatch.engine_for
    dispatch.engine_for = lambda names, paths=(): orig(list(names) + ALL, paths)


def pct(k, n):
    lo, hi = wilson(k, n)
    return f"{100 * k / n:.2f} [{100 * lo:.2f}, {100 * hi:.2f}]"


def main():
    one_engine()
    t_start = time.time()
    out = ["# Round-robin, 2 players: every pair of strategies, seats swapped",
           "",
           f"Each pair: {2 * GAMES_PER_ORDER:,} deals ({GAMES_PER_ORDER:,} per seat order, seed {SEED}), default rules of",
           "the family. Rates in % of finished deals with 95% Wilson intervals; `A escaped` = B is the fool.",
           "`A - B fool` is B's fool rate minus A's in points (positive: A is better). Produced by",
           "`python -m research.round_robin_2p` (sim.experiments.tasks.run, 2 threads). The search players (search,",
           "rollout) are left out: at tens of games a second they are measured in `results/strength/`.", ""]
    for fam in FAMILIES:
        rules = R.resolve(fam, 2)
        names = [n for n in ALL if fam in dispatch.info(n).families]
        t_fam = time.time()
        score = {n: [0, 0] for n in names}  # fools inflicted - suffered, games
        rows = []
        for a, b in itertools.combinations(names, 2):
            fa = fb = d = n = unf = 0
            for order, ia in (([a, b], 0), ([b, a], 1)):
                t = tasks.run(rules, order, games=GAMES_PER_ORDER, seed=SEED, threads=THREADS).tally
                fa += int(t.fool[ia])
                fb += int(t.fool[1 - ia])
                d += int(t.draws)
                n += t.finished
                unf += t.unfinished
            rows.append((a, b, n, fb, d, fa, unf))
            score[a][0] += fb - fa
            score[b][0] += fa - fb
            score[a][1] += n
            score[b][1] += n
            print(f"{fam} {a} vs {b}: {n} deals, A fool {fa / n:.4f}, B fool {fb / n:.4f}", file=sys.stderr, flush=True)
        out += [f"## {fam}", "",
                "| A | B | deals | A escaped (B fool) | draw | A fool | A - B fool (points) |",
                "|---|---|---:|---|---|---|---:|"]
        for a, b, n, fb, d, fa, unf in rows:
            extra = f" ({unf} unfinished)" if unf else ""
            out.append(f"| {a} | {b} | {n:,}{extra} | {pct(fb, n)} | {pct(d, n)} | {pct(fa, n)} | "
                       f"{100 * (fb - fa) / n:+.2f} |")
        out += ["", "Ranking by mean (opponent fool - own fool) over all its pairings, points:", ""]
        for name, (s, g) in sorted(score.items(), key=lambda kv: -kv[1][0] / kv[1][1]):
            out.append(f"- {name}: {100 * s / g:+.2f}")
        out += ["", f"wall time for {fam}: {time.time() - t_fam:.0f} s", ""]
    out.append(f"Total wall time {time.time() - t_start:.0f} s on {THREADS} threads (2-core machine shared with "
               "another engineer's benchmarks; includes the engine compile if it was not cached).")
    print("\n".join(out))


if __name__ == "__main__":
    main()
