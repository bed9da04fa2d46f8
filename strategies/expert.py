"""expert: the library's best knob combination for each family, tuned by experiment against greedy.

Built from the shared heuristics of ``strategies/_lib.py`` (their knobs are documented there); the
family is read from the rules in ``obs`` (partial defence -> the prostoy_5 table, take-all -> the
prostoy_6 table). Every tuned knob can be overridden for experiments, e.g.
``expert:transfer=0``. A parameter left out (or given as -99) plays the value tuned for the family,
listed per family by ``durak strategies`` (``FAMILY_DEFAULTS``); any other value must lie in the
parameter's range, and whole-number parameters take whole numbers only (``keep_ace=0.5`` is refused).

How it was tuned (2 players, coordinate search one knob at a time, ~5 rounds per family): each
candidate played 100,000 deals against ``greedy``, 50,000 in each seat order, seed 11, with
``results/_tune.py FAMILY greedy "expert:knob=value,..."`` (2 threads, ~0.5 s per candidate); the
objective was greedy's fool rate minus the candidate's (make the opponent the fool, seed 002).
A difference of 0.006 is about two standard errors at this size. Findings (fool rate of the candidate
/ of greedy):

- podkidnoy: greedy vs greedy 45.6% / 45.6%. Taking instead of covering with a trump of rank >= ten
  while the talon holds >= 6 cards (whatever the pick-up) is the big gain: 44.8% -> 41.7% / 48.3%.
  Counting once the talon is <= 3 (lead / throw in what the defender cannot beat, p >= 0.9) and the
  two-player endgame rule add +1.7 to +2.0 points of difference; forcing a take of *trumps* hurts
  (-1.4 points), so the unbeatable card is always a non-trump while one is left. High non-trump
  covers are worth making (taking instead of covering with a queen+: -4 points). Leading whole ranks
  changes nothing (the engine lets the attacker throw the rest in at once); keeping the trump ace,
  taking trump leads and the lone-trump rule were within +-0.3 points; the exchange is off by default.
  Final: 41.7% [41.4, 42.0] vs greedy 48.3%, draws 10.0%.
- perevodnoy: the same plus transferring with non-trumps (and by showing): 43.9% -> 38.3% / 54.1%;
  transferring with trumps too is worse (43.4% / 51.2%). Final: 37.6% [37.3, 37.9] vs greedy 54.2%, draws 8.2%.
- prostoy_5: leading the largest set whenever the hand holds >= 6 cards or the talon <= 3 (36.4% ->
  26.1%), taking rather than covering with a ten+ or a trump of nine+ while the talon >= 10, trumps in
  leads once talon <= 3, whole-set cover assignment, the endgame rule (without it: 28.1% fool but
  19.1% draws and greedy's fool rate drops from 62% to 53%). Final: 20.6% [20.4, 20.9] vs greedy 72.7%,
  draws 6.7%.
- prostoy_6: as prostoy_5 with high = jack, take early while talon >= 14. Final: 20.3% [20.0, 20.5] vs
  greedy 74.2%, draws 5.5%.

Issue 14 (what search teaches; tables in results/strength/habits.md, reproduced by
``python results/strength/habits.py``): a knob table for two players and one for three or more players per
family (``_k`` picks it from ``obs[O_N]``), found by paired coordinate search against greedy (one knob at a
time, 30,000 deals at 2 players / 24,000 at 3-6, seats rotated, a change kept when its paired 95% interval
excludes 0; ``results/strength/knobs/xp.py`` sets any knob for such runs). Before, expert beat greedy by
+5.1 points of fool-rate difference in 2-player podkidnoy and +15.7 in perevodnoy (and by -3.4 to +5 in
prostoy_5 at 3-6 players, about 0 in podkidnoy at 4-6). What search (``results/strength/_disagree.py``)
disagreed with most: the lead (search leads a higher card than expert's cheapest in ~half of the searched
leads), covers with low trumps while the talon is large (search takes), and throw-ins of high cards onto a
covering defender (search passes). Leading high cards and holding back high throw-ins lost against greedy
(-4 to -18 points); what won:

- two players: throw in trumps once the talon holds <= 3 cards (``THROW_TRUMP_TALON=3``: +7.4 points in
  podkidnoy, +8.7 in perevodnoy; never throwing in trumps: -16); lead the lowest rank held twice or more
  within 5 ranks of the cheapest card (``LEAD_PAIR=5``: +4.8 in podkidnoy, +5.5 in perevodnoy); cover with
  a card whose rank is already on the table when it costs at most one rank more (``COVER_TABLE_RANK=1``:
  +0.3); podkidnoy: take rather than cover with a trump nine+ early (``HIGH_TRUMP_RANK=3``), no counting.
- three or more players: simple durak never leads trumps while anything else is left (+8.5 points at 3
  players in prostoy_5); prostoy_5 at 3 players never takes to save high cards, at 4-6 takes rather than
  spend a king+ or any trump while the talon >= 10 and dumps sets from a talon of 6; throw-in games take
  rather than spend high cards only while the talon >= 8, cover on table ranks, perevodnoy transfers with
  trumps too, podkidnoy covers no trump early and throws no ace onto a taker.

Then (issue 14, second round; the same paired method, 40,000 deals at 2 players and 20,000 at 3-6; figures are
paired gains over expert as it stood, 95% intervals): search (``results/strength/_disagree.py`` at 4 players) again
mostly led higher cards and passed on throw-ins; holding back throw-ins by the thrower's seat
(``THROW_NEXT_MAX_RANK`` & co.) lost everywhere (-0.1 to -19 points at 4-player podkidnoy), as did high leads.
What won is where the *others'* throw-ins come from:

- cover with the card whose rank leaves the others the fewest cards to throw in (``COVER_OPEN_STEPS``, trumps too
  with ``COVER_OPEN_TRUMP_STEPS=8``, counted from what was seen, ``COVER_OPEN_EXPECT=1``; the take-early rules then
  judge that card): +5.8 points in 2-player podkidnoy, +5.0 / +2.5 / +1.6 at 3 / 5 / 6 players, +3.8 / +2.3 at 3 / 4
  players in perevodnoy (its first form, any kind within 8 ranks, every unseen card counted: +4.3 in 2-player
  perevodnoy, +3.2 at 4 players in podkidnoy); it replaces ``COVER_TABLE_RANK``;
- lead the non-trump (within 8 ranks of the cheapest) whose rank the others, the defender included, least likely
  hold (``LEAD_OPEN_STEPS=8``; ``LEAD_OPEN_SIGN=2`` in podkidnoy): +1.0 in 2-player podkidnoy, +1.7 in perevodnoy,
  +3.9 / +1.9 / +1.0 / +1.4 at 3-6 players in perevodnoy (not in podkidnoy at 3+ players: -0.3 to -2.2);
- three or more players, talon not empty: take rather than cover when that cover still leaves the others >= 1.5
  cards to throw in (``TAKE_OPEN=1.5``, ``TAKE_OPEN_TALON=1``): +2.2 at 4 players in podkidnoy, +1.0 at 5, +1.4 / +1.9
  at 4 / 5 in perevodnoy (at 3 players within +-0.4; taking with an empty talon loses 5-7 points);
- 2-player podkidnoy takes to save a card only for pick-ups of <= 6 cards (+0.1); prostoy_5 at 5 players takes to
  save trumps only while the talon >= 5 and no high plain cards, both at 5 and 6 players without the two-player
  endgame rule (+0.4, +0.2; ``K_P5_5``, ``K_P5_6``).

Against greedy now (fool-rate difference in points, 95% interval, seats rotated, seed 11; 40,000 deals at 2
players, 20,000 at 3-6; ``python results/strength/habits.py --games 40000 --disagree 300``, ~10 min; expert as
main had it before this round in brackets, from the same command and deals):

- 2 players: prostoy_5 +51.9 [+51.1, +52.7], prostoy_6 +62.4 [+61.7, +63.1] (both unchanged), podkidnoy
  +25.1 [+24.2, +26.1] (+18.2), perevodnoy +36.9 [+36.0, +37.7] (+30.7).
- 3 / 4 / 5 / 6 players: prostoy_5 +17.1 / +11.6 / +10.1 / +7.6 (5-6: +9.6 / +7.4); prostoy_6 +28.5 / +26.4 /
  +12.4 / +8.5 (unchanged); podkidnoy +12.5 / +7.5 / +4.8 / +3.0 (+7.6 / +2.1 / +1.2 / +1.4); perevodnoy +20.1 /
  +17.6 / +13.1 / +9.9 (+12.3 / +12.1 / +8.9 / +7.4). No unfinished deal in any cell.

Issue 14's targets (>= +25 in 2-player podkidnoy and perevodnoy, >= +10 everywhere else) are met in 2-player
perevodnoy and podkidnoy (+25.1: its interval, [+24.2, +26.1], still reaches below 25) and in 14 of the 18 other
cells (prostoy_5 at 5 players: +10.1 [+9.5, +10.6]); not in prostoy_5 at 6 players (+7.6, 2.4 short), prostoy_6
at 6 (+8.5, 1.5 short), podkidnoy at 4 / 5 / 6 (+7.5 / +4.8 / +3.0: 2.5 / 5.2 / 7.0 short) or perevodnoy at 6
(+9.9 [+9.5, +10.4], 0.1 short).

Speed (expert in every seat, one thread, ``sim.experiments.batch.Runner.play_raw``, best of 3 x 30,000 games, the
same sitting): podkidnoy 2 players 200,000 -> 153,000 games/s, perevodnoy 180,000 -> 138,000, podkidnoy 4 players
166,000 -> 129,000 (the counting of COVER_OPEN / LEAD_OPEN), prostoy_5 2 players 142,000 -> 130,000 and 4 players
209,000 -> 194,000 (the longer knob tuple).

Then (issue 14, third round: 4-6 players, branch i14-multi; tools in ``results/strength/multi``). Search in ONE seat
among greedy players (``log_search.py FAMILY N DEALS KINDS``: search decides only the listed decision kinds, expert
the rest, every decision logged with the observation) at 6-player podkidnoy, seed 5, 2,400 deals: search everywhere
+16.2 (3,000 deals, seed 6), leads only +12.1, covers only +11.2, throw-ins only +10.8, none (expert) +4.0 (+-1.2 to
1.6): each kind is worth about +7; search's leads only while exactly 3 players are left +8.3, only while 4-6 are left +6.8. What it did
(seed 6 log): with 4+ players in it passed 20-45% of trump throw-ins (13-24% of plain ones, spread over every
rank and seat without a pattern), and in the first bout it took the first card led ~40% of the time (5% when a six,
50-65% when an eight or higher, whatever it would have covered with); its leads were higher than expert's (mean rank
index 4.1 vs 1.3) but without a rule that could be read off. Paired against expert as it stood (24,000 deals, seed 12,
then checked on 11 and 29), what won:

- throw in trumps only once <= 3 players are left (``THROW_TRUMP_ACTIVE=3``, with ``THROW_TRUMP_TALON`` as before):
  +2.0 [+1.7, +2.4] at 6 players in podkidnoy, +2.7 at 5, +0.9 at 4; perevodnoy +1.0 / +1.0 / +0.4 at 6 / 5 / 4
  (``=2``: +1.7 / +2.7 / +0.7; at 3 players ``=2`` loses 2.7 in podkidnoy and 1.5 in perevodnoy, so 3 players keep
  K_PODM / K_PERM). The trumps are worth more in the last three hands than as a shed card now;
- at 5-6 players take the first card of an early bout (nothing covered yet, <= 5 cards discarded, >= 4 players in)
  when it is a plain eight or higher (``TAKE_FIRST_RANK=3``): +1.0 [+0.5, +1.5] at 6 players in podkidnoy, +0.3 at 5,
  +0.7 / +0.4 in perevodnoy at 6 / 5 (at 4 players -0.4: off there; a six or higher, ``=1``: -1.1; any card of an early
  bout, covered or not: -0.5);
- 4-player podkidnoy throws aces onto a taker again (``THROW_TAKE_MAX_RANK=8``): +0.2 [+0.0, +0.4] (seed 11).

Tables K_POD_4, K_POD_56, K_PER_4, K_PER_56. Lost at 6 players in podkidnoy (seed 12, paired): taking when a cover
opens >= 1.5 / 2.5 throw-ins with no talon (``TAKE_OPEN_TALON=0``: -5.4 / -3.4); taking rather than covering with a
trump (or a high card) while >= 4 / 5 players are in (``TAKE_HIGH_ACTIVE`` with ``HIGH_TRUMP_RANK`` 0-6,
``TAKE_MAX_PICKUP`` 1-12: -0.5 to -3.0; in prostoy_5 at 6 players -8.5 to -16); high leads (``LEAD_MIN_RANK`` 3-8
with no talon: -2.3 to -8.2; the highest plain single while the talon lasts: -0.6 to -6.2 in prostoy_5 and podkidnoy
at 5-6); counting leads and throw-ins (``COUNT=0``, ``COUNT_P`` 0.3-0.9: -1.0 to -2.2; only with <= 3 players left:
-0.2 / -0.6 at 6 / 5), ``ENDGAME_MANY`` 0.3-0.9 (-0.3 to -1.4; only with <= 3 players left, ``ENDGAME_MANY_MAX=3``:
-0.3); holding back throw-ins by seat with no talon (``ROLE_TALON=ROLE_TALON_MAX=0``: -0.9 to -12.1), high plain
throw-ins onto a coverer (``THROW_COVER_MAX_RANK`` 4-7: -1.6 to -12.2), keeping pairs (``KEEP_PAIR_TALON`` 0 / 3:
-18 to -30 / 0 to -4.6), leading pairs (``LEAD_PAIR`` 2-8: -0.6 to -2.7), ``LEAD_OPEN_STEPS=8`` (-1.1 / -1.8 at 6 / 5), whole-rank
leads (``PAIR_LEAD_TALON=36``: -0.2 to -0.4), cheaper trump covers (``COVER_OPEN_TRUMP_STEPS`` 0: -0.5),
``KEEP_ACE`` (-0.1), perevodnoy transfers without trumps (``TRANSFER=1``: -0.3 to -0.9). In prostoy_5 / prostoy_6
at 6 players no knob moved (``DUMP_*``, ``COUNT*``, ``TAKE_HIGH_*``, ``ENDGAME_MANY``, ``KEEP_ACE``, ``LONE_TRUMP``,
``TAKE_TRUMP_TALON``, ``TRUMP_LEAD_TALON``: -4.7 to +0.0); search in one seat there gains only +4 (prostoy_5, 1,200
deals: +11.2 vs expert's +7.0).

Against greedy now (20,000 deals a cell, paired with expert as main had it, ``sh results/strength/multi/
before_after.sh SEED 20000``), tuning seed 11 / held-out seed 29: podkidnoy 4p +8.6 / +8.2 (was +7.5 / +7.2), 5p
+7.4 / +7.9 (+4.8 / +5.1), 6p +6.4 / +6.2 (+3.0 / +3.0); perevodnoy 4p +18.0 / +18.7 (+17.6 / +18.4), 5p +14.4 / +14.2
(+13.1 / +13.0), 6p +11.4 / +11.0 (+9.9 / +9.5); prostoy_5 / prostoy_6 unchanged (6p: +7.6 / +7.5, +8.5 / +8.7).
Speed (expert in every seat, best of 3 x 30,000 games, one loaded sitting): 2-player podkidnoy 106,000 -> 110,000
games/s (unchanged within noise), 6-player podkidnoy 98,000 -> 87,000.

Issue 14, two-player round (podkidnoy; the target: >= +25 against greedy on fresh deals; it stood at +25.1 on the
tuning deals, seed 11, but +23.9 on the round robin's and +24.5 on seed 29, never tuned on). What was measured
first (``python results/strength/endgame_probe.py podkidnoy 0 400 1``): from the first decision with the talon
empty, letting ``search`` (one sample: every card is known) play expert's seat instead of expert gains +20.3 +- 5.9
points over 400 deals (56 outcomes changed; expert as it was, without the solver below): the endgame, not the habits before it, is where expert lost most. So
expert now solves it:

- ``ENDGAME_SOLVE`` / ``ENDGAME_SOLVE_CARDS`` (``strategies/_endgame.py``): two players left, talon empty, plain
  podkidnoy, both hands together at most ENDGAME_SOLVE_CARDS cards: an exact alpha-beta search of the rest of the
  deal (leads of any subset of a rank, covers, takes, throw-ins, throw-ins onto a taker; at most ENDGAME_SOLVE
  nodes per option, iterative on a stack buffer: numba's cache cannot hold a recursive function (a cached engine
  calling one segfaulted), and the engine runs without NRT). It plays a proven win (expert's own answer first),
  leaves a proven loss for a proven draw or an answer not proven lost, and keeps expert's answer when that one is
  out of budget. Checked against a plain minimax over the engine's own moves (``Deal.legal_options`` /
  ``apply``): ``python results/strength/endgame_check.py 60 6`` agreed on every one of the ~20 positions of <= 6
  cards it reached in 300 s (the Python minimax is slow; a test of it took over 10 minutes, so none is kept). Paired gain against greedy, 2-player podkidnoy
  (``xp:i0=51,v0=NODES,i1=52,v1=CARDS``, 40,000 deals, seed 11; games/s of xp with it in both seats, one thread,
  loaded machine, xp itself is slower than expert): cards <= 6, 1,000 nodes: +5.6 [+5.3, +5.8] (36,000 games/s);
  <= 7: +7.1 (26,000-28,000); <= 8, 200 nodes: +8.9 to +9.4 (22,000-26,000); <= 8, 1,000 nodes: +9.5 (17,000);
  <= 10, 300 nodes: +10.9 (14,000); every position, 10 / 30 / 100 nodes: +2.3 / +8.7 / +10.6 (seed 12, 20,000
  deals); <= 12 cards, 1,000 nodes: +13.7; every position, 10,000 nodes: +15.5 (seed 12). Kept: <= 6 cards,
  1,000 nodes (expert is search's playout policy: the larger settings gain more and cost more, the lead's call;
  giving up on the other options when expert's own is out of budget cost about -0.5 points and saved little).
- ``search`` no longer samples where the solver plays (its answer would be expert's exact one).
- Against greedy now: seed 29 (never tuned on), 100,000 deals, seats rotated: podkidnoy +30.0 [+29.4, +30.6]
  (without the solver +24.5 [+24.0, +25.1]; paired gain +5.4 [+5.3, +5.6]), perevodnoy +38.0 [+37.4, +38.5]
  (unchanged: the solver plays no transfers, so it stays off there). Seed 11, 40,000 deals: podkidnoy +30.7
  [+29.8, +31.6] (+25.1; paired +5.5 [+5.2, +5.8]), perevodnoy +36.9 [+36.0, +37.7] (unchanged).
- Speed, 2-player podkidnoy, expert in both seats, one thread, the same sitting: 159,000-166,000 games/s (main)
  -> 99,000-107,000 (perevodnoy unchanged). No unfinished deal (``unfinished.py --strategies expert --players 2,3``).
- Not done: perevodnoy (the solver would need transfers and shows), the last draws before the talon empties, and
  search's other disagreements (high leads, takes with low trumps, held-back throw-ins) by condition.

Then the exact endgame at 3-6 players too (podkidnoy, once two players are left with the talon empty; the solver
stays off with partnerships), paired against expert without it (``xp``, 24,000 deals, seed 12, one expert among
greedy players): at most 6 cards together, 1,000 nodes: +1.5 [+1.3, +1.6] at 3 players, +0.7 / +0.4 / +0.3 at
4 / 5 / 6; at most 8 cards, 200 nodes: +1.4 [+1.2, +1.6] at 4, +0.8 [+0.6, +0.9] at 6. Kept: 8 cards, 200 nodes
in K_PODM (and so K_POD_4, K_POD_56). The two-player table keeps 6 cards, 1,000 nodes (expert is search's
playout policy there, where speed counts most).

Then a transposition table in the solver (the bouts' starts already searched in one decision, shared by all its
options) made larger positions solvable in the same budget, and larger settings paid at 4-6 players (paired
against 8 cards / 200 nodes, one expert among greedy players, 12,000 deals, seed 12): 12 cards / 1,000 nodes +1.9
[+1.6, +2.3] / +1.4 / +0.8 at 4 / 5 / 6 players; 14 / 3,000 +2.7 [+2.3, +3.1] / +1.9 / +1.0; 16 / 10,000 +3.0 /
+2.1 / +1.2; no limit (36 cards, 20,000 nodes) +3.1 / +2.1 / +1.2. Kept 14 cards / 3,000 nodes in K_POD_4 and
K_POD_56; on seed 29 (20,000 deals): +12.5 [+11.8, +13.2] at 4 players (8 / 200: +9.8), +10.4 [+9.8, +10.9] at
5 (+8.8), +8.1 [+7.6, +8.6] at 6 (+7.0). It costs speed: expert in every seat, one thread, 4 / 6 players: about
69,000 / 67,000 games/s -> 5,000 / 6,000 (12 / 1,000: 13,000 / 14,600). Three players (K_PODM) keep 8 / 200.

The three 6-player cells still short of +10 (issue 14's third round; search in one seat among greedy players,
``results/strength/multi/log_search.py``, then each habit it suggested as a knob, paired against expert, 30,000
deals, seed 12, ``results/strength/multi/scan.py``). Search's own gain splits about evenly over the decision kinds
(2,400 / 1,500 deals, seed 5): prostoy_5 attack +3.2, cover +2.1; podkidnoy attack +3.6, throw-in +3.3, cover +3.5.
Its disagreements, read as blanket rules, all lost:
- prostoy_5 (it led higher singles, higher fillers, kept high pairs, covered with higher cards, took rather than
  cover with a trump): the cheapest filler of rank >= 8 / 10 / Q / A -0.5 / -0.9 / -1.0 / -0.4; no pair above a
  jack / queen / king in a set -1.1 / -0.6 / -0.2; singles of rank >= 7 / 8 / 10 / Q -1.5 / -2.8 / -4.7 / -4.1;
  cover a lone card with a plain card of rank >= 8 / 10 / Q -0.0 / -0.2 / -0.3; take rather than cover with a
  trump while 5-6 players are in -1.0 to -3.9; every other knob of strategies/_lib.py within +-0.3 or worse
  (TRUMP_LEAD_TALON 0-6 -3.7 to -4.3);
- prostoy_6 (6 players, talon empty from the deal): the same fillers -0.9 to -1.6, higher singles -2.1 / -3.6;
  sets that pair a trump with a non-trump of its rank when the non-trumps make none (``SET_TRUMP_TALON=0``): **+0.5
  [+0.2, +0.8]** (seed 13: +0.6 [+0.3, +0.9]); kept in K_P6_6, where expert against greedy on seed 29 went from
  +8.7 to +9.3 [+8.6, +10.0] (``habits.md``; still 0.7 short) (K_P6_M, whose trumps stay out of leads while the
  talon is above 3, would use it only then: +0.9 at 4 players, -0.3 at 5, -4.2 at 3; left off);
- podkidnoy (it led higher cards, and the seat two after the defender held back throw-ins while he covered, 29%
  against 14% elsewhere): leads of rank >= 7 / 8 -4.3 / -6.5; that seat passing, or throwing in ranks up to
  8 / 10 / Q / K only: -1.4 / -0.6 / -0.2 / -0.1 / +0.0; COUNT 0.5-0.9 -0.3 to -0.8; LEAD_OPEN 1-3 steps +0.1 to
  +0.2 (within noise); LEAD_PAIR, PAIR_LEAD_TALON, ENDGAME_MANY, KEEP_ACE, COVER_TABLE_RANK, TRUMP_LEAD_TALON
  within +-0.7 or worse.
What search sees and a blanket rule does not is the position: which of its options the others can beat, who
attacks next. A heuristic that reads that is a search of its own.

So, where a small search is cheap, expert now searches. ``results/strength/multi/phases.py`` split search's edge
at 6 players by the players still in: in podkidnoy +6.1 [+4.5, +7.8] over expert in all, +4.2 [+3.2, +5.3] of it
while three are left (talon empty), +0.8 with two. There little is hidden (0-4 cards at 6 players, a median of 2),
and search deciding only there gained as much with 4 guesses as with 128, and with greedy's imagined games as with
expert's (+4.2 [+3.2, +5.3]; 1 guess, expert's games: +3.7). ``ROLLOUT_SAMPLES`` (``strategies/_rollout.py``) does
that inside expert: talon empty, three players in (podkidnoy; two are the exact solver's) or two or three (simple
durak): that many guesses of the hidden cards (one when nothing is hidden), every option (any single or whole rank
as a lead, in simple durak any pair or two pairs with one card; take / pass or any card otherwise) played out by
greedy in every seat, the best mean outcome played (expert's own answer on ties), on stack buffers, no allocation.
Paired against expert without it (one expert among greedy players, 30,000 deals, seed 12), 2 / 4 guesses:

- podkidnoy at 3 / 4 / 5 / 6 players: +13.7 / +6.6 / +5.1 / +4.3 (4 guesses +14.8 / +6.9 / +5.2 / +4.4; 1 guess
  at 6: +4.1);
- prostoy_5 at 2 / 3 / 4 / 5 / 6: +11.4 / +3.1 / +1.9 / +1.6 / +1.9 (4: +11.4 / +3.9 / +1.9 / +1.7 / +1.9);
- prostoy_6 at 2 / 3 / 4 / 5 / 6: +9.4 / +1.6 / +1.4 / +1.8 / +1.8 (4: +9.4 / +2.1 / +1.4 / +1.9 / +1.9).

Kept 2 in every podkidnoy table from three players on and every simple-durak table (K_P5_2 is K_P5 with it: K_P5
stays the table from before issue 14). Not in perevodnoy (transfers are not among its options; it met +10 without).
Tried and dropped at 6-player prostoy_5: rollouts with 4 / 5 / 6 players in (``ROLLOUT_ACTIVE``) +0.0 / +0.1 /
-0.5; 8 guesses +0.1; the knob heuristic's own play (expert without solver and rollouts) in the imagined games
instead of greedy's: -0.2 (-0.1 with 4 guesses); with a talon of up to 2 / 6 cards left: +0.0. Speed, expert in
every seat, one thread, before / after: podkidnoy 3 players 47,000 / 7,100 games/s, 4 players 5,600 / 4,100,
6 players 6,700 / 3,900; prostoy_5 2 / 3 / 6 players 74,000 / 40,000, 136,000 / 19,000, 110,000 / 44,000;
prostoy_6 2 / 6 players 123,000 / 18,000, 116,000 / 17,000. Search's and rollout's imagined games (PLAYOUT)
leave the rollouts off: their speed is unchanged.

Who plays the seat itself in those imagined games mattered more than anything above (issue 14, fourth round).
Greedy in every seat undervalues the options expert would carry on from better than greedy would. Expert's own knob
table in every seat lost (-0.2, above). Expert's table for the seat itself only, greedy for the others
(``ROLLOUT_SELF``), gained wherever it was tried. Paired against expert without it (one expert among greedy players,
seed 12; 12,000 deals at 6 players, 6,000 elsewhere):
- prostoy_5 at 2 / 3 / 5 / 6 players: +1.2 / +1.2 / +0.5 / +0.5 (4 guesses at 6: +0.6);
- prostoy_6 at 3 / 6: +1.6 / +0.4;
- podkidnoy at 3 / 6: +0.8 / +0.3.
With the seat playing itself, rollouts from more players in paid at 6-player prostoy_5, and more guesses paid too
(they had not with greedy in the seat). Rollouts from 4 players in: 8 / 16 guesses +0.8 / +0.9. From 5: 16 guesses
+0.9. From 6: 8 / 16 / 32 guesses +1.1 / +1.4 / +1.9.
The cost is speed: expert in every seat, one thread, ran 5,700 / 3,000 / 360 / 180 games/s for 4 players and 8
guesses, 4 and 16, 6 and 16, 6 and 32.
Kept ``ROLLOUT_SELF=1`` in every table with rollouts. K_P5_6 also rolls out from 4 players in, with 8 guesses.
- Against greedy on seed 29 (``habits.md``): prostoy_5 at 6 players +9.5 -> +10.5 [+10.1, +10.9]; every family
  and player count is now at +10 or more.
- It is not only a better read of greedy. One such expert among experts without it (seed 31, 8,000-12,000 deals):
  prostoy_5 at 2 / 3 / 6 players +3.2 / +2.7 / +1.6, prostoy_6 at 3 +2.3, podkidnoy at 3 +1.8.
- Speed, expert in every seat, one thread, before / after:
  - podkidnoy 3 / 4 / 6 players: 7,100 / 5,500, 4,100 / 3,500, 3,900 / 3,600;
  - prostoy_5 2 / 3 / 6: 40,000 / 22,000, 19,000 / 11,000, 44,000 / 5,500;
  - prostoy_6 2 / 6: 18,000 / 8,600, 17,000 / 9,300.
"""
import numpy as np
from numba import njit

from strategies._lib import KNOB_NAMES, SWAP_MAX_RANK, end_answer, end_attack, h_attack, h_cover, h_exchange, h_swap, h_throw_in, h_transfer, knobs, put, put_tuned
from strategies._lib import ENDGAME_SOLVE, ENDGAME_SOLVE_CARDS, ROLLOUT_ACTIVE, ROLLOUT_SAMPLES
from strategies._rollout import rollout_choice, rollout_here
from sim.core.lib import K_ATTACK, K_COVER, K_THROW_IN, O_HAND, O_N, O_RULES
from sim.core.rules import MODE_PEREVODNOY, MODE_PODKIDNOY, R_MODE, R_PARTIAL

NAME = "expert"
DESCRIPTION = "The library's best tuned combination per family (see its docstring for how it was tuned)."
FAMILIES = ("prostoy_5", "prostoy_6", "podkidnoy", "perevodnoy")
VARIANTS = "all"  # every §6 variant the core plays: leads through attack_ok, the rest from `legal`

# tuned per family (partial defence = the prostoy_5 tables, take-all = the prostoy_6 tables); K_POD and K_PER are the
# throw-in tables from before issue 14 (the base of K_POD2 / K_PODM, K_PER2 / K_PERM; results/strength/habits.py)
K_P5 = knobs(TRUMP_LEAD_TALON=3, DUMP_TALON=3, DUMP_HAND=6, TAKE_HIGH_TALON=10, HIGH_RANK=4, HIGH_TRUMP_RANK=3,
             TAKE_MAX_PICKUP=3, COUNT=3, COUNT_P=0.9, ENDGAME=1, MATCH=1, EXCHANGE_MIN_RANK=1)  # before issue 14 too
K_P5_2 = knobs(K_P5, ROLLOUT_SAMPLES=2, ROLLOUT_SELF=1)  # two players (issue 14, third round: the endgame's rollouts)
K_P6 = knobs(TRUMP_LEAD_TALON=3, DUMP_TALON=3, DUMP_HAND=6, TAKE_HIGH_TALON=99, HIGH_RANK=5, HIGH_TRUMP_RANK=3,
             TAKE_MAX_PICKUP=3, COUNT=3, COUNT_P=0.9, ENDGAME=1, MATCH=1, EXCHANGE_MIN_RANK=1,
             ROLLOUT_SAMPLES=2, ROLLOUT_SELF=1)
K_P6_OLD = knobs(TRUMP_LEAD_TALON=3, DUMP_TALON=3, DUMP_HAND=6, TAKE_HIGH_TALON=14, HIGH_RANK=5, HIGH_TRUMP_RANK=3,
                 TAKE_MAX_PICKUP=3, COUNT=3, COUNT_P=0.9, ENDGAME=1, MATCH=1, EXCHANGE_MIN_RANK=1)  # before issue 14
K_POD = knobs(COUNT=3, COUNT_P=0.9, ENDGAME=1, TAKE_HIGH_TALON=6, TAKE_MAX_PICKUP=12, HIGH_RANK=9, HIGH_TRUMP_RANK=4,
              EXCHANGE_MIN_RANK=1)
K_PER = knobs(COUNT=3, COUNT_P=0.9, ENDGAME=1, TAKE_HIGH_TALON=6, TAKE_MAX_PICKUP=12, HIGH_RANK=9, HIGH_TRUMP_RANK=3,
              TRANSFER=1, EXCHANGE_MIN_RANK=1)
# two players (issue 14: results/strength/habits.md): trumps thrown in only once the talon holds <= 3 cards, the lead
# from the lowest pair within 5 ranks of the cheapest card, covers that open no new rank for throw-ins
K_POD2 = knobs(ENDGAME=1, TAKE_HIGH_TALON=6, TAKE_MAX_PICKUP=6, HIGH_RANK=9, HIGH_TRUMP_RANK=3, EXCHANGE_MIN_RANK=1,
               THROW_TRUMP_TALON=3, LEAD_PAIR=5, COVER_OPEN_STEPS=3, COVER_OPEN_TRUMP_STEPS=8, COVER_OPEN_EXPECT=1,
               LEAD_OPEN_STEPS=8, LEAD_OPEN_SIGN=2,
               ENDGAME_SOLVE=1000, ENDGAME_SOLVE_CARDS=6)  # issue 14, two-player round: the exact endgame
K_PER2 = knobs(COUNT=3, COUNT_P=0.9, ENDGAME=1, TAKE_HIGH_TALON=6, TAKE_MAX_PICKUP=12, HIGH_RANK=9, HIGH_TRUMP_RANK=3,
               TRANSFER=1, EXCHANGE_MIN_RANK=1, THROW_TRUMP_TALON=3, LEAD_PAIR=5, COVER_OPEN_STEPS=3,
               COVER_OPEN_TRUMP_STEPS=8, COVER_OPEN_EXPECT=1, LEAD_OPEN_STEPS=8)
# three or more players (issue 14: one round of coordinate search against greedy at 3 / 5 / 6 players, 24,000
# deals a candidate, paired): trumps leave a simple-durak lead only when nothing else is left, ...
K_P5_3 = knobs(TRUMP_LEAD_TALON=-1, DUMP_TALON=3, DUMP_HAND=5, TAKE_HIGH_TALON=99, HIGH_RANK=4, HIGH_TRUMP_RANK=3,
               TAKE_MAX_PICKUP=3, COUNT=3, COUNT_P=0.9, ENDGAME=1, MATCH=1, EXCHANGE_MIN_RANK=1, KEEP_ACE=1,
               ROLLOUT_SAMPLES=2, ROLLOUT_SELF=1)
K_P5_5 = knobs(TRUMP_LEAD_TALON=-1, DUMP_TALON=6, DUMP_HAND=5, TAKE_HIGH_TALON=5, HIGH_RANK=9, HIGH_TRUMP_RANK=0,
               TAKE_MAX_PICKUP=3, COUNT=3, COUNT_P=0.9, ENDGAME=0, MATCH=1, EXCHANGE_MIN_RANK=1,
               ROLLOUT_SAMPLES=2, ROLLOUT_SELF=1)
K_P5_6 = knobs(TRUMP_LEAD_TALON=-1, DUMP_TALON=6, DUMP_HAND=5, TAKE_HIGH_TALON=10, HIGH_RANK=7, HIGH_TRUMP_RANK=0,
               TAKE_MAX_PICKUP=3, COUNT=3, COUNT_P=0.9, ENDGAME=0, MATCH=1, EXCHANGE_MIN_RANK=1,
               ROLLOUT_SAMPLES=8, ROLLOUT_SELF=1, ROLLOUT_ACTIVE=4)
K_P5_M = knobs(TRUMP_LEAD_TALON=-1, DUMP_TALON=6, DUMP_HAND=5, TAKE_HIGH_TALON=10, HIGH_RANK=7, HIGH_TRUMP_RANK=0,
               TAKE_MAX_PICKUP=3, COUNT=3, COUNT_P=0.9, ENDGAME=1, MATCH=1, EXCHANGE_MIN_RANK=1,
               ROLLOUT_SAMPLES=2, ROLLOUT_SELF=1)
K_P6_M = knobs(TRUMP_LEAD_TALON=3, DUMP_TALON=3, DUMP_HAND=6, TAKE_HIGH_TALON=14, HIGH_RANK=5, HIGH_TRUMP_RANK=3,
               TAKE_MAX_PICKUP=3, COUNT=-1, COUNT_P=0.9, ENDGAME=1, MATCH=1, EXCHANGE_MIN_RANK=1,
               ROLLOUT_SAMPLES=2, ROLLOUT_SELF=1)
K_P6_6 = knobs(TRUMP_LEAD_TALON=-1, DUMP_TALON=3, DUMP_HAND=6, TAKE_HIGH_TALON=14, HIGH_RANK=5, HIGH_TRUMP_RANK=3,
               TAKE_MAX_PICKUP=3, COUNT=3, COUNT_P=0.9, ENDGAME=1, MATCH=1, EXCHANGE_MIN_RANK=1, SET_TRUMP_TALON=0,
               ROLLOUT_SAMPLES=2, ROLLOUT_SELF=1)
K_PODM = knobs(ENDGAME=1, TAKE_HIGH_TALON=8, TAKE_MAX_PICKUP=12, HIGH_RANK=9, HIGH_TRUMP_RANK=0, EXCHANGE_MIN_RANK=1,
               THROW_TRUMP_TALON=1, THROW_TAKE_MAX_RANK=7, COVER_OPEN_STEPS=8, COVER_OPEN_TRUMP_STEPS=8,
               COVER_OPEN_EXPECT=1, TAKE_OPEN=1.5, TAKE_OPEN_TALON=1,
               ENDGAME_SOLVE=200, ENDGAME_SOLVE_CARDS=8,  # the exact endgame once two are left (lead's round)
               ROLLOUT_SAMPLES=2, ROLLOUT_SELF=1)  # rollouts once three are left (issue 14, third round)
K_PERM = knobs(ENDGAME=1, TAKE_HIGH_TALON=8, TAKE_MAX_PICKUP=12, HIGH_RANK=9, HIGH_TRUMP_RANK=3, TRANSFER=2,
               EXCHANGE_MIN_RANK=1, COVER_OPEN_STEPS=8, COVER_OPEN_TRUMP_STEPS=8, COVER_OPEN_EXPECT=1, LEAD_OPEN_STEPS=8,
               TAKE_OPEN=1.5, TAKE_OPEN_TALON=1)


# issue 14, third round (4-6 players; results/strength/multi): trumps are thrown in only once <= 3 players are left,
# and at 5-6 players the first card of an early bout is taken when it is a plain eight or higher; 4-player podkidnoy
# throws aces onto a taker again (THROW_TAKE_MAX_RANK as greedy)
K_POD_4 = knobs(K_PODM, THROW_TRUMP_ACTIVE=3, THROW_TAKE_MAX_RANK=8, ENDGAME_SOLVE=3000, ENDGAME_SOLVE_CARDS=14)
K_POD_56 = knobs(K_PODM, THROW_TRUMP_ACTIVE=3, TAKE_FIRST_RANK=3, ENDGAME_SOLVE=3000, ENDGAME_SOLVE_CARDS=14)
K_PER_4 = knobs(K_PERM, THROW_TRUMP_ACTIVE=3)
K_PER_56 = knobs(K_PERM, THROW_TRUMP_ACTIVE=3, TAKE_FIRST_RANK=3)

TUNED = -99.0  # the default of every parameter: "the value tuned for the family being played" (FAMILY_DEFAULTS)
# expert as the policy of imagined games (search's and rollout's playouts, and the answer they start from): every
# parameter tuned, and three entries past the 16 a line-up sets that cap the endgame solver at 1,000 nodes and 8
# cards and turn the three-player rollouts off. Search at 4-6 players then plays as before K_POD_4 / K_POD_56's larger
# solver, which made its decisions about 15 times slower (82 ms instead of 5.5 at 4-player podkidnoy).
PLAYOUT = np.array([TUNED] * 16 + [1000.0, 8.0, 0.0])

# name -> (knob of strategies/_lib.py, low, high, what it changes in a player's words); every value outside
# [low, high] other than -99 is refused, and WHOLE_PARAMS take whole numbers only
_P = (
    ("trump_lead_talon", "TRUMP_LEAD_TALON", -1, 36, "save trumps: lead a trump (or add one to a lead) only once the "
     "talon holds at most this many cards (-1: only when nothing else is left; 36: like any card)"),
    ("pair_lead_talon", "PAIR_LEAD_TALON", -1, 36, "podkidnoy/perevodnoy: lead every card of the chosen rank at once, "
     "not just one, once the talon holds at most this many cards (-1: never; 36: always)"),
    ("dump_talon", "DUMP_TALON", -1, 36, "shed cards fast once the talon holds at most this many: simple durak leads "
     "its largest set, the throw-in games throw in any rank (-1: never)"),
    ("dump_hand", "DUMP_HAND", 1, 99, "simple durak: lead the largest set (triple, five) while your hand holds at "
     "least this many cards (99: never)"),
    ("take_high_talon", "TAKE_HIGH_TALON", 0, 99, "while the talon holds at least this many cards, pick the cards up "
     "rather than spend a high card or a high trump on a small pick-up (99: never)"),
    ("high_rank", "HIGH_RANK", 0, 9, "for the rule above, a plain card this high or higher is worth keeping "
     "(0 = six, 4 = ten, 6 = queen, 8 = ace; 9: none)"),
    ("high_trump_rank", "HIGH_TRUMP_RANK", 0, 9, "for the rule above, a trump this high or higher is worth keeping "
     "(0 = six ... 8 = ace; 9: none)"),
    ("take_max_pickup", "TAKE_MAX_PICKUP", 0, 36, "the rule above applies only when picking up means at most this "
     "many cards (0: never pick up to save a card)"),
    ("lone_trump", "LONE_TRUMP", 0, 99, "also pick up rather than cover with your only trump when it is this high or "
     "higher (0 = six ... 8 = ace; 99: never)"),
    ("take_trump_talon", "TAKE_TRUMP_TALON", 0, 99, "pick up a trump led at you rather than spend a higher trump on "
     "it while the talon holds at least this many cards (99: never)"),
    ("keep_ace", "KEEP_ACE", 0, 1, "1: keep the trump ace for last (never lead, throw in or cover with it while the "
     "talon lasts and something else is possible); 0: play it like any card"),
    ("transfer", "TRANSFER", 0, 2, "perevodnoy: 0 never transfer; 1 transfer by showing a trump when allowed, else "
     "by laying a plain card; 2 also lay trumps"),
    ("count", "COUNT", -1, 36, "remember every card shown once the talon holds at most this many, and lead or throw "
     "in cards the defender probably cannot beat (-1: never; 36: always)"),
    ("count_p", "COUNT_P", 0, 1, "when counting: play such a card first if the defender cannot beat it with at "
     "least this chance (0.9 = 9 in 10)"),
    ("endgame", "ENDGAME", 0, 1, "1: two players left and the talon empty (every card known): lead and throw in "
     "cards the opponent cannot beat first; 0: off"),
    ("exchange_min_rank", "EXCHANGE_MIN_RANK", 0, 9, "swap your trump six for the face-up trump only when that card "
     "is this high or higher (0 = six, 1 = seven: always worth it ... 8 = ace; 9: never)"),
)
PARAMS = {name: (TUNED, float(lo), float(hi), doc + " (left out or -99: the value tuned for the family)")
          for name, _, lo, hi, doc in _P}
WHOLE_PARAMS = tuple(name for name, *_ in _P if name != "count_p")
_TABLES = {"prostoy_5": K_P5_2, "prostoy_6": K_P6, "podkidnoy": K_POD2, "perevodnoy": K_PER2}
# what "the tuned value" is in each family with two players (shown by `durak strategies`; 3+ players use the
# K_*_3 / K_*_M tables above, chosen by the player count in _k)
FAMILY_DEFAULTS = {fam: {name: t[KNOB_NAMES.index(knob)] for name, knob, *_ in _P} for fam, t in _TABLES.items()}


# parameter i (in _P order) sets its knob unless left at TUNED: (param index, knob index) pairs for put_tuned
_PK = tuple((i, KNOB_NAMES.index(knob)) for i, (_, knob, *_) in enumerate(_P))


@njit(cache=True, _nrt=False)
def _k(obs, p):
    mode = obs[O_RULES + R_MODE]
    n = obs[O_N]
    if mode == MODE_PEREVODNOY:
        b = K_PER2 if n == 2 else (K_PERM if n == 3 else (K_PER_4 if n == 4 else K_PER_56))
    elif mode == MODE_PODKIDNOY:
        b = K_POD2 if n == 2 else (K_PODM if n == 3 else (K_POD_4 if n == 4 else K_POD_56))
    elif obs[O_RULES + R_PARTIAL]:
        b = K_P5_2 if n == 2 else (K_P5_3 if n == 3 else (K_P5_M if n == 4 else (K_P5_5 if n == 5 else K_P5_6)))
    else:
        b = K_P6 if n == 2 else (K_P6_M if n < 6 else K_P6_6)
    k = put_tuned(b, p, _PK)
    if p.shape[0] > 16:  # PLAYOUT's caps on the endgame solver and the rollouts (not line-up parameters)
        k = put(k, ENDGAME_SOLVE, min(k[ENDGAME_SOLVE], p[16]))
        k = put(k, ENDGAME_SOLVE_CARDS, min(k[ENDGAME_SOLVE_CARDS], p[17]))
        k = put(k, ROLLOUT_SAMPLES, min(k[ROLLOUT_SAMPLES], p[18]))
    return k


@njit(cache=True, _nrt=False)
def roll(obs, kind, legal, k, first, params, rng):
    """`first`, or where the rollouts play (ROLLOUT_SAMPLES) the option its imagined games rate best."""
    if legal == 0 or not rollout_here(obs, k[ROLLOUT_SAMPLES], k[ROLLOUT_ACTIVE]):
        return first
    return rollout_choice(obs, kind, legal, first, np.int64(k[ROLLOUT_SAMPLES]), k, params, rng)


@njit(cache=True, _nrt=False)
def attack(obs, legal, params, rng):
    k = _k(obs, params)
    return roll(obs, K_ATTACK, obs[O_HAND], k, end_attack(obs, k, h_attack(obs, k)), params, rng)


@njit(cache=True, _nrt=False)
def cover(obs, legal, params, rng):
    k = _k(obs, params)
    return roll(obs, K_COVER, legal, k, end_answer(obs, legal, k, K_COVER, h_cover(obs, legal, k)), params, rng)


@njit(cache=True, _nrt=False)
def throw_in(obs, legal, params, rng):
    k = _k(obs, params)
    return roll(obs, K_THROW_IN, legal, k, end_answer(obs, legal, k, K_THROW_IN, h_throw_in(obs, legal, k)), params,
                rng)


@njit(cache=True, _nrt=False)
def transfer(obs, legal, params, rng):
    return h_transfer(obs, legal, _k(obs, params))


@njit(cache=True, _nrt=False)
def exchange(obs, legal, params, rng):
    return h_exchange(obs, _k(obs, params))


@njit(cache=True, _nrt=False)
def swap(obs, legal, params, rng):
    return h_swap(obs, legal, SWAP_MAX_RANK)  # VAR-PO1: as greedy (its lowest non-trumps of rank 6 to 9)
