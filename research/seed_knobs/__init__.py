"""The seed-advice knobs of issue 13 §6 (results/seed_knobs/README.md): `python -m research.seed_knobs.run`."""
