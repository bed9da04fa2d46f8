"""Where `search` disagrees with `expert`: at every searched decision (more than one option) of deals
played by search in every seat, expert's answer on the same observation is compared with search's
and the disagreement classified (table 3 of research/strength/habits.py; on its own, as JSON:
`python -m research.strength.disagree FAMILY [PLAYERS [DECISIONS]]`)."""
from __future__ import annotations

from collections import Counter

import numpy as np

from sim.core import layout as L
from sim.core import rules as R
from sim.core.lib import NIBBLE_LOW, O_HAND, O_TALON, O_TRUMP_SUIT, popcount
from sim.core.machine import Deal


def _desc(kind, a, obs):
    """A coarse class of an answer: what habit it shows."""
    tr = NIBBLE_LOW << int(obs[O_TRUMP_SUIT])
    if kind == L.K_ATTACK:
        m = int(a)
        c = (m & -m).bit_length() - 1
        t = "trump" if (m & tr) else "plain"
        return f"lead {popcount(m)} {t} rank {c >> 2}"
    if a == L.NO_CARD:
        return {L.K_COVER: "take", L.K_THROW_IN: "pass", L.K_TRANSFER: "no transfer", L.K_EXCHANGE: "?"}[kind]
    if kind == L.K_EXCHANGE:
        return "exchange" if a else "keep"
    c = int(a) % 64
    t = "trump" if (1 << c) & tr else "plain"
    verb = {L.K_COVER: "cover", L.K_THROW_IN: "throw", L.K_TRANSFER: "show" if a >= L.SHOW else "transfer"}[kind]
    return f"{verb} {t} rank {c >> 2}"


def _phase(obs):
    t = int(obs[O_TALON])
    return "talon>5" if t > 5 else ("talon 1-5" if t > 0 else "talon 0")


def disagreements(family, n=2, decisions=1500, samples=128, playout=1, seed=5):
    from strategies import expert as X
    from strategies import search as S
    rules = R.resolve(family, n)
    params = np.zeros(16)
    params[:3] = (samples, 10, playout)
    rng = np.zeros(1, dtype=np.uint64)
    rng[0] = np.uint64(seed * 7919 + 1)
    fns = (X.attack, X.cover, X.throw_in, X.transfer, X.exchange)
    total, differ, pairs = Counter(), Counter(), Counter()
    events = []
    deal_seed, done = seed, 0
    while done < decisions:
        d = Deal(rules, deal_seed)
        deal_seed += 1
        while not d.over and done < decisions:
            seat, kind = d.to_act()
            obs = d.observe(seat)
            legal = np.int64(d.ws[L.S_LEGAL])
            first = fns[kind](obs, legal, S.EXPERT, rng)
            cands = np.zeros(S.MAXC, dtype=np.int64)
            nc = S.candidates(obs, kind, legal, first, cands, 10)
            a = S.decide(obs, kind, legal, params, rng, first) if nc > 1 else first
            if nc > 1:
                done += 1
                k = L.KIND_NAMES[kind]
                total[k] += 1
                if int(a) != int(first):
                    differ[k] += 1
                    events.append(_event(kind, int(first), int(a), obs, legal))
                    pairs[(k, _phase(obs), _desc(kind, first, obs).split(" rank")[0],
                           _desc(kind, a, obs).split(" rank")[0])] += 1
            if not d.apply(int(a)):
                raise RuntimeError("illegal")
    return {"family": family, "players": n, "decisions": done, "total": dict(total), "differ": dict(differ),
            "pairs": [(list(k), v) for k, v in pairs.most_common(25)], "events": events}


def _event(kind, e, s, obs, legal):
    """Details of one disagreement: talon, own hand size, and per answer its cards' ranks, trumps and
    how many cards of that rank the hand holds."""
    from sim.core.lib import O_HAND_SIZE, O_SEAT, O_TABLE_MASK, O_TAKING, RANK_MASKS
    hand = int(obs[O_HAND])
    tr = NIBBLE_LOW << int(obs[O_TRUMP_SUIT])
    opp = [int(obs[O_HAND_SIZE + i]) for i in range(int(obs[L.O_N])) if i != int(obs[O_SEAT])]

    def card(a):
        if a < 0:
            return None
        m = a if kind == L.K_ATTACK else 1 << (a % 64)
        c = (m & -m).bit_length() - 1
        return {"rank": c >> 2, "trump": bool(m & tr), "n": popcount(m),
                "same_rank_in_hand": popcount(hand & int(RANK_MASKS[c >> 2]))}
    return {"kind": L.KIND_NAMES[kind], "talon": int(obs[O_TALON]), "hand": popcount(hand), "opp": opp,
            "taking": int(obs[O_TAKING]), "table": popcount(int(obs[O_TABLE_MASK])), "trumps": popcount(hand & tr),
            "expert": card(e), "search": card(s)}


if __name__ == "__main__":
    import json
    import sys
    print(json.dumps(disagreements(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 2,
                                   int(sys.argv[3]) if len(sys.argv) > 3 else 1500), indent=1))
