"""durak-sim: a Monte Carlo strategy simulator for the Durak family of card games."""
import os as _os
from pathlib import Path as _Path

__version__ = "0.1.0"



def _core_digest() -> str:
    """A hash of the compiled core's sources and the strategies' shared helpers. numba keys a cached
    function by its own file only, so a kernel whose imported constants or helpers changed in another
    file would load stale machine code; a cache folder per digest rules that out."""
    import hashlib
    root = _Path(__file__).resolve().parent
    h = hashlib.sha256()
    for f in sorted([*(root / "core").glob("*.py"), *(root.parent / "strategies").glob("_*.py")]):
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:12]


# numba's cache goes to the user's cache folder, not beside the sources (set before numba loads)
if "NUMBA_CACHE_DIR" not in _os.environ:
    _base = _os.environ.get("DURAK_CACHE_DIR") or _os.path.join(
        _os.environ.get("XDG_CACHE_HOME", str(_Path.home() / ".cache")), "durak-sim")
    _os.environ["NUMBA_CACHE_DIR"] = _os.path.join(_base, "numba", _core_digest())
