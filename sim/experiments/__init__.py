"""Experiments on top of the core: the batch runner, run/compare/tournament/settle, reports and statistics."""
