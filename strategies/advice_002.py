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

Every habit has its own knob and can be switched off (issue 13 §6): ``trump_lead_talon``,
``trump_throw_talon`` (saving trumps), ``take_max_pickup`` (the pick-up cap of 3 is ours, not the seed's),
``endgame`` and ``whole_set_defence``, besides the five above. Note that the code judges the *covering*
card when deciding to take, where 002's «крыть хорошую, старшую масть» may mean the *attacking* card is high:
that second reading is not implemented (issue 13, left).

Defence covers the whole set at once (strongest attack card first, cheapest beater each) and
takes at once when it cannot cover it all. Never transfers (the seed knows no transfers).
Rank index: 0 = six, 1 = seven, 2 = eight, 3 = nine, 4 = ten, 5 = jack, 6 = queen, 7 = king, 8 = ace.
"""
import numpy as np
from numba import njit

from strategies._lib import h_attack, h_cover, h_exchange, h_throw_in

NAME = "advice-002"
DESCRIPTION = "Seed 002's advice: singles not triples, save trumps, take early, shed late, force the take in the endgame."
FAMILIES = ("prostoy_5", "prostoy_6", "podkidnoy", "perevodnoy")
PARAMS = {
    "dump_talon": (3.0, 0.0, 36.0, "shed as fast as possible (largest sets, any throw-in rank) once talon <= this"),
    "hand_at_least": (8.0, 1.0, 36.0, "lead triples and fives once the hand holds at least this many cards"),
    "take_high_talon": (10.0, 0.0, 99.0, "take rather than cover with a trump or high card while talon >= this"),
    "high_rank": (6.0, 0.0, 9.0, "rank index counted as high (6 = queen; 9 = none)"),
    "exchange_min_rank": (4.0, 0.0, 9.0, "exchange the trump six when the face-up trump's rank index >= this (4 = ten)"),
    # issue 13 §6: one knob per habit, each of which can be switched off (defaults: the behaviour as before)
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
}


@njit(_nrt=False)
def _k(p):
    # TRUMP_LEAD_TALON, PAIR_LEAD_TALON, DUMP_TALON, DUMP_HAND, SETS_EARLY, TAKE_HIGH_TALON, HIGH_RANK,
    # HIGH_TRUMP_RANK, TAKE_MAX_PICKUP, LONE_TRUMP, TAKE_TRUMP_TALON, KEEP_ACE, TRANSFER, THROW_TRUMP_TALON,
    # THROW_MAX_RANK, EXCHANGE_MIN_RANK, COUNT, COUNT_P, ENDGAME, MATCH
    return (p[5], -1.0, p[0], p[1], 0.0, p[2], p[3], 0.0, p[7], 99.0, 99.0, 0.0, 0.0, p[6],
            8.0, p[4], -1.0, 1.0, p[8], p[9],
            0.0, 36.0, 8.0, 8.0, -1.0, -1.0)


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
