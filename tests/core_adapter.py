"""The one place the fuzz and legal-set tests touch the compiled core.

Today's core exposes traces only; the state-machine core will also expose, at every decision,
who acts, the decision kind and the legal set. Swap the bodies here, not the tests.
"""
from __future__ import annotations

import random
from functools import lru_cache

import numpy as np

from sim.core import rules as R
from sim.referee import decisions as D

STRATEGIES = ("random", "greedy")


def _key(toggles: dict) -> tuple:
    return tuple(sorted((k, str(v)) for k, v in toggles.items()))


@lru_cache(maxsize=None)
def _runner(family: str, n: int, tkey: tuple, strategy: str, toggles_items: tuple):
    from sim.experiments import batch
    r = R.resolve(family, n, dict(toggles_items))
    return batch.Runner(r, batch.make_lineup(r, [strategy]))


def core_runner(family: str, n: int, toggles: dict, strategy: str):
    """The batch runner (general engine) of these rules with every seat playing ``strategy``, one per configuration."""
    return _runner(family, n, _key(toggles), strategy, tuple(toggles.items()))


def core_traces(family: str, n: int, toggles: dict, strategy: str, seed: int, game: int, deals: int = 1) -> list[dict]:
    """The core's traces of one series (``deals`` deals) with every seat playing ``strategy``."""
    return core_runner(family, n, toggles, strategy).trace(seed, game, deals)


def check_trace(trace: dict) -> None:
    """At every action of the trace the core's seat and kind are the referee's ``to_act`` and the
    answer is in the referee's ``legal_options``; raises ``decisions.DecisionError``."""
    D.walk_trace(trace)


def _policy(strategy: str):
    """An answer function (deal, seat, kind, legal set, rnd) -> option: uniform over the legal set for
    `random` (every option, including the odd corners, is reached); the compiled strategy otherwise."""
    if strategy == "random":
        return lambda d, seat, kind, legal, rnd: rnd.choice(sorted(legal))
    from sim.core import dispatch
    from sim.core import layout as L
    mod = dispatch.load_module(dispatch.discover()[strategy])
    greedy = dispatch.load_module(dispatch.discover()["greedy"])
    fns = [getattr(mod, k, None) or getattr(greedy, k) for k in dispatch.KINDS]
    params = np.zeros(16)
    rng = np.zeros(1, dtype=np.uint64)

    def answer(d, seat, kind, legal, rnd):
        obs = d.observe(seat)
        obs.flags.writeable = False
        return int(fns[kind](obs, d.ws[L.S_LEGAL], params, rng))
    return answer


def core_decisions(family: str, n: int, toggles: dict, strategy: str, seed: int, game: int, deals: int = 1):
    """The state-machine core's decision streams: one ``(trace, [(seat, kind, legal, answer), ...])``
    per deal, every decision included (legal as a set in the int vocabulary of
    ``sim.referee.decisions``), stepped through the core's kernels (``sim.core.machine.series``)."""
    from sim.core import layout as L
    from sim.core.cards import card_name
    from sim.core.machine import series
    rules = R.resolve(family, n, toggles)
    rnd = random.Random(seed * 1_000_003 + game)
    policy = _policy(strategy)
    out = []
    for i, d in enumerate(series(rules, seed, game, deals)):
        stream = []
        while not d.over:
            seat, kind = d.to_act()
            legal = d.legal_options()
            a = policy(d, seat, kind, legal, rnd)
            stream.append((seat, kind, legal, a))
            if not d.apply(a):
                break
        rec = d.result()
        trace = {"family": family, "num_players": n, "toggles": dict(rules.toggles), "seed": seed,
                 "game_index": game, "deal": i, "dealer": d.dealer,
                 "previous_fool": d.previous_fool if i and d.previous_fool >= 0 else None,
                 "deck": [card_name(c) for c in d.deck], "actions": [],
                 "result": {"bouts": int(rec[L.F_BOUTS])}}
        from sim.referee.trace import decode_shuffles
        shuffles = decode_shuffles(d.trace[: int(d.tn[0])])[0]
        if shuffles:  # VAR-OT1: the talon orders the core's shuffles gave
            trace["talon_shuffles"] = shuffles
        out.append((trace, stream))
        if rec[L.F_ERROR]:
            break
    return out


def check_decisions(trace: dict, decisions) -> None:
    """Seat, kind and the whole legal set agree with the referee at every decision."""
    D.walk_decisions(trace, decisions)


def repro(family, n, toggles, strategy, seed, game, deals=1, deal=0) -> str:
    return (f"rules.resolve({family!r}, {n}, {toggles!r}); strategy {strategy!r}; "
            f"Runner(...).trace(seed={seed}, series={game}, deals={deals})[{deal}]")


def known_core_bug(family: str, n: int, toggles: dict) -> str | None:
    """Configurations where the core is known to break the procedure: none. (The neighbours-only
    attacker bug the fuzzing found, RUL-16/17, was fixed by the state-machine core; its regression
    case is test_fuzz.test_regression_neighbours_only_attacker_counts_as_finished.)"""
    return None
