"""What expert's habits are worth, against greedy: one command reproduces results/strength/habits.md.

    DURAK_CACHE_DIR=/tmp/dc nice -n 10 python -m research.strength.habits               # ~15 min on 2 cores
    python -m research.strength.habits --games 20000 --disagree 300                     # a quick look

Tables (fool-rate difference = greedy's fool rate per seat minus expert's, points, seats rotated:
expert in every seat in turn, games / n deals each; 95% normal intervals over deals; paired per deal by
sim.experiments.strength.deal_diffs):

1. expert against greedy in every family at 2-6 players (and expert as it was before its
   per-player-count tables, on the same deals: the paired gain).
2. Leave one out: every knob of strategies/_lib.py whose expert value differs from greedy's, set back
   to greedy's value alone (research/strength/knobs/xp.py); the paired loss on the same deals is what
   the habit is worth.
3. Where search disagrees with expert, by decision kind (search in every seat, default budget).
"""
import argparse
import json
import sys
import time
from pathlib import Path

from research import RESULTS
from research.strength import deal_diffs, fmt, mean_interval
from research.strength.knobs._old_tables import TABLES  # before
from strategies import expert as X
from strategies._lib import BASE, KNOB_NAMES

HERE = RESULTS / "strength"  # the pages this writes
FAMILIES = ("prostoy_5", "prostoy_6", "podkidnoy", "perevodnoy")


table = X.table  # expert's knob table for a family and player count


def before(fam, n):
    """The knob changes that turn today's expert back into expert before its per-player-count tuning (xp overrides;
    the one table per family it had, TABLES)."""
    old, new = TABLES[fam], table(fam, n)
    return {k: old[i] for i, k in enumerate(KNOB_NAMES) if old[i] != new[i]}


def xp(changes: dict) -> str:
    if not changes:
        return "expert"
    return "xp:" + ",".join(f"i{i}={KNOB_NAMES.index(k)},v{i}={v:g}" for i, (k, v) in enumerate(changes.items()))


def habits(fam, n):
    """The knobs whose expert value (for this family and player count) differs from greedy's (BASE)."""
    t = table(fam, n)
    return [k for i, k in enumerate(KNOB_NAMES) if t[i] != BASE[i] and k != "EXCHANGE_MIN_RANK"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=60000, help="deals per cell (2 players; fewer for more)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--disagree", type=int, default=800, help="searched decisions per family for table 3 (0: skip)")
    ap.add_argument("--out", default=str(HERE / "habits"))
    a = ap.parse_args()
    t0 = time.time()
    out = {"args": vars(a), "vs_greedy": [], "loo": [], "disagree": []}
    for fam in FAMILIES:
        for n in range(2, 7):
            g = a.games if n == 2 else a.games // 2
            g -= g % n
            d, u = deal_diffs(fam, n, "expert", "greedy", g, a.seed, a.threads)
            r = {"family": fam, "players": n, "games": len(d), "unfinished": int(u.sum()), "expert": mean_interval(d)}
            old = before(fam, n)
            if old:
                b, ub = deal_diffs(fam, n, "xp:old=1", "greedy", g, a.seed, a.threads)
                r.update(before=mean_interval(b), gain=mean_interval(d - b), unfinished_before=int(ub.sum()))
            out["vs_greedy"].append(r)
            print(r, flush=True)
    for fam in FAMILIES:
        for n in (2, 3):
            g = a.games if n == 2 else a.games // 2
            g -= g % n
            full, _ = deal_diffs(fam, n, "expert", "greedy", g, a.seed, a.threads)
            for k in habits(fam, n):
                i = KNOB_NAMES.index(k)
                d, _ = deal_diffs(fam, n, xp({k: BASE[i]}), "greedy", g, a.seed, a.threads)
                r = {"family": fam, "players": n, "knob": k, "expert_value": table(fam, n)[i], "off_value": BASE[i],
                     "games": len(d), "without": mean_interval(d), "worth": mean_interval(full - d), "expert": mean_interval(full)}
                out["loo"].append(r)
                print(fam, n, k, fmt(r["worth"]), flush=True)
    if a.disagree:
        from research.strength.disagree import disagreements
        for fam in FAMILIES:
            r = disagreements(fam, 2, a.disagree)
            r.pop("events")
            out["disagree"].append(r)
            print(fam, r["total"], r["differ"], flush=True)
    out["seconds"] = time.time() - t0
    Path(a.out + ".json").write_text(json.dumps(out, indent=1))
    render(out, Path(a.out + ".md"))


def render(out, path):
    a = out["args"]
    md = ["# expert's habits against greedy", "",
          f"Reproduce: `python -m research.strength.habits --games {a['games']} --disagree {a['disagree']} "
          f"--seed {a['seed']}` "
          f"({out['seconds'] / 60:.0f} min on 2 shared cores). Difference = greedy's fool rate per seat minus "
          "expert's, in points (positive: expert stronger), seats rotated (expert in each seat in turn, the same "
          f"deals for every variant: seed {a['seed']}), 95% normal intervals over deals; paired columns are "
          "differences on the same deals. Unfinished deals (RUL-22) count as no difference and are listed.", "",
          "## 1. expert against greedy", "",
          "| family | players | deals | expert: difference [95%] | before the per-player-count tables | paired gain | "
          "unfinished (now / before) |", "|---|---|---|---|---|---|---|"]
    for r in out["vs_greedy"]:
        b = fmt(r["before"]) if "before" in r else "(unchanged)"
        gn = fmt(r["gain"]) if "gain" in r else ""
        md.append(f"| {r['family']} | {r['players']} | {r['games']:,} | {fmt(r['expert'])} | {b} | {gn} | "
                  f"{r['unfinished']} / {r.get('unfinished_before', r['unfinished'])} |")
    md += ["", "## 2. Leave one out: what each habit is worth", "",
           "Each knob of `strategies/_lib.py` that expert sets differently from greedy, set back to greedy's "
           "value alone (`research/strength/knobs/xp.py`). *Worth* = expert's difference minus the variant's, "
           "on the same deals (positive: the habit helps). `TAKE_HIGH_TALON`, `HIGH_RANK`, `HIGH_TRUMP_RANK` and "
           "`TAKE_MAX_PICKUP` are one habit (take rather than spend a high card early): switching any of them "
           "off can switch the whole habit off, hence equal figures; a knob worth +0.0 has no effect where the "
           "habit that reads it is off.", "",
           "| family | players | knob | expert / off | without it [95%] | worth, points [95%] |",
           "|---|---|---|---|---|---|"]
    for r in out["loo"]:
        md.append(f"| {r['family']} | {r['players']} | `{r['knob']}` | {r['expert_value']:g} / {r['off_value']:g} | "
                  f"{fmt(r['without'])} | {fmt(r['worth'])} |")
    if out["disagree"]:
        md += ["", "## 3. Where search disagrees with expert", "",
               "search (default budget) in every seat, 2 players; at each decision with more than one option, "
               "expert's answer on the same observation. Most frequent disagreements: (kind, talon, expert's "
               "answer, search's answer).", "",
               "| family | decisions | attack differ | cover differ | throw-in differ | transfer differ | "
               "most frequent disagreements |", "|---|---|---|---|---|---|---|"]
        for r in out["disagree"]:
            def pct(k):
                t = r["total"].get(k, 0)
                return f"{r['differ'].get(k, 0)}/{t} ({100 * r['differ'].get(k, 0) / t:.0f}%)" if t else ""
            top = "; ".join(f"{' / '.join(k)}: {v}" for k, v in r["pairs"][:5])
            md.append(f"| {r['family']} | {r['decisions']} | {pct('attack')} | {pct('cover')} | {pct('throw_in')} | "
                      f"{pct('transfer')} | {top} |")
    path.write_text("\n".join(md) + "\n")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--render":
        o = json.loads(Path(sys.argv[2]).read_text())
        render(o, Path(sys.argv[2]).with_suffix(".md"))
    else:
        main()
