"""Dense-layer kernels for strategies that play by a small network (strategies/learned.py).

Trusted numeric code outside the strategies' sandbox (like sim.core.lib): the strategies' own functions are compiled
with bounds checking, which keeps LLVM from vectorising these loops. Weights are passed in, inputs are skipped where
zero (most features of an option are), and nothing allocates.
"""
from numba import njit

from sim.core.lib import stack_i64

MAX_INPUTS = 128  # inputs gathered on the stack at a time (learned's networks have 70: all at once)


@njit(cache=True, _nrt=False, boundscheck=False, fastmath=True, inline="always")
def _add_inputs(h, w, x, lo, hi):
    """h[j] += sum over i in [lo, hi) of w[i, j] * x[i], skipping zero inputs."""
    m = h.shape[0]
    # the nonzero inputs' indices first, gathered without a branch (MAX_INPUTS at a time, in order): which inputs are
    # zero changes from option to option, and a branch on it inside the loop below was mispredicted often enough to
    # cost a third of the layer's time
    nz = stack_i64(MAX_INPUTS)
    for start in range(lo, hi, MAX_INPUTS):
        n = 0
        for i in range(start, min(start + MAX_INPUTS, hi)):
            nz[n] = i
            n += x[i] != 0.0
        for k in range(n):
            i = nz[k]
            xi = x[i]
            for j in range(m):
                h[j] += w[i, j] * xi


@njit(cache=True, _nrt=False, boundscheck=False, fastmath=True)
def affine(h, b, w, x, lo, hi):
    """h[j] = b[j] + sum over i in [lo, hi) of w[i, j] * x[i]: the hidden layer's share of inputs lo..hi-1."""
    for j in range(h.shape[0]):
        h[j] = b[j]
    _add_inputs(h, w, x, lo, hi)


@njit(cache=True, _nrt=False, boundscheck=False, fastmath=True)
def relu_out(h, t, w, x, lo, hi, w2, b2):
    """b2 + w2 . relu(h + sum over i in [lo, hi) of w[i, :] * x[i]), with t as scratch (h is kept)."""
    m = h.shape[0]
    for j in range(m):
        t[j] = h[j]
    _add_inputs(t, w, x, lo, hi)
    v = b2
    for j in range(m):
        if t[j] > 0.0:
            v += w2[j] * t[j]
    return v
