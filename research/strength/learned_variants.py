"""Does the learned player's network help under the §6 variants it was never trained on?

    DURAK_CACHE_DIR=/tmp/dc python -m research.strength.learned_variants      # results/strength/learned/variants.md

The network was fitted to search's values in the plain families only (strategies/_learned_model.py, META["cells"]).
For every variant of expert.HABIT_VARIANTS and family that plays it, at 2 players and at 4: the learned player with
its network on every decision (`learned:variant_network=1`) against expert, one learned player among experts, seats
rotated, paired per deal (sim.experiments.strength.deal_diffs); the same deals also give the skill share, one of each
among greedy players. Without its network learned plays expert's answers under a variant (its exact endgame is the
plain families' only), so the first difference is what the network adds there. `strategies/learned.py`'s
NETWORK_VARIANTS lists the cells where that interval lies above zero: there the network plays; under every other §6
variant, learned plays expert's answer.
"""
import argparse
import json
import time
from pathlib import Path

from research import RESULTS
from research.strength import fmt, mean_interval
from research.strength.variants import cells
from sim.experiments import strength as S

HERE = RESULTS / "strength" / "learned"
ALSO = ("learned", "expert", "greedy")
ON = "learned:variant_network=1"


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=6000, help="deals per cell")
    ap.add_argument("--seed", type=int, default=23)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--only", nargs="*", help="variant names (expert.HABIT_VARIANTS)")
    ap.add_argument("--out", default=str(HERE / "variants"))
    a = ap.parse_args(argv)
    t0 = time.time()
    rows = []
    for name, fam, n, toggles in cells(a.only):
        g = a.games - a.games % n
        d = S.deal_diffs(fam, n, ON, "expert", g, a.seed, a.threads, also=ALSO, toggles=toggles)[0]
        row = {"variant": name, "family": fam, "players": n, "games": g, "vs_expert": mean_interval(d)}
        rows.append(row)
        print(name, fam, n, "network vs expert", fmt(row["vs_expert"]), flush=True)
    out = {"args": vars(a), "rows": rows, "seconds": time.time() - t0}
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out + ".json").write_text(json.dumps(out, indent=1))
    render(out, Path(a.out + ".md"))
    print(network_variants(rows), flush=True)


def network_variants(rows) -> str:
    """NETWORK_VARIANTS as strategies/learned.py holds it: the cells where the network beats expert."""
    lines = ["NETWORK_VARIANTS = ("]
    for r in rows:
        if r["vs_expert"][1] > 0:
            ns = "(2,)" if r["players"] == 2 else "(3, 4, 5, 6)"
            lines.append(f'    ("{r["variant"]}", "{r["family"]}", {ns}),')
    return "\n".join(lines + [")"])


def render(out, path):
    a = out["args"]
    md = ["# The learned player's network under the §6 variants", "",
          f"Reproduce: `python -m research.strength.learned_variants --games {a['games']} --seed {a['seed']}` "
          f"({out['seconds'] / 60:.0f} min on 2 cores). The network was trained on the plain families only. Each "
          "row: learned with its network on every decision against expert (one learned player among experts at 4 "
          "players), seats rotated, paired per deal; difference = expert's fool rate per seat minus learned's, "
          "points [95%]. Where the interval lies above zero the network plays under that variant "
          "(`NETWORK_VARIANTS` in `strategies/learned.py`, the 4-player row for 3 to 6 players); elsewhere learned "
          "plays expert's answer.", "",
          "| variant | family | players | deals | network against expert | network plays |", "|---|---|---|---|---|---|"]
    for r in out["rows"]:
        md.append(f"| {r['variant']} | {r['family']} | {r['players']} | {r['games']:,} | {fmt(r['vs_expert'])} | "
                  f"{'yes' if r['vs_expert'][1] > 0 else 'no'} |")
    path.write_text("\n".join(md) + "\n")


if __name__ == "__main__":
    main()
