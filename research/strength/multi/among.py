"""One seat among others, paired by deal: python -m research.strength.multi.among FAMILY N GAMES SEED SPEC OPP
SPEC in one seat (rotated), OPP in the others, the fool-rate difference with a 95% interval
(sim.experiments.strength.deal_diffs). Specs as for `durak run`, plus xp (research/strength/knobs): e.g. expert
among expert without ROLLOUT_SELF:
    python -m research.strength.multi.among prostoy_5 6 12000 31 expert xp:i0=56,v0=0,i1=55,v1=3,i2=54,v2=2"""
import sys

from research.strength import deal_diffs, fmt, mean_interval


def main(argv):
    fam, n, games, seed, spec, opp = argv[0], int(argv[1]), int(argv[2]), int(argv[3]), argv[4], argv[5]
    games -= games % n
    d, u = deal_diffs(fam, n, spec, opp, games, seed, 2)
    print(f"{fam} {n}p, {spec} among {opp}: {fmt(mean_interval(d))} unfinished={int(u.sum())} ({games} deals, "
          f"seed {seed})")


if __name__ == "__main__":
    main(sys.argv[1:])
