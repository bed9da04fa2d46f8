"""The repository documents itself: every rule id it prints or cites is explained by `durak rules --explain`,
and nothing in it needs a folder outside the repository."""
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.core import rule_ids

ROOT = Path(__file__).resolve().parents[1]
TEXT_FILES = [p for d in ("sim", "strategies", "questions", "research", "tests", "docs", "notebooks", "results")
              for p in (ROOT / d).rglob("*") if p.suffix in {".py", ".md", ".json", ".ipynb", ".txt"}
              and ".venv" not in p.parts] + [ROOT / "README.md"]
# what a user reads: the README, docs, notebooks, tests, results, the rulings, the command-line help
# (source comments that name where a rule came from may name the research folder the code was written from)
USER_FACING = [p for p in TEXT_FILES if p.suffix != ".py" or p.parts[-2] == "tests" or p.name in ("cli.py", "api.py")]


def _cited_ids() -> set[str]:
    out = set()
    for p in TEXT_FILES:
        out.update(rule_ids.ids_in(p.read_text(encoding="utf-8", errors="replace")))
    return out


def test_every_cited_rule_id_is_documented():
    cited = _cited_ids()
    assert len(cited) > 100
    missing = sorted(cited - set(rule_ids.table()))
    assert not missing, f"rule ids used in the repository but not in docs/rules.md or sim/RULINGS.md: {missing}"


def test_every_family_and_ruling_has_ids():
    prefixes = {k.split("-")[0] for k in rule_ids.table()}
    assert {"C", "PR5", "PR6", "POD", "PER", "TEAM", "HR", "VAR", "RUL"} <= prefixes
    assert all(f"RUL-{i}" in rule_ids.table() for i in range(1, 23))


@pytest.mark.parametrize("ident,words", [("RUL-22", "1,000 bouts"), ("pr5-a3", "pair"), ("POD-L3", "five"),
                                         ("PER-3", "at least as many")])
def test_rules_explain_prints_the_rule(ident, words):
    res = CliRunner().invoke(main, ["rules", "--explain", ident])
    assert res.exit_code == 0, res.output
    assert res.output.startswith(ident.upper()) and words in res.output


def test_rules_explain_unknown_id_is_a_clear_error():
    res = CliRunner().invoke(main, ["rules", "--explain", "POD-" + "Z9"])
    assert res.exit_code != 0 and "no rule id" in res.output and "POD-L3" in res.output


def test_nothing_points_outside_the_repository():
    pat = re.compile(r"\.\./shared|\bshared/(examples|RULES|seeds)")
    bad = [str(p.relative_to(ROOT)) for p in USER_FACING if pat.search(p.read_text(encoding="utf-8", errors="replace"))]
    assert not bad, bad
