"""durak-sim: a Monte Carlo strategy simulator for the Durak family of card games."""
import os as _os
from pathlib import Path as _Path

__version__ = "0.1.0"



def _digest_files() -> list:
    """The files whose text the compiled code depends on beyond each function's own file: the core,
    the strategies' shared helpers, and every library strategy another one compiles in (search and
    rollout play expert's and greedy's functions in their playouts)."""
    import re
    root = _Path(__file__).resolve().parent
    lib = root.parent / "strategies"
    pattern = re.compile(r"^\s*from strategies(?: import ([\w ,]+)|\.(\w+) import)", re.M)
    used = set()
    for f in lib.glob("*.py"):
        for names, module in pattern.findall(f.read_text()):
            used |= {module} if module else {item.split()[0] for item in names.split(",") if item.strip()}
    used = {lib / f"{m}.py" for m in used if (lib / f"{m}.py").exists()}
    return sorted({*(root / "core").glob("*.py"), *lib.glob("_*.py"), *used})


def _core_digest() -> str:
    """A hash of `_digest_files`. numba keys a cached function by its own file only, so a kernel whose
    imported constants or helpers changed in another file would load stale machine code; a cache folder
    per digest rules that out."""
    import hashlib
    h = hashlib.sha256()
    for f in _digest_files():
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:12]


# numba's cache goes to the user's cache folder, not beside the sources (set before numba loads)
if "NUMBA_CACHE_DIR" not in _os.environ:
    _base = _os.environ.get("DURAK_CACHE_DIR") or _os.path.join(
        _os.environ.get("XDG_CACHE_HOME", str(_Path.home() / ".cache")), "durak-sim")
    _os.environ["NUMBA_CACHE_DIR"] = _os.path.join(_base, "numba", _core_digest())
