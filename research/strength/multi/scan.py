"""Knob scan against greedy, paired: python -m research.strength.multi.scan FAMILY N GAMES SEED KNOB=v1,v2
[KNOB=...] [A=x+B=y ...]. Each value (or '+'-joined set of changes) is played on top of expert's table (xp) on the
same deals as expert; prints the paired gain over expert with a 95% interval, best first at the end."""
import sys

from research.strength import deal_diffs, fmt, mean_interval
from strategies._lib import KNOB_NAMES


def main(argv):
    fam, n, games, seed = argv[0], int(argv[1]), int(argv[2]), int(argv[3])
    games -= games % n
    specs = []
    for arg in argv[4:]:
        if "+" in arg:
            ch = [kv.split("=") for kv in arg.split("+")]
            specs.append((arg, [(KNOB_NAMES.index(k), float(v)) for k, v in ch]))
        else:
            k, vs = arg.split("=")
            for v in vs.split(","):
                specs.append((f"{k}={v}", [(KNOB_NAMES.index(k), float(v))]))
    base, _ = deal_diffs(fam, n, "expert", "greedy", games, seed, 2)
    print(f"{fam} {n}p s{seed} expert: {fmt(mean_interval(base))}", flush=True)
    res = []
    for name, ch in specs:
        spec = "xp:" + ",".join(f"i{i}={k},v{i}={v:g}" for i, (k, v) in enumerate(ch))
        d, u = deal_diffs(fam, n, spec, "greedy", games, seed, 2)
        g = mean_interval(d - base)
        res.append((g[0], name, g, int(u.sum())))
        print(f"  {name}: gain {fmt(g)} unf={int(u.sum())}", flush=True)
    print("best first:")
    for g0, name, g, u in sorted(res, reverse=True)[:15]:
        print(f"  {name}: {fmt(g)} unf={u}")


if __name__ == "__main__":
    main(sys.argv[1:])
