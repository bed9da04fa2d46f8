"""Per-deal records: the typed contract between the compiled core and the reports.

The core fills one int64 row per deal (columns ``F_*`` of ``sim.core.layout``); ``to_records``
names them. Outcome codes: 0 escaped, 1 drew, 2 fool, -1 no such seat.
"""
from __future__ import annotations

import numpy as np

from sim.core import layout as E
from sim.core.cards import card_name, cards_of
from sim.core.layout import KIND_NAMES, SHOW

OUTCOMES = ("escaped", "drew", "fool")

RECORD_DTYPE = np.dtype([
    ("game", np.int64), ("series", np.int64), ("deal", np.int16), ("dealer", np.int8),
    ("first_attacker", np.int8), ("fool", np.int8), ("losing_team", np.int8), ("draw", np.bool_),
    ("unfinished", np.bool_), ("bouts", np.int16), ("exchange_seat", np.int8), ("transfers", np.int16),
    ("pogony_seat", np.int8), ("last_lead_sixes", np.int8), ("six_holder", np.int8), ("ace_holder", np.int8),
    ("fool_cards", np.int16), ("invariant", np.int16),
    ("outcome", np.int8, (6,)), ("place", np.int8, (6,)), ("taken", np.int16, (6,)),
    # scoring variants (VAR-OC1, VAR-PG1; zero without one): cards beaten, pogony inflicted, the highest
    # pogon's rank index (-1: none) per seat, and the seats that won the score as a bitmask (0: nobody)
    ("points", np.int16, (6,)), ("pogony", np.int16, (6,)), ("pogon_top", np.int8, (6,)), ("score_win", np.int16),
    ("score_tie", np.bool_),
])

_SCALARS = {"game": E.F_GAME, "series": E.F_SERIES, "deal": E.F_DEAL, "dealer": E.F_DEALER,
            "first_attacker": E.F_FIRST_ATTACKER, "fool": E.F_FOOL, "losing_team": E.F_LOSING_TEAM,
            "draw": E.F_DRAW, "unfinished": E.F_UNFINISHED, "bouts": E.F_BOUTS,
            "exchange_seat": E.F_EXCHANGE_SEAT, "transfers": E.F_TRANSFERS, "pogony_seat": E.F_POGONY_SEAT,
            "last_lead_sixes": E.F_LAST_LEAD_SIXES, "six_holder": E.F_SIX_HOLDER,
            "ace_holder": E.F_ACE_HOLDER, "fool_cards": E.F_FOOL_CARDS,
            "invariant": E.F_INVARIANT, "score_win": E.F_SCORE_WIN,
            "score_tie": E.F_SCORE_TIE}


def to_records(raw: np.ndarray) -> np.ndarray:
    """int64 rows from the core -> a structured record array (one row per deal)."""
    out = np.zeros(len(raw), dtype=RECORD_DTYPE)
    for name, col in _SCALARS.items():
        out[name] = raw[:, col]
    out["outcome"] = raw[:, E.F_OUTCOME:E.F_OUTCOME + 6]
    out["place"] = raw[:, E.F_PLACE:E.F_PLACE + 6]
    out["taken"] = raw[:, E.F_TAKEN:E.F_TAKEN + 6]
    out["points"] = raw[:, E.F_POINTS:E.F_POINTS + 6]
    out["pogony"] = raw[:, E.F_POGONY:E.F_POGONY + 6]
    out["pogon_top"] = raw[:, E.F_POGON_TOP:E.F_POGON_TOP + 6]
    return out


def move_text(kind: int, value: int) -> str:
    """A strategy's answer (kind, value) in words, as the error fields of a record hold it."""
    k = KIND_NAMES[kind] if 0 <= kind < len(KIND_NAMES) else f"kind {kind}"
    if kind == 0:
        cards = [card_name(c) for c in cards_of(value)] if 0 < value < (1 << 36) else [f"<mask {value}>"]
        return f"attack with [{', '.join(cards)}]"
    if kind == 5:  # K_SWAP (VAR-PO1): a card mask
        cards = [card_name(c) for c in cards_of(value)] if 0 <= value < (1 << 36) else [f"<mask {value}>"]
        return f"swap [{', '.join(cards)}]"
    if value == -1:
        return {1: "take", 2: "pass", 3: "no transfer"}.get(kind, f"{k} -1")
    if kind == 3 and SHOW <= value < SHOW + 36:
        return f"transfer by showing {card_name(value - SHOW)}"
    if 0 <= value < 36:
        return f"{k} {card_name(value)}"
    return f"{k} <{value}>"
