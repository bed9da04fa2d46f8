"""learned: expert's answers re-ranked by a small network trained on search's option values.

At every decision with more than one option it lists the options search would weigh (`strategies/_features.py`,
expert's answer first), describes the position and each option by a few dozen features in the game's terms, and plays
the option a one-hidden-layer network (`strategies/_learned_model.py`, one per family, for two players and for three
to six) rates best, expert's own unless another beats it by the group's MARGIN: the networks were fitted to the values
search gave those options (their mean score over sampled deals played out by expert), so it plays what search would
without playing anything out. Where expert's answer is exact (the two-player endgame solver) or the cards are
going round (O_QUIET), it plays expert's. `durak learn` regenerates the data and the network from a seed.
"""
import numpy as np
from numba import njit

from sim.core.layout import K_ATTACK, K_COVER, K_EXCHANGE, K_SWAP, K_THROW_IN, K_TRANSFER, NO_CARD
from sim.core.lib import O_HAND, O_SHOW_LEGAL, O_TALON
from strategies import expert as _expert
from strategies._features import MAXC, NF, NP, group, option, options, position, stack_f64, stack_i64
from sim.core.nn import affine, relu_out
from strategies._learned_model import B1, B2, CAP, HIDDEN, MARGIN, META, W1, W2
from strategies._lib import restless, solve_here

NAME = "learned"
DESCRIPTION = ("Expert's answers re-ranked by a network fitted to search's option values" + (
    f" ({META['decisions']:,} decisions of every family, data seeds {min(META['data_seeds'])}-"
    f"{max(META['data_seeds'])}, network {META['digest']})" if META.get("trained") else " (untrained: plays expert)"))
FAMILIES = ("prostoy_5", "prostoy_6", "podkidnoy", "perevodnoy")
VARIANTS = "all"  # leads through attack_ok (options), the rest from `legal`
PARAMS = {"talon_at_most": (-1.0, -1.0, 120.0, "weigh the options by the network only while the talon holds at most this "
                                                 "many cards, else play expert's answer (-1: TALON_AT_MOST's choice)")}
WHOLE_PARAMS = ("talon_at_most",)
# per network group (strategies._features.group: prostoy_5, prostoy_6, podkidnoy, perevodnoy; 2 players, then 3-6):
# the talon size up to which the network weighs the options
TALON_AT_MOST = np.array([120, 120, 120, 120, 120, 120, 120, 120])  # 120: every talon (two packs too)
XP = _expert.params()  # expert's own tables (every parameter TUNED)
W1T = np.ascontiguousarray(W1.transpose(0, 2, 1))  # (group, feature, hidden): the inner loops run over hidden units


@njit(_nrt=False)
def score(obs, kind, legal, first, cands, nc):
    """The index of the option the network rates best (0, expert's, unless another beats it by MARGIN)."""
    g = group(obs)
    x = stack_f64(NF)
    h = stack_f64(HIDDEN)
    t = stack_f64(HIDDEN)
    position(obs, kind, x)
    w = W1T[g]
    affine(h, B1[g], w, x, 0, NP)  # the position's share of the hidden layer, once for every option
    best = 0
    bv = -1e300
    for c in range(nc):
        option(obs, kind, legal, cands[c], first, x)
        v = relu_out(h, t, w, x, NP, NF, W2[g], B2[g])
        if c == 0:  # expert's answer (options lists it first)
            v += MARGIN[g]
        if v > bv:
            bv = v
            best = c
    return best


@njit(_nrt=False)
def expert_decides(obs, kind):
    """Expert's answer stands: its endgame solver is exact here, or the cards are going round (its varied play)."""
    if restless(obs):
        return True
    return (kind == K_ATTACK or kind == K_COVER or kind == K_THROW_IN) and solve_here(obs, _expert._k(obs, XP))


@njit(_nrt=False)
def decide(obs, kind, legal, first, params):
    if expert_decides(obs, kind):
        return first
    gate = params[0] if params[0] >= 0 else TALON_AT_MOST[group(obs)]
    if obs[O_TALON] > gate:
        return first
    cands = stack_i64(MAXC)
    nc = options(obs, kind, legal, first, cands, CAP)
    if nc <= 1:
        return first
    return cands[score(obs, kind, legal, first, cands, nc)]


@njit(_nrt=False)
def attack(obs, legal, params, rng):
    return decide(obs, K_ATTACK, obs[O_HAND], _expert.attack(obs, legal, XP, rng), params)


@njit(_nrt=False)
def cover(obs, legal, params, rng):
    if legal == 0:
        return np.int64(NO_CARD)
    return decide(obs, K_COVER, legal, _expert.cover(obs, legal, XP, rng), params)


@njit(_nrt=False)
def throw_in(obs, legal, params, rng):
    if legal == 0:
        return np.int64(NO_CARD)
    return decide(obs, K_THROW_IN, legal, _expert.throw_in(obs, legal, XP, rng), params)


@njit(_nrt=False)
def transfer(obs, legal, params, rng):
    if legal == 0 and obs[O_SHOW_LEGAL] == 0:
        return np.int64(NO_CARD)
    return decide(obs, K_TRANSFER, legal, _expert.transfer(obs, legal, XP, rng), params)


@njit(_nrt=False)
def exchange(obs, legal, params, rng):
    return decide(obs, K_EXCHANGE, legal, _expert.exchange(obs, legal, XP, rng), params)


@njit(_nrt=False)
def swap(obs, legal, params, rng):
    return decide(obs, K_SWAP, legal, _expert.swap(obs, legal, XP, rng), params)
