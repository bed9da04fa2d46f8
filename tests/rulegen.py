"""Hypothesis strategies of valid rule configurations.

``rule_configs()`` draws ``(family, players, toggles, deals_per_series)``: a family, 2-6 players,
teams among the values ``sim.core.rules`` allows for that count, 1-3 deals per series, and every
§7 toggle of the registry that applies to the family at every value the engine plays. The §6
modifier toggles (``Toggle.modifier``) are drawn sparsely: each is left at its default unless a draw of
1 in ``MODIFIER_ODDS`` turns it to another played value, so most configurations carry zero to two
modifiers and every combination the checks allow can occur. Invalid combinations are filtered by
``rules.resolve`` and by constructing the ``Experiment`` (``hypothesis.assume``).
"""
from __future__ import annotations

from hypothesis import assume
from hypothesis import strategies as st

from sim.core import rules as R

FAMILIES = ("prostoy_5", "prostoy_6", "podkidnoy", "perevodnoy")
# `variant` is a shorthand for modifier toggles, which are drawn directly
SKIPPED = ("variant",)
MODIFIER_ODDS = 8


def toggle_values(toggle: R.Toggle, family: str) -> tuple:
    """The values of ``toggle`` the engine plays, the family's default first (it shrinks there)."""
    vals = [v for v in toggle.values if toggle.implemented is None or v in toggle.implemented]
    d = toggle.default(family)
    return tuple([d] + [v for v in vals if v != d]) if d in vals else tuple(vals)


def drawn_toggles(family: str, modifiers: bool = False) -> list[R.Toggle]:
    """The base toggles of a family (or, with ``modifiers``, its §6 modifier toggles) that are drawn."""
    return [t for t in R.TOGGLES if family in t.families and t.name not in SKIPPED and t.name != "teams"
            and t.modifier == modifiers and len(toggle_values(t, family)) > (1 if modifiers else 0)]


def teams_values(family: str, n: int) -> tuple:
    t = R.TOGGLE_BY_NAME["teams"]
    if family not in t.families:
        return ()
    out = []
    for v in toggle_values(t, family):
        try:
            R.team_of_seats(v, n)
        except R.RulesError:
            continue
        out.append(v)
    return tuple(out)


def covered_pairs() -> set[tuple[str, object]]:
    """Every (toggle, value) pair ``rule_configs`` can draw, over all families and counts."""
    pairs = set()
    for f in FAMILIES:
        for t in drawn_toggles(f) + drawn_toggles(f, modifiers=True):
            pairs |= {(t.name, v) for v in toggle_values(t, f)}
        # a modifier not drawn (nothing but its default is played) is always at its default
        pairs |= {(t.name, t.default(f)) for t in R.TOGGLES
                  if t.modifier and f in t.families and t.name not in SKIPPED}
        for n in range(R.MIN_PLAYERS, R.MAX_PLAYERS + 1):
            pairs |= {("teams", v) for v in teams_values(f, n)}
    return pairs


def config_problem(family: str, n: int, toggles: dict, deals_per_series: int) -> str | None:
    """Why this configuration cannot be played (None when it can): resolve and Experiment decide."""
    try:
        r = R.resolve(family, n, toggles)
        from sim.experiments.batch import make_lineup
        from sim.experiments.experiment import Experiment
        Experiment(r, make_lineup(r, ["random"]), games=1, deals_per_series=deals_per_series)
    except (R.RulesError, ValueError) as e:
        return str(e)
    return None


@st.composite
def rule_configs(draw, families=FAMILIES, players=(2, 3, 4, 5, 6)):
    family = draw(st.sampled_from(families))
    n = draw(st.sampled_from(players))
    toggles = {}
    for t in drawn_toggles(family):
        toggles[t.name] = draw(st.sampled_from(toggle_values(t, family)), label=t.name)
    for t in drawn_toggles(family, modifiers=True):
        if draw(st.integers(1, MODIFIER_ODDS), label=f"{t.name}?") == MODIFIER_ODDS:
            toggles[t.name] = draw(st.sampled_from(toggle_values(t, family)[1:]), label=t.name)
    tv = teams_values(family, n)
    if tv:
        toggles["teams"] = draw(st.sampled_from(tv), label="teams")
    dps = draw(st.integers(1, 3), label="deals_per_series")
    problem = config_problem(family, n, toggles, dps)
    assume(problem is None)
    return family, n, toggles, dps


def random_config(rnd, families=FAMILIES, players=(2, 3, 4, 5, 6), tries=100):
    """The same space as ``rule_configs``, drawn with a plain ``random.Random`` (for soak runs
    outside hypothesis, e.g. in worker processes)."""
    for _ in range(tries):
        family = rnd.choice(families)
        n = rnd.choice(players)
        toggles = {t.name: rnd.choice(toggle_values(t, family)) for t in drawn_toggles(family)}
        for t in drawn_toggles(family, modifiers=True):
            if rnd.randrange(MODIFIER_ODDS) == 0:
                toggles[t.name] = rnd.choice(toggle_values(t, family)[1:])
        tv = teams_values(family, n)
        if tv:
            toggles["teams"] = rnd.choice(tv)
        dps = rnd.randint(1, 3)
        if config_problem(family, n, toggles, dps) is None:
            return family, n, toggles, dps
    raise RuntimeError("no valid configuration drawn")


def without_modifiers(toggles: dict) -> dict:
    """A drawn configuration's toggles without its §6 modifiers (the plain rules of its family)."""
    modifiers = {m.name for m in R.MODIFIER_TOGGLES}
    return {t: v for t, v in toggles.items() if t not in modifiers}
