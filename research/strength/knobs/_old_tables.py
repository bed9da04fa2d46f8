"""Expert's one knob table per family from before its per-player-count tables (results/strength/expert-tuning.md):
the base of xp's old=1 and of the "before" column of research.strength.habits."""
from strategies._lib import knobs

K_P5 = knobs(TRUMP_LEAD_TALON=3, DUMP_TALON=3, DUMP_HAND=6, TAKE_HIGH_TALON=10, HIGH_RANK=4, HIGH_TRUMP_RANK=3,
             TAKE_MAX_PICKUP=3, COUNT=3, COUNT_P=0.9, ENDGAME=1, MATCH=1, EXCHANGE_MIN_RANK=1)
K_P6_OLD = knobs(TRUMP_LEAD_TALON=3, DUMP_TALON=3, DUMP_HAND=6, TAKE_HIGH_TALON=14, HIGH_RANK=5, HIGH_TRUMP_RANK=3,
                 TAKE_MAX_PICKUP=3, COUNT=3, COUNT_P=0.9, ENDGAME=1, MATCH=1, EXCHANGE_MIN_RANK=1)
K_POD = knobs(COUNT=3, COUNT_P=0.9, ENDGAME=1, TAKE_HIGH_TALON=6, TAKE_MAX_PICKUP=12, HIGH_RANK=9, HIGH_TRUMP_RANK=4,
              EXCHANGE_MIN_RANK=1)
K_PER = knobs(COUNT=3, COUNT_P=0.9, ENDGAME=1, TAKE_HIGH_TALON=6, TAKE_MAX_PICKUP=12, HIGH_RANK=9, HIGH_TRUMP_RANK=3,
              TRANSFER=1, EXCHANGE_MIN_RANK=1)
TABLES = {"prostoy_5": K_P5, "prostoy_6": K_P6_OLD, "podkidnoy": K_POD, "perevodnoy": K_PER}
