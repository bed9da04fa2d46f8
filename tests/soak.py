"""Soak: the core against its own invariants and the reference referee over random rule configurations.

    python tests/soak.py --games 1000000 [--workers 2] [--per-config 2000] [--trace-every 100] [--walks 4]
        [--specialised] [--first K] [--families podkidnoy,perevodnoy] [--players 2] [--plain]

For each configuration drawn at random from the whole §7 toggle space (tests/rulegen.py), `random` and
`greedy` line-ups play `--per-config` games on the batch engine: every game is checked by the core's
run-time invariants (card conservation at every bout end, every answer legal); every `--trace-every`-th
series is traced and walked by the referee decision by decision (seat, kind and the answer's legality);
`--walks` series per configuration are stepped through the state kernels and compared with the referee
on the whole legal set at every decision. Any disagreement stops the run with its reproduction.
`--families` / `--players` narrow the draw, `--plain` drops the §6 modifiers it drew (e.g. to the rule sets
where the specialised engine of a greedy line-up plays whole bouts in sim.core.greedy_bout: two players,
podkidnoy or perevodnoy, no modifier; nearly every full draw has one).
Prints the totals; exit code 1 on any disagreement. Seeds are fixed: the same command checks the same games.
Run as a script, its own folder is on the path (core_adapter, rulegen); `sim` is the installed one (from
another checkout: `PYTHONPATH=. python tests/soak.py ...`).
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import sys
import time

from rulegen import FAMILIES


def _drawn(job):
    """A job's configuration, drawn from its seed and index (with --plain, without the §6 modifiers drawn), its
    resolved rules and the job's tally, empty."""
    idx, seed, per_config, trace_every, walks, families, players, plain = job
    from rulegen import random_config, without_modifiers

    from sim.core import rules as R
    family, n, toggles, dps = random_config(random.Random(seed * 7919 + idx), families, players)
    if plain:
        toggles = without_modifiers(toggles)
    out = {"games": 0, "invariant": 0, "errors": 0, "traced": 0, "walked": 0, "decisions": 0, "problem": None,
           "config": (family, n, toggles, dps)}
    return family, n, toggles, dps, R.resolve(family, n, toggles), out


def _check_config(job):
    idx, seed, per_config, trace_every, walks = job[:5]
    from core_adapter import check_decisions, check_trace, core_decisions, core_traces

    from sim.core import layout as L
    from sim.experiments import batch
    family, n, toggles, dps, rules, out = _drawn(job)
    try:
        for strategy in ("random", "greedy"):
            runner = batch.Runner(rules, batch.make_lineup(rules, [strategy]))
            series = max(1, per_config // 2 // dps)
            raw = runner.play_raw(seed + idx, 0, series, dps)
            out["games"] += len(raw)
            out["invariant"] += int(raw[:, L.F_INVARIANT].sum())
            out["errors"] += int((raw[:, L.F_ERROR] != 0).sum())
            for s in range(0, series, trace_every):
                for tr in core_traces(family, n, toggles, strategy, seed + idx, s, dps):
                    check_trace(tr)
                    out["traced"] += 1
            for s in range(walks):
                for tr, dec in core_decisions(family, n, toggles, strategy, seed + idx, s, dps):
                    check_decisions(tr, dec)
                    out["walked"] += 1
                    out["decisions"] += len(dec)
    except Exception as e:  # a disagreement: report it with the configuration
        out["problem"] = f"{type(e).__name__}: {e}"
    if out["invariant"] or out["errors"]:
        out["problem"] = out["problem"] or f"{out['invariant']} invariant violations, {out['errors']} illegal moves"
    return out


def _check_specialised(job):
    """One configuration on both engines: the record rows of `random` and `greedy` line-ups must be the same
    bit for bit on the engine with the rules compiled in as on the general one; every `trace_every`-th series
    of the specialised engine is walked by the referee (seat, kind and legality of every answer), and `walks`
    series of each one-strategy line-up are compared with the referee on the whole legal set at every decision."""
    idx, seed, per_config, trace_every, walks = job[:5]
    from core_adapter import check_decisions, check_trace, core_decisions

    from sim.core import layout as L
    from sim.core.greedy_bout import eligible
    from sim.experiments import batch
    family, n, toggles, dps, rules, out = _drawn(job)
    out["differ"] = 0
    try:
        for names in (["random"], ["greedy"], ["greedy", "random"] * 3):
            seats = batch.make_lineup(rules, names[:n])
            general = batch.Runner(rules, seats, also=("greedy", "random"))
            # greedy alone where its engine plays whole bouts (sim.core.greedy_bout): that loop is what is checked
            alone = names == ["greedy"] and eligible(rules.vector())
            special = batch.Runner(rules, seats, also=() if alone else ("greedy", "random"), specialised=True)
            series = max(1, per_config // 3 // dps)
            for s0 in range(0, series, 1 << 14):
                k = min(1 << 14, series - s0)
                a = general.play_raw(seed + idx, s0, k, dps)
                b = special.play_raw(seed + idx, s0, k, dps)
                out["games"] += len(b)
                out["differ"] += int((a != b).any(axis=1).sum())
                out["invariant"] += int(b[:, L.F_INVARIANT].sum())
                out["errors"] += int((b[:, L.F_ERROR] != 0).sum())
            for s in range(0, series, trace_every):
                for tr in special.trace(seed + idx, s, dps):
                    check_trace(tr)
                    out["traced"] += 1
            for s in range(walks if len(names) == 1 else 0):  # the sample on the whole legal set (state kernels)
                for tr, dec in core_decisions(family, n, toggles, names[0], seed + idx, s, dps):
                    check_decisions(tr, dec)
                    out["walked"] += 1
                    out["decisions"] += len(dec)
    except Exception as e:  # a disagreement: report it with the configuration
        out["problem"] = f"{type(e).__name__}: {e}"
    if out["invariant"] or out["errors"] or out["differ"]:
        out["problem"] = out["problem"] or (f"{out['differ']} games differ between the engines, {out['invariant']} "
                                            f"invariant violations, {out['errors']} illegal moves")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--per-config", type=int, default=2000)
    ap.add_argument("--trace-every", type=int, default=100)
    ap.add_argument("--walks", type=int, default=4)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=20261130)
    ap.add_argument("--first", type=int, default=0,
                    help="Start at this configuration (each is drawn from --seed and its index alone, so a run "
                         "split as --first 0 --games N and --first K --games M checks the same games as one run).")
    ap.add_argument("--specialised", action="store_true",
                    help="Compare the engine with the rules compiled in against the general one, game by game "
                         "(a compile per configuration: give a large --per-config).")
    ap.add_argument("--families", default=",".join(FAMILIES), help="Draw from these families only (comma-separated).")
    ap.add_argument("--players", default="2,3,4,5,6", help="Draw from these player counts only (comma-separated).")
    ap.add_argument("--plain", action="store_true", help="Drop the §6 modifiers from every configuration drawn.")
    a = ap.parse_args()
    families = tuple(f.strip() for f in a.families.split(",") if f.strip())
    players = tuple(int(x) for x in a.players.split(",") if x.strip())
    n_configs = -(-a.games // a.per_config)
    jobs = [(i, a.seed, a.per_config, a.trace_every, a.walks, families, players, a.plain)
            for i in range(a.first, a.first + n_configs)]
    tot = {"configs": 0, "games": 0, "invariant": 0, "errors": 0, "traced": 0, "walked": 0, "decisions": 0,
           "differ": 0}
    check = _check_specialised if a.specialised else _check_config
    t0 = time.time()
    bad = []
    with mp.get_context("spawn").Pool(a.workers) as pool:
        for r in pool.imap_unordered(check, jobs):
            tot["configs"] += 1
            for k in ("games", "invariant", "errors", "traced", "walked", "decisions", "differ"):
                tot[k] += r.get(k, 0)
            if r["problem"]:
                bad.append(r)
                print(f"DISAGREEMENT in {r['config']}: {r['problem']}", flush=True)
            if tot["configs"] % (1 if a.specialised else 50) == 0:
                print(f"{tot['configs']}/{n_configs} configurations, {tot['games']:,} games, "
                      f"{time.time() - t0:.0f} s", flush=True)
    print(f"soak: {tot['configs']} random rule configurations, {tot['games']:,} games checked by the core's "
          f"invariants ({tot['invariant']} violations, {tot['errors']} illegal moves); {tot['traced']:,} deals "
          f"walked by the referee action by action; {tot['walked']:,} deals ({tot['decisions']:,} decisions) "
          f"compared on the whole legal set; {tot['differ']} games differing between the general and the "
          f"specialised engine; disagreements: {len(bad)}; {time.time() - t0:.0f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
