"""Many-player strength experiments (results/strength/multi/): `python -m research.strength.multi.<script> ...`."""
