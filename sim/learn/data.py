"""Decisions to learn from: self-play positions with search's value of every option, as Parquet.

`label` plays deals on the core's kernels with `expert` (or `learned`, for later rounds) in every seat; at a random
share of the decisions with more than one option it asks search for the value of each option the learned player
weighs (`strategies/_features.options`): the mean score, +1 escaped / 0 drew / -1 fool, of the deciding seat over
`samples` deals of the cards it cannot see, each played out by expert (`search.evaluate`, the same deals for every
option). The deal then goes on with search's pick, so the positions are those of search's and expert's games. A
recorded decision keeps the seat's observation only (the prefix of the state: nothing hidden), the options and
their tallies. `generate` runs a plan of (family, players, toggles, deals) cells on threads and writes one Parquet
file per cell with the seed and commit; the same seed gives the same file.
"""
from __future__ import annotations

import json
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
from numba import njit

from sim.core import layout as L
from sim.core import rules as R
from sim.core.kernels import apply_any, new_series, start_deal
from sim.core.lib import mix64, rng_below, seed_stream
from strategies import learned as _learned
from strategies import search as _search
from strategies._features import MAXC, options

PLAYERS = {"expert": 1, "learned": 2}
XP = _learned.XP  # expert's own tables
LP = np.full(len(_learned.PARAMS), -1.0)  # the learned player's parameters: its own defaults


@njit
def _answer(kind, obs, legal, rng, which, xp, lp, one):
    """The answer of the player of the deals: expert (which 1, as search's playouts call it) or learned (2).
    xp, lp, one: XP, LP and 1 as arguments, so that the strategies' functions are called with the types the
    engines call them with (an array, not a read-only global; a number, not a constant) and load from the cache
    instead of compiling again for the labeller (two minutes)."""
    if which != 2:
        return _search._policy(kind, obs, legal, xp, rng, one)
    if kind == L.K_ATTACK:
        return _learned.attack(obs, legal, lp, rng)
    if kind == L.K_COVER:
        return _learned.cover(obs, legal, lp, rng)
    if kind == L.K_THROW_IN:
        return _learned.throw_in(obs, legal, lp, rng)
    if kind == L.K_TRANSFER:
        return _learned.transfer(obs, legal, lp, rng)
    if kind == L.K_SWAP:
        return _learned.swap(obs, legal, lp, rng)
    return _learned.exchange(obs, legal, lp, rng)


@njit(nogil=True)
def label(rv, seed, g0, ng, samples, cap, share, which, xp, lp, obs_out, meta_out, cand_out, tally_out):
    """Deals g0 .. g0+ng-1 of `seed`; writes recorded decisions into the *_out arrays (as many rows as they hold)
    and returns how many. meta_out row: game, seat, kind, legal, first, options, deals sampled, decision index."""
    n = rv[R.R_NPLAYERS]
    ws = np.zeros(L.STATE_SIZE, dtype=np.int64)
    rec = np.zeros(L.F_SIZE, dtype=np.int64)
    trace = np.zeros((1, 4), dtype=np.int64)
    tn = np.zeros(1, dtype=np.int64)
    drng = np.zeros(1, dtype=np.uint64)
    srng = np.zeros(1, dtype=np.uint64)
    lrng = np.zeros(1, dtype=np.uint64)
    cands = np.zeros(MAXC, dtype=np.int64)
    tally = np.zeros((MAXC, 3), dtype=np.int64)
    rows = 0
    cap_rows = obs_out.shape[0]
    zero, one, no_fool = np.int64(0), np.int64(1), np.int64(-1)
    off = ng < 0  # False as a value, not a constant (see _answer)
    for g in range(g0, g0 + ng):
        new_series(rv, ws)
        seed_stream(drng, seed, g, 0)
        seed_stream(lrng, seed, g, 7)
        srng[0] = mix64(np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(g))
        dealer = rng_below(drng, n)
        rec[:] = 0
        start_deal(rv, drng, ws, rec, dealer, zero, no_fool, trace, tn, off)
        step = 0
        while ws[L.O_KIND] >= 0 and rec[L.F_UNFINISHED] == 0:
            kind = ws[L.O_KIND]
            seat = ws[L.O_ACTOR]
            ws[L.O_SEAT] = seat
            ws[L.O_HAND] = ws[L.S_HANDS + seat]
            ws[L.O_HAND2] = ws[L.S_HANDS2 + seat]
            obs = ws[:L.O_SIZE]
            legal = ws[L.S_LEGAL]
            first = _answer(kind, obs, legal, srng, which, xp, lp, one)
            a = first
            step += 1
            if rows < cap_rows and rng_below(lrng, 1000) < share * 1000 and not _learned.settled(obs, kind, lp):
                base = first if which == 1 else _answer(kind, obs, legal, srng, one, xp, lp, one)
                nc = options(obs, kind, legal, base, cands, cap)
                if nc >= 2:
                    o = obs_out[rows]
                    o[:] = obs
                    tally[:nc] = 0
                    done = _search.evaluate(o, cands, nc, samples, one, lrng, tally)
                    if done > 0:
                        meta_out[rows, 0] = g
                        meta_out[rows, 1] = seat
                        meta_out[rows, 2] = kind
                        meta_out[rows, 3] = legal
                        meta_out[rows, 4] = base
                        meta_out[rows, 5] = nc
                        meta_out[rows, 6] = done
                        meta_out[rows, 7] = step
                        best = 0
                        bv = -2.0
                        for j in range(nc):
                            cand_out[rows, j] = cands[j]
                            for k in range(3):
                                tally_out[rows, j, k] = tally[j, k]
                            v = (tally[j, 0] - tally[j, 2]) / done
                            if v > bv:
                                bv = v
                                best = j
                        rows += 1
                        a = cands[best]
            if not apply_any(rv, ws, rec, a, trace, tn, off):
                break
    return rows


def commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                              cwd=Path(__file__).parent, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def label_cell(family: str, players: int, toggles: dict, deals: int, seed: int, samples: int = 64, cap: int = 10,
               share: float = 0.3, player: str = "expert", chunk: int = 50, threads: int = 2, progress=None):
    """Label `deals` deals of one cell (chunks of `chunk` deals on `threads` threads); returns a DataFrame."""
    import pandas as pd
    rules = R.resolve(family, players, toggles)
    rv = rules.vector()
    which = PLAYERS[player]
    per_deal = 150 * players  # room for every decision to be recorded: a full chunk would stop recording

    def one(g0):
        m = min(chunk, deals - g0)
        rows = int(m * per_deal * share) + 16
        obs = np.zeros((rows, L.O_SIZE), dtype=np.int64)
        meta = np.zeros((rows, 8), dtype=np.int64)
        cand = np.zeros((rows, MAXC), dtype=np.int64)
        tal = np.zeros((rows, MAXC, 3), dtype=np.int64)
        k = label(rv, np.int64(seed), np.int64(g0), np.int64(m), np.int64(samples), np.int64(cap), float(share),
                  np.int64(which), XP, LP, obs, meta, cand, tal)
        if progress:
            progress(m)
        return obs[:k], meta[:k], cand[:k], tal[:k]

    with ThreadPoolExecutor(threads) as ex:
        parts = list(ex.map(one, range(0, deals, chunk)))
    obs = np.concatenate([p[0] for p in parts])
    meta = np.concatenate([p[1] for p in parts])
    cand = np.concatenate([p[2] for p in parts])
    tal = np.concatenate([p[3] for p in parts])
    nc = meta[:, 5]
    df = pd.DataFrame({
        "family": family, "players": players, "toggles": json.dumps(toggles, sort_keys=True), "seed": seed,
        "player": player, "samples": samples,
        "game": meta[:, 0], "seat": meta[:, 1], "kind": meta[:, 2], "legal": meta[:, 3], "first": meta[:, 4],
        "n_options": nc, "sampled": meta[:, 6], "step": meta[:, 7],
        "obs": list(obs),
        "options": [cand[i, :nc[i]] for i in range(len(nc))],
        "escaped": [tal[i, :nc[i], 0] for i in range(len(nc))],
        "drew": [tal[i, :nc[i], 1] for i in range(len(nc))],
        "fool": [tal[i, :nc[i], 2] for i in range(len(nc))],
    })
    return df


_F = ("podkidnoy", "perevodnoy", "prostoy_5", "prostoy_6")
# the plans the shipped networks were trained on (durak learn data --plan NAME --seed S): cells of (family, players,
# toggles, deals), two players weighted most; r1 with seed 1000, r2 with seed 2000
PLANS = {
    "r1": tuple([(f, 2, {}, 3000) for f in _F] + [(f, 3, {}, 800) for f in _F] + [(f, 4, {}, 400) for f in _F]
                + [("podkidnoy", 4, {"teams": "2v2"}, 300), ("perevodnoy", 4, {"teams": "2v2"}, 300)]
                + [(f, 6, {}, 200) for f in _F]),
    "r2": tuple([("podkidnoy", 2, {}, 6000), ("perevodnoy", 2, {}, 6000), ("prostoy_5", 2, {}, 3000),
                 ("prostoy_6", 2, {}, 3000)] + [(f, 3, {}, 1500) for f in _F] + [(f, 4, {}, 800) for f in _F]
                + [("podkidnoy", 4, {"teams": "2v2"}, 500), ("perevodnoy", 4, {"teams": "2v2"}, 500)]
                + [(f, 6, {}, 400) for f in _F]),
}
PLAN = PLANS["r2"]


def generate(out: Path, seed: int, plan=PLAN, scale: float = 1.0, samples: int = 64, share: float = 0.3,
             player: str = "expert", threads: int = 2, log=print) -> list[Path]:
    """Label every cell of `plan` (deals scaled by `scale`) into out/<family>-<players>[-toggles]-<seed>.parquet.
    A cell whose file exists is kept (an interrupted run resumes)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    files = []
    c = commit()
    for k, (fam, n, tog, deals) in enumerate(plan):
        d = max(1, int(round(deals * scale)))
        tag = "-".join(f"{a}={b}" for a, b in sorted(tog.items()))
        name = f"{fam}-{n}{'-' + tag if tag else ''}-{player}-{seed + k}.parquet"
        path = out / name
        files.append(path)
        if path.exists():
            log(f"{name}: kept")
            continue
        t = time.time()
        df = label_cell(fam, n, tog, d, seed + k, samples=samples, share=share, player=player, threads=threads)
        df["commit"] = c
        tmp = path.with_suffix(".tmp")
        df.to_parquet(tmp, index=False)
        tmp.replace(path)
        log(f"{name}: {d} deals, {len(df)} decisions, {time.time() - t:.0f} s")
    return files
