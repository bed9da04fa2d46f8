"""durak-sim: a Monte Carlo strategy simulator for the Durak family of card games."""
import os as _os
import sys as _sys
from pathlib import Path as _Path

__version__ = "0.1.0"


def doc_path(*parts: str) -> _Path:
    """A file of the documents the commands read (docs/: the rules and their ids, the position format, the worked
    examples). A wheel ships them inside the package as sim/docs (importlib.resources finds them wherever it is
    installed); a checkout or an editable install reads the repository's docs/ folder itself."""
    from importlib.resources import files
    shipped = _Path(str(files(__name__).joinpath("docs")))
    base = shipped if shipped.is_dir() else _Path(__file__).resolve().parent.parent / "docs"
    return base.joinpath(*parts)


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


def _numba_version() -> str:
    """numba's version without importing numba (a second) or scanning every installed distribution
    (importlib.metadata, a tenth of one): its _version.py, with the metadata as the fallback."""
    import importlib.util
    import re
    spec = importlib.util.find_spec("numba")
    try:
        text = (_Path(spec.origin).parent / "_version.py").read_text()
        m = re.search(r'"version":\s*"([^"]+)"', text)
        if m:
            return m.group(1)
    except (OSError, AttributeError, TypeError):
        pass
    from importlib.metadata import version
    return version("numba")


def core_digest() -> str:
    """The one cache key of compiled code: a hash of `_digest_files` and the Python and numba versions.
    numba keys a cached function by its own file only, so a kernel whose imported constants or helpers
    changed in another file would load stale machine code; a cache folder per digest rules that out, and
    the engines' file names (sim.core.dispatch) start from the same digest."""
    import hashlib
    h = hashlib.sha256(f"{_sys.version_info[:2]} numba {_numba_version()}".encode())
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
