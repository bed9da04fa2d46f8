"""The common body of the four set-lead strategies (singles-first, sets-first, sets-late, sets-when-loaded).

They differ only in the defaults of the same three knobs, so each file names its defaults with
``params(...)`` and takes ``attack`` from here; every other decision is greedy's. Knobs of
``strategies/_lib.py`` used: ``SETS_EARLY``, ``DUMP_TALON``, ``DUMP_HAND``.
"""
from numba import njit

from strategies._lib import BASE, DUMP_HAND, DUMP_TALON, SETS_EARLY, attack_with

WHOLE_PARAMS = ("sets_from_start", "sets_when_talon_at_most", "sets_when_hand_at_least")


def params(sets_from_start: float, sets_when_talon_at_most: float, sets_when_hand_at_least: float) -> dict:
    """The three knobs with one strategy's defaults (PARAMS order: params[0], params[1], params[2])."""
    return {
        "sets_from_start": (sets_from_start, 0.0, 1.0, "1: lead the largest set of cheap cards from the first bout; "
                            "0: lead one card unless a rule below says otherwise"),
        "sets_when_talon_at_most": (sets_when_talon_at_most, -1.0, 36.0, "lead the largest set once the talon holds "
                                    "at most this many cards (-1: never)"),
        "sets_when_hand_at_least": (sets_when_hand_at_least, 1.0, 99.0, "lead the largest set while your hand holds "
                                    "at least this many cards (99: never)"),
    }


# greedy's defence and throw-ins (BASE); SETS_EARLY = p[0], DUMP_TALON = p[1], DUMP_HAND = p[2]
_PK = ((0, SETS_EARLY), (1, DUMP_TALON), (2, DUMP_HAND))


@njit(_nrt=False)
def attack(obs, legal, params, rng):
    return attack_with(obs, BASE, params, _PK)
