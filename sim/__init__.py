"""durak-sim: a Monte Carlo strategy simulator for the Durak family of card games."""
import os as _os
import sys as _sys
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


def core_digest() -> str:
    """The one cache key of compiled code: a hash of `_digest_files` and the Python and numba versions.
    numba keys a cached function by its own file only, so a kernel whose imported constants or helpers
    changed in another file would load stale machine code; a cache folder per digest rules that out, and
    the engines' file names (sim.core.dispatch) start from the same digest."""
    import hashlib
    from importlib.metadata import version
    h = hashlib.sha256(f"{_sys.version_info[:2]} numba {version('numba')}".encode())
    for f in _digest_files():
        data = f.read_bytes()
        h.update(f.name.encode() + b"\0" + len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()[:12]


def _numba_cache_dir() -> str:
    """numba's cache folder: the digest's folder under NUMBA_CACHE_DIR when it is set, else under the user's
    cache folder (DURAK_CACHE_DIR, default ~/.cache/durak-sim), not beside the sources."""
    given = _os.environ.get("NUMBA_CACHE_DIR")
    if given and _os.environ.get("DURAK_NUMBA_FOLDER") == given:
        given = _os.path.dirname(given)  # a child process inherits a digest folder: its parent is the base
    base = given or _os.path.join(_os.environ.get("DURAK_CACHE_DIR") or _os.path.join(
        _os.environ.get("XDG_CACHE_HOME", str(_Path.home() / ".cache")), "durak-sim"), "numba")
    return _os.path.join(base, core_digest())


# set before numba loads; when something loaded numba first, its config is set too (it reads the folder
# each time it caches a function)
_os.environ["NUMBA_CACHE_DIR"] = _os.environ["DURAK_NUMBA_FOLDER"] = _numba_cache_dir()
if "numba" in _sys.modules:
    _sys.modules["numba"].config.CACHE_DIR = _os.environ["NUMBA_CACHE_DIR"]
