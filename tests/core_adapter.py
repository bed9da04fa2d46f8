"""The one place the fuzz and legal-set tests touch the compiled core.

Today's core exposes traces only; the state-machine core will also expose, at every decision,
who acts, the decision kind and the legal set. Swap the bodies here, not the tests.
"""
from __future__ import annotations

from functools import lru_cache

from sim.core import rules as R
from sim.referee import decisions as D

STRATEGIES = ("random", "greedy")


def _key(toggles: dict) -> tuple:
    return tuple(sorted((k, str(v)) for k, v in toggles.items()))


@lru_cache(maxsize=None)
def _runner(family: str, n: int, tkey: tuple, strategy: str, toggles_items: tuple):
    from sim.experiments import batch
    r = R.resolve(family, n, dict(toggles_items))
    return batch.Runner(r, batch.make_lineup(r, [strategy]))


def core_traces(family: str, n: int, toggles: dict, strategy: str, seed: int, game: int, deals: int = 1) -> list[dict]:
    """The core's traces of one series (``deals`` deals) with every seat playing ``strategy``."""
    run = _runner(family, n, _key(toggles), strategy, tuple(toggles.items()))
    return run.trace(seed, game, deals)


def check_trace(trace: dict) -> None:
    """At every action of the trace the core's seat and kind are the referee's ``to_act`` and the
    answer is in the referee's ``legal_options``; raises ``decisions.DecisionError``."""
    D.walk_trace(trace)


def core_decisions(family: str, n: int, toggles: dict, strategy: str, seed: int, game: int, deals: int = 1):
    """The state-machine core's decision streams: one ``(trace, [(seat, kind, legal, answer), ...])``
    per deal, every decision included (legal as a set in the int vocabulary of
    ``sim.referee.decisions``). None while the core does not expose them (today)."""
    return None


def check_decisions(trace: dict, decisions) -> None:
    """Seat, kind and the whole legal set agree with the referee at every decision."""
    D.walk_decisions(trace, decisions)


def repro(family, n, toggles, strategy, seed, game, deals=1, deal=0) -> str:
    return (f"rules.resolve({family!r}, {n}, {toggles!r}); strategy {strategy!r}; "
            f"Runner(...).trace(seed={seed}, series={game}, deals={deals})[{deal}]")


def known_core_bug(family: str, n: int, toggles: dict) -> str | None:
    """Configurations where today's core is known to break the procedure (remove each entry once
    the state-machine core fixes it). RUL-16/17: the core's neighbours-only `continue` skips a main
    attacker who is no neighbour of the defender before marking him finished, so with
    after_attacker nobody else is asked and the bout ends early."""
    # Only with 6 players: in 2v2 (and 4-player pairs) the attacker is always a neighbour of his defender.
    g = toggles.get("throw_in_neighbours_only_if_players_gt", "none")
    teams = R.team_of_seats(toggles.get("teams", "none"), n) if family in R.THROW_IN else None
    if (family in R.THROW_IN and n == 6 and g != "none" and n > g and teams is not None
            and toggles.get("others_throw_in_timing") == "after_attacker"):
        return "RUL-16/17 neighbours-only attacker not marked finished (after_attacker)"
    return None
