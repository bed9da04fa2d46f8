"""Seat rotation and paired per-game metrics: what every comparison of two arms on the same deals shares.

A line-up is rotated through the seats so no strategy keeps a seat's advantage; role k (the k-th strategy
of a line-up) sits at seat (k + r) % n in rotation r. `metric_matrix` turns one arm's game records into a
games x metrics matrix (NaN where a metric does not apply), and `PairedSums` accumulates two arms' matrices
row by row, so a difference's interval uses the paired variance. Every sum is of whole numbers: chunks
merge exactly in any order.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


def rotate(seats: list, r: int) -> list:
    """The line-up turned r seats clockwise: strategy k sits at seat (k + r) mod n."""
    n = len(seats)
    return [seats[(s - r) % n] for s in range(n)]


def rotations(seats: list, rotate_seats: bool = True) -> list[list]:
    """Distinct rotations of the line-up through the seats (just the line-up without rotation)."""
    if not rotate_seats:
        return [list(seats)]
    out = []
    for r in range(len(seats)):
        lineup = rotate(seats, r)
        if lineup not in out:
            out.append(lineup)
    return out


def metric_names(seats, n: int) -> list[tuple[str, str]]:
    """(key, description) of every per-game metric; role k = the k-th strategy of the line-up."""
    names = []
    uniform = len({s.label for s in seats}) == 1
    for k in range(n):
        who = f"seat {k}" if uniform else f"role {k} ({seats[k].label})"
        names.append((f"fool_role{k}", f"fool rate of {who}"))
        names.append((f"escaped_role{k}", f"escape rate of {who}"))
    names += [("draw", "draw rate"), ("first_attacker_fool", "fool rate of the first attacker"),
              ("first_defender_fool", "fool rate of the first defender"),
              ("six_holder_fool", "fool rate of the player dealt the trump six"),
              ("ace_holder_fool", "fool rate of the player dealt the trump ace"),
              ("bouts", "game length (bouts)"), ("fool_cards", "cards left in the fool's hand")]
    # a draw is "not the fool", so a rule that changes the draw rate moves every fool rate; each
    # fool rate is also given among decided deals (draws left out), and unfinished deals are a metric of their own
    names += [(f"{k}{DECIDED}", f"{d} among deals decided in both arms") for k, d in names if k in fool_keys(n)]
    names += [("unfinished", "unfinished deals (stopped after 1,000 bouts, RUL-22)")]
    return names


DECIDED = "_decided"


def fool_keys(n: int) -> list[str]:
    return [f"fool_role{k}" for k in range(n)] + ["first_attacker_fool", "first_defender_fool", "six_holder_fool",
                                                  "ace_holder_fool"]


HOLDER_NOTE = ("the holder is the seat the card was dealt to (after the deal, before any exchange); the record "
               "does not say who held it when it mattered")


def first_defender(recs: np.ndarray, n: int, teams) -> np.ndarray:
    """RUL-5: the first bout's defender, the next seat clockwise of another team."""
    fa = recs["first_attacker"].astype(np.int64)
    if teams is None:
        return (fa + 1) % n
    ids = np.asarray(teams)
    fd = (fa + 1) % n
    same = ids[fd] == ids[fa]
    fd[same] = (fa[same] + 2) % n
    return fd


def metric_matrix(recs: np.ndarray, n: int, r: int, teams=None) -> np.ndarray:
    """games x metrics; NaN where a metric does not apply to a game (e.g. no trump six dealt)."""
    m = np.full((len(recs), 2 * n + 7), np.nan)  # + the decided-deal fool rates and unfinished, appended below
    fin = ~recs["unfinished"]
    out = recs["outcome"].astype(np.int64)
    for k in range(n):
        seat = (k + r) % n
        m[:, 2 * k] = out[:, seat] == 2
        m[:, 2 * k + 1] = out[:, seat] == 0
    m[:, 2 * n] = recs["draw"]
    fa = recs["first_attacker"].astype(np.int64)
    rows = np.arange(len(recs))
    m[:, 2 * n + 1] = out[rows, fa] == 2
    fd = first_defender(recs, n, teams)
    m[:, 2 * n + 2] = out[rows, fd] == 2
    for col, holder in ((2 * n + 3, "six_holder"), (2 * n + 4, "ace_holder")):
        h = recs[holder].astype(np.int64)
        has = h >= 0
        m[has, col] = out[rows[has], h[has]] == 2
    m[:, 2 * n + 5] = recs["bouts"]
    lost = ~recs["draw"]
    m[lost, 2 * n + 6] = recs["fool_cards"][lost]
    m[~fin] = np.nan
    # the fool rates among decided deals (columns in _metric_names order), then the unfinished share
    fool_cols = [2 * k for k in range(n)] + [2 * n + 1, 2 * n + 2, 2 * n + 3, 2 * n + 4]
    dec = m[:, fool_cols].copy()
    dec[recs["draw"].astype(bool)] = np.nan
    unf = recs["unfinished"].astype(float)[:, None]
    return np.hstack([m, dec, unf])


@dataclass
class PairedSums:
    k: int
    n: np.ndarray = None
    sa: np.ndarray = None
    sb: np.ndarray = None
    saa: np.ndarray = None
    sbb: np.ndarray = None
    sab: np.ndarray = None

    def __post_init__(self):
        for f in ("n", "sa", "sb", "saa", "sbb", "sab"):
            if getattr(self, f) is None:
                setattr(self, f, np.zeros(self.k))

    def add(self, a: np.ndarray, b: np.ndarray):
        ok = ~(np.isnan(a) | np.isnan(b))
        a = np.where(ok, a, 0.0)
        b = np.where(ok, b, 0.0)
        self.n += ok.sum(axis=0)
        self.sa += a.sum(axis=0)
        self.sb += b.sum(axis=0)
        self.saa += (a * a).sum(axis=0)
        self.sbb += (b * b).sum(axis=0)
        self.sab += (a * b).sum(axis=0)


def p_two_sided(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))
