"""durak-sim: a Monte Carlo strategy simulator for the Durak family of card games."""
import os as _os
from pathlib import Path as _Path

__version__ = "0.1.0"

# numba's cache goes to the user's cache folder, not beside the sources (set before numba loads)
if "NUMBA_CACHE_DIR" not in _os.environ:
    _base = _os.environ.get("DURAK_CACHE_DIR") or _os.path.join(
        _os.environ.get("XDG_CACHE_HOME", str(_Path.home() / ".cache")), "durak-sim")
    _os.environ["NUMBA_CACHE_DIR"] = _os.path.join(_base, "numba")
