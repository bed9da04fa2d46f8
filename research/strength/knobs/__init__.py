"""A strategy folder for experiments (pass FOLDER as a --strategy-path / `paths` entry): `xp`, expert with up to
seven knobs of strategies/_lib.py changed. Loaded by path like any user strategy, never imported as a module."""
from pathlib import Path

FOLDER = str(Path(__file__).resolve().parent)
