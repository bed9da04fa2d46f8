"""Strength experiments (results/strength/): search against expert and greedy, expert's habits, unfinished deals.

The paired, seat-rotated comparison every script here uses is the library's
(`sim.experiments.strength.deal_diffs` and `mean_interval`); `deal_diffs` below binds it to this folder's
experiment strategy `xp` (research/strength/knobs) and to one engine per line-up shared with expert and greedy.
"""
from __future__ import annotations

from research.strength.knobs import FOLDER as KNOBS
from sim.experiments import strength as _strength
from sim.experiments.strength import mean_interval

ALSO = ("expert", "greedy")  # compiled into every engine of these experiments

__all__ = ["ALSO", "KNOBS", "deal_diffs", "fmt", "mean_interval"]


def deal_diffs(family, n, spec, opp, games, seed=11, threads=2):
    """sim.experiments.strength.deal_diffs with the xp folder on the strategy path (specs may be `xp:...`)."""
    return _strength.deal_diffs(family, n, spec, opp, games, seed, threads, paths=(KNOBS,), also=ALSO)


def fmt(t):
    """A mean_interval triple as the pages show it: **+1.2** [+0.3, +2.1]."""
    return f"**{t[0]:+.1f}** [{t[1]:+.1f}, {t[2]:+.1f}]"

