"""The compiled core: rules as data, bitmask helpers, the deal kernels and the per-line-up strategy engine."""
