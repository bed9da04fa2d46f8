"""Games/s of one spec in every seat, one engine thread: python speed.py FAMILY N GAMES SPEC [SPEC ...]
SPEC: `expert`, another library strategy, or knob changes on top of expert joined by '+' (xp), e.g.
    NUMBA_NUM_THREADS=1 python speed.py prostoy_5 6 3000 expert ROLLOUT_ACTIVE=6+ROLLOUT_SAMPLES=16
Compilation and a 50-deal warm-up are outside the timing."""
import sys
import time
from pathlib import Path
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))
from sim.core import rules as R  # noqa
from sim.experiments import batch  # noqa
from strategies._lib import KNOB_NAMES  # noqa
PATHS = [str(HERE.parent / "knobs")]
fam, n, m = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rules = R.resolve(fam, n)
for arg in sys.argv[4:]:
    spec = arg
    if "=" in arg:
        ch = [kv.split("=") for kv in arg.split("+")]
        spec = "xp:" + ",".join(f"i{i}={KNOB_NAMES.index(k)},v{i}={v}" for i, (k, v) in enumerate(ch))
    r = batch.Runner(rules, batch.make_lineup(rules, [spec] * n, PATHS), PATHS, also=("expert", "greedy"))
    r.play_raw(1, 0, 50)
    t = time.time()
    r.play_raw(1, 0, m)
    print(f"{fam} {n}p {arg}: {m / (time.time() - t):,.0f} games/s ({spec} in every seat)", flush=True)
