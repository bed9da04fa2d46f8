"""The deal loop with strategies: the state kernels (``sim.core.kernels``) driven by a dispatcher.

This file is a template: ``sim.core.dispatch`` writes a copy with a dispatcher over one line-up's
strategies between the DISPATCH markers into the cache folder, so that the loop, the kernels and
the strategies are compiled and inlined together and cached per line-up (numba does not cache
kernels that take functions as arguments). The template itself plays no strategy.

Strategies are sealed in: each gets ``obs``, a read-only view of the observation prefix of the
state (a write does not compile), and its own random stream, keyed one-way from the seed so that
it says nothing about the deal's stream.
"""
import numpy as np
from numba import njit

from sim.core.greedy_bout import greedy_bouts
from sim.core.kernels import after_deal, apply_one, apply_packs, apply_two, new_series, start_deal
from sim.core.layout import F_DEAL, F_ERROR, F_GAME, F_SERIES, K_ATTACK, O_ACTOR, O_HAND, O_KIND, O_SEAT, S_DECK
from sim.core.layout import S_HANDS, S_LEGAL
from sim.core.layout import O_HAND2, S_HANDS2
from sim.core.lib import mix64, rng_below, seed_stream
from sim.core.rules import R_NPLAYERS

CHECKED = True  # test every answer with option_ok (sim.core.dispatch writes False for a trusted line-up)
GREEDY_BOUTS = False  # play whole bouts in sim.core.greedy_bout (dispatch writes True: rules compiled in, all greedy)

# --- DISPATCH BEGIN ---


@njit(cache=True, _nrt=False)
def decide(sid, kind, obs, legal, params, rng):
    return np.int64(-999)  # the template plays no strategy; sim.core.dispatch writes the line-up's here
# --- DISPATCH END ---


@njit(cache=True, _nrt=False, inline="always")
def _play(rv, ws, obs, sids, params, srng, rec, trace, tn, tracing, status, two):
    """Ask the strategies until the deal is over (or a strategy answers illegally). `two` is a constant
    at both calls below (two packs, VAR-BD1: the actor's twins go in the observation too)."""
    while True:
        kind = ws[O_KIND]
        if kind < 0:
            return
        if GREEDY_BOUTS and not two and not tracing and kind == K_ATTACK:
            bouts = greedy_bouts(rv, ws, rec, trace, tn)
            if bouts:
                status[2] += bouts
                continue
        seat = ws[O_ACTOR]
        ws[O_SEAT] = seat
        ws[O_HAND] = ws[S_HANDS + seat]
        if two:
            ws[O_HAND2] = ws[S_HANDS2 + seat]
        status[1] = seat
        status[2] += 1
        a = decide(sids[seat], kind, obs, ws[S_LEGAL], params[seat], srng)
        if not apply_packs(rv, ws, rec, a, trace, tn, tracing, two, CHECKED):  # APPLY
            return


@njit(cache=True, _nrt=False)
def play(rv, ws, obs, sids, params, srng, rec, trace, tn, tracing, status):
    """One pack: the hot loop, with no two-pack step in it. A function of its own (not inlined in the chunk's
    loops), which LLVM optimises several times better than the same loop nested in them."""
    _play(rv, ws, obs, sids, params, srng, rec, trace, tn, tracing, status, False)


@njit(cache=True, _nrt=False)
def play_two_packs(rv, ws, obs, sids, params, srng, rec, trace, tn, tracing, status):
    _play(rv, ws, obs, sids, params, srng, rec, trace, tn, tracing, status, True)


@njit(cache=True, _nrt=False)
def strategy_key(seed, series):
    """The strategies' stream key: a one-way function of (seed, series), so that a strategy that
    reads its generator's state cannot work back to the seed and the deal stream."""
    k = mix64(np.uint64(seed) ^ mix64(np.uint64(series) * np.uint64(4) + np.uint64(0x632BE59BD9B4E019)))
    return mix64(k ^ np.uint64(0xD1B54A32D192ED03)) + k


@njit(cache=True, _nrt=False, inline="always")
def _chunk(rv, ws, obs, sids, params, seed, series0, n_series, n_deals, recs, deck_out, trace, tn, tracing, status,
           drng, srng, two):
    """Series series0 .. series0+n_series-1 (recs has n_series*n_deals rows), each series the same seats with
    the dealer and first attacker passed on (RUL-7/8). ws is a preallocated state (layout.STATE_SIZE), obs its
    read-only prefix. `status` ([game, seat, decisions]) says where the chunk is, for a watchdog reading it
    from outside. With `tracing`, one series whose decks go to deck_out and whose actions go to trace."""
    n = rv[R_NPLAYERS]
    status[2] = 1  # running (compiled): the watchdog counts from here
    for k in range(n_series):
        series = series0 + k
        if k == 0:  # later series go on from the last deal's end, as a series' later deals do (a deal sets what it
            new_series(rv, ws)  # reads); clearing the state for each series was a tenth of a greedy game's time
        seed_stream(drng, seed, series, 0)
        srng[0] = strategy_key(seed, series)
        dealer = rng_below(drng, n)
        prev_fool = np.int64(-1)  # an int64 from the start: a literal -1 would compile start_deal twice
        for d in range(n_deals):
            rec = recs[k * n_deals + d]
            rec[:] = 0
            rec[F_GAME] = series * n_deals + d
            rec[F_SERIES] = series
            rec[F_DEAL] = d
            status[0] = series * n_deals + d
            start_deal(rv, drng, ws, rec, dealer, d, prev_fool, trace, tn, tracing)
            if tracing:
                for i in range(deck_out.shape[1]):
                    deck_out[d, i] = ws[S_DECK + i]
            if two:
                play_two_packs(rv, ws, obs, sids, params, srng, rec, trace, tn, tracing, status)
            else:
                play(rv, ws, obs, sids, params, srng, rec, trace, tn, tracing, status)
            if rec[F_ERROR]:
                return
            dealer, prev_fool = after_deal(rv, rec, dealer)


@njit(cache=True, _nrt=False)
def chunk_one(rv, ws, obs, sids, params, seed, series0, n_series, n_deals, recs, deck_out, trace, tn, tracing, status,
              drng, srng):
    """The chunk's loops without reference counting (``_nrt=False``): compiled with it, as part of an entry
    point, every row view and every call passing arrays took and gave back a reference (atomic adds on the
    arrays' counts), about fifteen a deal and a tenth of the deal loop's time."""
    _chunk(rv, ws, obs, sids, params, seed, series0, n_series, n_deals, recs, deck_out, trace, tn, tracing, status,
           drng, srng, False)


@njit(cache=True, _nrt=False)
def chunk_two(rv, ws, obs, sids, params, seed, series0, n_series, n_deals, recs, deck_out, trace, tn, tracing, status,
              drng, srng):
    _chunk(rv, ws, obs, sids, params, seed, series0, n_series, n_deals, recs, deck_out, trace, tn, tracing, status,
           drng, srng, True)


# The two entry points. Each compiles on its first call and carries its own copy of the whole game (numba
# links every callee into each top-level function and optimises the result again), so there is one per
# pack count and none per purpose: the batch and the traced replay of a game share play_deals. They allocate
# the two stream words (which needs the runtime) and hand over to the chunk, which does not use it.
@njit(nogil=True, cache=True)
def play_deals(rv, ws, obs, sids, params, seed, series0, n_series, n_deals, recs, deck_out, trace, tn, tracing,
               status):
    """One pack: the hot loop, with no two-pack step in it. Releases the GIL: the batch runner runs chunks on
    threads, and each series' seed makes the split irrelevant."""
    chunk_one(rv, ws, obs, sids, params, seed, series0, n_series, n_deals, recs, deck_out, trace, tn, tracing, status,
              np.zeros(1, dtype=np.uint64), np.zeros(1, dtype=np.uint64))


@njit(nogil=True, cache=True)
def play_deals_two_packs(rv, ws, obs, sids, params, seed, series0, n_series, n_deals, recs, deck_out, trace, tn,
                         tracing, status):
    """Two packs (VAR-BD1): the actor's twins go in the observation too."""
    chunk_two(rv, ws, obs, sids, params, seed, series0, n_series, n_deals, recs, deck_out, trace, tn, tracing, status,
              np.zeros(1, dtype=np.uint64), np.zeros(1, dtype=np.uint64))
