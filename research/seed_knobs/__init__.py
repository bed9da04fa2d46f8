"""The seed-advice knobs (results/seed_knobs/README.md): `python -m research.seed_knobs.run`."""
