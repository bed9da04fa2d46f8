"""learned: expert's answers re-ranked by a small network trained on search's option values.

At every decision with more than one option it lists the options search would weigh (`strategies/_features.py`,
expert's answer first), describes the position and each option by a few dozen features in the game's terms, and plays
the option a one-hidden-layer network (`strategies/_learned_model.py`, one per family, for two players and for three
to six) rates best, expert's own unless another beats it by the group's MARGIN: the networks were fitted to the values
search gave those options (their mean score over sampled deals played out by expert), so it plays what search would
without playing anything out. In podkidnoy and perevodnoy, once two players are left with the talon empty (every card
known), it solves the rest of the deal exactly with expert's solver given more cards and nodes (ENDGAME_CARDS,
ENDGAME_NODES; expert solves only small podkidnoy endgames): there expert loses most, and a network recovers only a
quarter of it. Where the cards are going round (O_QUIET) it plays expert's answer, and under a §6 variant too unless
the network was measured to beat expert under it (NETWORK_VARIANTS: it was trained on the plain families only).
`durak learn` regenerates the data and the network from a seed.
"""
import numpy as np
from numba import njit

from sim.core.layout import K_ATTACK, K_COVER, K_EXCHANGE, K_SWAP, K_THROW_IN, K_TRANSFER, NO_CARD
from sim.core.lib import O_HAND, O_RULES, O_SHOW_LEGAL, O_TALON, stack_f64, stack_i64
from sim.core.rules import R_VARIANT_ANY
from strategies import expert as _expert
from strategies._features import MAXC, NF, NP, cannot_beat, group, option, options, position
from sim.core.nn import affine, relu_out
from strategies._learned_model import B1, B2, CAP, HIDDEN, MARGIN, META, W1, W2
from strategies._lib import ENDGAME_SOLVE, ENDGAME_SOLVE_CARDS, end_answer, end_attack, put, restless, solve_here

NAME = "learned"
DESCRIPTION = ("Expert's answers re-ranked by a network fitted to search's option values" + (
    f" ({META['decisions']:,} decisions of the plain families, data seeds {min(META['data_seeds'])}-"
    f"{max(META['data_seeds'])}, network {META['digest']})" if META.get("trained") else " (untrained: plays expert)")
    + "; the two-player endgame solved exactly; under a §6 variant the network plays only where it was measured to "
      "beat expert (results/strength/learned/variants.md), else expert's answers")
FAMILIES = ("prostoy_5", "prostoy_6", "podkidnoy", "perevodnoy")
VARIANTS = "all"  # leads through attack_ok (options), the rest from `legal`
PARAMS = {"talon_at_most": (-1.0, -1.0, 120.0, "weigh the options by the network only while the talon holds at most this "
                                                 "many cards, else play expert's answer (-1: every talon)")}
PARAMS["endgame_cards"] = (-1.0, -1.0, 36.0, "solve the two-player endgame of podkidnoy or perevodnoy exactly when "
                                             "both hands together hold at most this many cards (-1: 14; never fewer "
                                             "than expert's own)")
PARAMS["endgame_nodes"] = (-1.0, -1.0, 1e6, "at most this many nodes per option for that solver (-1: 2,000; never "
                                            "fewer than expert's own)")
PARAMS["variant_network"] = (0.0, 0.0, 1.0, "1: the network plays under every §6 variant, not only under those where it "
                                            "was measured to beat expert (NETWORK_VARIANTS)")
WHOLE_PARAMS = ("talon_at_most", "endgame_cards", "endgame_nodes", "variant_network")
# The network was trained on the plain families only. Under a §6 variant of expert.HABIT_VARIANTS it plays where it
# was measured to beat expert (family, player counts: research.strength.learned_variants, results/strength/learned/
# variants.md), elsewhere learned plays expert's answer, as under any other §6 modifier.
NETWORK_VARIANTS = (
    ("tryoshka", "podkidnoy", (3, 4, 5, 6)),
    ("tryoshka", "perevodnoy", (2,)),
    ("zanudny", "prostoy_5", (2,)),
    ("zanudny", "prostoy_5", (3, 4, 5, 6)),
    ("zanudny", "prostoy_6", (2,)),
    ("zanudny", "prostoy_6", (3, 4, 5, 6)),
    ("zanudny", "podkidnoy", (2,)),
    ("zanudny", "podkidnoy", (3, 4, 5, 6)),
    ("zanudny", "perevodnoy", (2,)),
    ("zanudny", "perevodnoy", (3, 4, 5, 6)),
    ("no_trump", "prostoy_5", (2,)),
    ("no_trump", "prostoy_5", (3, 4, 5, 6)),
    ("no_trump", "prostoy_6", (2,)),
    ("no_trump", "prostoy_6", (3, 4, 5, 6)),
    ("no_trump", "podkidnoy", (2,)),
    ("no_trump", "perevodnoy", (2,)),
    ("no_trump", "perevodnoy", (3, 4, 5, 6)),
    ("chukotsky", "prostoy_5", (3, 4, 5, 6)),
    ("navaleny", "prostoy_6", (2,)),
    ("navaleny", "podkidnoy", (2,)),
    ("navaleny", "perevodnoy", (2,)),
    ("navaleny", "perevodnoy", (3, 4, 5, 6)),
    ("pustoy", "prostoy_5", (2,)),
    ("pustoy", "prostoy_6", (2,)),
    ("pustoy", "prostoy_6", (3, 4, 5, 6)),
    ("pustoy", "perevodnoy", (2,)),
    ("pustoy", "perevodnoy", (3, 4, 5, 6)),
    ("changing_trump", "prostoy_5", (2,)),
    ("changing_trump", "prostoy_5", (3, 4, 5, 6)),
    ("changing_trump", "prostoy_6", (2,)),
    ("changing_trump", "prostoy_6", (3, 4, 5, 6)),
    ("changing_trump", "podkidnoy", (2,)),
    ("changing_trump", "podkidnoy", (3, 4, 5, 6)),
    ("changing_trump", "perevodnoy", (2,)),
    ("changing_trump", "perevodnoy", (3, 4, 5, 6)),
    ("chain_road", "podkidnoy", (2,)),
    ("chain_road", "podkidnoy", (3, 4, 5, 6)),
)
# the exact endgame (two players left, talon empty) for hands of up to this many cards together, at most this many
# nodes per option, where a parameter does not say (never less than expert's own): expert has 6 / 1,000 at two players
# in podkidnoy and none in perevodnoy; at two players against expert, podkidnoy +15.0 -> +24.8 points, perevodnoy
# +9.4 -> +22.6, for a half to a third of the network-only player's games/s (results/strength/README.md)
ENDGAME_CARDS = 14
ENDGAME_NODES = 2000
XP = _expert.params()  # expert's own tables (every parameter TUNED)
W1T = np.ascontiguousarray(W1.transpose(0, 2, 1))  # (group, feature, hidden): the inner loops run over hidden units


def _network_cells():
    """NETWORK_VARIANTS as a (variant, family * 5 + players - 2) array of 0/1, as expert's cells are numbered."""
    names = [v[0] for v in _expert.HABIT_VARIANTS]
    on = np.zeros((len(names), len(_expert.FAMILIES) * len(_expert.PLAYERS)), dtype=np.int64)
    for name, fam, ns in NETWORK_VARIANTS:
        for n in ns:
            on[names.index(name), _expert.cell_index(fam, n)] = 1
    return on


_NET_ON = _network_cells()


@njit(cache=True, _nrt=False)
def network_here(obs):
    """Does the network play under these rules: the plain families, or a variant of NETWORK_VARIANTS (every §6 variant
    of expert.HABIT_VARIANTS on here must be one, and at least one must be on)?"""
    if obs[O_RULES + R_VARIANT_ANY] == 0:
        return True
    cell = _expert.cell(obs)
    known = False
    for v in range(_NET_ON.shape[0]):
        if _expert._variant_on(obs, v):
            if _NET_ON[v, cell] == 0:
                return False
            known = True
    return known


@njit(cache=True, _nrt=False)
def score(obs, kind, legal, first, cands, nc):
    """The index of the option the network rates best (0, expert's, unless another beats it by MARGIN)."""
    g = group(obs)
    x = stack_f64(NF)
    h = stack_f64(HIDDEN)
    t = stack_f64(HIDDEN)
    pc = stack_f64(36)
    sure = cannot_beat(obs, pc)
    position(obs, kind, x, sure)
    w = W1T[g]
    affine(h, B1[g], w, x, 0, NP)  # the position's share of the hidden layer, once for every option
    best = 0
    bv = -1e300
    for c in range(nc):
        option(obs, kind, legal, cands[c], first, x, pc, sure)
        v = relu_out(h, t, w, x, NP, NF, W2[g], B2[g])
        if c == 0:  # expert's answer (options lists it first)
            v += MARGIN[g]
        if v > bv:
            bv = v
            best = c
    return best


@njit(cache=True, _nrt=False)
def solver_knobs(k, params):
    """Expert's knob table k with its exact endgame solver widened to learned's hands and nodes (parameters, or
    ENDGAME_CARDS / ENDGAME_NODES): two players left with the talon empty in podkidnoy or perevodnoy."""
    cards = params[1] if params[1] >= 0 else ENDGAME_CARDS
    nodes = params[2] if params[2] >= 0 else ENDGAME_NODES
    if nodes <= 0 and k[ENDGAME_SOLVE] <= 0:
        return k
    return put(put(k, ENDGAME_SOLVE_CARDS, max(cards, k[ENDGAME_SOLVE_CARDS])), ENDGAME_SOLVE,
               max(nodes, k[ENDGAME_SOLVE]))


@njit(cache=True, _nrt=False, inline="always")
def _solved_kind(kind):
    return kind == K_ATTACK or kind == K_COVER or kind == K_THROW_IN or kind == K_TRANSFER


@njit(cache=True, _nrt=False)
def settled(obs, kind, params):
    """No network is asked: the cards are going round (expert's varied play), or the endgame is solved exactly."""
    if restless(obs):
        return True
    return _solved_kind(kind) and solve_here(obs, solver_knobs(_expert._k(obs, XP), params))


@njit(cache=True, _nrt=False)
def decide(obs, kind, legal, first, params):
    if restless(obs):
        return first
    if _solved_kind(kind):
        k = _expert._k(obs, XP)
        if solve_here(obs, k):
            return first  # expert's own solver answered
        k = solver_knobs(k, params)
        if solve_here(obs, k):
            return end_attack(obs, k, first) if kind == K_ATTACK else end_answer(obs, legal, k, kind, first)
    if params[0] >= 0 and obs[O_TALON] > params[0]:  # talon_at_most
        return first
    if params[3] <= 0 and not network_here(obs):  # a §6 variant the network was not shown to play well
        return first
    cands = stack_i64(MAXC)
    nc = options(obs, kind, legal, first, cands, CAP)
    if nc <= 1:
        return first
    return cands[score(obs, kind, legal, first, cands, nc)]


@njit(cache=True, _nrt=False)
def attack(obs, legal, params, rng):
    return decide(obs, K_ATTACK, obs[O_HAND], _expert.attack(obs, legal, XP, rng), params)


@njit(cache=True, _nrt=False)
def cover(obs, legal, params, rng):
    if legal == 0:
        return np.int64(NO_CARD)
    return decide(obs, K_COVER, legal, _expert.cover(obs, legal, XP, rng), params)


@njit(cache=True, _nrt=False)
def throw_in(obs, legal, params, rng):
    if legal == 0:
        return np.int64(NO_CARD)
    return decide(obs, K_THROW_IN, legal, _expert.throw_in(obs, legal, XP, rng), params)


@njit(cache=True, _nrt=False)
def transfer(obs, legal, params, rng):
    if legal == 0 and obs[O_SHOW_LEGAL] == 0:
        return np.int64(NO_CARD)
    return decide(obs, K_TRANSFER, legal, _expert.transfer(obs, legal, XP, rng), params)


@njit(cache=True, _nrt=False)
def exchange(obs, legal, params, rng):
    return decide(obs, K_EXCHANGE, legal, _expert.exchange(obs, legal, XP, rng), params)


@njit(cache=True, _nrt=False)
def swap(obs, legal, params, rng):
    return decide(obs, K_SWAP, legal, _expert.swap(obs, legal, XP, rng), params)
