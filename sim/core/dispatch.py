"""Strategy discovery and the per-line-up compiled engine.

A strategy is one module in ``strategies/`` (or in a folder given with ``--strategy-path``)
defining compiled functions ``attack``, ``cover``, ``throw_in``, ``transfer``,
``exchange`` (any it omits are greedy's) and ``swap`` (poker_swap, VAR-PO1: omitted, it never
swaps), plus ``NAME``, ``DESCRIPTION``, ``FAMILIES`` and
``PARAMS``. For a line-up of strategies we write a real ``.py`` file into the cache folder:
``sim/core/engine.py`` with a dispatcher over exactly those strategies pasted between its
DISPATCH markers. A real file is cached by numba across processes; the file name is a hash
of every source it depends on, so an edited strategy or core can never reuse a stale cache.
"""
from __future__ import annotations

import contextlib
import fcntl
import hashlib
import importlib
import importlib.util
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numba
import numpy as np

import sim
from sim.core import specialise
from sim.core.rules import VARIANT_BY_NAME, VARIANTS, variant_played

ROOT = Path(__file__).resolve().parents[2]
BUILTIN_DIR = ROOT / "strategies"
KINDS = ("attack", "cover", "throw_in", "transfer", "exchange", "swap")
NO_DEFAULT = ("swap",)  # kinds a strategy may leave out without taking greedy's: it answers 0 (no swap)
ALWAYS = ("greedy",)  # every engine has greedy: it stands in for the functions a strategy leaves out


class StrategyError(ValueError):
    """Unknown strategy, bad parameter, or a strategy file that does not follow the template."""


@dataclass(frozen=True)
class StrategyInfo:
    name: str
    path: Path
    description: str
    families: tuple
    params: dict  # name -> (default, low, high, doc)
    defines: tuple  # which of KINDS the file defines itself
    variants: tuple = ()  # the §6 variants it declares it plays (VARIANTS; "all": every played variant)


def cache_dir() -> Path:
    d = os.environ.get("DURAK_CACHE_DIR")
    base = Path(d) if d else Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "durak-sim"
    base.mkdir(parents=True, exist_ok=True)
    return base


def _module_name(path: Path) -> str:
    if path.parent == BUILTIN_DIR:
        return f"strategies.{path.stem}"
    digest = hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:10]
    return f"durak_user_{digest}.{path.stem}"


def _is_strategy_code(modname: str) -> bool:
    return modname.startswith("strategies.") or modname.startswith("durak_user_")


def _reachable_dispatchers(namespace: dict):
    """Compiled functions named in a namespace, directly or as attributes of modules named there."""
    for v in namespace.values():
        if isinstance(v, numba.core.registry.CPUDispatcher):
            yield v
        elif isinstance(v, ModuleType) and _is_strategy_code(v.__name__):
            yield from (w for w in vars(v).values() if isinstance(w, numba.core.registry.CPUDispatcher))


def guard(mod: ModuleType) -> ModuleType:
    """Compile every function of a strategy, and every strategy-side function it can reach (also as
    `module.helper`), with bounds checking.

    A strategy receives only `obs` (read-only); with bounds checking an index outside it raises
    IndexError instead of reading whatever memory lies beyond, so hidden cards cannot be reached
    through the interface. Must run before the first call compiles the functions.
    """
    seen = set()
    todo = list(_reachable_dispatchers(vars(mod)))
    while todo:
        d = todo.pop()
        if id(d) in seen or not _is_strategy_code(getattr(d.py_func, "__module__", "") or ""):
            continue
        seen.add(id(d))
        d.targetoptions["boundscheck"] = True
        todo += list(_reachable_dispatchers(d.py_func.__globals__))
    return mod


def load_module(path: Path) -> ModuleType:
    name = _module_name(path)
    if name in sys.modules:
        return sys.modules[name]
    if name.startswith("strategies."):
        return guard(importlib.import_module(name))
    pkg = name.split(".")[0]
    if pkg not in sys.modules:
        sys.modules[pkg] = ModuleType(pkg)
        sys.modules[pkg].__path__ = [str(path.parent)]
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    try:
        spec.loader.exec_module(mod)
    except Exception as e:  # a user's file: say which and why
        del sys.modules[name]
        raise StrategyError(f"strategy file {path} failed to import: {e}") from e
    return guard(mod)


def discover(paths=()) -> dict[str, Path]:
    """Every strategy file: the built-in folder, then user folders (a user file may shadow none)."""
    found: dict[str, Path] = {}
    for folder in (BUILTIN_DIR, *[Path(p) for p in paths]):
        if not folder.is_dir():
            raise StrategyError(f"strategy folder {folder} does not exist")
        for f in sorted(folder.glob("*.py")):
            if f.name.startswith("_"):
                continue
            name = f.stem.replace("_", "-")
            if name in found and found[name] != f:
                raise StrategyError(f"strategy {name!r} is defined twice: {found[name]} and {f}")
            found[name] = f
    return found


def info(name: str, paths=()) -> StrategyInfo:
    files = discover(paths)
    if name not in files:
        raise StrategyError(f"unknown strategy {name!r}; available: {', '.join(sorted(files))}")
    mod = load_module(files[name])
    defines = tuple(k for k in KINDS if hasattr(mod, k))
    for k in defines:
        if not isinstance(getattr(mod, k), numba.core.registry.CPUDispatcher):
            raise StrategyError(f"strategy {name}: {k}() must be compiled with @njit (see strategies/README.md)")
    params = dict(getattr(mod, "PARAMS", {}))
    for p, spec in params.items():
        if not (isinstance(spec, tuple) and len(spec) == 4):
            raise StrategyError(f"strategy {name}: PARAMS[{p!r}] must be (default, low, high, doc)")
    variants = getattr(mod, "VARIANTS", ())
    variants = (variants,) if isinstance(variants, str) else tuple(variants)
    for v in variants:
        if v != "all" and v not in VARIANT_BY_NAME:
            raise StrategyError(f"strategy {name}: VARIANTS names {v!r}, which is not a variant (see `durak rules`)")
    return StrategyInfo(name, files[name], (mod.__doc__ or "").strip().split("\n")[0] if not hasattr(
        mod, "DESCRIPTION") else mod.DESCRIPTION, tuple(getattr(mod, "FAMILIES", ())), params, defines, variants)


MIN_PARAMS = 16  # the params vector is never narrower (a strategy that declares fewer PARAMS sees zeros past them)


def params_width(names, paths=()) -> int:
    """The width of the params vector an engine (or a direct call) gives these strategies: the most PARAMS any of
    them declares, at least MIN_PARAMS. No strategy is refused or cut short for having many parameters."""
    return max([MIN_PARAMS] + [len(info(n, paths).params) for n in names])


def params_vector(si: StrategyInfo, values=None, width: int | None = None):
    """A strategy's params vector: `values` (default: its PARAMS defaults) in PARAMS order, zeros after them."""
    vals = [v[0] for v in si.params.values()] if values is None else list(values)
    p = np.zeros(max(width or 0, MIN_PARAMS, len(vals)), dtype=np.float64)
    p[:len(vals)] = vals
    return p


def module(name: str, paths=()) -> ModuleType:
    """A strategy's module by name (library or user folder), guarded as the engine would compile it."""
    return load_module(info(name, paths).path)


def decision(mod: ModuleType, kind_name: str):
    """A strategy's compiled function for one kind of decision: its own, else greedy's; None for a swap it
    leaves out (it never swaps, NO_DEFAULT)."""
    fn = getattr(mod, kind_name, None)
    if fn is None and kind_name not in NO_DEFAULT:
        fn = getattr(module("greedy"), kind_name)
    return fn


def supported_variants(si: StrategyInfo) -> list[str]:
    """The played §6 variants a strategy declares it plays legally (its module's VARIANTS)."""
    played = [v.name for v in VARIANTS if variant_played(v) and (not si.families or set(v.families) & set(si.families))]
    return played if "all" in si.variants else [v for v in si.variants if v in played]


def _digest(paths: list[Path], package: str | None = None) -> str:
    """An engine's file name: the package's one cache key (sim.core_digest: the core, the library's shared
    helpers, Python and numba), the line-up's strategy files with the helpers beside them, and the rules
    compiled in (`package`, named by a hash of the rules vector and the core digest; None: general)."""
    h = hashlib.sha256(sim.core_digest().encode() + (package or "general").encode())
    helpers = sorted({h for q in paths for h in Path(q).parent.glob("_*.py")})
    for p in list(paths) + helpers:
        h.update(str(p).encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def _dispatch_source(infos: list[StrategyInfo], greedy_index: int) -> str:
    lines = ["import importlib as _importlib", "from sim.core.dispatch import load_module as _load_module",
             "from pathlib import Path as _Path", ""]
    for i, s in enumerate(infos):
        lines.append(f"_s{i} = _load_module(_Path({str(s.path)!r}))")
    lines += ["", "", "@njit(cache=True, _nrt=False, inline='always')", "def decide(sid, kind, obs, legal, params, rng):"]
    for i, s in enumerate(infos):
        lines.append(f"    if sid == {i}:")
        for k_i, k in enumerate(KINDS):
            lines.append(f"        if kind == {k_i}:")
            if k not in s.defines and k in NO_DEFAULT:
                lines.append("            return np.int64(0)")
                continue
            owner = i if k in s.defines else greedy_index
            lines.append(f"            return _s{owner}.{k}(obs, legal, params, rng)")
    lines.append("    return np.int64(-999)")
    return "\n".join(lines) + "\n"


_ENGINES: dict[tuple, ModuleType] = {}


def _compiled_marker(mod: ModuleType) -> Path:
    """A file that says this engine's machine code is in numba's cache (so no compiling is due)."""
    return Path(os.environ.get("NUMBA_CACHE_DIR", cache_dir() / "numba")) / f"compiled-{mod.__name__}"


def is_compiled(mod: ModuleType) -> bool:
    return _compiled_marker(mod).exists()


def mark_compiled(mod: ModuleType):
    m = _compiled_marker(mod)
    m.parent.mkdir(parents=True, exist_ok=True)
    m.touch()


SHARED_ENV = "DURAK_SHARED_ENGINE"


def shared_engines() -> list[set[str]]:
    """The groups of $DURAK_SHARED_ENGINE (strategies comma-separated, groups separated by ';'): a line-up made
    only of one group's strategies plays on one engine holding that whole group (the first that fits), so a
    batch of line-ups (the test suite sets it) compiles once per group."""
    groups = [{n.strip() for n in g.split(",") if n.strip()} for g in os.environ.get(SHARED_ENV, "").split(";")]
    return [g for g in groups if g]


def _engine_names(names, rules=None) -> tuple:
    """The strategies an engine for `names` holds: them and greedy, or a whole shared group when they lie in it.
    An engine with rules compiled in (`rules` given) serves one rule set only, so it never takes a shared group:
    widening it would add minutes of compile for line-ups that cannot share it anyway."""
    wanted = set(names) | set(ALWAYS)
    for group in (shared_engines() if rules is None else ()):
        if wanted <= group:
            return tuple(sorted(group))
    return tuple(sorted(wanted))


@contextlib.contextmanager
def compile_lock(mod: ModuleType):
    """Held while an engine compiles, so that two processes wanting the same engine compile it once: the
    second waits, then loads it from numba's cache."""
    lock = _compiled_marker(mod).with_suffix(".lock")
    lock.parent.mkdir(parents=True, exist_ok=True)
    with open(lock, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def engine_compiled(names, paths=(), rules=None, lean=False) -> bool:
    """Is the engine engine_for(names, paths, rules, lean) would give compiled already? Found by its name alone:
    nothing is written or imported (an auto choice of engine asks this on every run)."""
    key = _engine_names(names, rules)
    package = None if rules is None else specialise.package_name(tuple(int(x) for x in rules), not lean)
    digest = _digest([info(n, paths).path for n in key], package)
    return (Path(os.environ.get("NUMBA_CACHE_DIR", cache_dir() / "numba")) / f"compiled-durak_engine_{digest}").exists()


def engine_for(names, paths=(), rules=None, lean=False) -> tuple[ModuleType, list[str]]:
    """The compiled engine module for a line-up and the strategy order its ids follow. `rules` (a rules
    vector): the engine of that rule set alone, with the rules compiled in (sim.core.specialise), with the
    kernels of every decision inlined into its loop (the fastest), or `lean` without (a third of the compile,
    still faster than the general engine); None: the general engine, which reads them at run time."""
    # only the line-up's strategies (and the baseline pair) go into an engine: compiling the whole
    # library for a greedy-vs-greedy run cost a minute. Tournaments and comparisons pass every
    # strategy they use at once (Runner(also=...)), so their line-ups share one engine.
    fixed = None if rules is None else tuple(int(x) for x in rules)
    lean = bool(lean) and fixed is not None
    key = (_engine_names(names, fixed), tuple(str(p) for p in paths), fixed, lean)
    if key in _ENGINES:
        return _ENGINES[key], list(key[0])
    infos = [info(n, paths) for n in key[0]]
    src = (Path(__file__).parent / "engine.py").read_text()
    begin = src.index("# --- DISPATCH BEGIN ---")
    end = src.index("# --- DISPATCH END ---")
    text = ("# generated by sim.core.dispatch for strategies: " + ", ".join(key[0]) + " -- do not edit\n"
            + src[:begin] + _dispatch_source(infos, key[0].index("greedy")) + src[end:])
    if (fixed is None or lean) and any(s.path.parent != BUILTIN_DIR for s in infos):
        # a user's strategy is edited and run again and again: its engine calls the rules' step compiled once (in
        # sim.core.kernels, or the lean engine's package of these rules) instead of compiling it in again
        # (see kernels.apply_one)
        step = "apply_packs(rv, ws, rec, a, trace, tn, tracing, two, CHECKED):  # APPLY"
        if step not in text:
            raise RuntimeError("sim/core/engine.py lost the '# APPLY' line that an engine with a user's strategy "
                               "rewrites")
        text = text.replace(step, "(apply_two(rv, ws, rec, a, trace, tn, tracing) if two else "
                                  "apply_one(rv, ws, rec, a, trace, tn, tracing)):", 1)
    folder = cache_dir() / "engines"
    folder.mkdir(parents=True, exist_ok=True)
    package = None
    if fixed is not None:
        if all(s.path.parent == BUILTIN_DIR for s in infos):
            # the library's strategies answer from `legal`, and the general engine checks them in the tests;
            # a user's strategy keeps the check (and the watchdog) on every engine
            text = text.replace("\nCHECKED = True", "\nCHECKED = False", 1)
            if key[0] == ("greedy",):  # every seat greedy: whole bouts in one loop (sim.core.greedy_bout)
                text = text.replace("\nGREEDY_BOUTS = False", "\nGREEDY_BOUTS = True", 1)
        package = specialise.package_for(fixed, folder, not lean)
        text = specialise.fold(specialise.rewrite(text, package), fixed, not lean).replace(
            "# generated by sim.core.dispatch for strategies:", "# generated by sim.core.dispatch for rules "
            f"{package} and strategies:", 1)
    digest = _digest([s.path for s in infos], package)
    path = folder / f"engine_{digest}.py"
    if not path.exists() or path.read_text() != text:
        tmp = path.with_suffix(f".tmp{os.getpid()}")
        tmp.write_text(text)
        tmp.replace(path)
    modname = f"durak_engine_{digest}"
    if modname in sys.modules:
        mod = sys.modules[modname]
    else:
        spec = importlib.util.spec_from_file_location(modname, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[modname] = mod
        spec.loader.exec_module(mod)
    _ENGINES[key] = mod
    return mod, list(key[0])
