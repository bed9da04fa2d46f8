"""The state kernels with one rule set compiled in: a generated package per rules vector.

The general kernels read the rules at run time (``rv[R_...]``, ``ws[O_RULES + R_...]``). For a long run of
one rule set we write copies of ``lib``, ``bout``, ``chain`` and ``kernels`` into the cache folder in which

- every such read is the rule's value, and every branch on it that can never run is dropped (``fold``): numba
  then never compiles the code of a rule that is off (variant deals, the chain bout, two packs...), and LLVM
  folds what is left (the player count, the limits);
- an index that is a layout offset plus something is unsigned, so numba skips its negative-index test;
- the kernels run on every decision (``HOT``) are inlined into the deal loop (not in the lean flavour, which
  compiles in a third of the time: ``fold(..., hot=False)``);
- with one pack, the kernels' two-pack flag ``two`` is False, so no two-pack step is compiled.

The copies are otherwise the same code, so they play the same games bit for bit (tests/test_specialised.py);
the general kernels stay for everything else (the machine, search playouts, short runs). The package name is
a hash of the rules vector and ``sim.core_digest()`` (which covers these sources and this file), so an edited
core never loads a stale copy. Numba-free: nothing here compiles; the engine that imports the package does.
"""
from __future__ import annotations

import ast
import hashlib
import os
import re
import sys
from pathlib import Path
from types import ModuleType

import sim

CORE = Path(__file__).resolve().parent
MODULES = ("lib", "bout", "chain", "kernels", "greedy_bout")  # in import order: each imports only those before it
_READ = re.compile(r"\brv\[")  # the kernels' rules vector argument
_READ_STATE = re.compile(r"\b(?:obs|ws)\[O_RULES \+ (R_\w+)\]")  # the rules copied into a state


def rewrite(text: str, package: str) -> str:
    """One kernel module's source with the rules read from the package's constant `_RV` and its imports of
    the other kernel modules pointing into the package."""
    for m in MODULES:
        text = text.replace(f"from sim.core.{m} import", f"from {package}.{m} import")
        text = text.replace(f"from sim.core import {m}\n", f"from {package} import {m}\n")
    text = _READ.sub("_RV[", text)
    text = _READ_STATE.sub(r"_RV[\1]", text)
    lines = text.split("\n")
    at = next(i for i, x in enumerate(lines) if (x.startswith("import ") or x.startswith("from "))
              and not x.startswith("from __future__"))
    lines.insert(at, f"from {package}._rv import RV as _RV, _ix")
    return "\n".join(lines)


def _pure(node) -> bool:
    """An expression without calls (so without side effects)."""
    return not any(isinstance(x, (ast.Call, ast.NamedExpr, ast.Await, ast.Yield)) for x in ast.walk(node))


def _is_bool(node) -> bool:
    return (isinstance(node, (ast.Compare, ast.BoolOp)) or (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not))
            or (isinstance(node, ast.Constant) and isinstance(node.value, bool)))


class _Fold(ast.NodeTransformer):
    """Replace `_RV[R_X]` by its value and drop the branches a constant condition never takes."""

    def __init__(self, values: dict, names: dict):
        self.values = values  # R_X name -> value
        self.names = names  # other constant names (MODE_PROSTOY, ...) -> value

    # ---- constants --------------------------------------------------------------------
    def _const(self, node):
        """(True, value) when node is a constant after folding, else (False, None)."""
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, bool)):
            return True, node.value
        return False, None

    def visit_Subscript(self, node):
        self.generic_visit(node)
        if (isinstance(node.value, ast.Name) and node.value.id == "_RV" and isinstance(node.slice, ast.Name)
                and node.slice.id in self.values and isinstance(node.ctx, ast.Load)):
            return ast.copy_location(ast.Constant(self.values[node.slice.id]), node)
        return node

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load) and node.id in self.names:
            return ast.copy_location(ast.Constant(self.names[node.id]), node)
        return node

    def visit_Compare(self, node):
        self.generic_visit(node)
        items = [node.left] + node.comparators
        consts = [self._const(x) for x in items]
        if all(c for c, _ in consts):
            vals = [v for _, v in consts]
            ok = True
            for op, a, b in zip(node.ops, vals, vals[1:]):
                r = {ast.Eq: a == b, ast.NotEq: a != b, ast.Lt: a < b, ast.LtE: a <= b, ast.Gt: a > b,
                     ast.GtE: a >= b}.get(type(op))
                if r is None:
                    return node
                ok = ok and r
            return ast.copy_location(ast.Constant(bool(ok)), node)
        return node

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        c, v = self._const(node.operand)
        if c and isinstance(node.op, ast.Not):
            return ast.copy_location(ast.Constant(not v), node)
        if c and isinstance(node.op, ast.USub):
            return ast.copy_location(ast.Constant(-v), node)
        return node

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        is_and = isinstance(node.op, ast.And)
        out = []
        for x in node.values:
            c, v = self._const(x)
            if c and bool(v) == is_and:  # True in an `and`, False in an `or`: decides nothing
                continue
            if c and all(_is_bool(x) and _pure(x) for x in out):
                # the first operand that decides, after truth values computed without side effects
                return ast.copy_location(ast.Constant(v if not out else bool(v)), node)
            out.append(x)
            if c:
                break  # the operands after a deciding constant are never evaluated
        if len(out) == len(node.values):
            return node
        # only where the value is the same: a dropped constant at the end is the value when all before it
        # hold, so what is left must end in a truth value
        if not out or (out[-1] is not node.values[-1] and not _is_bool(out[-1])):
            return node
        if len(out) == 1:
            return out[0]
        node.values = out
        return node

    def visit_IfExp(self, node):
        self.generic_visit(node)
        c, v = self._const(node.test)
        if c:
            return node.body if v else node.orelse
        return node

    def visit_If(self, node):
        self.generic_visit(node)
        c, v = self._const(node.test)
        if c:
            body = node.body if v else node.orelse
            return body or [ast.Pass()]
        return node


HOT = ("advance", "_apply_cover")
# kernels called on every decision: compiled into the deal loop (inline="always") rather than called with every
# array passed as seven words. Only these two: inlining the bout's end and start too made the loop faster still
# but five times longer to compile. `begin` (once a deal) calls an outlined copy of `advance`:
OUTLINED = {"begin": "advance"}


class _Outline(ast.NodeTransformer):
    """In the functions of OUTLINED, calls of a HOT kernel go to `_<name>_outlined`, a plain compiled wrapper
    (appended to the module), so the kernel is not inlined a second time where it is not hot."""

    def visit_FunctionDef(self, node):
        target = OUTLINED.get(node.name)
        if target:
            for c in ast.walk(node):
                if isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id == target:
                    c.func.id = f"_{target}_outlined"
        return node

    def visit_Module(self, node):
        self.generic_visit(node)
        defined = {f.name: f for f in node.body if isinstance(f, ast.FunctionDef)}
        for target in set(OUTLINED.values()):
            f = defined.get(target)
            if f is None:
                continue
            args = ", ".join(a.arg for a in f.args.args)
            node.body += ast.parse(f"@njit(cache=True, _nrt=False)\ndef _{target}_outlined({args}):\n"
                                   f"    return {target}({args})\n").body
        return node


class _Unsigned(ast.NodeTransformer):
    """`ws[O_X + i]` -> `ws[_ix(O_X + i)]`: an index that is a layout offset plus something is never negative,
    and as an unsigned number numba skips the test for a negative index (wraparound) it makes otherwise."""

    def visit_Subscript(self, node):
        self.generic_visit(node)
        i = node.slice
        if (isinstance(i, ast.BinOp) and isinstance(i.op, ast.Add) and isinstance(i.left, ast.Name)
                and i.left.id[:2] in ("O_", "S_", "F_")):
            node.slice = ast.Call(ast.Name("_ix", ast.Load()), [i], [])
        return node


class _Inline(ast.NodeTransformer):
    """The HOT kernels' decorators get inline="always"."""

    def visit_FunctionDef(self, node):
        if node.name in HOT:
            for d in node.decorator_list:
                if isinstance(d, ast.Call) and getattr(d.func, "id", "") == "njit" and not any(
                        k.arg == "inline" for k in d.keywords):
                    d.keywords.append(ast.keyword("inline", ast.Constant("always")))
        return node


def _constants() -> tuple[dict, dict]:
    """The rules vector's slot names (R_*) and the named values the kernels compare slots with."""
    from sim.core import rules
    slots = {k: v for k, v in vars(rules).items() if k.startswith("R_") and isinstance(v, int)}
    named = {k: v for k, v in vars(rules).items() if isinstance(v, int) and not isinstance(v, bool)
             and k.split("_")[0] in ("MODE", "LATER", "TIMING", "DEAL", "BOUT", "LEAD", "SCORE", "TURNUP")}
    return slots, named


def fold(text: str, rv, hot: bool = True) -> str:
    """`text` with every `_RV[R_X]` replaced by its value and the branches that can never run removed, so
    numba never even compiles the code of a rule that is off (and its callees). `hot`: the HOT kernels are
    inlined into the deal loop (the fastest engine); without, the lean engine, a third of the compile."""
    slots, named = _constants()
    values = {k: int(rv[i]) for k, i in slots.items() if i < len(rv)}
    if values.get("R_TWO_PACKS") == 0:
        named = dict(named, two=False)  # the kernels' two-pack flag (VAR-BD1) is False wherever one pack is played
    tree = _Unsigned().visit(_Fold(values, named).visit(ast.parse(text)))
    if hot:
        tree = _Outline().visit(_Inline().visit(tree))
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def package_name(rv, hot: bool = True) -> str:
    key = sim.core_digest() + ":" + ",".join(str(int(x)) for x in rv) + ("" if hot else ":lean")
    return "durak_rules_" + hashlib.sha256(key.encode()).hexdigest()[:16]


def _write(path: Path, text: str):
    if not path.exists() or path.read_text() != text:
        tmp = path.with_suffix(f".tmp{os.getpid()}")
        tmp.write_text(text)
        tmp.replace(path)


def package_for(rv, folder: Path, hot: bool = True) -> str:
    """Write (once) the kernels with rules vector `rv` compiled in under `folder` (`hot`: see fold); make the
    package importable and return its name."""
    name = package_name(rv, hot)
    where = folder / name
    if not (where / ".complete").exists():  # the name covers these sources and rv: once written, it is right
        _write_package(where, name, rv, hot)
    if name not in sys.modules:
        pkg = ModuleType(name)
        pkg.__path__ = [str(where)]
        sys.modules[name] = pkg
    return name


def _write_package(where: Path, name: str, rv, hot: bool):
    where.mkdir(parents=True, exist_ok=True)
    _write(where / "__init__.py", '"""The state kernels with one rule set compiled in (generated by '
                                  'sim.core.specialise -- do not edit)."""\n')
    values = ", ".join(str(int(x)) for x in rv)
    _write(where / "_rv.py", f'"""The rules vector of this package, a constant to numba, and the cast to an unsigned '
           f'index."""\nimport numpy as np\n\nRV = ({values},)\n_ix = np.uint64\n')
    for m in MODULES:
        _write(where / f"{m}.py", f"# generated by sim.core.specialise from sim/core/{m}.py -- do not edit\n"
               + fold(rewrite((CORE / f"{m}.py").read_text(), name), rv, hot))
    (where / ".complete").touch()
