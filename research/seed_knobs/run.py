"""The seed-advice knobs, each switched on against the same strategy with it off.

    DURAK_CACHE_DIR=/tmp/dc python -m research.seed_knobs.run             # 4.6 million games, ~3 min on a thread
    python -m research.seed_knobs.run --games 10000                         # a quick look
    python -m research.seed_knobs.run --rows 3 --out /tmp/row3.md           # one row (200,000 games)

Each row is a paired comparison (sim.experiments.compare.Comparison): arm A is the line-up with the knob on,
arm B the same line-up with it off, on the same deals, seats rotated (each role in every seat, equal games).
Figures: the tested strategy's fool rate (role 0), its opponents' (role 1), the draw rate and unfinished deals,
A minus B in points, with 95% intervals of the paired difference. Writes results/seed_knobs/README.md.
"""
import argparse
from pathlib import Path

from research import RESULTS
from sim.core import rules as R
from sim.experiments import batch
from sim.experiments.compare import Arm, Comparison

HERE = RESULTS / "seed_knobs"  # the page this writes

# (seed advice, family, players, knob on, knob off, opponent)
ROWS = [
    ("002 high card led at you", "prostoy_6", 2, "advice-002:take_high_attack=6", "advice-002", "greedy"),
    ("002 high card led at you", "prostoy_6", 2, "advice-002:take_high_attack=6,take_max_pickup=0", "advice-002",
     "greedy"),
    ("002 high card led at you", "prostoy_6", 2, "advice-002:take_high_attack=4", "advice-002", "greedy"),
    ("002 high card led at you", "prostoy_6", 2, "advice-002:take_high_attack=3", "advice-002", "greedy"),
    ("002 high card led at you", "prostoy_5", 2, "advice-002:take_high_attack=4", "advice-002", "greedy"),
    ("002 high card led at you", "prostoy_5", 2, "advice-002:take_high_attack=3", "advice-002", "greedy"),
    ("002 high card led at you", "prostoy_6", 2, "advice-002:take_high_attack=4", "advice-002", "expert"),
    ("002 high card led at you", "prostoy_5", 2, "advice-002:take_high_attack=4", "advice-002", "expert"),
    ("002 high card led at you", "prostoy_6", 3, "advice-002:take_high_attack=4", "advice-002", "greedy"),
    ("002 high card led at you", "podkidnoy", 2, "advice-002:take_high_attack=4", "advice-002", "greedy"),
    ("002 no draw with two left", "prostoy_5", 2, "advice-002:avoid_draw=1", "advice-002", "greedy"),
    ("002 no draw with two left", "prostoy_6", 2, "advice-002:avoid_draw=1", "advice-002", "greedy"),
    ("002 no draw with two left", "prostoy_6", 2, "advice-002:avoid_draw=1", "advice-002", "expert"),
    ("002 endgame rule, 3+ players", "prostoy_5", 3, "advice-002:endgame_many=0.9", "advice-002", "greedy"),
    ("002 endgame rule, 3+ players", "prostoy_5", 3, "advice-002:endgame_many=0.5", "advice-002", "greedy"),
    ("002 endgame rule, 3+ players", "prostoy_6", 3, "advice-002:endgame_many=0.9", "advice-002", "greedy"),
    ("002 endgame rule, 3+ players", "prostoy_6", 3, "advice-002:endgame_many=0.9", "advice-002", "expert"),
    ("001 keep a pair back", "podkidnoy", 2, "tactics:keep_pair_talon=0", "tactics", "greedy"),
    ("001 keep a pair back", "podkidnoy", 2, "tactics:keep_pair_talon=6", "tactics", "greedy"),
    ("001 keep a pair back", "podkidnoy", 2, "tactics:keep_pair_talon=18", "tactics", "greedy"),
    ("001 keep a pair back", "podkidnoy", 2, "tactics:keep_pair_talon=0", "tactics", "expert"),
    ("001 keep a pair back", "podkidnoy", 3, "tactics:keep_pair_talon=6", "tactics", "greedy"),
    ("001 keep a pair back", "perevodnoy", 2, "tactics:keep_pair_talon=6", "tactics", "greedy"),
]


def fmt(r):
    return f"{100 * r['diff']:+.2f} [{100 * r['lo']:+.2f}, {100 * r['hi']:+.2f}]"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100_000, help="paired deals per row")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--rows", default="", help="only these rows (0-based, comma-separated), e.g. one per command")
    ap.add_argument("--out", default=str(HERE / "README.md"))
    a = ap.parse_args()
    keep = {int(x) for x in a.rows.split(",") if x.strip()} or set(range(len(ROWS)))
    lines = ["# The seed-advice knobs", "",
             f"`python -m research.seed_knobs.run --games {a.games} --seed {a.seed}`: each row plays the same "
             f"{a.games:,} deals twice, seats rotated: with the knob on (A) and off (B). Differences A - B in "
             "points with 95% intervals; role 0 is the strategy tested, the opponents' figure is per seat. "
             "Negative for the tested strategy = the knob helps it.", "",
             "| advice | family | players | knob on | opponents | tested fool | opponents' fool | draws | "
             "unfinished |", "|---|---|---|---|---|---|---|---|---|"]
    for i, (advice, fam, n, on, off, opp) in enumerate(ROWS):
        if i not in keep:
            continue
        rules = R.resolve(fam, n)
        la, lb = [on] + [opp] * (n - 1), [off] + [opp] * (n - 1)
        c = Comparison(Arm("A", rules, batch.make_lineup(rules, la)), Arm("B", rules, batch.make_lineup(rules, lb)),
                       seed=a.seed, games=a.games, threads=a.threads).run()
        t = c.table()
        row = (f"| {advice} | {fam} | {n} | `{on}` | {opp} | {fmt(t.loc['fool_role0'])} | "
               f"{fmt(t.loc['fool_role1'])} | {fmt(t.loc['draw'])} | {fmt(t.loc['unfinished'])} |")
        print(row, flush=True)
        lines.append(row)
    Path(a.out).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
