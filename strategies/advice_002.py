"""advice-002: the strategy paragraphs at the end of seed 002 (classic simple durak), as written.

Source: the closing strategy paragraphs of seed 002, the classic simple-durak text behind the ``prostoy_6``
preset (``docs/rules.md``):

- "Ходить лучше с одной карты, чем с троек хорошей масти, и в особенности с козырей" — lead a
  single card rather than a triple, and never trumps: singles (and, in the throw-in families,
  one card, not the whole rank); trumps are led only when nothing else is left.
- "Козыри нужно стараться беречь" — save trumps: no trump throw-ins while the talon lasts.
- "Если карта, определяющая козырь, хорошего достоинства, то ее можно заменить козырной
  шестеркой" — exchange the trump six only when the face-up trump is good (``exchange_min_rank``).
- "Лучше принять, чем крыть хорошую, старшую масть. Когда в колоде находится еще много карт,
  принимать их можно без боязни" — while the talon holds at least ``take_high_talon`` cards, take
  (small attacks of at most 3 cards) rather than cover with a trump or a card of rank index >=
  ``high_rank``.
- "Если же остается в колоде две или три карты, то нужно стараться как можно скорее сбывать свои
  карты" — once the talon is down to ``dump_talon`` cards, lead the largest set and throw in any rank.
- "Когда от частых приемов накопится на руках много карт, тогда выгоднее ходить с троек и пятерок"
  — with ``hand_at_least`` cards or more in hand, lead triples and fives.
- "Оставшись играть вдвоем, нужно стремиться оставить своего противника в дураках и не сделать
  ничьей ... нужно ходить с тройки или пятерки таких карт ..., между которыми находилась бы
  какая-нибудь карта, которая вынудила бы соседа принять ее" — two players, talon empty: every
  card is known (own hand, discard, table, cards seen picked up); lead the largest set containing
  a card the opponent cannot beat, so he must take; otherwise lead the whole hand when it is a
  legal set. Throw in unbeatable cards first.

Every habit has its own knob and can be switched off: ``trump_lead_talon``,
``trump_throw_talon`` (saving trumps), ``take_max_pickup`` (the pick-up cap of 3 is ours, not the seed's),
``endgame`` and ``whole_set_defence``, besides the five above.

Three more knobs follow advice the defaults did not (all off by default; figures: paired games on the same
deals, seats rotated, advice-002 against greedy unless said, 100,000 deals each, change of advice-002's
fool rate in points with its 95% interval; the script is ``results/seed_knobs/run.py``):

- ``take_high_attack``: «лучше принять, чем крыть хорошую, старшую масть» read as written, about the card
  *led at you*: while the talon holds at least ``take_high_talon`` cards, take rather than cover a card of
  rank index >= this, whatever the pick-up. The default judges the *covering* card instead (``high_rank``,
  any trump, at most ``take_max_pickup`` cards). At the seed's "high" (queen, 6) the two readings make the
  same moves in two-player simple durak (covering a queen takes a king, an ace or a trump, all "high" to the
  default); the attack reading *instead of* the default is worse (prostoy_6: +3.02 [+2.67, +3.37]). Lower
  thresholds help in simple durak: ten (4) gives -1.01 [-1.15, -0.87] (prostoy_6), -0.65 [-0.79, -0.52]
  (prostoy_5), and against expert -0.71 / -0.40; nine (3) -3.30 / -1.90; but +0.35 [+0.17, +0.52] in
  podkidnoy and +0.07 [+0.01, +0.12] in 3-player prostoy_6. Not the seed's words, so not the default.
- ``avoid_draw``: «не сделать ничьей»: two players left, talon empty, never lead the whole hand when the
  opponent can cover it with all his cards (a sure draw) if another lead exists. Read literally it turns
  draws into losses: +0.30 [+0.26, +0.33] (prostoy_5), +1.02 [+0.96, +1.09] (prostoy_6), +0.52 against
  expert; greedy's fool rate does not move. Off.
- ``endgame_many``: the endgame rule with three or more players («соседа»): talon empty, lead the largest
  set of plain cards holding a card the neighbour cannot beat with at least this chance. In 3 players the
  taker's left-hand neighbour attacks you next: against two greedy players it costs +0.12 [+0.09, +0.15]
  (prostoy_5 at 0.9) and +0.15 [+0.13, +0.18] (prostoy_6), against two expert players it helps, -0.28
  [-0.34, -0.22] (prostoy_6): it depends on the opponents, so off.

Defence covers the whole set at once (strongest attack card first, cheapest beater each) and
takes at once when it cannot cover it all. Never transfers (the seed knows no transfers).
Rank index: 0 = six, 1 = seven, 2 = eight, 3 = nine, 4 = ten, 5 = jack, 6 = queen, 7 = king, 8 = ace.
"""
import numpy as np
from numba import njit

from strategies._lib import (
    AVOID_DRAW, DUMP_HAND, DUMP_TALON, ENDGAME, ENDGAME_MANY, EXCHANGE_MIN_RANK, HIGH_RANK, MATCH, TAKE_HIGH_ATTACK,
    TAKE_HIGH_TALON, TAKE_MAX_PICKUP, THROW_TRUMP_TALON, TRUMP_LEAD_TALON, h_attack, h_cover, h_exchange, h_throw_in,
    knobs, put_params,
)

NAME = "advice-002"
DESCRIPTION = "Seed 002's advice: singles not triples, save trumps, take early, shed late, force the take in the endgame."
FAMILIES = ("prostoy_5", "prostoy_6", "podkidnoy", "perevodnoy")
VARIANTS = "all"  # every §6 variant the core plays: leads through attack_ok, the rest from `legal`
PARAMS = {
    "dump_talon": (3.0, 0.0, 36.0, "once the talon holds at most this many cards, shed cards as fast as possible: "
                   "lead your largest set, throw in any rank (002: «остается в колоде две или три карты»)"),
    "hand_at_least": (8.0, 1.0, 36.0, "lead triples and fives once your hand holds at least this many cards (002: "
                      "«от частых приемов накопится на руках много карт»)"),
    "take_high_talon": (10.0, 0.0, 99.0, "while the talon holds at least this many cards («еще много карт»), pick the "
                        "cards up rather than cover with a trump or a high card (99: never)"),
    "high_rank": (6.0, 0.0, 9.0, "for the rule above, a plain card this high or higher is too good to cover with "
                  "(0 = six, 4 = ten, 6 = queen, 8 = ace; 9: none)"),
    "exchange_min_rank": (4.0, 0.0, 9.0, "swap your trump six for the face-up trump only when that card is this high "
                          "or higher (002: «хорошего достоинства»; 4 = ten ... 8 = ace; 0: always; 9: never)"),
    # one knob per habit, each of which can be switched off (defaults: the behaviour as before)
    "trump_lead_talon": (-1.0, -1.0, 36.0, "save trumps when leading: lead a trump only once the talon holds at most "
                         "this many cards (-1: only when nothing else is left; 36: like any card)"),
    "trump_throw_talon": (0.0, -1.0, 36.0, "save trumps when throwing in: throw in a trump only once the talon holds "
                          "at most this many cards (0: not while the talon lasts; 36: like any card)"),
    "take_max_pickup": (3.0, 0.0, 36.0, "take rather than cover with a high card only when taking picks up at most "
                        "this many cards (a cap no seed states; 36: no cap; 0: never take to save a card)"),
    "endgame": (1.0, 0.0, 1.0, "1: two players left, talon empty: lead a set holding a card the opponent cannot beat "
                "so he must take (002's endgame advice); 0: off"),
    "whole_set_defence": (1.0, 0.0, 1.0, "1: cover a led set as a whole (strongest card first) and take at once when "
                          "it cannot all be covered; 0: cover card by card, like greedy"),
    # the rest: 002's advice that no knob followed yet (defaults off: see the docstring)
    "take_high_attack": (99.0, 0.0, 99.0, "002's «лучше принять, чем крыть хорошую, старшую масть» read as written: "
                         "while the talon holds at least take_high_talon cards, take rather than cover a card led at "
                         "you whose rank index is at least this (any suit; 6 = queen, 8 = ace), however many cards "
                         "that picks up (99: off)"),
    "avoid_draw": (0.0, 0.0, 1.0, "1: two players left, talon empty: never lead your whole hand when the opponent "
                   "can cover it with all of his cards (you would both go out: a draw, 002's «не сделать ничьей»); "
                   "lead your cheapest card instead; 0: off"),
    "endgame_many": (0.0, 0.0, 1.0, "002's endgame rule («карта, которая вынудила бы соседа принять ее») with three "
                     "or more players left: once the talon is empty, lead a set of plain cards holding a card your "
                     "neighbour cannot beat with at least this chance, judged from every card shown (0: off; the "
                     "two-player rule is 'endgame')"),
}
WHOLE_PARAMS = tuple(k for k in PARAMS if k != "endgame_many")


# greedy's knobs but HIGH_TRUMP_RANK (take_high_talon: rather than cover with any trump), the rest from PARAMS
K_ADVICE = knobs(HIGH_TRUMP_RANK=0)
_PK = ((0, DUMP_TALON), (1, DUMP_HAND), (2, TAKE_HIGH_TALON), (3, HIGH_RANK), (4, EXCHANGE_MIN_RANK),
       (5, TRUMP_LEAD_TALON), (6, THROW_TRUMP_TALON), (7, TAKE_MAX_PICKUP), (8, ENDGAME), (9, MATCH),
       (10, TAKE_HIGH_ATTACK), (11, AVOID_DRAW), (12, ENDGAME_MANY))


@njit(_nrt=False)
def _k(p):
    return put_params(K_ADVICE, p, _PK)


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
    return np.int64(-1)


@njit(_nrt=False)
def exchange(obs, legal, params, rng):
    return h_exchange(obs, _k(params))
