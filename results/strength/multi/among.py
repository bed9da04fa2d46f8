"""One seat among others, paired by deal: python among.py FAMILY N GAMES SEED SPEC OPP
SPEC in one seat (rotated), OPP in the others, the fool-rate difference with a 95% interval (_paired.deal_diffs).
Specs as for `durak run`, plus xp (results/strength/knobs): e.g. expert among expert without ROLLOUT_SELF:
    python among.py prostoy_5 6 12000 31 expert xp:i0=56,v0=0,i1=55,v1=3,i2=54,v2=2"""
import sys
from pathlib import Path
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))
sys.path.insert(0, str(HERE.parent))
import _paired as P  # noqa
from _paired import deal_diffs, fmt, mean_ci  # noqa
P.PATHS.append(str(HERE.parent / "knobs"))
fam, n, games, seed, spec, opp = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
games -= games % n
d, u = deal_diffs(fam, n, spec, opp, games, seed, 2)
print(f"{fam} {n}p, {spec} among {opp}: {fmt(mean_ci(d))} unfinished={int(u.sum())} ({games} deals, seed {seed})")
