"""Every rule id players see (docs/rules.md §1-5 families, the played variants) and every ruling RUL-n has a
test that exercises it, judged by what the tests do, not by their names:

* a rule scenario (tests/test_rules_scenarios.py) exercises the rule the referee must cite for its action
  (the runner asserts that verdict) and the ids in its ``tags`` (what its ``after`` check asserts);
* any test function exercises the ids of its ``@pytest.mark.rules(...)`` marker, read here from the source.

Ids cited only in a test's name or docstring do not count.
"""
from __future__ import annotations

import ast
from pathlib import Path

from sim.core import rule_ids
from sim.core.rules import _NOT_YET, TOGGLES

TESTS = Path(__file__).resolve().parent


def required_ids() -> set[str]:
    """§1-5 of the digest (every family section, teams, house rules) and every RUL-n; of the §6 variants
    only those the engine plays (a fully implemented toggle cites them)."""
    table = rule_ids.table()
    played_variants = {i for t in TOGGLES
                       if t.implemented is None and _NOT_YET not in t.doc for i in rule_ids.ids_in(t.rule)
                       if i.startswith("VAR-")}
    return {i for i, r in table.items() if r["section"] != "Variants" or i in played_variants} - set(NOT_PLAYED)


NOT_PLAYED = {"PR5-E4": "it only says that the Polish and Warsaw versions are not modelled"}


def marker_ids() -> dict[str, set[str]]:
    """id -> test functions whose @pytest.mark.rules(...) names it (the module-level pytestmark too)."""
    out: dict[str, set[str]] = {}

    def ids_of(dec) -> list[str]:
        if isinstance(dec, ast.Call) and isinstance(dec.func, ast.Attribute) and dec.func.attr == "rules" \
                and isinstance(dec.func.value, ast.Attribute) and dec.func.value.attr == "mark":
            return [a.value for a in dec.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        return []

    for path in sorted(TESTS.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                for dec in node.decorator_list:
                    for i in ids_of(dec):
                        out.setdefault(i, set()).add(f"{path.name}::{node.name}")
    return out


def scenario_ids() -> dict[str, set[str]]:
    from tests.test_rules_scenarios import SCENARIOS
    out: dict[str, set[str]] = {}
    for s in SCENARIOS:
        for i in ({s.rule} if s.rule else set()) | set(s.tags):
            out.setdefault(i, set()).add(s.id)
    return out


def test_every_rule_id_is_exercised_by_a_test():
    have = marker_ids()
    for i, names in scenario_ids().items():
        have.setdefault(i, set()).update(names)
    missing = sorted(required_ids() - set(have), key=lambda i: list(rule_ids.table()).index(i))
    assert not missing, f"rule ids no test exercises (tag a test with @pytest.mark.rules or a scenario tag): {missing}"


def test_every_tag_is_a_documented_rule_id():
    table = rule_ids.table()
    tagged = set(marker_ids()) | set(scenario_ids())
    unknown = sorted(tagged - set(table))
    assert not unknown, f"tests tag ids that docs/rules.md and sim/RULINGS.md do not define: {unknown}"


def test_the_check_reads_tags_not_names():
    """A scenario named after a rule but tagged with nothing, citing another rule, does not count."""
    from tests import test_rules_scenarios as S
    before = list(S.SCENARIOS)
    try:
        S.SCENARIOS[:] = [S.Sc("PR5-X1-RUL-9-only-named", "prostoy_5", {}, {}, True, "C-2")]
        ids = scenario_ids()
        assert "RUL-9" not in ids and "PR5-X1" not in ids and "C-2" in ids
    finally:
        S.SCENARIOS[:] = before
