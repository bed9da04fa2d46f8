"""How many cards should the learned player's exact endgame take on? Strength and speed by its card limit.

    DURAK_CACHE_DIR=/tmp/dc python -m research.strength.learned_endgame     # results/strength/learned/endgame.md

Learned solves the two-player endgame of podkidnoy and perevodnoy exactly (talon empty, two players left) while both
hands together hold at most `endgame_cards` cards (ENDGAME_CARDS, 14), at most 2,000 nodes per option; where the
search of expert's own answer runs out of nodes it plays expert's answer. For each limit: learned against expert,
seats rotated, paired per deal (sim.experiments.strength.deal_diffs), its paired difference from the shipped limit on
the same deals, and its games/s in every seat on one thread (sim.learn.evaluate.speed, the best of two).
"""
import argparse
import json
import time
from pathlib import Path

from research import RESULTS
from research.strength import fmt, mean_interval
from sim.experiments import strength as S
from sim.learn.evaluate import speed

HERE = RESULTS / "strength" / "learned"
ALSO = ("learned", "expert", "greedy")
CELLS = (("podkidnoy", 2), ("perevodnoy", 2), ("podkidnoy", 4), ("perevodnoy", 4))
LIMITS = (14, 12, 10, 8)  # 14: as shipped (strategies/learned.py ENDGAME_CARDS)


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20000, help="deals per cell at 2 players (half at 4)")
    ap.add_argument("--seed", type=int, default=41)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", default=str(HERE / "endgame"))
    a = ap.parse_args(argv)
    t0 = time.time()
    rows = []
    for fam, n in CELLS:
        g = a.games if n == 2 else a.games // 2
        g -= g % n
        base = None
        for cards in LIMITS:
            spec = "learned" if cards == LIMITS[0] else f"learned:endgame_cards={cards}"
            d = S.deal_diffs(fam, n, spec, "expert", g, a.seed, a.threads, also=ALSO)[0]
            base = d if base is None else base
            fast = max(speed(fam, n, spec, 3000 if n == 2 else 1500) for _ in range(2))
            row = {"family": fam, "players": n, "cards": cards, "games": g, "vs_expert": mean_interval(d),
                   "vs_shipped": mean_interval(d - base), "games_s": fast}
            rows.append(row)
            print(fam, n, cards, fmt(row["vs_expert"]), fmt(row["vs_shipped"]), f"{fast:,.0f} games/s", flush=True)
    out = {"args": vars(a), "rows": rows, "seconds": time.time() - t0}
    Path(a.out + ".json").write_text(json.dumps(out, indent=1))
    render(out, Path(a.out + ".md"))


def render(out, path):
    a = out["args"]
    md = ["# The learned player's exact endgame: how many cards", "",
          f"Reproduce: `python -m research.strength.learned_endgame --games {a['games']} --seed {a['seed']}` "
          f"({out['seconds'] / 60:.0f} min on 2 cores, the engines compiled). Learned against expert, seats "
          "rotated, paired per deal: expert's fool rate per seat minus learned's, points [95%]; against the shipped "
          "limit (14 cards) on the same deals; games/s with learned in every seat, one thread, the best of two (this "
          "shared machine's timings swing by up to 30%).", "",
          "| family | players | cards | deals | against expert | against 14 cards | games/s |", "|---|---|---|---|---|---|---|"]
    for r in out["rows"]:
        md.append(f"| {r['family']} | {r['players']} | {r['cards']} | {r['games']:,} | {fmt(r['vs_expert'])} | "
                  f"{fmt(r['vs_shipped']) if r['cards'] != 14 else ''} | {r['games_s']:,.0f} |")
    md += ["", "In plain words:", ""] + [verdict(out["rows"], fam, n) for fam, n in CELLS]
    path.write_text("\n".join(md) + "\n")


def verdict(rows, fam, n) -> str:
    """The fewest cards whose paired interval against the shipped limit reaches zero (no loss shown), and its speed."""
    mine = [r for r in rows if r["family"] == fam and r["players"] == n]
    base = next(r for r in mine if r["cards"] == LIMITS[0])
    ok = min((r for r in mine if r["vs_shipped"][2] >= 0), key=lambda r: r["cards"])
    if ok is base:
        return f"- {fam}, {n} players: every smaller limit loses strength; keep {base['cards']} cards."
    return (f"- {fam}, {n} players: {ok['cards']} cards lose nothing measurable ({fmt(ok['vs_shipped'])} points "
            f"against {base['cards']}) at {ok['games_s'] / base['games_s']:.1f}x the games/s.")


if __name__ == "__main__":
    main()
