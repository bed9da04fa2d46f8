"""Every offset and code the core shares with strategies, records, traces and reports.

Numba-free: records, traces and reports import these without compiling anything. Offsets are
derived from ordered field lists (name, width), never counted by hand; append a field to a list
and everything after it moves.
"""
from __future__ import annotations

from sim.core.rules import R_SIZE


def _place(fields, start=0):
    """[(name, width)] -> ({name: offset}, end)."""
    out, at = {}, start
    for name, width in fields:
        out[name] = at
        at += width
    return out, at


# ---- decision kinds (what a strategy is asked) and answers --------------------------------
K_ATTACK, K_COVER, K_THROW_IN, K_TRANSFER, K_EXCHANGE = 0, 1, 2, 3, 4
K_SWAP = 5  # poker_swap (VAR-PO1, RUL-55..59): a mask of 0..2 hand cards to swap for the top talon cards (0: none)
K_NONE = -1  # the deal is over: nobody is to act
KIND_NAMES = ("attack", "cover", "throw_in", "transfer", "exchange", "swap")
NO_CARD = -1  # cover: take (simple durak: leave uncovered); throw_in: pass; transfer: do not transfer
SHOW = 64  # transfer answer: card + SHOW = transfer by showing that card
FROM_TALON = 1 << 36  # attack answer (armenian, RUL-45): lead the top card of the talon, blind and alone
TWIN_LEAD = 37  # attack answer with two packs (VAR-BD1, RUL-83): bit TWIN_LEAD + s = "and the twin of the led card of
# suit s" (a same-rank lead laying both copies of a card)

# ---- the observation: what the seat to act may know (the prefix of the state) ---------------
_OBS_FIELDS = [
    ("SEAT", 1), ("HAND", 1), ("N", 1), ("TRUMP_SUIT", 1), ("TRUMP_CARD", 1), ("TRUMP_IN_TALON", 1),
    ("TALON", 1), ("DISCARD", 1), ("ATTACKER", 1), ("DEFENDER", 1), ("TAKING", 1), ("NTABLE", 1),
    ("COVER_TARGET", 1), ("LIMIT", 1), ("FIRST_BOUT", 1), ("BOUT", 1), ("SHOW_LEGAL", 1), ("OUT", 1),
    ("DEALER", 1), ("TABLE_MASK", 1),
    ("TABLE_ATT", 12), ("TABLE_COV", 12),  # -1 = empty / uncovered
    ("HAND_SIZE", 6), ("KNOWN", 6), ("TEAM", 6),  # per seat; KNOWN: cards of that hand everyone has seen
    ("KIND", 1), ("ACTOR", 1),  # the decision being asked, and who is asked
    ("RULES", R_SIZE),  # the rules vector (R_* of sim.core.rules)
    # where the bout's procedure stands: public (everybody at the table sees it), so it is part of the
    # observation, and a seat's observation plus sampled hidden cards is a complete state (S_* names:
    # the kernels' working fields)
    ("PHASE", 1), ("OPENER", 1), ("NCOV", 1), ("SKIP_ATT", 1), ("THROW_I", 1), ("ATT_DONE", 1),
    ("BASE_LIMIT", 1), ("ANY_DISCARD", 1), ("SHOWN_GAME", 1), ("SHOWN_BOUT", 1), ("SHOWED", 1), ("N_OUT", 1),
    ("LEAD_MASK", 1), ("P_K", 1), ("P_COVERED", 1), ("P_USED", 1), ("P_ALLCOV", 1), ("FIRST_ATT", 1),
    ("DECLINED", 1),  # DECLINED: the defender said no to a transfer; P_*: simple durak's defence so far
    ("QUIET", 1),  # bouts in a row that ended with no card discarded and none drawn (strategies vary play when it grows)
    # §6 modifiers: public fields, a block per group (look them up by name below the unpacking)
    # -- beating and trumps
    ("SEAT_TRUMPS", 6),  # own_trumps (VAR-DK1): each seat's trump suit (0 when the modifier is off)
    ("TRUMP_UNDER", 1),  # changing_trump (VAR-SM1): 1 while a face-down card lies under the face-up trump card
    # -- leads
    # -- dealing and drawing
    ("REMOVED", 1),  # cards out of play (chukotsky, navaleny out_of_play): how many
    ("REMOVED_KNOWN", 1),  # the removed cards everybody saw (the turned trump card)
    ("DISCARDS", 1),  # otboyny: bouts that sent cards to the discard so far (every second goes to the talon)
    ("POKER_KEY", 1), ("POKER_OFFERED", 1),  # poker_swap (VAR-PO1): the offers' key (1 + bout * 16, + the
    # covers so far with every_cover; 0: none yet this deal) and the seats offered the swap under that key
    # -- scoring
    ("TABLE_BY", 12),  # who laid each attack card (the slot's seat; -1 empty): a pogon's maker (RUL-61)
    ("POINTS", 6), ("POGONY", 6), ("POGON_TOP", 6),  # per seat so far, kept when a scoring variant is on:
    # cards beaten (VAR-OC1), pogony inflicted and the highest rank of one (VAR-PG1; -1: none)
    # -- chain beating (sim/core/chain.py): cards in the chain, its top card (-1: none), who laid it
    ("CHAIN_LEN", 1), ("CHAIN_TOP", 1), ("CHAIN_BY", 1),
    # -- two packs (VAR-BD1, RUL-80..86): card ids stay 0..35 (a card's kind); a mask that can hold a card twice
    # has a twin mask of the cards it holds twice (always 0 with one pack). HAND2: the observer's hand's twins;
    # KNOWN2: per seat, the cards everyone saw twice in that hand; DISCARD2: the discard's twins
    ("HAND2", 1), ("KNOWN2", 6), ("DISCARD2", 1),
]
_o, O_SIZE = _place(_OBS_FIELDS)
(O_SEAT, O_HAND, O_N, O_TRUMP_SUIT, O_TRUMP_CARD, O_TRUMP_IN_TALON, O_TALON, O_DISCARD, O_ATTACKER, O_DEFENDER,
 O_TAKING, O_NTABLE, O_COVER_TARGET, O_LIMIT, O_FIRST_BOUT, O_BOUT, O_SHOW_LEGAL, O_OUT, O_DEALER, O_TABLE_MASK,
 O_TABLE_ATT, O_TABLE_COV, O_HAND_SIZE, O_KNOWN, O_TEAM, O_KIND, O_ACTOR, O_RULES,
 S_PHASE, S_OPENER, S_NCOV, S_SKIP_ATT, S_THROW_I, S_ATT_DONE, S_BASE_LIMIT, S_ANY_DISCARD, S_SHOWN_GAME,
 S_SHOWN_BOUT, S_SHOWED, S_N_OUT, S_LEAD_MASK, S_P_K, S_P_COVERED, S_P_USED, S_P_ALLCOV, S_FIRST_ATT,
 S_DECLINED, O_QUIET) = list(_o.values())[:48]
# §6 modifier fields by name, a block per group
# -- beating and trumps
O_SEAT_TRUMPS = _o["SEAT_TRUMPS"]
O_TRUMP_UNDER = _o["TRUMP_UNDER"]
# -- leads
# -- dealing and drawing
O_REMOVED, O_REMOVED_KNOWN, O_DISCARDS = _o["REMOVED"], _o["REMOVED_KNOWN"], _o["DISCARDS"]
O_POKER_KEY, O_POKER_OFFERED = _o["POKER_KEY"], _o["POKER_OFFERED"]
# -- scoring
O_TABLE_BY, O_POINTS, O_POGONY, O_POGON_TOP = _o["TABLE_BY"], _o["POINTS"], _o["POGONY"], _o["POGON_TOP"]
# -- chain beating
O_CHAIN_LEN, O_CHAIN_TOP, O_CHAIN_BY = _o["CHAIN_LEN"], _o["CHAIN_TOP"], _o["CHAIN_BY"]
# -- two packs
O_HAND2, O_KNOWN2, O_DISCARD2 = _o["HAND2"], _o["KNOWN2"], _o["DISCARD2"]

# ---- the private state that follows the observation: one int64 array per deal ---------------
_STATE_FIELDS = [
    ("HANDS", 6), ("TALON", 72), ("DECK", 72),  # TALON: draw order, trump card last; DECK: the shuffle
    # (72 long for two packs, VAR-BD1; one pack uses the first 36)
    ("TP", 1), ("TEND", 1), ("TALON_MASK", 1),  # cards TP..TEND-1 of TALON are still to be drawn
    ("LEGAL", 1),  # the legal mask of the pending decision (it depends on the actor's hand)
    # §6 modifiers: private fields, a block per group
    # -- beating and trumps
    # -- leads
    # -- dealing and drawing
    ("REMOVED", 1),  # the mask of the cards out of play
    ("OT_RNG", 1),  # otboyny: the deal's own random stream (seeded at the deal) for shuffling cards back in
    # -- scoring
    # -- chain beating: the answer `apply` hands on to the chain bout (sim/core/chain.py)
    ("CHAIN_ANSWER", 1),
    # -- two packs (VAR-BD1): the hands' and the talon's twin masks (cards held twice)
    ("HANDS2", 6), ("TALON_MASK2", 1),
]
_s, STATE_SIZE = _place(_STATE_FIELDS, O_SIZE)
(S_HANDS, S_TALON, S_DECK, S_TP, S_TEND, S_TALON_MASK, S_LEGAL) = list(_s.values())[:7]
# -- beating and trumps
# -- leads
# -- dealing and drawing
S_REMOVED, S_OT_RNG = _s["REMOVED"], _s["OT_RNG"]
# -- scoring
# -- chain beating
S_CHAIN_ANSWER = _s["CHAIN_ANSWER"]
# -- two packs
S_HANDS2, S_TALON_MASK2 = _s["HANDS2"], _s["TALON_MASK2"]

# phases of a bout (S_PHASE)
PH_BOUT, PH_EXCHANGE, PH_LEAD, PH_PCOVER, PH_DEFEND, PH_THROW, PH_OVER = range(7)
PH_CHAIN, PH_CHAIN_END, PH_CHAIN_ANSWER = 7, 8, 9  # chain beating: beat the top card / the chain is over / an answer
PH_SWAP = 10  # poker_swap (VAR-PO1): the defender is asked whether to swap before a cover decision

# ---- the per-deal record: one int64 row per deal (sim.core.records names the fields) ----------
_REC_FIELDS = [
    ("GAME", 1), ("SERIES", 1), ("DEAL", 1), ("DEALER", 1), ("FIRST_ATTACKER", 1), ("FOOL", 1),
    ("LOSING_TEAM", 1), ("BOUTS", 1), ("EXCHANGE_SEAT", 1), ("TRANSFERS", 1), ("POGONY_SEAT", 1),
    ("LAST_LEAD_SIXES", 1), ("ERROR", 1), ("ERR_SEAT", 1), ("ERR_KIND", 1), ("ERR_VALUE", 1), ("DRAW", 1),
    ("OUTCOME", 6), ("PLACE", 6), ("TAKEN", 6), ("UNFINISHED", 1),
    ("SIX_HOLDER", 1),  # the seat dealt the six of trumps (-1: it is the face-up card)
    ("ACE_HOLDER", 1),  # the seat dealt the ace of trumps (-1: it is the face-up card, or there is no trump suit)
    ("FOOL_CARDS", 1),  # cards left in the losing hand(s) at the end
    ("INVARIANT", 1),  # bouts whose end found cards not accounted for (must stay 0)
    # §6 modifiers: record fields, a block per group
    # -- beating and trumps
    # -- leads
    # -- dealing and drawing
    # -- scoring
    ("POINTS", 6), ("POGONY", 6), ("POGON_TOP", 6),  # at the end, as O_POINTS.. (scoring variants only)
    ("SCORE_WIN", 1),  # bitmask of the seats that won the score (0: nobody, or no scoring variant)
    ("SCORE_TIE", 1),  # 1 when sides (players, or teams) tied for the best score and share the win
]
_f, F_SIZE = _place(_REC_FIELDS)
(F_GAME, F_SERIES, F_DEAL, F_DEALER, F_FIRST_ATTACKER, F_FOOL, F_LOSING_TEAM, F_BOUTS, F_EXCHANGE_SEAT,
 F_TRANSFERS, F_POGONY_SEAT, F_LAST_LEAD_SIXES, F_ERROR, F_ERR_SEAT, F_ERR_KIND, F_ERR_VALUE, F_DRAW,
 F_OUTCOME, F_PLACE, F_TAKEN, F_UNFINISHED, F_SIX_HOLDER, F_ACE_HOLDER, F_FOOL_CARDS, F_INVARIANT) = list(_f.values())[:25]
# -- beating and trumps
# -- leads
# -- dealing and drawing
# -- scoring
F_POINTS, F_POGONY, F_POGON_TOP, F_SCORE_WIN, F_SCORE_TIE = (_f["POINTS"], _f["POGONY"], _f["POGON_TOP"],
                                                            _f["SCORE_WIN"], _f["SCORE_TIE"])

OUT_ESCAPED, OUT_DREW, OUT_FOOL = 0, 1, 2
ERR_ILLEGAL = 1
MAX_BOUTS = 1000  # RUL-22: a deal still going after this many bouts is recorded as unfinished

# ---- trace rows: (code, player, a, b) per action -------------------------------------------
# T_ATTACK: (T_ATTACK, attacker, card mask, 1 if the card was led from the talon (armenian) else 0)
T_ATTACK, T_COVER, T_TAKE, T_THROW_IN, T_PASS, T_TRANSFER, T_SHOW, T_EXCHANGE, T_DEFEND, T_DEAL = range(1, 11)
T_RESHUFFLE = 11  # VAR-OT1: (code, -1, card, index) per card of the talon after a discard is shuffled in
T_SWAP = 12  # VAR-PO1: (code, defender, mask given away, mask taken from the talon); (code, defender, 0, 0): declined
TRACE_CAP = 60000
