"""Paired comparison against greedy: python -m research.strength.multi.cmp FAMILY N GAMES SEED SPEC [SPEC...]
(first SPEC is the base). Prints each spec's difference vs greedy and its paired gain over the first spec (95%
intervals; sim.experiments.strength.deal_diffs, xp specs from research/strength/knobs)."""
import sys

from research.strength import deal_diffs, fmt, mean_interval


def main(argv):
    fam, n, games, seed = argv[0], int(argv[1]), int(argv[2]), int(argv[3])
    games -= games % n
    base = None
    for spec in argv[4:]:
        d, u = deal_diffs(fam, n, spec, "greedy", games, seed, 2)
        line = f"{fam} {n}p s{seed} {spec}: {fmt(mean_interval(d))} unf={int(u.sum())}"
        if base is None:
            base = d
        else:
            line += f"  gain {fmt(mean_interval(d - base))}"
        print(line, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
