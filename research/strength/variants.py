"""Expert under the §6 variants: which of its habits (tuned on the plain families) a variant turns against it.

    DURAK_CACHE_DIR=/tmp/dc python -m research.strength.variants            # results/strength/variants.md (~40 min)
    python -m research.strength.variants --games 8000 --only tryoshka       # a quick look at one variant

For every variant cell (a variant, a family, 2 players or 4; one expert among greedy players, seats rotated, paired
per deal by sim.experiments.strength.deal_diffs): expert's fool-rate difference against greedy, then a forward
selection of habits to drop: each knob of expert's table for the family and player count that differs from greedy's
(research.strength.habits.habits) is set back to greedy's value on top of those already dropped
(research/strength/knobs/xp.py); the one with the largest paired gain is dropped when the gain's 95% interval lies
above zero, until none is; the set selected is then played again on fresh deals (seed + VALIDATE) and kept only
if its gain there lies above zero as well. What is kept is `strategies/expert.py`'s VARIANT_TABLES (its 4-player cell holds
for 3 to 6 players); the page gives the before and after of every cell, and the check at 3 and 6 players.
Run it with VARIANT_TABLES empty (expert's `_k` puts them on top of the tables, and so does xp's base).
"""
import argparse
import json
import time
from pathlib import Path

from research import RESULTS
from research.strength import deal_diffs, fmt, mean_interval
from research.strength.habits import habits, xp
from strategies import expert as X
from strategies._lib import BASE, KNOB_NAMES

HERE = RESULTS / "strength"
FAMILIES = ("prostoy_5", "prostoy_6", "podkidnoy", "perevodnoy")
MAX_DROPS = 7  # xp changes at most seven knobs
VALIDATE = 1000  # the seed offset of the fresh deals that judge a selected set


def cells(only=None):
    """(variant, family, players, toggles) of every variant of expert.HABIT_VARIANTS that a family plays, at 2 and 4."""
    out = []
    for name, toggles, families in X.HABIT_VARIANTS:
        if only and name not in only:
            continue
        for fam in FAMILIES:
            if fam in families:
                out += [(name, fam, n, toggles) for n in (2, 4)]
    return out


def diffs(fam, n, changes, toggles, games, seed, threads):
    from sim.experiments import strength as S
    from research.strength import ALSO, KNOBS
    return S.deal_diffs(fam, n, xp(changes), "greedy", games, seed, threads, paths=(KNOBS,), also=ALSO,
                        toggles=toggles)[0]


def select(fam, n, toggles, games, seed, threads, log=print):
    """Forward selection of the habits to drop in one variant cell: (dropped {knob: value}, steps, before, after)."""
    base = diffs(fam, n, {}, toggles, games, seed, threads)
    cur, cur_d, steps = {}, base, []
    cands = [k for k in habits(fam, n)]
    while cands and len(cur) < MAX_DROPS:
        best = None
        for k in cands:
            d = diffs(fam, n, {**cur, k: BASE[KNOB_NAMES.index(k)]}, toggles, games, seed, threads)
            gain = mean_interval(d - cur_d)
            if best is None or gain[0] > best[1][0]:
                best = (k, gain, d)
        k, gain, d = best
        log(f"  {fam} {n} drop {k}? gain {fmt(gain)}")
        if gain[1] <= 0:
            break
        cur[k] = BASE[KNOB_NAMES.index(k)]
        cur_d = d
        cands.remove(k)
        steps.append({"knob": k, "gain": gain})
    return cur, steps, mean_interval(base), mean_interval(cur_d)


def check(games, seed, threads, log=print):
    """The 4-player drops of VARIANT_TABLES hold for 3 to 6 players: at 3 and 6, expert as it plays (the drops on)
    against expert with them undone (each dropped knob back at its table's value), paired, one expert among greedy."""
    rows = []
    for (name, fam, ns), drops in X.VARIANT_TABLES.items():
        toggles = next(t for v, t, _ in X.HABIT_VARIANTS if v == name)
        for n in (3, 6):
            if n not in ns:
                continue
            undo = {k: X.table(fam, n)[KNOB_NAMES.index(k)] for k in drops}
            undo = {k: v for k, v in undo.items() if v != BASE[KNOB_NAMES.index(k)]}  # a knob at greedy's already
            if not undo:
                continue
            g = games - games % n
            on = diffs(fam, n, {}, toggles, g, seed, threads)
            off = diffs(fam, n, undo, toggles, g, seed, threads)
            r = {"variant": name, "family": fam, "players": n, "games": g, "undone": undo,
                 "expert": mean_interval(on), "gain": mean_interval(on - off)}
            rows.append(r)
            log(name, fam, n, "gain of the drops", fmt(r["gain"]), flush=True)
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=24000, help="deals per evaluation (2 players; 4 players: the same)")
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--only", nargs="*", help="variant names (expert.HABIT_VARIANTS)")
    ap.add_argument("--out", default=str(HERE / "variants"))
    ap.add_argument("--check", action="store_true", help="only check VARIANT_TABLES' drops at 3 and 6 players "
                                                         "(with the tables in expert.py)")
    a = ap.parse_args(argv)
    t0 = time.time()
    if a.check:
        out = json.loads(Path(a.out + ".json").read_text())
        out["check"] = check(a.games, a.seed, a.threads)
        out["check_args"] = vars(a)
        Path(a.out + ".json").write_text(json.dumps(out, indent=1))
        render(out, Path(a.out + ".md"))
        return
    rows = []
    for name, fam, n, toggles in cells(a.only):
        g = a.games - a.games % n
        dropped, steps, before, after = select(fam, n, toggles, g, a.seed, a.threads)
        row = {"variant": name, "family": fam, "players": n, "toggles": toggles, "games": g,
               "before": before, "after": after, "selected": dict(dropped), "steps": steps}
        if dropped:  # the best of several candidates is flattered by its own deals: judge the set on fresh ones
            b = diffs(fam, n, {}, toggles, g, a.seed + VALIDATE, a.threads)
            d = diffs(fam, n, dropped, toggles, g, a.seed + VALIDATE, a.threads)
            row.update(fresh_before=mean_interval(b), fresh_after=mean_interval(d), fresh_gain=mean_interval(d - b))
            if row["fresh_gain"][1] <= 0:
                dropped = {}
        row["dropped"] = dropped
        rows.append(row)
        print(name, fam, n, fmt(before), "->", fmt(after), row["selected"], "fresh gain",
              fmt(row.get("fresh_gain", (0, 0, 0))), "kept" if dropped else "none kept", flush=True)
    out = {"args": vars(a), "rows": rows, "seconds": time.time() - t0}
    Path(a.out + ".json").write_text(json.dumps(out, indent=1))
    render(out, Path(a.out + ".md"))
    print(tables(rows), flush=True)


def render(out, path):
    a = out["args"]
    md = ["# expert under the §6 variants", "",
          f"Reproduce: `python -m research.strength.variants --games {a['games']} --seed {a['seed']}` "
          f"({out['seconds'] / 60:.0f} min on 2 cores), with `VARIANT_TABLES` in `strategies/expert.py` empty: the "
          "page's *before* is expert with its plain-family tables. One expert among greedy players, seats rotated, "
          "paired per deal; difference = greedy's fool rate per seat minus expert's, points [95%]. *Selected*: the "
          "habits (knobs of expert's table that differ from greedy's) set back to greedy's value by forward "
          "selection, each step the largest paired gain whose interval lies above zero; *fresh gain*: that set "
          f"against expert on other deals (seed + {VALIDATE}); it is kept (`VARIANT_TABLES`, the 4-player cell for "
          "3 to 6 players) only when that interval lies above zero too.", "",
          "| variant | family | players | deals | expert before | after the selection | selected | fresh gain | kept |",
          "|---|---|---|---|---|---|---|---|---|"]
    for r in out["rows"]:
        sel = ", ".join(f"`{k}`={v:g}" for k, v in r["selected"].items()) or "none"
        fresh = fmt(r["fresh_gain"]) if "fresh_gain" in r else ""
        md.append(f"| {r['variant']} | {r['family']} | {r['players']} | {r['games']:,} | {fmt(r['before'])} | "
                  f"{fmt(r['after'])} | {sel} | {fresh} | {'yes' if r['dropped'] else 'no'} |")
    if out.get("check"):
        md += ["", "## The 4-player drops at 3 and 6 players", "",
               f"`python -m research.strength.variants --check --games {out['check_args']['games']}` with the tables "
               "in `strategies/expert.py`: expert as it plays against expert with the drops undone (the knobs back at "
               "the table's value for that player count), paired, one expert among greedy players. Where the gain at 6 "
               "players lies below zero, `VARIANT_TABLES` holds the drops for 3 to 5 players only.", "",
               "| variant | family | players | deals | undone | expert against greedy | gain of the drops |",
               "|---|---|---|---|---|---|---|"]
        for r in out["check"]:
            und = ", ".join(f"`{k}`={v:g}" for k, v in r["undone"].items())
            md.append(f"| {r['variant']} | {r['family']} | {r['players']} | {r['games']:,} | {und} | "
                      f"{fmt(r['expert'])} | {fmt(r['gain'])} |")
    path.write_text("\n".join(md) + "\n")


def tables(rows) -> str:
    """VARIANT_TABLES as expert.py holds them."""
    lines = ["VARIANT_TABLES = {"]
    for r in rows:
        if r["dropped"]:
            ns = "(2,)" if r["players"] == 2 else "(3, 4, 5, 6)"
            kv = ", ".join(f"{k}={v:g}" for k, v in r["dropped"].items())
            lines.append(f'    ("{r["variant"]}", "{r["family"]}", {ns}): dict({kv}),')
    return "\n".join(lines + ["}"])


if __name__ == "__main__":
    main()
