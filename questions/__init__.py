"""The settled questions of results/: one small module per question, found and run by `durak settle`.

The file name is the question's name (underscores for dashes) and the name of its results folder. A module
holds hooks, read by sim.experiments.settle: TITLE, QUESTION, ORDER (its place in `durak settle all` and
the results index), PANEL = False for a tournament, and either the compare hooks SETTINGS, A, B, GAMES,
METRICS and answer(ctx, cases), or run(ctx). The framework loads these files by path, as it loads a
folder given with `durak settle --question-path DIR` (README.md, "Your own question").
"""
