"""expert: the library's best knob tables, one per family and player count, tuned by experiment against greedy.

It plays the shared heuristics of ``strategies/_lib.py`` (the knobs' meanings: ``strategies/_knobs.py``) with the
table ``TABLES`` holds for the family and the number of players dealt in; the family is read from the rules in
``obs`` (simple durak with partial defence: the prostoy_5 row, take-all: the prostoy_6 row). On top of the
heuristics two small searches run where they are cheap, both set by knobs of the table:

- ``ENDGAME_SOLVE``: two players left with the talon empty in plain podkidnoy, when both hands are small enough,
  the exact solver (``strategies/_endgame.py``) plays a proven win, or avoids a proven loss;
- ``ROLLOUT_SAMPLES``: with the talon empty and few players in (not perevodnoy), every option is played out on a
  few guesses of the hidden cards, the seat itself by its own knobs and the others by greedy's
  (``strategies/_rollout.py``), and the best mean outcome is played.

Broadly: the throw-in families take rather than spend a high trump early, cover with the card that opens the
fewest throw-ins, lead from low pairs and throw trumps in late; simple durak dumps sets when the talon is low or
the hand is large, takes rather than cover with high cards early and assigns covers to the whole set; every
family counts the cards shown near the end and plays what the opponent cannot beat.

Every parameter is a knob of the table and may be overridden for experiments, e.g. ``expert:transfer=0``. A
parameter left out (or given as -99, ``TUNED``) plays the value of the table for the family and player count
(``durak strategies`` lists the two-player values, ``FAMILY_DEFAULTS``); any other value must lie in the knob's
range, and whole-number knobs take whole numbers only (``keep_ace=0.5`` is refused). The last three parameters
are caps rather than values (``PLAYOUT``: search's and rollout's imagined games cap the solver and turn the
rollouts off, which keeps their playouts fast).

How every value was found, with the figures, seeds and speeds: ``results/strength/expert-tuning.md``.
"""
import numpy as np
from numba import njit

from strategies._lib import (
    KNOB, KNOB_NAMES, ROLLOUT_ACTIVE, ROLLOUT_SAMPLES, SWAP_MAX_RANK, end_answer, end_attack, h_attack, h_cover,
    h_exchange, h_swap, h_throw_in, h_transfer, knobs, put, put_capped, put_tuned,
)
from strategies._rollout import rollout_choice, rollout_here
from sim.core.lib import K_ATTACK, K_COVER, K_THROW_IN, O_HAND, O_N, O_RULES
from sim.core.rules import (
    BOUT_CHINESE, BOUT_ROAD, DEAL_CHUKOTSKY, DEAL_NAVALENY, LEAD_TRYOSHKA, LEAD_ZANUDNY, MODE_PEREVODNOY,
    MODE_PODKIDNOY, R_BOUT_RULE, R_CHANGING_TRUMP, R_DEAL_RULE, R_LEAD_RULE, R_MODE, R_NO_TRUMP, R_PARTIAL, R_PUSTOY,
    R_TWO_PACKS, R_VARIANT_ANY,
)

NAME = "expert"
DESCRIPTION = ("The library's best tuned knob tables per family and player count (how they were tuned: "
               "results/strength/expert-tuning.md).")
FAMILIES = ("prostoy_5", "prostoy_6", "podkidnoy", "perevodnoy")
VARIANTS = "all"  # every §6 variant the core plays: leads through attack_ok, the rest from `legal`

# (family, player counts) -> the knob table played: the knobs that differ from greedy's play (BASE)
TABLES = {
    ("prostoy_5", (2,)): knobs(TRUMP_LEAD_TALON=3, DUMP_TALON=3, DUMP_HAND=6, TAKE_HIGH_TALON=10, HIGH_RANK=4,
                               HIGH_TRUMP_RANK=3, TAKE_MAX_PICKUP=3, COUNT=3, COUNT_P=0.9, ENDGAME=1, MATCH=1,
                               ROLLOUT_SAMPLES=2, ROLLOUT_SELF=1),
    ("prostoy_5", (3,)): knobs(DUMP_TALON=3, DUMP_HAND=5, HIGH_RANK=4, HIGH_TRUMP_RANK=3, TAKE_MAX_PICKUP=3, KEEP_ACE=1,
                               COUNT=3, COUNT_P=0.9, ENDGAME=1, MATCH=1, ROLLOUT_SAMPLES=2, ROLLOUT_SELF=1),
    ("prostoy_5", (4,)): knobs(DUMP_TALON=6, DUMP_HAND=5, TAKE_HIGH_TALON=10, HIGH_RANK=7, HIGH_TRUMP_RANK=0,
                               TAKE_MAX_PICKUP=3, COUNT=3, COUNT_P=0.9, ENDGAME=1, MATCH=1, ROLLOUT_SAMPLES=2,
                               ROLLOUT_SELF=1),
    ("prostoy_5", (5,)): knobs(DUMP_TALON=6, DUMP_HAND=5, TAKE_HIGH_TALON=5, HIGH_TRUMP_RANK=0, TAKE_MAX_PICKUP=3,
                               COUNT=3, COUNT_P=0.9, MATCH=1, ROLLOUT_SAMPLES=2, ROLLOUT_SELF=1),
    ("prostoy_5", (6,)): knobs(DUMP_TALON=6, DUMP_HAND=5, TAKE_HIGH_TALON=10, HIGH_RANK=7, HIGH_TRUMP_RANK=0,
                               TAKE_MAX_PICKUP=3, COUNT=3, COUNT_P=0.9, MATCH=1, ROLLOUT_SAMPLES=8, ROLLOUT_ACTIVE=4,
                               ROLLOUT_SELF=1),
    ("prostoy_6", (2,)): knobs(TRUMP_LEAD_TALON=3, DUMP_TALON=3, DUMP_HAND=6, HIGH_RANK=5, HIGH_TRUMP_RANK=3,
                               TAKE_MAX_PICKUP=3, COUNT=3, COUNT_P=0.9, ENDGAME=1, MATCH=1, ROLLOUT_SAMPLES=2,
                               ROLLOUT_SELF=1),
    ("prostoy_6", (3, 4, 5)): knobs(TRUMP_LEAD_TALON=3, DUMP_TALON=3, DUMP_HAND=6, TAKE_HIGH_TALON=14, HIGH_RANK=5,
                                    HIGH_TRUMP_RANK=3, TAKE_MAX_PICKUP=3, COUNT_P=0.9, ENDGAME=1, MATCH=1,
                                    ROLLOUT_SAMPLES=2, ROLLOUT_SELF=1),
    ("prostoy_6", (6,)): knobs(DUMP_TALON=3, DUMP_HAND=6, TAKE_HIGH_TALON=14, HIGH_RANK=5, HIGH_TRUMP_RANK=3,
                               TAKE_MAX_PICKUP=3, COUNT=3, COUNT_P=0.9, ENDGAME=1, MATCH=1, SET_TRUMP_TALON=0,
                               ROLLOUT_SAMPLES=2, ROLLOUT_SELF=1),
    ("podkidnoy", (2,)): knobs(TAKE_HIGH_TALON=6, HIGH_TRUMP_RANK=3, TAKE_MAX_PICKUP=6, THROW_TRUMP_TALON=3, ENDGAME=1,
                               LEAD_PAIR=5, COVER_OPEN_STEPS=3, COVER_OPEN_TRUMP_STEPS=8, COVER_OPEN_EXPECT=1,
                               LEAD_OPEN_STEPS=8, LEAD_OPEN_SIGN=2, ENDGAME_SOLVE=1000, ENDGAME_SOLVE_CARDS=6),
    ("podkidnoy", (3,)): knobs(TAKE_HIGH_TALON=8, HIGH_TRUMP_RANK=0, TAKE_MAX_PICKUP=12, THROW_TRUMP_TALON=1, ENDGAME=1,
                               THROW_TAKE_MAX_RANK=7, COVER_OPEN_STEPS=8, COVER_OPEN_TRUMP_STEPS=8,
                               COVER_OPEN_EXPECT=1, TAKE_OPEN=1.5, TAKE_OPEN_TALON=1, ENDGAME_SOLVE=200,
                               ENDGAME_SOLVE_CARDS=8, ROLLOUT_SAMPLES=2, ROLLOUT_SELF=1),
    ("podkidnoy", (4,)): knobs(TAKE_HIGH_TALON=8, HIGH_TRUMP_RANK=0, TAKE_MAX_PICKUP=12, THROW_TRUMP_TALON=1, ENDGAME=1,
                               COVER_OPEN_STEPS=8, COVER_OPEN_TRUMP_STEPS=8, COVER_OPEN_EXPECT=1, TAKE_OPEN=1.5,
                               TAKE_OPEN_TALON=1, THROW_TRUMP_ACTIVE=3, ENDGAME_SOLVE=3000, ENDGAME_SOLVE_CARDS=14,
                               ROLLOUT_SAMPLES=2, ROLLOUT_SELF=1),
    ("podkidnoy", (5, 6)): knobs(TAKE_HIGH_TALON=8, HIGH_TRUMP_RANK=0, TAKE_MAX_PICKUP=12, THROW_TRUMP_TALON=1,
                                 ENDGAME=1, THROW_TAKE_MAX_RANK=7, COVER_OPEN_STEPS=8, COVER_OPEN_TRUMP_STEPS=8,
                                 COVER_OPEN_EXPECT=1, TAKE_OPEN=1.5, TAKE_OPEN_TALON=1, TAKE_FIRST_RANK=3,
                                 THROW_TRUMP_ACTIVE=3, ENDGAME_SOLVE=3000, ENDGAME_SOLVE_CARDS=14, ROLLOUT_SAMPLES=2,
                                 ROLLOUT_SELF=1),
    ("perevodnoy", (2,)): knobs(TAKE_HIGH_TALON=6, HIGH_TRUMP_RANK=3, TAKE_MAX_PICKUP=12, TRANSFER=1,
                                THROW_TRUMP_TALON=3, COUNT=3, COUNT_P=0.9, ENDGAME=1, LEAD_PAIR=5, COVER_OPEN_STEPS=3,
                                COVER_OPEN_TRUMP_STEPS=8, COVER_OPEN_EXPECT=1, LEAD_OPEN_STEPS=8),
    ("perevodnoy", (3,)): knobs(TAKE_HIGH_TALON=8, HIGH_TRUMP_RANK=3, TAKE_MAX_PICKUP=12, TRANSFER=2, ENDGAME=1,
                                COVER_OPEN_STEPS=8, COVER_OPEN_TRUMP_STEPS=8, COVER_OPEN_EXPECT=1, LEAD_OPEN_STEPS=8,
                                TAKE_OPEN=1.5, TAKE_OPEN_TALON=1),
    ("perevodnoy", (4,)): knobs(TAKE_HIGH_TALON=8, HIGH_TRUMP_RANK=3, TAKE_MAX_PICKUP=12, TRANSFER=2, ENDGAME=1,
                                COVER_OPEN_STEPS=8, COVER_OPEN_TRUMP_STEPS=8, COVER_OPEN_EXPECT=1, LEAD_OPEN_STEPS=8,
                                TAKE_OPEN=1.5, TAKE_OPEN_TALON=1, THROW_TRUMP_ACTIVE=3),
    ("perevodnoy", (5, 6)): knobs(TAKE_HIGH_TALON=8, HIGH_TRUMP_RANK=3, TAKE_MAX_PICKUP=12, TRANSFER=2, ENDGAME=1,
                                  COVER_OPEN_STEPS=8, COVER_OPEN_TRUMP_STEPS=8, COVER_OPEN_EXPECT=1, LEAD_OPEN_STEPS=8,
                                  TAKE_OPEN=1.5, TAKE_OPEN_TALON=1, TAKE_FIRST_RANK=3, THROW_TRUMP_ACTIVE=3),
}
PLAYERS = range(2, 7)

# The §6 variants under which expert's habits were checked (name, the toggles that play it, the families that do;
# research.strength.variants): the tables were tuned on the plain families, and some habits turn against expert
# when a variant changes the game (no trumps, three-card leads, no talon...). VARIANT_TABLES: under a variant, the
# knobs of the family's table set back to greedy's value, found by forward selection against greedy at 2 players and
# at 4 (for 3 to 6, checked at 3 and 6: not at 6 where it lost there); results/strength/variants.md has the figures.
_ALL = FAMILIES
_THROW_IN = ("podkidnoy", "perevodnoy")
HABIT_VARIANTS = (
    ("tryoshka", {"lead_rule": "tryoshka"}, _ALL),
    ("zanudny", {"lead_rule": "zanudny"}, _ALL),
    ("no_trump", {"no_trump": "true"}, _ALL),
    ("chukotsky", {"deal_rule": "chukotsky"}, _ALL),
    ("navaleny", {"deal_rule": "navaleny"}, _ALL),
    ("pustoy", {"draw_rule": "pustoy"}, _ALL),
    ("changing_trump", {"changing_trump": "true"}, _ALL),
    ("two_packs", {"two_packs": "true"}, _THROW_IN),
    ("chain_road", {"bout_rule": "chain_road"}, ("podkidnoy",)),
    ("chain_chinese", {"bout_rule": "chain_chinese"}, ("podkidnoy",)),
)
VARIANT_TABLES = {
    ("tryoshka", "prostoy_5", (2,)): dict(TAKE_HIGH_TALON=99, DUMP_HAND=99),
    ("tryoshka", "prostoy_5", (3, 4, 5, 6)): dict(HIGH_RANK=9),
    ("tryoshka", "prostoy_6", (2,)): dict(DUMP_HAND=99),
    ("tryoshka", "prostoy_6", (3, 4, 5, 6)): dict(TRUMP_LEAD_TALON=-1),
    ("tryoshka", "podkidnoy", (3, 4, 5)): dict(COVER_OPEN_STEPS=-1, TAKE_HIGH_TALON=99),
    ("tryoshka", "perevodnoy", (2,)): dict(TAKE_HIGH_TALON=99),
    ("tryoshka", "perevodnoy", (3, 4, 5)): dict(COVER_OPEN_STEPS=-1, TAKE_HIGH_TALON=99, LEAD_OPEN_STEPS=-1),
    ("zanudny", "prostoy_6", (2,)): dict(DUMP_TALON=-1, TRUMP_LEAD_TALON=-1),
    ("zanudny", "podkidnoy", (3, 4, 5, 6)): dict(THROW_TRUMP_ACTIVE=6),
    ("zanudny", "perevodnoy", (3, 4, 5, 6)): dict(THROW_TRUMP_ACTIVE=6),
    ("no_trump", "prostoy_5", (2,)): dict(COUNT=-1, DUMP_TALON=-1, DUMP_HAND=99),
    ("no_trump", "prostoy_5", (3, 4, 5, 6)): dict(COUNT=-1),
    ("no_trump", "prostoy_6", (2,)): dict(COUNT=-1),
    ("no_trump", "podkidnoy", (2,)): dict(LEAD_PAIR=-1, LEAD_OPEN_STEPS=-1),
    ("no_trump", "podkidnoy", (3, 4, 5, 6)): dict(TAKE_OPEN=99),
    ("no_trump", "perevodnoy", (2,)): dict(COUNT=-1, LEAD_PAIR=-1, LEAD_OPEN_STEPS=-1),
    ("chukotsky", "prostoy_5", (2,)): dict(COUNT=-1),
    ("chukotsky", "prostoy_6", (2,)): dict(COUNT=-1),
    ("chukotsky", "perevodnoy", (3, 4, 5)): dict(LEAD_OPEN_STEPS=-1),
    ("navaleny", "prostoy_5", (2,)): dict(ENDGAME=0),
    ("navaleny", "perevodnoy", (2,)): dict(LEAD_PAIR=-1),
    ("pustoy", "prostoy_5", (2,)): dict(TRUMP_LEAD_TALON=-1),
    ("pustoy", "prostoy_6", (2,)): dict(COUNT=-1),
    ("pustoy", "podkidnoy", (2,)): dict(LEAD_PAIR=-1, LEAD_OPEN_STEPS=-1),
    ("changing_trump", "prostoy_5", (2,)): dict(ENDGAME=0, COUNT=-1),
    ("changing_trump", "prostoy_5", (3, 4, 5, 6)): dict(DUMP_HAND=99, ENDGAME=0),
    ("changing_trump", "prostoy_6", (2,)): dict(DUMP_HAND=99, ENDGAME=0),
    ("changing_trump", "podkidnoy", (2,)): dict(LEAD_OPEN_STEPS=-1),
    ("changing_trump", "podkidnoy", (3, 4, 5, 6)): dict(TAKE_OPEN=99, TAKE_HIGH_TALON=99),
    ("two_packs", "podkidnoy", (3, 4, 5, 6)): dict(TAKE_OPEN=99),
    ("chain_road", "podkidnoy", (2,)): dict(COVER_OPEN_STEPS=-1, LEAD_OPEN_STEPS=-1, LEAD_PAIR=-1, ENDGAME=0),
    ("chain_road", "podkidnoy", (3, 4, 5, 6)): dict(COVER_OPEN_STEPS=-1),
    ("chain_chinese", "podkidnoy", (2,)): dict(LEAD_OPEN_STEPS=-1, LEAD_PAIR=-1, COVER_OPEN_STEPS=-1),
    ("chain_chinese", "podkidnoy", (3, 4, 5, 6)): dict(COVER_OPEN_STEPS=-1),
}


def table(family: str, n: int) -> tuple:
    """The knob table expert plays in a family with n players."""
    return next(t for (f, ns), t in TABLES.items() if f == family and n in ns)


# the compiled form of TABLES: one tuple of tables, indexed by family code * 5 + players - 2 (_k)
_CELLS = tuple(table(f, n) for f in FAMILIES for n in PLAYERS)

TUNED = -99.0  # the default of every parameter: "the value of the table being played"
# name -> (knob, what it changes in a player's words); each parameter sets its knob (range: the knob's) unless
# left at TUNED. The last three cap their knob instead (CAPS): search's and rollout's imagined games (PLAYOUT) set them.
_P = (
    ("trump_lead_talon", "TRUMP_LEAD_TALON", "save trumps: lead a trump (or add one to a lead) only once the "
     "talon holds at most this many cards (-1: only when nothing else is left; 36: like any card)"),
    ("pair_lead_talon", "PAIR_LEAD_TALON", "podkidnoy/perevodnoy: lead every card of the chosen rank at once, "
     "not just one, once the talon holds at most this many cards (-1: never; 36: always)"),
    ("dump_talon", "DUMP_TALON", "shed cards fast once the talon holds at most this many: simple durak leads "
     "its largest set, the throw-in games throw in any rank (-1: never)"),
    ("dump_hand", "DUMP_HAND", "simple durak: lead the largest set (triple, five) while your hand holds at "
     "least this many cards (99: never)"),
    ("take_high_talon", "TAKE_HIGH_TALON", "while the talon holds at least this many cards, pick the cards up "
     "rather than spend a high card or a high trump on a small pick-up (99: never)"),
    ("high_rank", "HIGH_RANK", "for the rule above, a plain card this high or higher is worth keeping "
     "(0 = six, 4 = ten, 6 = queen, 8 = ace; 9: none)"),
    ("high_trump_rank", "HIGH_TRUMP_RANK", "for the rule above, a trump this high or higher is worth keeping "
     "(0 = six ... 8 = ace; 9: none)"),
    ("take_max_pickup", "TAKE_MAX_PICKUP", "the rule above applies only when picking up means at most this "
     "many cards (0: never pick up to save a card)"),
    ("lone_trump", "LONE_TRUMP", "also pick up rather than cover with your only trump when it is this high or "
     "higher (0 = six ... 8 = ace; 99: never)"),
    ("take_trump_talon", "TAKE_TRUMP_TALON", "pick up a trump led at you rather than spend a higher trump on "
     "it while the talon holds at least this many cards (99: never)"),
    ("keep_ace", "KEEP_ACE", "1: keep the trump ace for last (never lead, throw in or cover with it while the "
     "talon lasts and something else is possible); 0: play it like any card"),
    ("transfer", "TRANSFER", "perevodnoy: 0 never transfer; 1 transfer by showing a trump when allowed, else "
     "by laying a plain card; 2 also lay trumps"),
    ("count", "COUNT", "remember every card shown once the talon holds at most this many, and lead or throw "
     "in cards the defender probably cannot beat (-1: never; 36: always)"),
    ("count_p", "COUNT_P", "when counting: play such a card first if the defender cannot beat it with at "
     "least this chance (0.9 = 9 in 10)"),
    ("endgame", "ENDGAME", "1: two players left and the talon empty (every card known): lead and throw in "
     "cards the opponent cannot beat first; 0: off"),
    ("exchange_min_rank", "EXCHANGE_MIN_RANK", "swap your trump six for the face-up trump only when that card "
     "is this high or higher (0 = six, 1 = seven: always worth it ... 8 = ace; 9: never)"),
    ("endgame_nodes_max", "ENDGAME_SOLVE", "at most this many nodes per option for the exact two-player endgame "
     "solver of podkidnoy (0: no solver; it caps the table's value)"),
    ("endgame_cards_max", "ENDGAME_SOLVE_CARDS", "solve the two-player endgame only when both hands together hold "
     "at most this many cards (it caps the table's value)"),
    ("rollout_samples_max", "ROLLOUT_SAMPLES", "at most this many guesses of the hidden cards for the rollouts once "
     "the talon is empty (0: no rollouts; it caps the table's value)"),
)
CAPS = ("endgame_nodes_max", "endgame_cards_max", "rollout_samples_max")
PARAMS = {name: (TUNED, KNOB[knob].low, KNOB[knob].high, doc + (" (left out or -99: no cap)" if name in CAPS else
                                                                  " (left out or -99: the value tuned for the family)"))
          for name, knob, doc in _P}
WHOLE_PARAMS = tuple(name for name, knob, _ in _P if KNOB[knob].whole)
# what "the tuned value" is in each family with two players (shown by `durak strategies`; TABLES holds the others)
FAMILY_DEFAULTS = {fam: {name: table(fam, 2)[KNOB_NAMES.index(knob)] for name, knob, _ in _P} for fam in FAMILIES}


def params(**given) -> np.ndarray:
    """expert's parameter vector: every parameter TUNED but those given by name."""
    p = np.full(len(_P), TUNED)
    for name, v in given.items():
        p[[n for n, *_ in _P].index(name)] = v
    return p


# search's and rollout's imagined games (their playouts, and the answer they start from): the tables with the
# endgame solver capped at 1,000 nodes and 8 cards and the rollouts off (search at 4-6 players would otherwise play
# the larger solver of the 4-6 player podkidnoy tables, about 15 times slower: 82 ms a decision instead of 5.5)
PLAYOUT = params(endgame_nodes_max=1000, endgame_cards_max=8, rollout_samples_max=0)

# (param index, knob index) pairs: parameters that set their knob (put_tuned) and those that cap it (put_capped)
_PK = tuple((i, KNOB_NAMES.index(knob)) for i, (name, knob, _) in enumerate(_P) if name not in CAPS)
_CAPS = tuple((i, KNOB_NAMES.index(knob)) for i, (name, knob, _) in enumerate(_P) if name in CAPS)


def cell_index(family, n):
    """The compiled `cell`'s number for a family and player count (family * 5 + players - 2), for the tables built
    per cell in Python (VARIANT_TABLES here, learned's NETWORK_VARIANTS)."""
    return FAMILIES.index(family) * len(PLAYERS) + n - PLAYERS[0]


def _variant_arrays():
    """VARIANT_TABLES as arrays the compiled `_k` reads: per (variant, family * 5 + players - 2) cell, how many knobs
    it sets back, their indices and values."""
    nv, nc = len(HABIT_VARIANTS), len(FAMILIES) * len(PLAYERS)
    width = max([len(d) for d in VARIANT_TABLES.values()] + [1])
    count = np.zeros((nv, nc), dtype=np.int64)
    idx = np.zeros((nv, nc, width), dtype=np.int64)
    val = np.zeros((nv, nc, width))
    names = [v[0] for v in HABIT_VARIANTS]
    for (name, fam, ns), d in VARIANT_TABLES.items():
        for n in ns:
            c = cell_index(fam, n)
            for j, (knob, v) in enumerate(d.items()):
                idx[names.index(name), c, j] = KNOB_NAMES.index(knob)
                val[names.index(name), c, j] = v
            count[names.index(name), c] = len(d)
    return count, idx, val


_V_COUNT, _V_IDX, _V_VAL = _variant_arrays()


@njit(cache=True, _nrt=False)
def _variant_on(obs, v):
    """Is variant number v of HABIT_VARIANTS played under the observation's rules?"""
    r = O_RULES
    if v == 0:
        return obs[r + R_LEAD_RULE] == LEAD_TRYOSHKA
    if v == 1:
        return obs[r + R_LEAD_RULE] == LEAD_ZANUDNY
    if v == 2:
        return obs[r + R_NO_TRUMP] != 0
    if v == 3:
        return obs[r + R_DEAL_RULE] == DEAL_CHUKOTSKY
    if v == 4:
        return obs[r + R_DEAL_RULE] == DEAL_NAVALENY
    if v == 5:
        return obs[r + R_PUSTOY] != 0
    if v == 6:
        return obs[r + R_CHANGING_TRUMP] != 0
    if v == 7:
        return obs[r + R_TWO_PACKS] != 0
    if v == 8:
        return obs[r + R_BOUT_RULE] == BOUT_ROAD
    return obs[r + R_BOUT_RULE] == BOUT_CHINESE


@njit(cache=True, _nrt=False)
def cell(obs):
    """The index of the family and player count in _CELLS: family code * 5 + players - 2 (simple durak with partial
    defence plays the prostoy_5 row, take-all the prostoy_6 row)."""
    mode = obs[O_RULES + R_MODE]
    fam = 3 if mode == MODE_PEREVODNOY else (2 if mode == MODE_PODKIDNOY else (0 if obs[O_RULES + R_PARTIAL] else 1))
    return fam * 5 + obs[O_N] - 2


@njit(cache=True, _nrt=False)
def _variant_table(obs, c):
    """Cell c's knob table with VARIANT_TABLES' knobs set back for every variant the rules play. Its own function, so
    the plain families' path never carries the tuple through this loop (that cost expert 12-20% of its games/s)."""
    k = _CELLS[c]
    for v in range(_V_COUNT.shape[0]):
        if _V_COUNT[v, c] > 0 and _variant_on(obs, v):
            for j in range(_V_COUNT[v, c]):
                k = put(k, _V_IDX[v, c, j], _V_VAL[v, c, j])
    return k


@njit(cache=True, _nrt=False)
def _k(obs, p):
    """The knob table for this family and player count (with the habits a §6 variant turns against it set back to
    greedy's, VARIANT_TABLES), with the parameters put on it."""
    c = cell(obs)
    if obs[O_RULES + R_VARIANT_ANY] != 0:
        return put_capped(put_tuned(_variant_table(obs, c), p, _PK), p, _CAPS)
    return put_capped(put_tuned(_CELLS[c], p, _PK), p, _CAPS)  # the plain families: no loop-carried tuple


@njit(cache=True, _nrt=False)
def roll(obs, kind, legal, k, first, params, rng):
    """`first`, or where the rollouts play (ROLLOUT_SAMPLES) the option its imagined games rate best."""
    if legal == 0 or not rollout_here(obs, k[ROLLOUT_SAMPLES], k[ROLLOUT_ACTIVE]):
        return first
    return rollout_choice(obs, kind, legal, first, np.int64(k[ROLLOUT_SAMPLES]), k, params, rng)


@njit(cache=True, _nrt=False)
def attack(obs, legal, params, rng):
    k = _k(obs, params)
    return roll(obs, K_ATTACK, obs[O_HAND], k, end_attack(obs, k, h_attack(obs, k)), params, rng)


@njit(cache=True, _nrt=False)
def cover(obs, legal, params, rng):
    k = _k(obs, params)
    return roll(obs, K_COVER, legal, k, end_answer(obs, legal, k, K_COVER, h_cover(obs, legal, k)), params, rng)


@njit(cache=True, _nrt=False)
def throw_in(obs, legal, params, rng):
    k = _k(obs, params)
    return roll(obs, K_THROW_IN, legal, k, end_answer(obs, legal, k, K_THROW_IN, h_throw_in(obs, legal, k)), params,
                rng)


@njit(cache=True, _nrt=False)
def transfer(obs, legal, params, rng):
    return h_transfer(obs, legal, _k(obs, params))


@njit(cache=True, _nrt=False)
def exchange(obs, legal, params, rng):
    return h_exchange(obs, _k(obs, params))


@njit(cache=True, _nrt=False)
def swap(obs, legal, params, rng):
    return h_swap(obs, legal, SWAP_MAX_RANK)  # VAR-PO1: as greedy (its lowest non-trumps of rank 6 to 9)
