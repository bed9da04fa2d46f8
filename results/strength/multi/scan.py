"""Knob scan against greedy, paired: python scan.py FAMILY N GAMES SEED KNOB=v1,v2 [KNOB=...] [A=x+B=y ...]
Each value (or '+'-joined set of changes) is played on top of expert's table (xp) on the same deals as expert;
prints the paired gain over expert with a 95% interval, best first at the end."""
import sys
from pathlib import Path
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))
sys.path.insert(0, str(HERE.parent))
import _paired as P  # noqa
from _paired import deal_diffs, fmt, mean_ci  # noqa
from strategies._lib import KNOB_NAMES  # noqa
P.PATHS.append(str(HERE.parent / "knobs"))
fam, n, games, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
games -= games % n
specs = []
for arg in sys.argv[5:]:
    if "+" in arg:
        ch = [kv.split("=") for kv in arg.split("+")]
        specs.append((arg, [(KNOB_NAMES.index(k), float(v)) for k, v in ch]))
    else:
        k, vs = arg.split("=")
        for v in vs.split(","):
            specs.append((f"{k}={v}", [(KNOB_NAMES.index(k), float(v))]))
base, _ = deal_diffs(fam, n, "expert", "greedy", games, seed, 2)
print(f"{fam} {n}p s{seed} expert: {fmt(mean_ci(base))}", flush=True)
res = []
for name, ch in specs:
    spec = "xp:" + ",".join(f"i{i}={k},v{i}={v:g}" for i, (k, v) in enumerate(ch))
    d, u = deal_diffs(fam, n, spec, "greedy", games, seed, 2)
    g = mean_ci(d - base)
    res.append((g[0], name, g, int(u.sum())))
    print(f"  {name}: gain {fmt(g)} unf={int(u.sum())}", flush=True)
print("best first:")
for g0, name, g, u in sorted(res, reverse=True)[:15]:
    print(f"  {name}: {fmt(g)} unf={u}")
