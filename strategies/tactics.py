"""tactics: the habits of strong players, one parameter per tactic (set it to its 'off' value to drop it).

Common tactics of podkidnoy / perevodnoy players (durak strategy guides and table lore; seed 002
states the trump-saving and endgame ones for simple durak). Each is a parameter, so each can be
switched on alone, e.g. ``tactics:trump_lead_talon=36,take_trump_talon=99,transfer=0,
pair_lead_talon=-1,keep_trump_ace=0,lone_trump_rank=99,endgame=0,count_known=1`` keeps only the last
one. With every tactic off the strategy plays exactly like ``greedy`` would, except for ``trump_lead_talon``
whose off value is 36 (greedy already never leads a trump while it has a non-trump).

- ``trump_lead_talon`` — don't attack with trumps until the talon is nearly empty: trumps are led
  or added to a lead only when talon <= this (and when nothing else is left). Off: 36.
- ``take_trump_talon`` — take trump attacks early: while talon >= this, take a trump lead (when
  taking picks up at most 2 cards) instead of spending a higher trump on it. Off: 99.
- ``transfer`` — perevodnoy: transfer with non-trumps (1), also with trumps (2), never (0);
  showing a trump (proezdnoy) costs nothing, so it is used whenever allowed and transfer >= 1.
- ``pair_lead_talon`` — attack with pairs near the end: once talon <= this, lead every card of the
  chosen rank, not just one (throw-in families; ignored when initial_lead=single). Off: -1.
- ``keep_trump_ace`` — keep the trump ace for last (1): never lead, throw in or cover with it while
  another option exists and the talon is not empty; nobody can beat it, so it is the ideal last card.
- ``lone_trump_rank`` — don't spend a lone high trump on defence early: while talon >= 10 and taking
  picks up at most 2 cards, take rather than cover with one's only trump if its rank index >= this
  (0 = six ... 8 = ace). Off: 99.
- ``count_known`` — throw in (and lead) what the defender is known not to be able to beat (1): a card
  none of whose beaters can be in his hand, judged from the discard, the table, the cards seen
  going into his hand and the trump card. Two players with an empty talon: every card is known.
- ``endgame`` — two players, talon empty: lead (a set containing) and throw in cards the opponent
  cannot beat first (1). Its own knob (``count_known`` used to switch it silently).
- ``keep_pair_talon`` — seed 001: «Обязательно ли подкидывать, если есть чем? Нет ... Иногда выгоднее
  придержать пару карт для следующего кона»: while talon >= this, do not throw in a card of a rank you
  hold two or more of. Off (99) by default: measured (podkidnoy, paired deals, seats rotated, 100,000
  each; tactics' fool rate change in points, 95% interval) it costs +5.12 [+4.84, +5.40] against greedy and
  +4.47 [+4.19, +4.74] against expert when always on, +2.92 [+2.66, +3.17] from talon 6 (3 players: +2.75
  [+2.46, +3.04]), +0.65 [+0.48, +0.82] from talon 18.
  ``results/seed_knobs/run.py`` reproduces these figures.
"""
from numba import njit

from strategies._lib import (
    COUNT, ENDGAME, KEEP_ACE, KEEP_PAIR_TALON, LONE_TRUMP, PAIR_LEAD_TALON, TAKE_TRUMP_TALON, TRANSFER,
    TRUMP_LEAD_TALON, h_attack, h_cover, h_exchange, h_throw_in, h_transfer, knobs, put, put_params,
)

NAME = "tactics"
DESCRIPTION = "Strong players' habits, one switchable parameter each: trumps late, take trump leads, transfer, pairs late, ace last."
FAMILIES = ("prostoy_5", "prostoy_6", "podkidnoy", "perevodnoy")
VARIANTS = "all"  # every §6 variant the core plays: leads through attack_ok, the rest from `legal`
PARAMS = {
    "trump_lead_talon": (0.0, -1.0, 36.0, "save trumps: lead a trump (or add one to a lead) only once the talon "
                         "holds at most this many cards (36: off); on its own this changes nothing, since a one-card "
                         "lead is never a trump while a plain card is left: it matters together with pair_lead_talon"),
    "take_trump_talon": (12.0, 0.0, 99.0, "pick up a trump led at you (when that means at most 2 cards) rather than "
                         "spend a higher trump on it, while the talon holds at least this many cards (99: off)"),
    "transfer": (1.0, 0.0, 2.0, "perevodnoy: 0 never transfer; 1 transfer with plain cards (and by showing a trump "
                 "when the rules allow); 2 with trumps too"),
    "pair_lead_talon": (6.0, -1.0, 36.0, "attack with every card of a rank (a pair, three of a kind) once the talon "
                        "holds at most this many cards (-1: off, always one card)"),
    "keep_trump_ace": (1.0, 0.0, 1.0, "1: keep the trump ace for last: never lead, throw in or cover with it while "
                       "the talon lasts and something else is possible; 0: off"),
    "lone_trump_rank": (5.0, 0.0, 99.0, "early (talon 10 or more), pick up rather than cover with your only trump "
                        "when it is this high or higher (0 = six, 5 = jack, 8 = ace; 99: off)"),
    "count_known": (1.0, 0.0, 1.0, "1: remember every card shown and lead / throw in cards the defender is known "
                    "not to be able to beat; 0: off"),
    "count_talon": (0.0, -1.0, 36.0, "... from the moment the talon holds at most this many cards (0: once it is "
                    "empty; 36: always)"),
    "endgame": (1.0, 0.0, 1.0, "two players, talon empty (every card known): lead and throw in cards the opponent "
                "cannot beat first (0: off)"),
    "keep_pair_talon": (99.0, 0.0, 99.0, "001's «иногда выгоднее придержать пару карт для следующего кона»: while the "
                        "talon holds at least this many cards, do not throw in a card of a rank you hold two or more "
                        "of; keep the pair for your own next lead (99: off; 0: always)"),
}
WHOLE_PARAMS = tuple(PARAMS)


# greedy's knobs but TAKE_HIGH_TALON / TAKE_MAX_PICKUP (the "early" and "at most 2 cards" of lone_trump_rank and
# take_trump_talon) and COUNT_P (only cards the defender surely cannot beat); the tactics from PARAMS (p[6]
# switches counting on, p[7] is its talon)
K_TACTICS = knobs(TAKE_HIGH_TALON=10, TAKE_MAX_PICKUP=2, COUNT_P=0.9999)
_PK = ((0, TRUMP_LEAD_TALON), (1, TAKE_TRUMP_TALON), (2, TRANSFER), (3, PAIR_LEAD_TALON), (4, KEEP_ACE),
       (5, LONE_TRUMP), (8, ENDGAME), (9, KEEP_PAIR_TALON))


@njit(_nrt=False)
def _k(p):
    return put(put_params(K_TACTICS, p, _PK), COUNT, p[7] if p[6] > 0 else -1.0)


@njit(_nrt=False)
def attack(obs, legal, params, rng):
    return h_attack(obs, _k(params))


@njit(_nrt=False)
def cover(obs, legal, params, rng):
    return h_cover(obs, legal, _k(params))


@njit(_nrt=False)
def throw_in(obs, legal, params, rng):
    return h_throw_in(obs, legal, _k(params))


@njit(_nrt=False)
def transfer(obs, legal, params, rng):
    return h_transfer(obs, legal, _k(params))


@njit(_nrt=False)
def exchange(obs, legal, params, rng):
    return h_exchange(obs, _k(params))
