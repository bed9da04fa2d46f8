"""The dense-layer kernels (sim/core/nn.py) against numpy: the learned player's network is evaluated by them alone."""
import numpy as np
import pytest

from sim.core import nn


# the shipped width, and a layer so wide that an option's inputs are gathered in two runs
@pytest.mark.parametrize("inputs", [70, 36 + nn.MAX_INPUTS + 10])
def test_layers_match_numpy(inputs):
    """`affine` and `relu_out` give numpy's values, inputs mostly zero as an option's features are (dropping the
    gathered inputs' last, or every input after a zero, fails this)."""
    rng = np.random.default_rng(3)
    hidden, lo = 64, 36
    for _ in range(50):
        w = rng.normal(size=(inputs, hidden))
        b = rng.normal(size=hidden)
        w2 = rng.normal(size=hidden)
        x = rng.normal(size=inputs) * (rng.random(inputs) < 0.4)
        x[-1] = 1.5  # the last input counts too
        h = np.zeros(hidden)
        nn.affine(h, b, w, x, 0, lo)
        np.testing.assert_allclose(h, b + x[:lo] @ w[:lo], rtol=1e-12, atol=1e-12)
        t = np.zeros(hidden)
        kept = h.copy()
        v = nn.relu_out(h, t, w, x, lo, inputs, w2, 0.25)
        want = 0.25 + w2 @ np.maximum(h + x[lo:] @ w[lo:], 0.0)
        assert v == pytest.approx(want, rel=1e-12, abs=1e-12)
        np.testing.assert_array_equal(h, kept)  # the position's share is kept for the next option
