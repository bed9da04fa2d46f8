"""Every rule id the program prints or the tests cite, with its text, read from the repository's own documents.

One place for the ids: ``docs/rules.md`` (the families' rules: C-, PR5-, PR6-, POD-, PER-, TEAM-, HR-, VAR-) and
``sim/RULINGS.md`` (our rulings, RUL-n). Both are parsed the same way: a rule is a Markdown bullet that starts with
its id in bold, ``- **ID** text``, continued by the indented lines below it.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import sim

# (file, the name reports give it): docs/rules.md is read where it is installed (sim.doc_path), RULINGS.md beside sim
SOURCES = ((sim.doc_path("rules.md"), "docs/rules.md"), (Path(sim.__file__).resolve().parent / "RULINGS.md",
                                                          "sim/RULINGS.md"))
ID = re.compile(r"^- \*\*([A-Z][A-Z0-9]*-[A-Z]*\d+)\*\*\s*(.*)$")
ID_IN_TEXT = re.compile(r"\b(?:C|PR5|PR6|POD|PER|TEAM|HR|VAR|RUL)-[A-Z]*\d+\b")


@lru_cache(maxsize=None)
def table() -> dict[str, dict]:
    """id -> {"id", "text", "section", "source"} for every rule of the two documents, in document order."""
    out: dict[str, dict] = {}
    for path, label in SOURCES:
        section, current = "", None
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("#"):
                section, current = line.lstrip("#").strip(), None
                continue
            m = ID.match(line)
            if m:
                ident, text = m.groups()
                if ident in out:
                    raise ValueError(f"rule id {ident} is defined twice ({out[ident]['source']}, {label})")
                current = out[ident] = {"id": ident, "text": text.strip(), "section": section, "source": label}
            elif current is not None and line.startswith("  ") and line.strip():
                current["text"] += " " + line.strip()
            else:
                current = None
    return out


def explain(ident: str) -> dict:
    """The rule with this id (case-insensitive); KeyError with the nearest ids when there is none."""
    t = table()
    key = ident.strip().upper()
    if key in t:
        return t[key]
    prefix = key.split("-")[0] + "-"
    near = [k for k in t if k.startswith(prefix)]
    raise KeyError(f"no rule id {ident!r}" + (f"; ids of that kind: {', '.join(near)}" if near else
                                               f"; known prefixes: {', '.join(sorted({k.split('-')[0] for k in t}))}"))


def ids_in(text: str) -> list[str]:
    """The rule ids mentioned in a piece of text (for checking that every cited id is documented)."""
    return ID_IN_TEXT.findall(text)
