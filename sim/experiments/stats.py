"""Honest intervals: every rate is reported with a 95% Wilson score interval."""
from __future__ import annotations

import numpy as np

Z95 = 1.959963984540054


def wilson(k, n, z: float = Z95):
    """(low, high) of the Wilson score interval for k successes in n trials (arrays allowed)."""
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(n > 0, k / n, 0.0)
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
        lo = np.where(n > 0, centre - half, 0.0)
        hi = np.where(n > 0, centre + half, 1.0)
    return np.clip(lo, 0, 1), np.clip(hi, 0, 1)
