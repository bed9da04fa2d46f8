"""Paired comparison against greedy: python cmp.py FAMILY N GAMES SEED SPEC [SPEC...] (first SPEC is the base).
Prints each spec's difference vs greedy and its paired gain over the first spec (95% intervals)."""
import sys
from pathlib import Path
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))
sys.path.insert(0, str(HERE.parent))
import _paired as P  # noqa
from _paired import deal_diffs, fmt, mean_ci  # noqa
P.PATHS.append(str(HERE.parent / "knobs"))
fam, n, games, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
games -= games % n
base = None
for spec in sys.argv[5:]:
    d, u = deal_diffs(fam, n, spec, "greedy", games, seed, 2)
    line = f"{fam} {n}p s{seed} {spec}: {fmt(mean_ci(d))} unf={int(u.sum())}"
    if base is None:
        base = d
    else:
        line += f"  gain {fmt(mean_ci(d - base))}"
    print(line, flush=True)
