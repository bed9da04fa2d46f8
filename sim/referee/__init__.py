"""The reference referee: the rules written plainly and independently of the compiled core.

``game`` holds the rules (positions, legality, applying actions, replaying whole deals);
``judge`` rules on position files; ``trace`` turns the core's traces into the referee's
actions; ``narrate`` tells a deal move by move. ``from sim import referee`` gives the game
module's names and ``judge``/``format_judgement``.
"""
from sim.referee.game import *  # noqa: F401,F403
from sim.referee import chain  # noqa: F401  (plugs the chain bout into game.BOUT_RULES)
from sim.referee.judge import format_judgement, judge  # noqa: F401
