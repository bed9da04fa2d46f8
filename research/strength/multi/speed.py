"""Games/s of one spec in every seat, one engine thread: python -m research.strength.multi.speed FAMILY N GAMES
SPEC [SPEC ...]. SPEC: `expert`, another library strategy, or knob changes on top of expert joined by '+' (xp), e.g.
    NUMBA_NUM_THREADS=1 python -m research.strength.multi.speed prostoy_5 6 3000 expert ROLLOUT_ACTIVE=6+ROLLOUT_SAMPLES=16
Compilation and a 50-deal warm-up are outside the timing."""
import sys
import time

from research.strength import ALSO, KNOBS
from sim.core import rules as R
from sim.experiments import batch
from strategies._lib import KNOB_NAMES

PATHS = [KNOBS]


def main(argv):
    fam, n, m = argv[0], int(argv[1]), int(argv[2])
    rules = R.resolve(fam, n)
    for arg in argv[3:]:
        spec = arg
        if "=" in arg:
            ch = [kv.split("=") for kv in arg.split("+")]
            spec = "xp:" + ",".join(f"i{i}={KNOB_NAMES.index(k)},v{i}={v}" for i, (k, v) in enumerate(ch))
        r = batch.Runner(rules, batch.make_lineup(rules, [spec] * n, PATHS), PATHS, also=ALSO)
        r.play_raw(1, 0, 50)
        t = time.time()
        r.play_raw(1, 0, m)
        print(f"{fam} {n}p {arg}: {m / (time.time() - t):,.0f} games/s ({spec} in every seat)", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
